import pytest
import torch

from pe_docs import TinyCausalAttention, run_extrapolation


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


def test_learned_embedding_cannot_be_evaluated_beyond_max_len():
    with pytest.raises(ValueError, match=r"sequence length 128 exceeds max_len=32"):
        run_extrapolation("learned", steps=5)


def test_model_shapes_and_bad_arguments():
    m = TinyCausalAttention("rope")
    assert m(torch.zeros(2, 7, dtype=torch.long)).shape == (2, 7, 16)
    with pytest.raises(ValueError, match=r"encoding must be one of"):
        TinyCausalAttention("xpos")
    with pytest.raises(ValueError, match=r"d_model / n_heads must be an even integer"):
        TinyCausalAttention("none", d_model=30, n_heads=4)
    with pytest.raises(ValueError, match=r"test_len must be > train_len=32, got 16"):
        run_extrapolation("none", test_len=16)
