"""Why no two rows of the table are equal, how close they come, and where finite precision makes them equal.

For integer positions ``p ≠ q`` the rows differ already in their first pair: ``(sin p, cos p) = (sin q,
cos q)`` would need ``p − q = 2πk`` for an integer ``k ≠ 0``, i.e. ``π = (p − q)/(2k)`` rational — and π is
irrational. Different is not far apart, though: pair 0 alone comes back arbitrarily close to where it was
(``closest_returns``), and a table stored in a floating-point format can make rows equal
(``first_duplicate_row``) or make a computed row sit closer to another position's exact row than to its own
(``misplaced_rows``). The distance between two exact rows is ``offset_distances`` (:mod:`pe_docs.analysis.geometry`).
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from pe_docs._checks import check_base, check_d_model, check_int, check_real_tensor
from pe_docs.analysis.numerics import exact_rows


class ClosestReturn(NamedTuple):
    """An offset after which the angle ``p`` (pair 0, ``w_0 = 1``) comes back closer to where it started
    than after any smaller offset.

    Attributes:
        offset: The offset ``n`` in positions.
        turns: The whole number of turns ``k`` it is closest to.
        gap: ``n − 2πk`` in radians (signed), computed with 50 significant digits.
        chord: ``2·|sin(n/2)|``, the distance between pair 0 of two rows ``n`` positions apart.
    """

    offset: int
    turns: int
    gap: float
    chord: float


def closest_returns(max_offset: int) -> list[ClosestReturn]:
    """Every offset ``n <= max_offset`` at which ``n`` radians comes closer to a multiple of 2π than all
    smaller offsets do (the record approaches).

    Writing ``|n − 2πk| = 2π·|n·α − k|`` with ``α = 1/(2π)``, the records of the distance from ``n·α`` to
    the nearest integer are exactly the denominators of the continued-fraction convergents of ``α`` (best
    approximations of the second kind), so the list comes from that continued fraction, computed with
    mpmath at 50 digits; the tests compare it with a brute-force search.

    Args:
        max_offset: Largest offset; an integer >= 1.

    Returns:
        The records in increasing order of offset (decreasing ``|gap|``), starting with offset 1.

    Raises:
        TypeError: ``max_offset`` is not an integer.
        ValueError: ``max_offset`` < 1 or > ``10**15``.

    Examples:
        >>> [(r.offset, r.turns) for r in closest_returns(1000)]
        [(1, 0), (6, 1), (19, 3), (25, 4), (44, 7), (333, 53), (710, 113)]
        >>> f"{closest_returns(1000)[-1].gap:.2e}"
        '6.03e-05'
    """
    n_max = check_int("max_offset", max_offset, minimum=1)
    if n_max > 10**15:
        raise ValueError(f"max_offset must be <= 10**15 (50-digit arithmetic), got {n_max}")
    import mpmath

    out = []
    with mpmath.workdps(50):
        two_pi = 2 * mpmath.pi
        x = 1 / two_pi  # α = [0; a1, a2, ...]; convergent j is p_j / q_j
        p_prev, p = mpmath.mpf(1), mpmath.mpf(0)
        q_prev, q = mpmath.mpf(0), mpmath.mpf(1)
        a = mpmath.floor(x)
        x = x - a
        while q <= n_max:
            gap = q - two_pi * p
            out.append(ClosestReturn(int(q), int(p), float(gap), float(abs(2 * mpmath.sin(q / 2)))))
            if x == 0:
                break
            x = 1 / x
            a = mpmath.floor(x)
            x = x - a
            p_prev, p = p, a * p + p_prev
            q_prev, q = q, a * q + q_prev
    return out


def first_duplicate_row(table: torch.Tensor) -> tuple[int, int] | None:
    """The first row that equals an earlier row exactly, as ``(i, j)`` with ``i < j``; ``None`` if all differ.

    ``j`` is the smallest index whose row occurred before, and ``i`` the first index holding that row.
    Rows are compared value by value (``0.0 == -0.0``), after an exact conversion to float64.

    Args:
        table: A 2-D floating-point tensor (NaN not allowed: it equals nothing, not even itself).

    Returns:
        ``(i, j)`` or ``None``.

    Raises:
        TypeError: ``table`` is not a real floating-point tensor.
        ValueError: ``table`` is not 2-D or holds NaN or an infinity.

    Examples:
        >>> first_duplicate_row(torch.tensor([[0.0, 1.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]))
        (0, 2)
        >>> first_duplicate_row(torch.eye(3)) is None
        True
    """
    t = check_real_tensor("table", table, ndim=2).detach().to(device="cpu", dtype=torch.float64)
    t = t + 0.0  # -0.0 + 0.0 is +0.0: equal values get equal bits
    n = t.size(0)
    if n < 2:
        return None
    _, inverse = torch.unique(t, dim=0, return_inverse=True)
    first = torch.full((int(inverse.max()) + 1,), n, dtype=torch.int64)
    first = first.scatter_reduce(0, inverse, torch.arange(n), reduce="amin")
    earlier = first[inverse]  # first index holding each row's value
    repeats = torch.nonzero(earlier < torch.arange(n)).flatten()
    if not repeats.numel():
        return None
    j = int(repeats[0])
    return int(earlier[j]), j


def misplaced_rows(
    rows: torch.Tensor, positions: torch.Tensor, *, base: float = 10000.0, radius: int = 1
) -> torch.Tensor:
    """Which computed rows are at least as close to a neighbouring position's exact row as to their own.

    Row ``n`` of ``rows`` is meant to be position ``positions[n]``. It is *misplaced* if for some offset
    ``0 < |δ| <= radius`` the exact row of ``positions[n] + δ`` (``pe_docs.analysis.exact_rows``, float64) is at
    least as close to it as the exact row of ``positions[n]``: from the vector alone, the position can no
    longer be told from its neighbour's.

    Args:
        rows: Computed rows, a 2-D floating-point tensor of shape ``(N, d_model)``, interleaved layout.
        positions: Their positions, a 1-D integer tensor of length ``N``, each ``>= radius``.
        base: The constant of the encoding; finite and > 0.
        radius: How many neighbours on each side to compare with; an integer >= 1.

    Returns:
        A bool tensor of shape ``(N,)``.

    Raises:
        TypeError: ``rows`` is not a real floating-point tensor, ``positions`` not an integer tensor, or
            ``radius`` not an integer.
        ValueError: the shapes do not match, ``d_model`` is odd, or a position is below ``radius``.

    Examples:
        >>> exact = exact_rows([5, 6], 4)
        >>> misplaced_rows(exact, torch.tensor([5, 6])).tolist()
        [False, False]
        >>> misplaced_rows(exact_rows([6], 4), torch.tensor([5])).tolist()  # row 6 labelled as position 5
        [True]
    """
    r = check_real_tensor("rows", rows, ndim=2).detach().to(device="cpu", dtype=torch.float64)
    if not isinstance(positions, torch.Tensor):
        raise TypeError(f"positions must be a torch.Tensor, got {type(positions).__name__}")
    if positions.dtype.is_floating_point or positions.dtype.is_complex or positions.dtype == torch.bool:
        raise TypeError(f"positions must be an integer tensor, got dtype {positions.dtype}")
    radius = check_int("radius", radius, minimum=1)
    if positions.dim() != 1 or positions.numel() != r.size(0):
        raise ValueError(
            f"positions must be 1-D with one entry per row ({r.size(0)}), got shape {tuple(positions.shape)}"
        )
    d = check_d_model(r.size(1), "rows.size(1)")
    base = check_base(base)
    pos = positions.detach().cpu().to(torch.int64)
    if pos.numel() and int(pos.min()) < radius:
        raise ValueError(f"positions must be >= radius={radius}, got {int(pos.min())}")
    own = torch.linalg.vector_norm(r - exact_rows(pos, d, base=base), dim=1)
    out = torch.zeros(len(pos), dtype=torch.bool)
    for delta in [*range(-radius, 0), *range(1, radius + 1)]:
        other = torch.linalg.vector_norm(r - exact_rows(pos + delta, d, base=base), dim=1)
        out |= other <= own
    return out
