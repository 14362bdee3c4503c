"""Tests of pe_docs.analysis.numerics: ulps, errors in ulps, mpmath references, rows computed in one dtype."""

from __future__ import annotations

import math

import mpmath
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from pe_docs import inverse_frequencies, sinusoidal_table
from pe_docs.analysis import exact_rows, reference_frequencies, row_errors, rows_in_dtype, ulp, ulp_error

# ---------------------------------------------------------------- ulp


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
def test_ulp_matches_nextafter(dtype: torch.dtype) -> None:
    x = torch.tensor([1.0, 1.5, 3.0, 0.3, 1000.0, 1e-3], dtype=dtype)
    up = torch.nextafter(x, torch.full_like(x, math.inf))
    expected = (up.to(torch.float64) - x.to(torch.float64)).abs()
    assert torch.equal(ulp(x), expected)


def test_ulp_of_other_dtype_and_subnormals() -> None:
    assert ulp(torch.tensor([1.0], dtype=torch.float64), torch.float32).item() == 2.0**-23
    info = torch.finfo(torch.float32)
    assert ulp(torch.tensor([0.0, info.tiny / 4])).tolist() == [info.eps * info.tiny] * 2
    assert ulp(torch.tensor([-2.0])).item() == 2.0**-22  # sign does not matter


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1e-30, max_value=1e30, allow_nan=False))
def test_ulp_property_float32(v: float) -> None:
    x = torch.tensor([v], dtype=torch.float32)
    up = torch.nextafter(x, torch.tensor([math.inf]))
    assert ulp(x).item() == up.double().item() - x.double().item()


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
def test_ulp_of_non_finite_is_nan(dtype: torch.dtype) -> None:
    # regression: ulp(nan) and ulp(inf) were 5.96e-8 (frexp gives exponent 0 for them)
    x = torch.tensor([math.nan, math.inf, -math.inf, 1.0], dtype=dtype)
    u = ulp(x)
    assert u[:3].isnan().all() and u[3].item() == torch.finfo(dtype).eps
    assert ulp(torch.tensor([math.inf], dtype=torch.float64), torch.float16).isnan().all()
    # so an error measured against a non-finite reference is NaN, not a number
    assert ulp_error(torch.tensor([1.0]), torch.tensor([math.inf], dtype=torch.float64)).isnan().all()
    # the largest finite value still has a spacing
    assert ulp(torch.tensor([torch.finfo(dtype).max], dtype=dtype)).isfinite().all()


def test_ulp_of_integer_tensor() -> None:
    assert ulp(torch.tensor([1, 1024]), torch.float16).tolist() == [2.0**-10, 1.0]


def test_ulp_bad_input() -> None:
    with pytest.raises(TypeError, match=r"x must be a real tensor, got dtype torch.complex64"):
        ulp(torch.ones(2, dtype=torch.complex64), torch.float32)
    with pytest.raises(TypeError, match=r"x must be a real tensor, got dtype torch.bool"):
        ulp(torch.ones(2, dtype=torch.bool), torch.float32)
    with pytest.raises(TypeError, match=r"x must be a torch.Tensor, got list"):
        ulp([1.0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"int64"):
        ulp(torch.tensor([1]))
    with pytest.raises(TypeError, match=r"dtype must be a torch.dtype, got 'float32'"):
        ulp(torch.tensor([1.0]), "float32")  # type: ignore[arg-type]


# ---------------------------------------------------------------- ulp_error


def test_ulp_error_exactly_rounded_is_at_most_half() -> None:
    ref = torch.linspace(0.001, 1000.0, 5000, dtype=torch.float64)
    err = ulp_error(ref.to(torch.float32), ref)
    assert err.max().item() <= 0.5
    assert err.max().item() > 0.4  # and the bound is reached, so the unit is right


def test_ulp_error_counts_steps() -> None:
    x = torch.tensor([1.0], dtype=torch.float32)
    three_up = x
    for _ in range(3):
        three_up = torch.nextafter(three_up, torch.tensor([2.0]))
    assert ulp_error(three_up, x.double()).item() == 3.0
    assert ulp_error(three_up, [mpmath.mpf(1)]).item() == 3.0


def test_ulp_error_float64_against_mpmath() -> None:
    with mpmath.workdps(50):
        ref = [mpmath.mpf(1) / 3, mpmath.sqrt(2), mpmath.pi]
    approx = torch.tensor([1 / 3, math.sqrt(2), math.pi], dtype=torch.float64)
    err = ulp_error(approx, ref)
    assert err.dtype == torch.float64 and err.shape == (3,)
    assert (err <= 0.5).all()  # 1/3, sqrt and math.pi are correctly rounded
    off = approx.clone()
    off[1] = torch.nextafter(off[1], torch.tensor(10.0, dtype=torch.float64))
    assert 0.5 < ulp_error(off, ref)[1].item() <= 1.5


def test_ulp_error_keeps_shape() -> None:
    ref = torch.rand(3, 4, dtype=torch.float64) + 0.5
    assert ulp_error(ref.float(), ref).shape == (3, 4)


def test_ulp_error_bad_input() -> None:
    ref = torch.ones(3, dtype=torch.float64)
    with pytest.raises(TypeError, match=r"approx must be a torch.Tensor, got list"):
        ulp_error([1.0], ref)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"approx.dtype must be a floating-point dtype, got torch.int64"):
        ulp_error(torch.ones(3, dtype=torch.int64), ref)
    with pytest.raises(TypeError, match=r"reference must be float64, got reference.dtype=torch.float32"):
        ulp_error(torch.ones(3), torch.ones(3))
    with pytest.raises(ValueError, match=r"cannot measure the error of approx.dtype=torch.float64"):
        ulp_error(ref, ref)
    with pytest.raises(ValueError, match=r"reference has 2 elements but approx has 3"):
        ulp_error(torch.ones(3), torch.ones(2, dtype=torch.float64))
    with pytest.raises(ValueError, match=r"reference has 1 elements but approx has 3"):
        ulp_error(torch.ones(3), [mpmath.mpf(1)])
    with pytest.raises(TypeError, match=r"got str"):
        ulp_error(torch.ones(3), "abc")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"got float"):
        ulp_error(torch.ones(1), 1.0)  # type: ignore[arg-type]


# ---------------------------------------------------------------- reference_frequencies


def test_reference_frequencies_values() -> None:
    ref = reference_frequencies(8, digits=40)
    assert len(ref) == 4
    with mpmath.workdps(40):
        assert ref[0] == 1
        assert mpmath.almosteq(ref[2], mpmath.mpf(10) ** -2, rel_eps=mpmath.mpf(10) ** -38)
        assert mpmath.almosteq(ref[1], mpmath.mpf(10) ** -1, rel_eps=mpmath.mpf(10) ** -38)
    w64 = inverse_frequencies(8, dtype=torch.float64)
    assert torch.allclose(torch.tensor([float(r) for r in ref], dtype=torch.float64), w64, rtol=1e-15)


def test_reference_frequencies_other_base() -> None:
    ref = reference_frequencies(4, base=100.0)
    assert [float(r) for r in ref] == [1.0, 0.1]


def test_reference_frequencies_bad_input() -> None:
    with pytest.raises(ValueError, match=r"d_model must be even.*got 7"):
        reference_frequencies(7)
    with pytest.raises(ValueError, match=r"base must be finite and > 0, got -1"):
        reference_frequencies(8, base=-1)
    with pytest.raises(ValueError, match=r"digits must be >= 20, got 10"):
        reference_frequencies(8, digits=10)
    with pytest.raises(TypeError, match=r"digits must be an integer, got 30.0"):
        reference_frequencies(8, digits=30.0)  # type: ignore[arg-type]


# ------------------------------------------------ the measurements the log-trick page relies on


@pytest.mark.parametrize("d", [128, 512, 4096])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_pow_is_within_one_ulp_for_powers_of_two(d: int, dtype: torch.dtype) -> None:
    ref = reference_frequencies(d)
    assert ulp_error(inverse_frequencies(d, method="pow", dtype=dtype), ref).max().item() < 1.0


@pytest.mark.parametrize("d", [128, 512, 768, 4096])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_log_trick_is_less_accurate_than_pow(d: int, dtype: torch.dtype) -> None:
    ref = reference_frequencies(d)
    log_err = ulp_error(inverse_frequencies(d, method="log", dtype=dtype), ref).max().item()
    pow_err = ulp_error(inverse_frequencies(d, method="pow", dtype=dtype), ref).max().item()
    assert log_err > 5.0
    assert log_err > pow_err


def test_mpmath_and_float64_references_agree_for_float32() -> None:
    ref = reference_frequencies(512)
    ref64 = torch.tensor([float(r) for r in ref], dtype=torch.float64)
    w32 = inverse_frequencies(512, method="log", dtype=torch.float32)
    assert torch.allclose(ulp_error(w32, ref), ulp_error(w32, ref64), atol=1e-6)


# ---------------------------------------------------------------- rows_in_dtype / exact_rows / row_errors


def test_exact_rows_match_the_float64_table() -> None:
    table = sinusoidal_table(300, 64, dtype=torch.float64)
    rows = exact_rows(list(range(300)), 64)
    assert torch.allclose(rows, table, atol=1e-12, rtol=0)


def test_exact_rows_accept_tensor_positions_and_base() -> None:
    pos = torch.tensor([0, 5, 17])
    table = sinusoidal_table(18, 8, base=500.0, dtype=torch.float64)
    assert torch.allclose(exact_rows(pos, 8, base=500.0), table[pos], atol=1e-13, rtol=0)


@pytest.mark.parametrize("method", ["pow", "log"])
def test_rows_in_dtype_is_the_tutorial_computation(method: str) -> None:
    d = 32
    pos = torch.arange(50)
    div_term = inverse_frequencies(d, method=method, dtype=torch.float32)  # type: ignore[arg-type]
    pe = torch.zeros(50, d)
    pe[:, 0::2] = torch.sin(pos.float()[:, None] * div_term)
    pe[:, 1::2] = torch.cos(pos.float()[:, None] * div_term)
    assert torch.equal(rows_in_dtype(pos, d, method=method), pe)  # type: ignore[arg-type]


def test_rows_in_dtype_dtype_and_shape() -> None:
    rows = rows_in_dtype([0, 1, 2], 6, dtype=torch.float64)
    assert rows.dtype == torch.float64 and rows.shape == (3, 6)
    assert torch.allclose(rows, exact_rows([0, 1, 2], 6), atol=1e-15)


def test_row_errors_grow_with_position_in_float32() -> None:
    pos = [10, 10**6]
    err = row_errors(pos, 512)
    assert err.shape == (2,) and err.dtype == torch.float64
    assert err[0].item() < 1e-5
    assert err[1].item() > 1e-2  # phase p·w rounded in float32
    # the same positions from an exact phase, cast to float32, are within half an ulp of 1
    exact32 = exact_rows(pos, 512).float().double()
    assert (exact32 - exact_rows(pos, 512)).abs().max().item() <= 2.0**-25


def test_row_errors_is_the_largest_deviation_per_row() -> None:
    pos = [3, 70_000, 123_456]
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        approx = rows_in_dtype(pos, 16, method="log", dtype=dtype).double()
        expected = (approx - exact_rows(pos, 16)).abs().amax(dim=1)
        got = row_errors(pos, 16, method="log", dtype=dtype)
        torch.testing.assert_close(got, expected, rtol=0, atol=0, equal_nan=True)
    # float16 positions above 65 504 overflow to inf: the row is NaN and so is its error
    assert row_errors([70_000], 16, dtype=torch.float16).isnan().all()


def test_row_errors_of_both_methods_are_alike_at_large_positions() -> None:
    pos = torch.arange(10**6 - 200, 10**6)
    e_pow = row_errors(pos, 512, method="pow").max().item()
    e_log = row_errors(pos, 512, method="log").max().item()
    assert 0.5 < e_log / e_pow < 2.0


def test_positions_checks() -> None:
    with pytest.raises(TypeError, match=r"positions must hold integers, got dtype torch.float32"):
        rows_in_dtype(torch.tensor([1.0]), 4)
    with pytest.raises(ValueError, match=r"positions must be >= 0, got -3"):
        exact_rows([1, -3], 4)
    with pytest.raises(ValueError, match=r"positions must be 1-D, got shape \(1, 2\)"):
        row_errors(torch.tensor([[1, 2]]), 4)
    with pytest.raises(TypeError, match=r"positions\[1\] must be an integer, got 2.5"):
        exact_rows([1, 2.5], 4)  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"positions must be a tensor or a sequence of ints, got int"):
        exact_rows(5, 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"positions must be <= 2\*\*53"):
        exact_rows([2**60], 4)
    with pytest.raises(ValueError, match=r"method must be one of 'pow', 'log'; got 'exp'"):
        rows_in_dtype([1], 4, method="exp")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"d_model must be even.*got 5"):
        rows_in_dtype([1], 5)
    with pytest.raises(TypeError, match=r"dtype must be a floating-point dtype, got torch.int32"):
        rows_in_dtype([1], 4, dtype=torch.int32)
    assert exact_rows([], 4).shape == (0, 4)
