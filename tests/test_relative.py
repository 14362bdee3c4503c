"""Tests of pe_docs.analysis.relative_transform: T_k @ PE[p] == PE[p + k] and the group properties of T_k."""

from __future__ import annotations

import math

import mpmath
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from pe_docs import inverse_frequencies, sinusoidal_table
from pe_docs.analysis import relative_transform, rope_rotate


def pe64(positions: torch.Tensor, d: int, base: float = 10000.0) -> torch.Tensor:
    """Interleaved rows at arbitrary (also negative) positions, phase in float64."""
    w = inverse_frequencies(d, base=base)
    phase = positions.to(torch.float64)[:, None] * w
    return torch.stack((phase.sin(), phase.cos()), -1).reshape(len(positions), d)


def test_structure_against_mpmath():
    k, d = 7, 6
    T = relative_transform(k, d)
    assert T.shape == (d, d) and T.dtype == torch.float64
    with mpmath.workdps(40):
        for i in range(d // 2):
            angle = k * mpmath.power(10000, -mpmath.mpf(2 * i) / d)
            c, s = float(mpmath.cos(angle)), float(mpmath.sin(angle))
            block = T[2 * i : 2 * i + 2, 2 * i : 2 * i + 2]
            assert torch.allclose(block, torch.tensor([[c, s], [-s, c]], dtype=torch.float64), atol=1e-15)
    off = T.clone()
    for i in range(d // 2):
        off[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = 0
    assert torch.count_nonzero(off) == 0


def test_shift_on_a_grid_float64():
    d = 64
    pe = sinusoidal_table(10_001, d, dtype=torch.float64)
    worst = 0.0
    for k in [0, 1, 2, 10, 99, 1000, 5000]:
        T = relative_transform(k, d)
        p = torch.arange(0, 10_001 - k, 7)
        worst = max(worst, (pe[p] @ T.T - pe[p + k]).abs().max().item())
    assert worst < 1e-11


@settings(max_examples=50, deadline=None)
@given(
    p=st.integers(-(10**4), 10**4),
    k=st.integers(-(10**4), 10**4),
    half=st.integers(1, 64),
    base=st.sampled_from([10000.0, 100.0, 1e5]),
)
def test_shift_hypothesis(p, k, half, base):
    d = 2 * half
    rows = pe64(torch.tensor([p, p + k]), d, base)
    assert torch.allclose(relative_transform(k, d, base=base) @ rows[0], rows[1], rtol=0, atol=1e-11)


def test_does_not_depend_on_p():
    # one matrix moves every row by k: solve for it from many rows and compare
    d, k = 8, 5
    pe = sinusoidal_table(200, d, dtype=torch.float64)
    solved = torch.linalg.lstsq(pe[:-k], pe[k:]).solution.T  # X @ Tᵀ ≈ Y
    assert torch.allclose(solved, relative_transform(k, d), atol=1e-9)


@pytest.mark.parametrize("k", [0, 1, -3, 17, 12345])
def test_orthogonal_and_inverse(k):
    T = relative_transform(k, 32)
    eye = torch.eye(32, dtype=torch.float64)
    assert torch.allclose(T @ T.T, eye, atol=1e-15)
    assert torch.allclose(relative_transform(-k, 32), T.T, atol=0)
    assert torch.allclose(T @ relative_transform(-k, 32), eye, atol=1e-15)


def test_zero_is_identity():
    assert torch.equal(relative_transform(0, 10), torch.eye(10, dtype=torch.float64))


@settings(max_examples=40, deadline=None)
@given(a=st.integers(-5000, 5000), b=st.integers(-5000, 5000))
def test_composition(a, b):
    assert torch.allclose(
        relative_transform(a, 16) @ relative_transform(b, 16), relative_transform(a + b, 16), atol=1e-12
    )


def test_dtype_is_a_rounding_of_float64():
    T32 = relative_transform(123, 64, dtype=torch.float32)
    assert T32.dtype == torch.float32
    assert torch.equal(T32, relative_transform(123, 64).to(torch.float32))


def test_float32_phase_rounding_not_the_identity_fails():
    # tutorial-style table (phase in float32) seems to violate the identity at large p;
    # the exact float32 table satisfies it to float32 rounding
    d, k = 64, 10
    p = torch.arange(9_900, 10_000)
    w32 = inverse_frequencies(d, dtype=torch.float32)

    def tutorial(pos):
        ph = pos.to(torch.float32)[:, None] * w32
        return torch.stack((ph.sin(), ph.cos()), -1).reshape(len(pos), d)

    T32 = relative_transform(k, d, dtype=torch.float32)
    bad = (tutorial(p) @ T32.T - tutorial(p + k)).abs().max().item()
    exact = sinusoidal_table(10_010, d)
    good = (exact[p] @ T32.T - exact[p + k]).abs().max().item()
    assert bad > 1e-4
    assert good < 1e-6


def test_dot_product_depends_on_k_only():
    d = 32
    w = inverse_frequencies(d)
    pe = sinusoidal_table(3000, d, dtype=torch.float64)
    for k in [1, 7, 250]:
        dots = (pe[:-k] * pe[k:]).sum(-1)
        expected = torch.cos(k * w).sum()
        assert torch.allclose(dots, expected.expand_as(dots), atol=1e-12)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        ((1.5, 8), {}, TypeError, "k must be an integer, got 1.5"),
        ((True, 8), {}, TypeError, "k must be an integer, got True"),
        (("3", 8), {}, TypeError, "k must be an integer, got '3'"),
        ((1, 7), {}, ValueError, "d_model must be even"),
        ((1, 0), {}, ValueError, "d_model must be >= 1, got 0"),
        ((1, -2), {}, ValueError, "d_model must be >= 1, got -2"),
        ((1, 8.0), {}, TypeError, "d_model must be an integer, got 8.0"),
        ((1, 8), {"base": 0.0}, ValueError, "base must be finite and > 0, got 0.0"),
        ((1, 8), {"base": -1}, ValueError, "base must be finite and > 0, got -1"),
        ((1, 8), {"base": math.inf}, ValueError, "base must be finite and > 0, got inf"),
        ((1, 8), {"base": math.nan}, ValueError, "base must be finite and > 0, got nan"),
        ((1, 8), {"base": False}, TypeError, "base must be a real number, got False"),
        ((1, 8), {"dtype": torch.int32}, TypeError, "dtype must be a floating-point dtype, got torch.int32"),
        ((1, 8), {"dtype": float}, TypeError, "dtype must be a torch.dtype"),
    ],
)
def test_bad_input(args, kwargs, error, message):
    with pytest.raises(error) as info:
        relative_transform(*args, **kwargs)
    assert message in str(info.value)


def test_large_and_negative_k_accepted():
    T = relative_transform(-(10**9), 4)
    assert torch.isfinite(T).all()
    assert torch.allclose(T @ T.T, torch.eye(4, dtype=torch.float64), atol=1e-15)


@pytest.mark.parametrize("m", [0, 1, -3, 4095])
def test_rope_rotation_is_the_transform_of_minus_m(m):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(1, 16, dtype=torch.float64, generator=g)
    torch.testing.assert_close(
        rope_rotate(x, torch.tensor([m]), pairing="interleaved")[0],
        relative_transform(-m, 16) @ x[0],
        rtol=0,
        atol=1e-13,
    )
