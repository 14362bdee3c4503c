import pytest
import torch

from pe_docs.analysis import TinyCausalAttention, extrapolation, run_extrapolation
from pe_docs.analysis.extrapolation import train_previous_token


@pytest.mark.parametrize("seed", [0, 1])
def test_sinusoidal_fits_training_range_and_fails_beyond(seed):
    r = run_extrapolation("sinusoidal", seed=seed)
    assert r.in_range_accuracy > 0.95
    assert r.out_of_range_accuracy < 0.2  # chance is 1/16
    assert r.chance == 1 / 16 and r.train_len == 32 and r.test_len == 128


def test_deterministic_and_global_state_untouched():
    threads = torch.get_num_threads()
    state = torch.random.get_rng_state()
    a = run_extrapolation("alibi", seed=3, steps=20)
    b = run_extrapolation("alibi", seed=3, steps=20)
    assert a == b
    assert torch.equal(torch.random.get_rng_state(), state)
    assert torch.get_num_threads() == threads


def test_learned_embedding_is_rejected_before_training(monkeypatch):
    """Regression: "learned" used to train (0.6 s) and then fail in the forward pass."""

    def no_training(*args, **kwargs):
        raise AssertionError("run_extrapolation trained a model it cannot evaluate")

    monkeypatch.setattr(extrapolation, "train_previous_token", no_training)
    with pytest.raises(ValueError, match=r"encoding='learned' cannot be evaluated beyond train_len=16: .*no row"):
        run_extrapolation("learned", train_len=16, test_len=64)
    with pytest.raises(ValueError, match=r"encoding must be one of .*; got 'xpos'"):
        run_extrapolation("xpos")
    with pytest.raises(ValueError, match=r"test_len must be > train_len=32, got 32"):
        run_extrapolation("none", test_len=32)
    with pytest.raises(ValueError, match=r"n_test must be >= 1, got 0"):
        run_extrapolation("none", n_test=0)
    with pytest.raises(ValueError, match=r"steps must be >= 1, got 0"):
        run_extrapolation("none", steps=0)
    with pytest.raises(ValueError, match=r"seed must be >= 0, got -1"):
        run_extrapolation("none", seed=-1)
    # the forward pass still refuses sequences past the learned table, naming the limit
    with pytest.raises(ValueError, match=r"sequence length 9 exceeds max_len=8"):
        TinyCausalAttention("learned", max_len=8)(torch.zeros(1, 9, dtype=torch.long))


def test_model_shapes_and_bad_arguments():
    m = TinyCausalAttention("rope")
    assert m(torch.zeros(2, 7, dtype=torch.long)).shape == (2, 7, 16)
    with pytest.raises(ValueError, match=r"encoding must be one of"):
        TinyCausalAttention("xpos")
    with pytest.raises(ValueError, match=r"d_model / n_heads must be an even integer"):
        TinyCausalAttention("none", d_model=30, n_heads=4)
    with pytest.raises(ValueError, match=r"test_len must be > train_len=32, got 16"):
        run_extrapolation("none", test_len=16)


def test_tokens_must_be_a_2d_integer_tensor_inside_the_vocabulary():
    m = TinyCausalAttention("none", vocab=16)
    with pytest.raises(TypeError, match=r"tokens must be an integer tensor, got dtype torch.float32"):
        m(torch.zeros(2, 5))
    with pytest.raises(TypeError, match=r"tokens must be an integer tensor, got dtype torch.bool"):
        m(torch.zeros(2, 5, dtype=torch.bool))
    with pytest.raises(TypeError, match=r"tokens must be a torch.Tensor, got list"):
        m([[0, 1]])
    with pytest.raises(ValueError, match=r"tokens must have shape \(batch, seq\) .*got \(5,\)"):
        m(torch.zeros(5, dtype=torch.long))
    with pytest.raises(ValueError, match=r"got \(2, 0\)"):
        m(torch.zeros(2, 0, dtype=torch.long))
    outside = r"tokens must lie in \[0, vocab=16\), got values in \[0, 16\] \(shape \(1, 2\)\)"
    with pytest.raises(ValueError, match=outside):
        m(torch.tensor([[0, 16]]))
    with pytest.raises(ValueError, match=r"got values in \[-1, 3\]"):
        m(torch.tensor([[-1, 3]]))
    assert m(torch.tensor([[0, 15]], dtype=torch.int32)).shape == (1, 2, 16)


def test_max_len_is_checked_for_every_encoding():
    for encoding in ("sinusoidal", "learned", "rope", "alibi", "none"):
        with pytest.raises(ValueError, match=r"max_len must be >= 1, got 0"):
            TinyCausalAttention(encoding, max_len=0)
        with pytest.raises(TypeError, match=r"max_len must be an integer"):
            TinyCausalAttention(encoding, max_len=8.0)


@pytest.mark.parametrize("encoding", ["sinusoidal", "learned", "rope", "alibi", "none"])
def test_per_call_tensors_follow_the_input_dtype_and_device(encoding, monkeypatch):
    """Regression: the table, mask and ALiBi bias were built on the CPU in fixed dtypes on every call."""
    seen = []
    for name in ("sinusoidal_table", "alibi_bias"):
        original = getattr(extrapolation, name)

        def spy(*args, _original=original, _name=name, **kwargs):
            seen.append((_name, kwargs.get("dtype"), kwargs.get("device")))
            return _original(*args, **kwargs)

        monkeypatch.setattr(extrapolation, name, spy)
    torch.manual_seed(0)
    model = TinyCausalAttention(encoding).double()
    tokens = torch.randint(16, (2, 9))
    out = model(tokens)
    assert out.dtype == torch.float64 and out.shape == (2, 9, 16)
    expected = {"sinusoidal": ["sinusoidal_table"], "alibi": ["alibi_bias"]}.get(encoding, [])
    assert [name for name, _, _ in seen] == expected
    assert all(dtype == torch.float64 and torch.device(device) == tokens.device for _, dtype, device in seen)
    # float32 and float64 models agree up to rounding: nothing is computed in a fixed low precision
    model32 = TinyCausalAttention(encoding)
    model32.load_state_dict({k: v.float() for k, v in model.state_dict().items()})
    torch.testing.assert_close(model32(tokens).double(), out, rtol=1e-4, atol=1e-5)


def test_train_previous_token_checks_lr():
    with pytest.raises(ValueError, match=r"lr must be > 0.0, got 0"):
        train_previous_token("none", lr=0)
    with pytest.raises(TypeError, match=r"lr must be a real number"):
        train_previous_token("none", lr="0.01")
