"""self_attention: permutation equivariance, and positions breaking it."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from pe_docs import sinusoidal_table
from pe_docs.analysis import self_attention


def weights(d: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(d, d, generator=g, dtype=torch.float64) / d**0.5 for _ in range(3))  # type: ignore[return-value]


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 12), seed=st.integers(0, 10_000))
def test_permutation_equivariant(n: int, seed: int) -> None:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g, dtype=torch.float64)
    perm = torch.randperm(n, generator=g)
    wq, wk, wv = weights(8, seed)
    assert torch.allclose(self_attention(x[perm], wq, wk, wv), self_attention(x, wq, wk, wv)[perm])


def test_positions_break_symmetry() -> None:
    x = torch.randn(5, 8, dtype=torch.float64)
    perm = torch.tensor([4, 3, 2, 1, 0])
    wq, wk, wv = weights(8)
    pe = sinusoidal_table(5, 8, dtype=torch.float64)
    assert not torch.allclose(self_attention(x[perm] + pe, wq, wk, wv), self_attention(x + pe, wq, wk, wv)[perm])


def test_matches_softmax_formula_batched() -> None:
    x = torch.randn(2, 4, 8, dtype=torch.float64)
    wq, wk, wv = weights(8)
    q, k, v = x @ wq, x @ wk, x @ wv
    expected = torch.softmax(q @ k.transpose(1, 2) / 8**0.5, dim=-1) @ v
    assert torch.allclose(self_attention(x, wq, wk, wv), expected)


def test_bad_shapes() -> None:
    wq, wk, wv = weights(8)
    x = torch.zeros(3, 8, dtype=torch.float64)
    with pytest.raises(ValueError, match=r"w_q must have shape \(8, k\), got \(4, 8\)"):
        self_attention(x, torch.zeros(4, 8, dtype=torch.float64), wk, wv)
    with pytest.raises(ValueError, match=r"x must have shape.*\(8,\)"):
        self_attention(torch.zeros(8, dtype=torch.float64), wq, wk, wv)
    with pytest.raises(ValueError, match="same width, got 8 and 4"):
        self_attention(x, wq, torch.zeros(8, 4, dtype=torch.float64), wv)
    with pytest.raises(TypeError, match="w_v must be a torch.Tensor, got list"):
        self_attention(x, wq, wk, [1.0])


def test_dtypes_must_be_real_floating_point_and_equal() -> None:
    """Regression: mixed and integer dtypes used to fail inside matmul with an unnamed error."""
    wq, wk, wv = weights(8)
    x = torch.zeros(3, 8, dtype=torch.float64)
    with pytest.raises(TypeError, match=r"w_k must have the same dtype as x \(torch.float64\), got torch.float32"):
        self_attention(x, wq, wk.float(), wv)
    with pytest.raises(TypeError, match=r"w_q must have the same dtype as x \(torch.float32\), got torch.float64"):
        self_attention(x.float(), wq, wk, wv)
    with pytest.raises(TypeError, match=r"x must be a real floating-point tensor, got dtype torch.int64"):
        self_attention(x.long(), wq.long(), wk.long(), wv.long())
    with pytest.raises(TypeError, match=r"w_v must be a real floating-point tensor, got dtype torch.complex128"):
        self_attention(x, wq, wk, wv.to(torch.complex128))
    out = self_attention(x.float(), wq.float(), wk.float(), wv.float())
    assert out.dtype == torch.float32


def test_zero_widths_are_rejected() -> None:
    """Regression: a zero-width w_q divided by sqrt(0) and returned NaN without an error."""
    wq, wk, wv = weights(8)
    x = torch.zeros(3, 8, dtype=torch.float64)
    empty = torch.zeros(8, 0, dtype=torch.float64)
    with pytest.raises(ValueError, match=r"w_q must have a width \(second dimension\) >= 1, got shape \(8, 0\)"):
        self_attention(x, empty, empty, wv)
    with pytest.raises(ValueError, match=r"w_v must have a width \(second dimension\) >= 1, got shape \(8, 0\)"):
        self_attention(x, wq, wk, empty)
    with pytest.raises(ValueError, match=r"x must have a last dimension \(d_model\) >= 1, got shape \(3, 0\)"):
        no_width = torch.zeros(0, 4, dtype=torch.float64)
        self_attention(torch.zeros(3, 0, dtype=torch.float64), no_width, no_width, no_width)
