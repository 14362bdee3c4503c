"""How the sinusoidal table degrades in low precision, recipe by recipe, measured against float64.

A *recipe* is a way of producing rows of the table in some dtype:

* ``"float32-phase"`` — what nearly every tutorial does: positions, frequencies (``exp``/``log`` form) and
  the phase ``p · w`` all in float32.
* ``"float32-cast"`` — the float64 table (phase ``p · w`` formed in float64) rounded once to float32: the
  best a float32 table can do. Each entry is within ``2**-25`` (about 3e-8) of its float64 value: half the
  spacing of float32 numbers in [0.5, 1), the largest spacing below 1. (``pe_docs.sinusoidal_table``
  builds its float32 table differently, with the relative transform: its entries are within 2.5e-7 of the
  true values and may differ from these in the last bits.)
* ``"bfloat16-recomputed"`` / ``"float16-recomputed"`` — the tutorial code run in that dtype, which is
  what happens when a buffer is rebuilt after ``model.to(torch.bfloat16)`` or a cache is computed in the
  compute dtype.
* ``"bfloat16-cast"`` / ``"float16-cast"`` — the float64 table cast to that dtype (the fix). PyTorch converts
  float64 to bfloat16 and float16 through float32 (the c10 ``BFloat16`` and ``Half`` constructors take a
  ``float``), so the value is rounded twice: a float64 value just beside a midpoint can land on the wrong
  side, and the error can exceed half a spacing of the format by up to ``2**-25``.

Rows are computed only at the positions asked for, so errors at position ``10**6`` cost nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch

from pe_docs._checks import check_choice, check_float_dtype, check_int, check_real_tensor
from pe_docs.analysis.numerics import exact_rows, row_errors, rows_in_dtype

RECIPES: tuple[str, ...] = (
    "float32-phase",
    "float32-cast",
    "bfloat16-recomputed",
    "float16-recomputed",
    "bfloat16-cast",
    "float16-cast",
)
"""The recipes accepted by ``recipe_rows`` and ``recipe_error``.

* ``"float32-phase"``: the tutorial code in float32 (positions, ``exp``/``log`` frequencies and the phase
  ``p · w`` all rounded to float32).
* ``"float32-cast"``: the float64 table rounded once to float32, the best a float32 table can do (not
  bit-identical to ``pe_docs.sinusoidal_table``'s float32 table, which is built with the relative transform
  and is within 2.5e-7 of the true values).
* ``"bfloat16-recomputed"``, ``"float16-recomputed"``: the tutorial code run in that dtype.
* ``"bfloat16-cast"``, ``"float16-cast"``: the float64 table cast to that dtype (through float32 in PyTorch).
"""

_RECIPE_DTYPE = {
    "float32-phase": torch.float32,
    "float32-cast": torch.float32,
    "bfloat16-recomputed": torch.bfloat16,
    "float16-recomputed": torch.float16,
    "bfloat16-cast": torch.bfloat16,
    "float16-cast": torch.float16,
}
# the recipes that run the tutorial code (exp/log frequencies, every step) in their dtype; the others round
# the float64 rows once
_TUTORIAL_RECIPES = frozenset({"float32-phase", "bfloat16-recomputed", "float16-recomputed"})


def recipe_rows(
    recipe: str, positions: torch.Tensor | Sequence[int], d_model: int, *, base: float = 10000.0
) -> torch.Tensor:
    """Rows of the table at ``positions`` produced by one of ``RECIPES``.

    The tutorial recipes are ``pe_docs.analysis.rows_in_dtype`` with ``method="log"``; the others are
    ``pe_docs.analysis.exact_rows`` cast to the recipe's dtype.

    Args:
        recipe: One of ``RECIPES``.
        positions: Non-negative integer positions, a 1-D integer tensor or a sequence of ints.
        d_model: Width; a positive even integer.
        base: The constant of the encoding; finite and > 0.

    Returns:
        A tensor of shape ``(len(positions), d_model)`` in the recipe's dtype (float32, bfloat16 or float16),
        interleaved layout.

    Raises:
        TypeError: ``positions`` is not integer-valued, or another argument has the wrong type.
        ValueError: unknown ``recipe`` (the message lists the valid ones), or bad ``positions``/``d_model``/
            ``base``.

    Examples:
        >>> recipe_rows("bfloat16-cast", [1], 2)
        tensor([[0.8398, 0.5391]], dtype=torch.bfloat16)
    """
    recipe = check_choice("recipe", recipe, RECIPES)
    dtype = _RECIPE_DTYPE[recipe]
    if recipe in _TUTORIAL_RECIPES:
        return rows_in_dtype(positions, d_model, base=base, method="log", dtype=dtype)
    return exact_rows(positions, d_model, base=base).to(dtype)


def recipe_error(
    recipe: str, positions: torch.Tensor | Sequence[int], d_model: int, *, base: float = 10000.0
) -> torch.Tensor:
    """Largest absolute error of each row of a recipe against the float64 table.

    For the tutorial recipes this is ``pe_docs.analysis.row_errors`` with ``method="log"`` and the recipe's
    dtype; for the cast recipes it is the error of casting the float64 rows to the recipe's dtype.

    Args:
        recipe: One of ``RECIPES``.
        positions: Non-negative integer positions, a 1-D integer tensor or a sequence of ints.
        d_model: Width; a positive even integer.
        base: The constant of the encoding; finite and > 0.

    Returns:
        A float64 tensor of shape ``(len(positions),)``. A row containing NaN (float16 phases that
        overflowed to ``inf``) has error NaN.

    Raises:
        TypeError: as for ``recipe_rows``.
        ValueError: as for ``recipe_rows``.

    Examples:
        >>> recipe_error("float32-cast", torch.tensor([0, 10**6]), 512) < 1e-7
        tensor([True, True])
        >>> recipe_error("float16-recomputed", [65520], 8)
        tensor([nan], dtype=torch.float64)
    """
    recipe = check_choice("recipe", recipe, RECIPES)
    dtype = _RECIPE_DTYPE[recipe]
    if recipe in _TUTORIAL_RECIPES:
        return row_errors(positions, d_model, base=base, method="log", dtype=dtype)
    exact = exact_rows(positions, d_model, base=base)
    return (exact.to(dtype).to(torch.float64) - exact).abs().amax(dim=1)


def running_max(values: torch.Tensor) -> torch.Tensor:
    """Cumulative maximum that propagates NaN (once a NaN appears, every later entry is NaN).

    ``torch.cummax`` would skip over a NaN; here a NaN error (a row that broke) stays visible in every
    later "worst so far" value.

    Args:
        values: A real floating-point 1-D tensor; NaN and infinities are allowed.

    Returns:
        A tensor of the same shape and dtype: entry ``k`` is ``max(values[:k + 1])``, or NaN if any of
        those is NaN.

    Raises:
        TypeError: ``values`` is not a tensor, or not floating point.
        ValueError: ``values`` is not 1-D.

    Examples:
        >>> running_max(torch.tensor([1.0, 0.5, 3.0, float("nan"), 2.0]))
        tensor([1., 1., 3., nan, nan])
    """
    values = check_real_tensor("values", values, ndim=1, finite=False).detach()
    nan = values.isnan()
    nan_seen = torch.cumsum(nan.to(torch.int64), 0) > 0
    # not torch.nan_to_num: it would also replace ±inf by the largest finite values
    out = torch.cummax(values.masked_fill(nan, -math.inf), 0).values
    return out.masked_fill(nan_seen, math.nan)


def last_exact_integer(dtype: torch.dtype) -> int:
    """The largest ``n`` such that every integer ``0 … n`` is exactly representable in ``dtype``.

    ``2 / eps``: 256 for bfloat16, 2048 for float16, 16 777 216 for float32, ``2**53`` for float64.

    Args:
        dtype: A floating-point ``torch.dtype``.

    Returns:
        The integer ``n`` (``n + 1`` is the first integer that rounds to a neighbour).

    Raises:
        TypeError: ``dtype`` is not a floating-point ``torch.dtype``.

    Examples:
        >>> last_exact_integer(torch.bfloat16)
        256
    """
    eps = torch.finfo(check_float_dtype(dtype)).eps
    return round(2 / eps)


def first_overflowing_integer(dtype: torch.dtype) -> int:
    """The smallest integer that rounds to ``+inf`` when converted to ``dtype`` (65 520 for float16).

    It is the largest finite value plus half a unit in its last place: anything at or above it rounds up
    to infinity under round-to-nearest-even. Computed with Python integers, so it is exact for every dtype,
    float64 included (``2**1024 − 2**970``).

    Args:
        dtype: A floating-point ``torch.dtype``.

    Returns:
        The threshold as a Python ``int``.

    Raises:
        TypeError: ``dtype`` is not a floating-point ``torch.dtype``.

    Examples:
        >>> first_overflowing_integer(torch.float16)
        65520
        >>> first_overflowing_integer(torch.float64) == 2**1024 - 2**970
        True
    """
    info = torch.finfo(check_float_dtype(dtype))
    # info.max = m · 2**e with m in [0.5, 1): its ulp is eps · 2**(e − 1). Both are exact powers of two.
    top_ulp = math.ldexp(info.eps, math.frexp(info.max)[1] - 1)
    return int(info.max) + int(top_ulp) // 2


def log_spaced_positions(stop: int, per_decade: int = 40) -> torch.Tensor:
    """Distinct integer positions ``1 … stop`` spaced evenly on a log scale (always includes ``stop``).

    Rounding to integers merges points that are closer than 1, so there can be fewer than ``per_decade``
    positions in the first decades.

    Args:
        stop: The last position; an integer >= 1.
        per_decade: Points per factor of 10 before rounding and merging; an integer >= 1.

    Returns:
        A sorted int64 tensor of distinct positions, starting at 1 and ending at ``stop``.

    Raises:
        TypeError: ``stop`` or ``per_decade`` is not an integer.
        ValueError: ``stop`` or ``per_decade`` is < 1.

    Examples:
        >>> log_spaced_positions(100, per_decade=2)
        tensor([  1,   3,  10,  32, 100])
    """
    stop = check_int("stop", stop, minimum=1)
    per_decade = check_int("per_decade", per_decade, minimum=1)
    n = max(2, math.ceil(math.log10(stop) * per_decade) + 1)
    grid = torch.logspace(0, math.log10(stop), n, dtype=torch.float64).round().to(torch.int64)
    return torch.unique(torch.cat((grid, torch.tensor([stop]))))
