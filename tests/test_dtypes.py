import math

import pytest
import torch

from pe_docs import sinusoidal_table
from pe_docs.dtypes import (
    RECIPES,
    distinct_values,
    first_overflowing_integer,
    last_exact_integer,
    log_spaced_positions,
    recipe_error,
    recipe_rows,
    running_max,
)
from pe_docs.numerics import exact_rows, rows_in_dtype


def test_cast_recipes_agree_with_sinusoidal_table():
    # The recipes round the float64 rows once; sinusoidal_table builds float32 by the (equally exact) relative
    # transform, so the two may differ in the last bits: at most 3e-7 in float32, one ulp in bf16/fp16.
    for recipe, dtype, tol in (
        ("float32-exact", torch.float32, 3e-7),
        ("bfloat16-cast", torch.bfloat16, 2**-7),
        ("float16-cast", torch.float16, 2**-10),
    ):
        got = recipe_rows(recipe, torch.arange(300), 64)
        assert got.dtype == dtype
        assert (got.double() - sinusoidal_table(300, 64, dtype=dtype).double()).abs().max() <= tol


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
    assert recipe_error("float32-exact", pos, 512).max() < 6e-8
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
    t = first_overflowing_integer(torch.float16)
    assert t == 65520
    assert torch.isinf(torch.tensor(float(t)).half()) and torch.isfinite(torch.tensor(float(t - 1)).half())
    assert distinct_values(torch.arange(1000).to(torch.bfloat16)) == 507


def test_running_max_propagates_nan():
    out = running_max(torch.tensor([1.0, 0.5, 3.0, math.nan, 2.0]))
    assert out[:3].tolist() == [1.0, 1.0, 3.0] and out[3:].isnan().all()
    with pytest.raises(ValueError, match=r"1-D"):
        running_max(torch.zeros(2, 2))


def test_log_spaced_positions():
    p = log_spaced_positions(10**6, per_decade=10)
    assert p[0] == 1 and p[-1] == 10**6 and (p.diff() > 0).all()
    with pytest.raises(ValueError, match=r"stop"):
        log_spaced_positions(0)
    with pytest.raises(ValueError, match=r"per_decade"):
        log_spaced_positions(10, per_decade=0)


def test_bad_positions():
    with pytest.raises(TypeError, match=r"positions must hold integers, got dtype torch.float32"):
        recipe_rows("float32-exact", torch.tensor([1.0]), 4)
    with pytest.raises(ValueError, match=r"positions must be >= 0, got -1"):
        recipe_error("bfloat16-recomputed", torch.tensor([-1]), 4)
    with pytest.raises(ValueError, match=r"recipe must be one of"):
        recipe_rows("int8", torch.tensor([1]), 4)
    assert exact_rows([1], 4).shape == (1, 4)
