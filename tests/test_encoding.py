"""Tests of pe_docs.encoding.sinusoidal_table against float64 and 60-digit mpmath references."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from torch.overrides import TorchFunctionMode

from pe_docs import inverse_frequencies, sinusoidal_table
from pe_docs.encoding import _table_rows

FLOAT32_TOL = 3e-7  # the contract: max abs error of a float32 table, every position below 2**24
FLOAT32_BOUND = 2.5e-7  # the docstring's bound for the block-start × offset method (below 4.13 · 2**-24)
# The docstring's error budget in units of 2**-24: rounded factors (2√2), the multiplication (1.25), float64 phases
# below 2**24 (0.05, base 10000, even d_model <= 8192).
BUDGET = 2 * math.sqrt(2) + 1.25 + 0.05
BOUND_2_24 = 4.13 * 2**-24
LAYOUTS = ("interleaved", "concat")


def reference64(first: int, count: int, d: int, layout: str = "interleaved", base: float = 10000.0):
    """Rows first … first+count-1 with the phase, sin and cos in float64 (the old implementation)."""
    w = inverse_frequencies(d, base=base, dtype=torch.float64)
    phase = torch.arange(first, first + count, dtype=torch.float64)[:, None] * w[None, :]
    sin, cos = torch.sin(phase), torch.cos(phase)
    if layout == "interleaved":
        return torch.stack((sin, cos), dim=-1).reshape(count, d)
    return torch.cat((sin, cos), dim=-1)


def reference_mp(positions, d: int, base: float = 10000.0) -> torch.Tensor:
    """Interleaved rows with exact frequencies base^(-2i/d) and 60-digit arithmetic."""
    with mpmath.workdps(60):
        rows = []
        for p in positions:
            row = []
            for i in range(d // 2):
                angle = mpmath.mpf(p) * mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d)
                row += [float(mpmath.sin(angle)), float(mpmath.cos(angle))]
            rows.append(row)
    return torch.tensor(rows, dtype=torch.float64)


def max_err(a: torch.Tensor, b: torch.Tensor) -> float:
    return (a.to(torch.float64) - b.to(torch.float64)).abs().max().item()


# ---------------------------------------------------------------- values


def test_first_rows_by_hand():
    pe = sinusoidal_table(2, 4, dtype=torch.float64)
    expected = torch.tensor(
        [[0.0, 1.0, 0.0, 1.0], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)]],
        dtype=torch.float64,
    )
    assert torch.equal(pe, expected)


@pytest.mark.parametrize("d", [2, 16, 512])
def test_float64_against_mpmath(d):
    positions = [0, 1, 2, 7, 100, 999]
    pe = sinusoidal_table(1000, d, dtype=torch.float64)[positions]
    # float64 rounding of w_i and of p·w_i: a few ulps of the phase
    assert max_err(pe, reference_mp(positions, d)) < 1e-13


@pytest.mark.parametrize("d", [2, 16, 512])
def test_float32_against_mpmath(d):
    positions = [0, 1, 5, 63, 64, 65, 1000, 4999]
    pe = sinusoidal_table(5000, d)[positions]
    assert pe.dtype == torch.float32
    assert max_err(pe, reference_mp(positions, d)) <= FLOAT32_TOL


def test_error_budget_adds_up():
    assert BUDGET * 2**-24 < BOUND_2_24 < FLOAT32_BOUND < FLOAT32_TOL


@pytest.mark.parametrize("d", [4, 64, 512, 5370])
def test_float32_far_rows_against_mpmath(d):
    # the last rows below 2**24, where float64 phases are least precise (5370: the worst width, with torch 2.13)
    positions = list(range(2**24 - 3, 2**24))
    rows = _table_rows(2**24 - 3, 3, d, base=10000.0, dtype=torch.float32, layout="interleaved")
    assert max_err(rows, reference_mp(positions, d)) <= BOUND_2_24


def test_float64_phase_error_below_2_pow_24():
    """The docstring's 0.05 · 2**-24 for the float64 phases, for base 10000 and every even d_model up to 8192.

    For p < 2**24 the float64 phase fl(p · ŵ_i) is off from p · w_i by at most 2**24 · |ŵ_i − w_i| plus half the
    float64 spacing at 2**24 · ŵ_i. w_i is taken from an 80-bit long double (64-bit mantissa) reference, checked
    against mpmath where the bound is largest.
    """
    longdouble = np.longdouble
    if np.finfo(longdouble).nmant < 63:
        pytest.skip("needs an 80-bit long double reference")
    log2_base = np.log2(longdouble(10000))
    worst, where = 0.0, (0, 0)
    for d in range(4, 8193, 2):
        w = inverse_frequencies(d)[1:].numpy()  # w_0 = 1 is exact
        i = np.arange(1, d // 2, dtype=longdouble)
        reference = np.exp2(-(2 * i / d) * log2_base)
        _, exponent = np.frexp(2.0**24 * w)
        half_spacing = np.ldexp(1.0, exponent - 54).astype(longdouble)
        bound = (longdouble(2**24) * np.abs(w.astype(longdouble) - reference) + half_spacing) * longdouble(2**24)
        j = int(bound.argmax())
        if float(bound[j]) > worst:
            worst, where = float(bound[j]), (d, j + 1)
    assert 0.03 < worst < 0.05  # in units of 2**-24; about 2**-29 = 0.031
    d, i = where
    with mpmath.workdps(40):
        exact = mpmath.power(10000, -mpmath.mpf(2 * i) / d)
        ld = np.exp2(-(2 * longdouble(i) / d) * log2_base)
        assert abs(mpmath.mpf(float(ld)) - exact) <= abs(exact) * 2**-52  # float(ld) is correctly rounded
        assert abs(mpmath.mpf(str(ld)) - exact) < abs(exact) * 1e-18


@pytest.mark.parametrize("layout", LAYOUTS)
def test_float64_is_the_float64_phase_table(layout):
    # the float64 output is exactly sin/cos of the float64 phase (the previous implementation)
    assert torch.equal(
        sinusoidal_table(3000, 130, dtype=torch.float64, layout=layout), reference64(0, 3000, 130, layout)
    )


def test_every_position_below_2_pow_24():
    # d = 2: one frequency, w = 1; the whole 2**24-row table against float64, in chunks
    pe = sinusoidal_table(2**24, 2)
    worst = 0.0
    for start in range(0, 2**24, 2**22):
        worst = max(worst, max_err(pe[start : start + 2**22], reference64(start, 2**22, 2)))
    assert 0 < worst <= FLOAT32_BOUND < FLOAT32_TOL


def test_tutorial_code_is_not_exact_but_this_is():
    # the same float32 output computed with the phase in float32 is far off at position 10**5
    d, n = 64, 100_001
    w32 = inverse_frequencies(d, dtype=torch.float32)
    phase32 = torch.arange(n, dtype=torch.float32)[:, None] * w32
    tutorial = torch.stack((phase32.sin(), phase32.cos()), -1).reshape(n, d)
    ref = reference64(0, n, d)
    assert max_err(tutorial, ref) > 1e-3
    assert max_err(sinusoidal_table(n, d), ref) <= FLOAT32_TOL


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(1, 3000),
    half=st.integers(1, 300),
    layout=st.sampled_from(LAYOUTS),
    base=st.sampled_from([10000.0, 500.0, 1e6, 2.0]),
)
def test_hypothesis_whole_table(count, half, layout, base):
    d = 2 * half
    pe = sinusoidal_table(count, d, layout=layout, base=base)
    assert pe.shape == (count, d) and pe.dtype == torch.float32 and pe.is_contiguous()
    assert max_err(pe, reference64(0, count, d, layout, base)) <= FLOAT32_BOUND


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    count=st.integers(1, 2000),
    half=st.integers(1, 200),
    layout=st.sampled_from(LAYOUTS),
)
def test_hypothesis_rows_up_to_2_pow_24(data, count, half, layout):
    # the same code path as sinusoidal_table, started at an arbitrary first position < 2**24
    first = data.draw(st.integers(0, 2**24 - count), label="first")
    d = 2 * half
    rows = _table_rows(first, count, d, base=10000.0, dtype=torch.float32, layout=layout)
    assert max_err(rows, reference64(first, count, d, layout)) <= FLOAT32_BOUND


@pytest.mark.parametrize("count", [1, 2, 15, 16, 17, 127, 128, 129, 1025, 2049])
@pytest.mark.parametrize("d", [2, 6, 1024, 2050])
def test_ragged_last_block(count, d):
    # every remainder of count modulo the block size, for small, cache-sized and large widths
    for layout in LAYOUTS:
        pe = sinusoidal_table(count, d, layout=layout)
        assert max_err(pe, reference64(0, count, d, layout)) <= FLOAT32_TOL


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.bfloat16, torch.float16])
@pytest.mark.parametrize(("count", "d"), [(2000, 64), (63, 8), (64, 8), (4097, 1024), (70_000, 2)])
def test_layouts_hold_identical_numbers(dtype, count, d):
    """The two layouts are the same numbers in another column order, bit for bit (ragged blocks included)."""
    inter = sinusoidal_table(count, d, dtype=dtype)
    concat = sinusoidal_table(count, d, dtype=dtype, layout="concat")
    assert torch.equal(inter[:, 0::2], concat[:, : d // 2])
    assert torch.equal(inter[:, 1::2], concat[:, d // 2 :])


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(("dtype", "half_ulp"), [(torch.bfloat16, 2.0**-9), (torch.float16, 2.0**-12)])
def test_low_precision_is_rounded_from_exact(dtype, half_ulp, layout):
    # 5000 × 512 needs several float32 chunks
    pe = sinusoidal_table(5000, 512, dtype=dtype, layout=layout)
    assert pe.dtype == dtype
    assert max_err(pe, reference64(0, 5000, 512, layout)) <= half_ulp + FLOAT32_TOL
    # and it is (almost always bit-for-bit) the exact table rounded once
    rounded = reference64(0, 5000, 512, layout).to(dtype)
    assert (pe != rounded).float().mean().item() < 1e-3


def test_device_argument():
    pe = sinusoidal_table(10, 8, device="cpu")
    assert pe.device.type == "cpu"
    assert torch.equal(pe, sinusoidal_table(10, 8))


def test_deterministic():
    assert torch.equal(sinusoidal_table(5000, 96), sinusoidal_table(5000, 96))


# ---------------------------------------------------------------- memory


class NewStorages(TorchFunctionMode):
    """Record the size of every tensor storage that the torch functions called inside return."""

    def __init__(self):
        super().__init__()
        self.nbytes: dict[int, int] = {}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        result = func(*args, **(kwargs or {}))
        for t in result if isinstance(result, tuple) else (result,):
            if isinstance(t, torch.Tensor):
                s = t.untyped_storage()
                self.nbytes[s.data_ptr()] = max(s.nbytes(), self.nbytes.get(s.data_ptr(), 0))
        return result


def largest_temporary(fn) -> tuple[int, int]:
    with NewStorages() as seen:
        out = fn()
    others = [n for p, n in seen.nbytes.items() if p != out.untyped_storage().data_ptr()]
    return max(others), out.untyped_storage().nbytes()


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16, torch.float16])
@pytest.mark.parametrize(
    ("count", "d"), [(2, 2), (3, 8), (512, 512), (600, 512), (4096, 256), (20_000, 64), (300, 4096)]
)
def test_no_temporary_larger_than_the_output(layout, dtype, count, d):
    # the docstring's promise: no temporary larger than the output or 1 MiB, whichever is larger
    temp, out = largest_temporary(lambda: sinusoidal_table(count, d, dtype=dtype, layout=layout))
    assert temp <= max(out, 2**20)
    if out >= 2**22:
        assert temp <= out


def test_float32_temporaries_are_small():
    temp, out = largest_temporary(lambda: sinusoidal_table(100_000, 256))
    assert temp <= out / 16


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"max_len": 0}, ValueError, "max_len must be >= 1, got 0"),
        ({"max_len": -5}, ValueError, "max_len must be >= 1, got -5"),
        ({"max_len": 10.0}, TypeError, "max_len must be an integer, got 10.0"),
        ({"max_len": True}, TypeError, "max_len must be an integer, got True"),
        ({"max_len": "10"}, TypeError, "max_len must be an integer, got '10'"),
        ({"d_model": 7}, ValueError, "d_model must be even"),
        ({"d_model": 0}, ValueError, "d_model must be >= 1, got 0"),
        ({"d_model": -4}, ValueError, "d_model must be >= 1, got -4"),
        ({"d_model": 8.0}, TypeError, "d_model must be an integer, got 8.0"),
        ({"d_model": False}, TypeError, "d_model must be an integer, got False"),
        ({"base": 0}, ValueError, "base must be finite and > 0, got 0"),
        ({"base": -10.0}, ValueError, "base must be finite and > 0, got -10.0"),
        ({"base": math.inf}, ValueError, "base must be finite and > 0, got inf"),
        ({"base": math.nan}, ValueError, "base must be finite and > 0, got nan"),
        ({"base": True}, TypeError, "base must be a real number, got True"),
        ({"base": "1e4"}, TypeError, "base must be a real number, got '1e4'"),
        ({"dtype": torch.int64}, TypeError, "dtype must be a floating-point dtype, got torch.int64"),
        ({"dtype": torch.complex64}, TypeError, "dtype must be a floating-point dtype"),
        ({"dtype": "float32"}, TypeError, "dtype must be a torch.dtype, got 'float32'"),
        ({"layout": "sideways"}, ValueError, "layout must be one of 'interleaved', 'concat'; got 'sideways'"),
        ({"layout": None}, TypeError, "layout must be one of 'interleaved', 'concat'; got None of type NoneType"),
        ({"layout": 1}, TypeError, "got 1 of type int"),
    ],
)
def test_bad_input(kwargs, error, message):
    args = {"max_len": 10, "d_model": 8} | kwargs
    max_len, d_model = args.pop("max_len"), args.pop("d_model")
    with pytest.raises(error, match=message.replace("(", r"\(").replace(".", r"\.")) as info:
        sinusoidal_table(max_len, d_model, **args)
    assert message in str(info.value)


# ---------------------------------------------------------------- benchmark script


def test_benchmark_script_runs_small(capsys):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        import bench_table
    finally:
        sys.path.pop(0)
    saved = torch.get_num_threads()
    result = bench_table.main(["--max-len", "3000", "--d-model", "64", "--repeats", "1", "--threads", "1"])
    assert torch.get_num_threads() == saved
    errors = result["errors"]
    assert errors["d"] <= FLOAT32_TOL and errors["b"] <= 3e-8
    assert errors["a"] > errors["d"]
    out = capsys.readouterr().out
    assert "d/c = " in out and "a/d = " in out and "b/d = " in out


@pytest.mark.parametrize("layout", LAYOUTS)
def test_short_tables_are_rounded_once(layout):
    # rows of the first block (at least 16; 1024 for d = 40) are the float64-phase values rounded once
    for count in [1, 2, 33, 63]:
        expected = reference64(0, count, 40, layout).to(torch.float32)
        assert torch.equal(sinusoidal_table(count, 40, layout=layout), expected)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(1, 5000),
    half=st.integers(1, 256),
    dtype=st.sampled_from([torch.float32, torch.float64]),
    layout=st.sampled_from(LAYOUTS),
)
def test_properties_shape_range_and_unit_pairs(count, half, dtype, layout):
    d = 2 * half
    pe = sinusoidal_table(count, d, dtype=dtype, layout=layout)
    assert pe.shape == (count, d) and pe.dtype == dtype
    assert pe.abs().max() <= 1.0
    sin, cos = (pe[:, 0::2], pe[:, 1::2]) if layout == "interleaved" else (pe[:, :half], pe[:, half:])
    radius = sin.double() ** 2 + cos.double() ** 2
    tol = 1e-6 if dtype == torch.float32 else 1e-14
    assert (radius - 1).abs().max() <= tol
    assert torch.equal(pe[0, :d:2] if layout == "interleaved" else pe[0, :half], torch.zeros(half, dtype=dtype))


@pytest.mark.parametrize("d", [2, 64, 512, 4096])
def test_first_block_is_independent_of_max_len(d):
    """The rows every short sequence uses are the same numbers in a table of any length."""
    short = sinusoidal_table(16, d)
    for n in (17, 1000, 20_000):
        assert torch.equal(sinusoidal_table(n, d)[:16], short)
    assert torch.equal(short, reference64(0, 16, d, "interleaved").to(torch.float32))


@pytest.mark.parametrize("turn", [False, True])
def test_unit_pairs_never_longer_than_one(turn):
    # The factors of the fast table: rounded to nearest unless that made |z| > 1, then shrunk by one ulp
    # toward zero in each component that had rounded away from zero. Checked against float64 directly.
    from pe_docs.encoding import _unit_pairs

    rng = torch.Generator().manual_seed(3)
    positions = torch.cat([torch.arange(4096), torch.randint(0, 2**24, (4096,), generator=rng)])
    w = inverse_frequencies(512, dtype=torch.float64)
    pairs = torch.view_as_real(_unit_pairs(positions.double(), w, turn=turn)).double()
    phase = positions.double()[:, None] * w[None, :]
    exact = torch.stack((torch.cos(phase), -torch.sin(phase)) if turn else (torch.sin(phase), torch.cos(phase)), -1)
    nearest = exact.to(torch.float32).double()
    assert (pairs.square().sum(-1) <= 1.0).all()
    too_long = nearest.square().sum(-1, keepdim=True) > 1.0
    assert too_long.any()  # the correction is exercised
    assert torch.equal(pairs[~too_long.expand_as(pairs)], nearest[~too_long.expand_as(pairs)])
    ulp = torch.finfo(torch.float32).eps * torch.maximum(nearest.abs(), torch.full_like(nearest, 2.0**-126))
    assert ((pairs - exact).abs() <= ulp).all()
    assert (pairs.abs() <= nearest.abs()).all()
