"""What the table checker (:mod:`pe_docs.identify`), the layout converters (:mod:`pe_docs.layouts`) and
``pe_docs.variants`` share: a check of a table argument, the phase of positions at frequencies, tensor2tensor's
frequencies and the frequencies of each formula bug. Private to the package (not in ``pe_docs``' API), and part of
its core, which imports nothing from ``pe_docs.variants`` or ``pe_docs.analysis``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch

from pe_docs._checks import check_d_model


def check_table(table: object, name: str = "table") -> torch.Tensor:
    """``table`` if it is a tensor of at least one dimension whose last size is a valid ``d_model``.

    Raises:
        TypeError: ``table`` is not a tensor.
        ValueError: ``table`` is 0-D, or its last dimension is not a valid ``d_model``.
    """
    if not isinstance(table, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(table).__name__}")
    if table.dim() < 1:
        raise ValueError(f"{name} must have at least one dimension, got shape {tuple(table.shape)}")
    check_d_model(table.size(-1), f"{name}.size(-1)")
    return table


def phases_of(positions: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The phase ``p · w`` of every position and frequency, in float64, shape ``(len(positions), len(w))``."""
    return positions.to(torch.float64)[:, None] * w[None, :]


def t2t_frequencies(d: int, max_timescale: float, min_timescale: float = 1.0) -> torch.Tensor:
    """tensor2tensor's ``d // 2`` frequencies, ``min_timescale · exp(-k · ln(max_timescale / min_timescale) / (n - 1))``
    for ``k = 0 … n - 1`` (from 1 to ``1/max_timescale`` when ``min_timescale`` is 1), float64."""
    n = d // 2
    increment = math.log(max_timescale / min_timescale) / max(n - 1, 1)
    return min_timescale * torch.exp(-increment * torch.arange(n, dtype=torch.float64))


def _odd_cosine(two_i: torch.Tensor, d: int, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return b ** (-two_i / d), b ** (-(two_i + 1) / d)


def _doubled(two_i: torch.Tensor, d: int, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    w = b ** (-(2 * two_i) / d)
    return w, w


def _doubled_and_odd(two_i: torch.Tensor, d: int, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return b ** -(2 * two_i / d), b ** -(2 * (two_i + 1) / d)


def _integer(two_i: torch.Tensor, d: int, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    w = torch.ones_like(two_i)
    return w, w


FORMULA_BUGS: dict[str, tuple[str, Callable[..., tuple[torch.Tensor, torch.Tensor]]]] = {
    "odd-cosine-exponent": (
        "BUG: cosine uses exponent (2i+1)/d; fix: use 2i/d for both columns of a pair",
        _odd_cosine,
    ),
    "doubled-exponent": (
        "BUG: exponent 4i/d; fix: w_i = base ** (-arange(0, d, 2) / d), no extra factor 2",
        _doubled,
    ),
    "doubled-and-odd-exponent": ("BUG: both of the above (seed notebook 003); fix both exponents", _doubled_and_odd),
    "integer-exponent": ("BUG: every frequency is 1 (integer arithmetic); fix: arange(..., dtype=float64)", _integer),
}
"""The formula bugs of the bug gallery, in the order the checker tries them: name -> (the checker's description,
``(2i, d, base)`` -> (sine frequencies, cosine frequencies) in float64). The one list of them: a new bug added here
is built by :func:`bug_frequencies` and recognised by ``identify_table``."""


def bug_frequencies(name: str, d: int, base: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(sine frequencies, cosine frequencies) of formula bug ``name`` (a key of :data:`FORMULA_BUGS`), float64."""
    two_i = torch.arange(0, d, 2, dtype=torch.float64)
    return FORMULA_BUGS[name][1](two_i, d, torch.tensor(base, dtype=torch.float64))
