import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from pe_docs import alibi_bias, alibi_slopes
from pe_docs.analysis import LearnedPositionalEmbedding, rope_rotate


def test_learned_embedding_adds_rows_and_fails_past_max_len():
    emb = LearnedPositionalEmbedding(8, 4)
    x = torch.zeros(2, 8, 4)
    assert torch.equal(emb(x), emb.weight[None].expand(2, 8, 4))
    seq_first = LearnedPositionalEmbedding(8, 4, batch_first=False)
    assert torch.equal(seq_first(torch.zeros(3, 2, 4))[:, 1], seq_first.weight[:3])
    assert sum(p.numel() for p in emb.parameters()) == 32
    with pytest.raises(ValueError, match=r"sequence length 9 exceeds max_len=8"):
        emb(torch.zeros(1, 9, 4))


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "msg"),
    [
        ((0, 4), {}, ValueError, "max_len"),
        ((4, 0), {}, ValueError, "d_model"),
        ((4.0, 4), {}, TypeError, "max_len"),
        ((4, 4), {"batch_first": 1}, TypeError, "batch_first"),
    ],
)
def test_learned_embedding_bad_arguments(args, kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        LearnedPositionalEmbedding(*args, **kwargs)


def test_learned_embedding_bad_input():
    emb = LearnedPositionalEmbedding(8, 4)
    with pytest.raises(ValueError, match=r"\(2, 8, 5\)"):
        emb(torch.zeros(2, 8, 5))
    with pytest.raises(TypeError, match=r"x must be a torch.Tensor"):
        emb([1.0])


def test_rope_matches_complex_multiplication():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(5, 8, dtype=torch.float64, generator=g)
    pos = torch.tensor([0, 3, 7, 100, 12345])
    w = 10000.0 ** (-torch.arange(0, 8, 2, dtype=torch.float64) / 8)
    z = torch.complex(x[:, 0::2], x[:, 1::2]) * torch.polar(torch.ones(5, 4, dtype=torch.float64), pos[:, None] * w)
    expected = torch.stack((z.real, z.imag), -1).flatten(-2)
    torch.testing.assert_close(rope_rotate(x, pos, pairing="interleaved"), expected, rtol=0, atol=1e-12)
    assert torch.equal(rope_rotate(x[:2]), rope_rotate(x[:2], torch.arange(2)))


def meta_apply_rotary_emb(x, positions, theta=10000.0):
    """meta-llama/llama, llama/model.py: precompute_freqs_cis + apply_rotary_emb, in float64 for one head.

    Neighbouring features form a complex number (``view_as_complex`` on shape ``(..., d/2, 2)``) that is
    multiplied by ``polar(1, t · freqs)``.
    """
    dim = x.shape[-1]
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].double() / dim))
    freqs = torch.outer(positions.double(), freqs)
    freqs_cis = torch.polar(torch.ones_like(freqs), freqs)
    x_ = torch.view_as_complex(x.double().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(x_ * freqs_cis).flatten(-2)


def hf_apply_rotary_pos_emb(x, positions, base=10000.0):
    """huggingface/transformers, models/llama/modeling_llama.py: rotate_half + apply_rotary_pos_emb, float64.

    The inverse frequencies are those of modeling_rope_utils._compute_default_rope_parameters; cos and sin
    are repeated over the two halves (``torch.cat((freqs, freqs), dim=-1)``).
    """
    dim = x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).double() / dim))
    freqs = positions.double()[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)

    def rotate_half(t):
        return torch.cat((-t[..., dim // 2 :], t[..., : dim // 2]), dim=-1)

    return x * emb.cos() + rotate_half(x) * emb.sin()


@pytest.mark.parametrize("base", [10000.0, 500000.0])
def test_rope_pairings_match_the_published_code(base):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(6, 128, dtype=torch.float64, generator=g)  # one head of width 128 (LLaMA 2 7B: 4096 / 32)
    pos = torch.tensor([0, 1, 17, 1000, 4095, 8191])
    torch.testing.assert_close(
        rope_rotate(x, pos, base=base, pairing="interleaved"), meta_apply_rotary_emb(x, pos, base), rtol=0, atol=1e-11
    )
    torch.testing.assert_close(
        rope_rotate(x, pos, base=base, pairing="half"), hf_apply_rotary_pos_emb(x, pos, base), rtol=0, atol=1e-11
    )
    # the two pairings are different functions of the same features; "half" is the default, as in apply_rope
    neighbours = rope_rotate(x, pos, base=base, pairing="interleaved")
    assert (neighbours - rope_rotate(x, pos, base=base, pairing="half")).abs().max() > 0.1
    assert torch.equal(rope_rotate(x, pos, base=base), rope_rotate(x, pos, base=base, pairing="half"))


def test_rope_pairings_agree_up_to_a_permutation_of_the_features():
    g = torch.Generator().manual_seed(4)
    q = torch.randn(2, 9, 16, dtype=torch.float64, generator=g)
    k = torch.randn(2, 9, 16, dtype=torch.float64, generator=g)
    perm = torch.cat((torch.arange(0, 16, 2), torch.arange(1, 16, 2)))  # neighbours -> halves
    pos = torch.tensor([3, 4, 5, 100, 101, 7, 8, 9, 2000])
    assert torch.equal(
        rope_rotate(q[..., perm], pos, pairing="half"), rope_rotate(q, pos, pairing="interleaved")[..., perm]
    )
    scores = rope_rotate(q, pos, pairing="interleaved") @ rope_rotate(k, pos, pairing="interleaved").transpose(-1, -2)
    scores_half = rope_rotate(q[..., perm], pos, pairing="half") @ rope_rotate(k[..., perm], pos, pairing="half").mT
    torch.testing.assert_close(scores_half, scores, rtol=0, atol=1e-12)


def test_rope_pairing_is_checked():
    with pytest.raises(ValueError, match=r"pairing must be one of 'interleaved', 'half'; got 'concat'"):
        rope_rotate(torch.ones(2, 4), pairing="concat")


@settings(max_examples=30, deadline=None)
@given(i=st.integers(0, 5000), j=st.integers(0, 5000), shift=st.integers(0, 5000))
def test_rope_dot_product_depends_only_on_offset(i, j, shift):
    g = torch.Generator().manual_seed(1)
    q = torch.randn(1, 16, dtype=torch.float64, generator=g)
    k = torch.randn(1, 16, dtype=torch.float64, generator=g)

    def score(a, b):
        return float(rope_rotate(q, torch.tensor([a])) @ rope_rotate(k, torch.tensor([b])).T)

    assert math.isclose(score(i, j), score(i + shift, j + shift), abs_tol=1e-9)


def test_rope_preserves_norm_and_dtype():
    x = torch.randn(3, 10, 8)
    y = rope_rotate(x)
    assert y.dtype == torch.float32 and y.shape == x.shape
    torch.testing.assert_close(y.norm(dim=-1), x.norm(dim=-1))


def test_rope_bad_input():
    with pytest.raises(TypeError, match=r"x must be a torch.Tensor"):
        rope_rotate([1.0, 2.0])
    with pytest.raises(TypeError, match=r"floating-point"):
        rope_rotate(torch.ones(2, 4, dtype=torch.int64))
    with pytest.raises(ValueError, match=r"x.size\(-1\) must be even"):
        rope_rotate(torch.ones(2, 3))
    with pytest.raises(ValueError, match=r"shape"):
        rope_rotate(torch.ones(4))
    broadcast = r"positions must have a shape that broadcasts to x.shape\[:-1\] = \(2,\), got shape \(3,\)"
    with pytest.raises(ValueError, match=broadcast):
        rope_rotate(torch.ones(2, 4), torch.arange(3))
    with pytest.raises(TypeError, match=r"positions must be a torch.Tensor"):
        rope_rotate(torch.ones(2, 4), [0, 1])
    with pytest.raises(ValueError, match=r"base"):
        rope_rotate(torch.ones(2, 4), base=-1.0)


def test_alibi_slopes_power_of_two_and_interpolated():
    torch.testing.assert_close(alibi_slopes(8), 2.0 ** -torch.arange(1, 9, dtype=torch.float64))
    assert alibi_slopes(1).tolist() == [2.0**-8]
    six = alibi_slopes(6)
    expected = torch.cat((2.0 ** (-2.0 * torch.arange(1, 5)), 2.0 ** (-torch.tensor([1.0, 3.0]))))
    torch.testing.assert_close(six, expected.double())
    with pytest.raises(ValueError, match=r"n_heads must be >= 1, got 0"):
        alibi_slopes(0)
    with pytest.raises(TypeError, match=r"n_heads"):
        alibi_slopes(2.0)


def test_alibi_bias_structure():
    bias = alibi_bias(4, 6)
    assert bias.shape == (4, 6, 6)
    slopes = alibi_slopes(4)
    i, j = torch.meshgrid(torch.arange(6), torch.arange(6), indexing="ij")
    lower = j <= i
    torch.testing.assert_close(bias[:, lower], -(slopes[:, None] * (i - j)[lower].double()))
    assert torch.isneginf(bias[:, ~lower]).all()
    sym = alibi_bias(2, 5, causal=False)
    assert torch.equal(sym, sym.transpose(-1, -2)) and torch.isfinite(sym).all()
    with pytest.raises(TypeError, match=r"causal"):
        alibi_bias(2, 5, causal="yes")
    with pytest.raises(ValueError, match=r"seq_len"):
        alibi_bias(2, 0)


def test_learned_embedding_rejects_integer_input_instead_of_adding_zeros():
    """Regression: an int64 x used to cast the weights to int64 and silently add zeros."""
    emb = LearnedPositionalEmbedding(8, 4)
    with pytest.raises(TypeError, match=r"x must be a floating-point tensor, got dtype torch.int64"):
        emb(torch.zeros(2, 3, 4, dtype=torch.int64))
    with pytest.raises(TypeError, match=r"x must be a floating-point tensor, got dtype torch.bool"):
        emb(torch.zeros(2, 3, 4, dtype=torch.bool))
    with pytest.raises(ValueError, match=r"x must have shape \(batch, seq, d_model\), got a tensor of shape \(3, 4\)"):
        emb(torch.zeros(3, 4))
    with pytest.raises(ValueError, match=r"x's last dimension must equal d_model=4, got 5 \(shape \(2, 8, 5\)\)"):
        emb(torch.zeros(2, 8, 5))
    seq_first = LearnedPositionalEmbedding(8, 4, batch_first=False)
    with pytest.raises(ValueError, match=r"\(seq, batch, d_model\)"):
        seq_first(torch.zeros(4))
    out = emb(torch.zeros(2, 3, 4, dtype=torch.float64))
    assert out.dtype == torch.float64 and torch.equal(out[1], emb.weight[:3].double())


def test_rope_positions_must_be_integers():
    """Regression: fractional, bool and complex positions were silently converted (complex lost its imaginary part)."""
    x = torch.ones(2, 4)
    for bad in (torch.tensor([0.5, 1.0]), torch.tensor([True, False]), torch.tensor([0j, 1 + 1j])):
        with pytest.raises(TypeError, match=rf"positions must be an integer tensor, got dtype {bad.dtype}"):
            rope_rotate(x, bad)
    for dtype in (torch.int8, torch.int32, torch.uint8):
        assert torch.equal(rope_rotate(x, torch.tensor([0, 3], dtype=dtype)), rope_rotate(x, torch.tensor([0, 3])))
    with pytest.raises(ValueError, match=r"positions must lie in \[-2\*\*53, 2\*\*53\]"):
        rope_rotate(x, torch.tensor([0, 2**53 + 1]))


def test_rope_negative_positions_undo_positive_ones():
    g = torch.Generator().manual_seed(2)
    x = torch.randn(3, 6, 8, dtype=torch.float64, generator=g)
    pos = torch.tensor([0, 5, -7, 11, 40, -3])
    torch.testing.assert_close(rope_rotate(rope_rotate(x, pos), -pos), x, rtol=0, atol=1e-12)


def test_rope_x_must_be_real_floating_point():
    with pytest.raises(TypeError, match=r"x must be a real floating-point tensor, got dtype torch.complex64"):
        rope_rotate(torch.ones(2, 4, dtype=torch.complex64))
    with pytest.raises(TypeError, match=r"x must be a real floating-point tensor, got dtype torch.int64"):
        rope_rotate(torch.ones(2, 4, dtype=torch.int64))
    with pytest.raises(ValueError, match=r"x must have shape \(..., seq, d\), got shape \(4,\)"):
        rope_rotate(torch.ones(4))


def test_rope_positions_broadcast_over_leading_dimensions():
    g = torch.Generator().manual_seed(3)
    x = torch.randn(2, 3, 5, 8, generator=g)  # (batch, heads, seq, d)
    pos = torch.tensor([[0, 1, 2, 3, 4], [10, 11, 12, 13, 14]])[:, None, :]  # (batch, 1, seq)
    y = rope_rotate(x, pos)
    assert y.shape == x.shape
    assert torch.equal(y[1], rope_rotate(x[1], pos[1, 0]))
    assert torch.equal(rope_rotate(x, torch.arange(5)), rope_rotate(x))
    with pytest.raises(ValueError, match=r"broadcasts to x.shape\[:-1\] = \(2, 3, 5\), got shape \(2, 2, 5\)"):
        rope_rotate(x, torch.zeros(2, 2, 5, dtype=torch.long))
    with pytest.raises(ValueError, match=r"got shape \(4, 2, 3, 5\)"):  # would enlarge the output
        rope_rotate(x, torch.zeros(4, 2, 3, 5, dtype=torch.long))


def test_alibi_bias_diagonal_is_positive_zero():
    """Regression: -slopes * |distance| gave -0.0 on the diagonal (and the docstring example failed)."""
    for causal in (True, False):
        bias = alibi_bias(3, 5, causal=causal)
        diagonal = bias.diagonal(dim1=-2, dim2=-1)
        assert torch.equal(diagonal, torch.zeros(3, 5, dtype=torch.float64))
        assert not torch.signbit(diagonal).any()
    assert str(alibi_bias(1, 3)[0, 0, 0].item()) == "0.0"


def test_alibi_bias_dtype_and_device():
    b32 = alibi_bias(2, 4, dtype=torch.float32, device="cpu")
    assert b32.dtype == torch.float32 and b32.device.type == "cpu"
    assert torch.equal(b32, alibi_bias(2, 4).float())
    with pytest.raises(TypeError, match=r"dtype must be a floating-point dtype, got torch.int64"):
        alibi_bias(2, 4, dtype=torch.int64)
