"""How the sinusoidal table degrades in low precision, recipe by recipe, measured against float64.

A *recipe* is a way of producing rows of the table in some dtype:

* ``"float32-phase"`` — what nearly every tutorial does: positions, frequencies (``exp``/``log`` form) and
  the phase ``p · w`` all in float32.
* ``"float32-exact"`` — ``pe_docs``: phase in float64, result rounded to float32.
* ``"bfloat16-recomputed"`` / ``"float16-recomputed"`` — the tutorial code run in that dtype, which is
  what happens when a buffer is rebuilt after ``model.to(torch.bfloat16)`` or a cache is computed in the
  compute dtype.
* ``"bfloat16-cast"`` / ``"float16-cast"`` — an exact table cast to that dtype (the fix).

Rows are computed only at the positions asked for, so errors at position ``10**6`` cost nothing.
"""

from __future__ import annotations

import math

import torch

from pe_docs._checks import check_choice, check_float_dtype
from pe_docs.numerics import exact_rows, rows_in_dtype

RECIPES: tuple[str, ...] = (
    "float32-phase",
    "float32-exact",
    "bfloat16-recomputed",
    "float16-recomputed",
    "bfloat16-cast",
    "float16-cast",
)
_RECIPE_DTYPE = {
    "float32-phase": torch.float32,
    "float32-exact": torch.float32,
    "bfloat16-recomputed": torch.bfloat16,
    "float16-recomputed": torch.float16,
    "bfloat16-cast": torch.bfloat16,
    "float16-cast": torch.float16,
}


def recipe_rows(recipe: str, positions: torch.Tensor, d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """Rows of the table at ``positions`` produced by one of :data:`RECIPES`.

    Raises:
        ValueError: unknown ``recipe`` (the message lists the valid ones), bad ``positions``/``d_model``.
    """
    recipe = check_choice("recipe", recipe, RECIPES)
    dtype = _RECIPE_DTYPE[recipe]
    if recipe.endswith("-phase") or recipe.endswith("-recomputed"):
        # the tutorials' exp/log frequencies, every step in the recipe's dtype
        return rows_in_dtype(positions, d_model, base=base, method="log", dtype=dtype)
    return exact_rows(positions, d_model, base=base).to(dtype)


def recipe_error(
    recipe: str, positions: torch.Tensor, d_model: int, *, base: float = 10000.0
) -> torch.Tensor:
    """Largest absolute error of each row of a recipe against the float64 table, shape ``(len(positions),)``.

    A row containing NaN (float16 phases that overflowed to ``inf``) has error NaN.

    Examples:
        >>> recipe_error("float32-exact", torch.tensor([0, 10**6]), 512) < 1e-7
        tensor([True, True])
    """
    got = recipe_rows(recipe, positions, d_model, base=base).to(torch.float64)
    reference = exact_rows(positions, d_model, base=base)
    return (got - reference).abs().amax(dim=-1)


def running_max(values: torch.Tensor) -> torch.Tensor:
    """Cumulative maximum that propagates NaN (once a NaN appears, every later entry is NaN)."""
    if not isinstance(values, torch.Tensor) or values.dim() != 1:
        raise ValueError(f"values must be a 1-D tensor, got {values!r}")
    nan_seen = torch.cumsum(values.isnan().to(torch.int64), 0) > 0
    out = torch.cummax(torch.nan_to_num(values, nan=-math.inf), 0).values
    return out.masked_fill(nan_seen, math.nan)


def last_exact_integer(dtype: torch.dtype) -> int:
    """The largest ``n`` such that every integer ``0 … n`` is exactly representable in ``dtype``.

    ``2 / eps``: 256 for bfloat16, 2048 for float16, 16 777 216 for float32.

    Examples:
        >>> last_exact_integer(torch.bfloat16)
        256
    """
    eps = torch.finfo(check_float_dtype(dtype)).eps
    return round(2 / eps)


def first_overflowing_integer(dtype: torch.dtype) -> int:
    """The smallest integer that rounds to ``+inf`` when converted to ``dtype`` (65 520 for float16).

    It is the largest finite value plus half a unit in its last place: anything at or above it rounds up
    to infinity under round-to-nearest-even.

    Examples:
        >>> first_overflowing_integer(torch.float16)
        65520
    """
    info = torch.finfo(check_float_dtype(dtype))
    top_ulp = info.eps * (info.max / (2 - info.eps))  # eps · 2**emax, exact in float64
    return int(info.max + top_ulp / 2)


def distinct_values(values: torch.Tensor) -> int:
    """Number of distinct values in a tensor (e.g. positions after rounding to a low-precision dtype)."""
    if not isinstance(values, torch.Tensor):
        raise TypeError(f"values must be a torch.Tensor, got {type(values).__name__}")
    return int(torch.unique(values).numel())


def log_spaced_positions(stop: int, per_decade: int = 40) -> torch.Tensor:
    """Distinct integer positions ``1 … stop`` spaced evenly on a log scale (always includes ``stop``).

    Examples:
        >>> log_spaced_positions(100, per_decade=2)
        tensor([  1,   3,  10,  32, 100])
    """
    if isinstance(stop, bool) or not isinstance(stop, int) or stop < 1:
        raise ValueError(f"stop must be an integer >= 1, got {stop!r}")
    if isinstance(per_decade, bool) or not isinstance(per_decade, int) or per_decade < 1:
        raise ValueError(f"per_decade must be an integer >= 1, got {per_decade!r}")
    n = max(2, math.ceil(math.log10(stop) * per_decade) + 1)
    grid = torch.logspace(0, math.log10(stop), n, dtype=torch.float64).round().to(torch.int64)
    return torch.unique(torch.cat((grid, torch.tensor([stop]))))
