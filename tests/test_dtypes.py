import math
import sys

import pytest
import torch

import pe_docs.analysis.dtypes
from pe_docs import sinusoidal_table
from pe_docs.analysis import (
    RECIPES,
    exact_rows,
    first_overflowing_integer,
    last_exact_integer,
    recipe_error,
    recipe_rows,
    row_errors,
    rows_in_dtype,
)
from pe_docs.analysis.dtypes import log_spaced_positions, running_max


def test_cast_recipes_agree_with_sinusoidal_table():
    # The recipes cast the float64 rows; sinusoidal_table builds float32 by the relative transform, so
    # the two may differ in the last bits: at most 2.5e-7 in float32 (as documented), one ulp in bf16/fp16.
    for recipe, dtype, tol in (
        ("float32-cast", torch.float32, 2.5e-7),
        ("bfloat16-cast", torch.bfloat16, 2**-7),
        ("float16-cast", torch.float16, 2**-10),
    ):
        got = recipe_rows(recipe, torch.arange(300), 64)
        assert got.dtype == dtype
        assert (got.double() - sinusoidal_table(300, 64, dtype=dtype).double()).abs().max() <= tol


def test_cast_recipes_are_the_float64_rows_cast():
    pos = torch.tensor([0, 7, 1000, 65_520, 10**6])
    exact = exact_rows(pos, 64)
    for recipe, dtype in (
        ("float32-cast", torch.float32),
        ("bfloat16-cast", torch.bfloat16),
        ("float16-cast", torch.float16),
    ):
        assert torch.equal(recipe_rows(recipe, pos, 64), exact.to(dtype))
        err = recipe_error(recipe, pos, 64)
        assert torch.equal(err, (exact.to(dtype).double() - exact).abs().amax(dim=1))
        # |values| <= 1: at most half the spacing of numbers in [0.5, 1), a quarter of eps (2**-25 in float32);
        # bfloat16 and float16 are reached through float32, which can add up to 2**-25 (double rounding)
        assert err.max() <= torch.finfo(dtype).eps / 4 + (0 if dtype == torch.float32 else 2**-25)


def test_float32_cast_is_not_sinusoidal_table_bit_for_bit():
    # the docstrings say "within 2.5e-7", not "the same": check that the difference is real
    ideal = recipe_rows("float32-cast", torch.arange(20_000), 512)
    fast = sinusoidal_table(20_000, 512)
    diff = (ideal.double() - fast.double()).abs().max().item()
    assert 0 < diff <= 2.5e-7


def test_tutorial_recipe_errors_are_row_errors():
    # recipe_error delegates to numerics.row_errors for the recipes that run the tutorial code
    pos = torch.tensor([0, 5, 300, 40_000, 65_520])
    for recipe, dtype in (
        ("float32-phase", torch.float32),
        ("bfloat16-recomputed", torch.bfloat16),
        ("float16-recomputed", torch.float16),
    ):
        expected = row_errors(pos, 32, method="log", dtype=dtype)
        torch.testing.assert_close(recipe_error(recipe, pos, 32), expected, rtol=0, atol=0, equal_nan=True)


def test_distinct_values_is_gone():
    # it was only used by tests; the page counts distinct values with torch.unique
    assert not hasattr(pe_docs.analysis.dtypes, "distinct_values")
    assert torch.unique(torch.arange(1000).to(torch.bfloat16)).numel() == 507


def test_rows_in_float32_is_the_tutorial_recipe():
    p = torch.arange(50)
    w = torch.exp(torch.arange(0, 16, 2, dtype=torch.float32) * (-math.log(10000.0) / 16))
    pe = torch.zeros(50, 16)
    pe[:, 0::2] = torch.sin(p.float()[:, None] * w)
    pe[:, 1::2] = torch.cos(p.float()[:, None] * w)
    assert torch.equal(rows_in_dtype(p, 16, method="log", dtype=torch.float32), pe)
    assert torch.equal(recipe_rows("float32-phase", p, 16), pe)


def test_recipe_errors_at_known_positions():
    pos = torch.tensor([0, 1, 100, 10**4, 10**6])
    assert recipe_error("float32-cast", pos, 512).max() < 6e-8
    assert recipe_error("bfloat16-cast", pos, 512).max() <= 2**-9
    assert recipe_error("float16-cast", pos, 512).max() <= 2**-12
    tut = recipe_error("float32-phase", pos, 512)
    assert tut[-1] > 1e-2 > tut[1]
    assert recipe_error("bfloat16-recomputed", torch.tensor([10**4]), 512).item() > 1.0
    fp16 = recipe_error("float16-recomputed", torch.tensor([65519, 65520]), 64)
    assert math.isfinite(fp16[0].item()) and math.isnan(fp16[1].item())


def test_recipe_rows_dtype_and_bad_recipe():
    for r in RECIPES:
        rows = recipe_rows(r, torch.arange(4), 8)
        assert rows.shape == (4, 8) and rows.dtype.is_floating_point
    with pytest.raises(ValueError, match=r"recipe must be one of .*got 'fp8'"):
        recipe_rows("fp8", torch.arange(4), 8)


def test_integer_limits_match_brute_force():
    for dtype in (torch.bfloat16, torch.float16):
        n = last_exact_integer(dtype)
        ints = torch.arange(n + 2, dtype=torch.float64)
        back = ints.to(dtype).to(torch.float64)
        assert torch.equal(back[: n + 1], ints[: n + 1]) and back[n + 1] != ints[n + 1]
    assert (last_exact_integer(torch.bfloat16), last_exact_integer(torch.float16)) == (256, 2048)
    assert last_exact_integer(torch.float32) == 2**24
    assert last_exact_integer(torch.float64) == 2**53


# a dtype that holds the threshold exactly and converts to `dtype` with a single rounding
@pytest.mark.parametrize(
    ("dtype", "wider"),
    [(torch.float16, torch.float32), (torch.bfloat16, torch.float32), (torch.float32, torch.float64)],
)
def test_first_overflowing_integer_is_the_rounding_threshold(dtype, wider):
    t = first_overflowing_integer(dtype)
    info = torch.finfo(dtype)
    held = torch.tensor(float(t), dtype=wider)
    assert int(held.item()) == t  # exact in `wider`
    assert torch.isinf(held.to(dtype))
    below = torch.nextafter(held, torch.tensor(0.0, dtype=wider))  # everything below t rounds to max
    assert below.to(dtype).item() == info.max
    assert torch.tensor(float(info.max), dtype=wider).to(dtype).item() == info.max


def test_first_overflowing_integer_values():
    assert first_overflowing_integer(torch.float16) == 65520
    assert torch.isfinite(torch.tensor(65519.0).half())
    assert first_overflowing_integer(torch.bfloat16) == 2**128 - 2**119
    assert first_overflowing_integer(torch.float32) == 2**128 - 2**103


def test_first_overflowing_integer_float64():
    # regression: float64 raised OverflowError (max + ulp/2 was formed in float64)
    t = first_overflowing_integer(torch.float64)
    assert t == 2**1024 - 2**970
    # Python's int -> float conversion rounds to nearest-even and raises OverflowError when it would be inf
    with pytest.raises(OverflowError):
        float(t)
    assert float(t - 1) == sys.float_info.max


def test_integer_limits_bad_dtype():
    with pytest.raises(TypeError, match=r"dtype must be a floating-point dtype, got torch.int32"):
        first_overflowing_integer(torch.int32)
    with pytest.raises(TypeError, match=r"dtype must be a torch.dtype, got 'float16'"):
        last_exact_integer("float16")


def test_running_max_propagates_nan():
    out = running_max(torch.tensor([1.0, 0.5, 3.0, math.nan, 2.0]))
    assert out[:3].tolist() == [1.0, 1.0, 3.0] and out[3:].isnan().all()
    # infinities stay infinite (torch.nan_to_num had turned +inf into 1.8e308)
    assert running_max(torch.tensor([math.inf, 1.0], dtype=torch.float64)).tolist() == [math.inf, math.inf]
    assert running_max(torch.tensor([-math.inf, -1.0])).tolist() == [-math.inf, -1.0]
    assert running_max(torch.tensor([])).shape == (0,)


def test_running_max_bad_input():
    with pytest.raises(ValueError, match=r"values must have 1 dimensions, got shape \(2, 2\)") as info:
        running_max(torch.zeros(2, 2))
    assert "tensor(" not in str(info.value)  # the shape, never the whole tensor
    with pytest.raises(TypeError, match=r"values must be a torch.Tensor, got list"):
        running_max([1.0, 2.0])
    with pytest.raises(TypeError, match=r"values must be a real floating-point tensor, got dtype torch.int64"):
        running_max(torch.arange(3))


def test_log_spaced_positions():
    p = log_spaced_positions(10**6, per_decade=10)
    assert p[0] == 1 and p[-1] == 10**6 and (p.diff() > 0).all()
    assert log_spaced_positions(1).tolist() == [1]
    with pytest.raises(ValueError, match=r"stop must be >= 1, got 0"):
        log_spaced_positions(0)
    with pytest.raises(ValueError, match=r"per_decade must be >= 1, got 0"):
        log_spaced_positions(10, per_decade=0)
    with pytest.raises(TypeError, match=r"stop must be an integer, got 100.0"):
        log_spaced_positions(100.0)
    with pytest.raises(TypeError, match=r"per_decade must be an integer, got True"):
        log_spaced_positions(100, per_decade=True)


def test_bad_positions():
    with pytest.raises(TypeError, match=r"positions must hold integers, got dtype torch.float32"):
        recipe_rows("float32-cast", torch.tensor([1.0]), 4)
    with pytest.raises(ValueError, match=r"positions must be >= 0, got -1"):
        recipe_error("bfloat16-recomputed", torch.tensor([-1]), 4)
    with pytest.raises(ValueError, match=r"recipe must be one of"):
        recipe_rows("int8", torch.tensor([1]), 4)
    assert exact_rows([1], 4).shape == (1, 4)


def test_float64_reference_rows_are_close_to_mpmath_at_10_pow_6():
    # numerics.exact_rows (the reference of every recipe) is float64, not exact: below 1e-10 at position 10**6
    import mpmath

    d = 512
    row = exact_rows([10**6], d)[0].tolist()
    with mpmath.workdps(40):
        worst = 0.0
        for i in range(d // 2):
            angle = 10**6 * mpmath.power(10000, -mpmath.mpf(2 * i) / d)
            sin_err = abs(float(mpmath.sin(angle)) - row[2 * i])
            cos_err = abs(float(mpmath.cos(angle)) - row[2 * i + 1])
            worst = max(worst, sin_err, cos_err)
    assert 1e-12 < worst < 1e-10


@pytest.mark.parametrize(
    ("dtype", "x", "got", "nearest"),
    [
        # just below the midpoint 0.998046875 of 0.99609375 and 1.0: float32 rounds it onto the midpoint, ties to even
        (torch.bfloat16, 0.9980468683113846, 1.0, 0.99609375),
        # just above the midpoint 0.991455078125 of 0.9912109375 and 0.99169921875
        (torch.float16, 0.9914551063594482, 0.9912109375, 0.99169921875),
    ],
)
def test_float64_casts_to_16_bits_round_twice(dtype, x, got, nearest):
    """PyTorch casts float64 to bfloat16/float16 through float32 (c10's constructors take a float)."""
    t = torch.tensor(x, dtype=torch.float64)
    assert t.to(dtype).item() == got == t.float().to(dtype).item()
    assert abs(x - nearest) < abs(x - got)  # correct rounding would give `nearest`
    assert abs(x - got) - abs(x - nearest) < 2**-24
    err = recipe_error(f"{'bfloat16' if dtype == torch.bfloat16 else 'float16'}-cast", torch.arange(0, 1001), 512)
    assert torch.finfo(dtype).eps / 4 < err.max() <= torch.finfo(dtype).eps / 4 + 2**-25
