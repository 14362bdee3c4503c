"""How alike two positions look: neighbour similarity, distinctness of rows, and the binary-counter code.

For the sinusoidal table, ``PE[p] · PE[p+k] = Σ_i cos(k·w_i)`` and ``‖PE[p]‖² = d/2``, so the cosine
similarity of two rows depends only on their offset ``k``:
``s(k) = (2/d) · Σ_i cos(k·w_i)``. This module computes ``s(k)`` from that closed form, finds where it first
rises and first turns negative, measures the smallest distance between any two rows of a table (to show every
position gets its own code), and builds the binary code of ``0 … N−1`` for the binary-counter comparison.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch

from pe_docs._checks import check_base, check_d_model, check_int, check_real_tensor
from pe_docs.frequencies import inverse_frequencies

_CHUNK_ELEMENTS = 1 << 22  # elements per block in chunked computations (~32 MB of float64)


def neighbour_similarity(d_model: int, max_k: int, *, base: float = 10000.0) -> torch.Tensor:
    """Cosine similarity of ``PE[p]`` and ``PE[p+k]`` for ``k = 0 … max_k``, from the closed form.

    ``s(k) = (2/d) · Σ_{i<d/2} cos(k·w_i)``, the same for every ``p`` and for ``±k``. Computed in float64
    in blocks of ``k``, so ``max_k`` can be large.

    Args:
        d_model: Width; a positive even integer.
        max_k: Largest offset; an integer >= 0.
        base: The constant of the encoding; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_k + 1,)``; entry ``k`` is ``s(k)`` and entry 0 is 1.

    Raises:
        TypeError: ``d_model`` or ``max_k`` is not an integer, ``base`` is not a real number.
        ValueError: ``d_model`` is odd or < 1, ``max_k`` < 0, ``base`` invalid.

    Examples:
        >>> neighbour_similarity(4, 1)
        tensor([1.0000, 0.7701], dtype=torch.float64)
    """
    d = check_d_model(d_model)
    max_k = check_int("max_k", max_k, minimum=0)
    base = check_base(base)
    w = inverse_frequencies(d, base=base, dtype=torch.float64)
    k = torch.arange(max_k + 1, dtype=torch.float64)
    step = max(1, _CHUNK_ELEMENTS // w.numel())
    blocks = [torch.cos(k[s : s + step, None] * w[None, :]).sum(dim=1) for s in range(0, max_k + 1, step)]
    return torch.cat(blocks) * (2.0 / d)


def first_rise(values: torch.Tensor) -> int | None:
    """The first index ``k`` with ``values[k + 1] > values[k]`` (the first local minimum), or ``None``.

    Applied to ``neighbour_similarity``, it is the offset ``k`` after which a farther position
    (``k + 1``) looks *more* like ``p`` than a nearer one: up to ``k`` the similarity decreases, then it
    rises, so it is not monotone.

    Args:
        values: A 1-D tensor, floating point (every entry finite) or integer. Ties are not a rise.

    Returns:
        The index ``k``, or ``None`` if the sequence never rises (including when it has fewer than 2 entries).

    Raises:
        TypeError: ``values`` is not a tensor, or is complex or bool.
        ValueError: ``values`` is not 1-D, or holds NaN or an infinity (a NaN compares false with everything,
            so a rise next to it would be silently skipped).

    Examples:
        >>> first_rise(torch.tensor([3.0, 2.0, 2.5, 1.0]))
        1
    """
    v = _check_values("values", values, ndim=1)
    up = torch.nonzero(v[1:] > v[:-1])
    return int(up[0, 0]) if up.numel() else None


def first_negative(values: torch.Tensor) -> int | None:
    """The first index ``k`` with ``values[k] < 0``, or ``None`` if there is none.

    Args:
        values: A 1-D tensor, floating point (every entry finite) or integer. ``-0.0`` is not negative.

    Returns:
        The index, or ``None`` if no value is negative.

    Raises:
        TypeError: ``values`` is not a tensor, or is complex or bool.
        ValueError: ``values`` is not 1-D, or holds NaN or an infinity.

    Examples:
        >>> first_negative(torch.tensor([1.0, 0.2, -0.1, 0.3]))
        2
    """
    v = _check_values("values", values, ndim=1)
    neg = torch.nonzero(v < 0)
    return int(neg[0, 0]) if neg.numel() else None


class RowDistance(NamedTuple):
    """The closest pair of rows of a table: their Euclidean distance and indices ``i < j``."""

    distance: float
    i: int
    j: int


def min_row_distance(table: torch.Tensor) -> RowDistance:
    """The smallest Euclidean distance between two different rows of ``table``, and which rows.

    Every pair ``i < j`` is compared on the CPU in float64, in blocks of rows so that memory stays bounded
    (about 4 million distances, 32 MB, at a time). Each distance is formed from the differences of the two
    rows (``torch.cdist`` without the ``‖a‖² + ‖b‖² − 2a·b`` shortcut, which cancels catastrophically for
    rows that are close together but far from the origin), so the pair found is the closest one to float64
    rounding. A result > 0 proves that no two positions share a code. Of several equally close pairs, the
    one with the smallest ``i``, then the smallest ``j``, is returned.

    Args:
        table: A 2-D tensor with at least two rows: floating point with every entry finite, or integer
            (converted to float64).

    Returns:
        ``RowDistance(distance, i, j)`` with ``i < j``; ``distance`` is ``‖table[i] − table[j]‖``.

    Raises:
        TypeError: ``table`` is not a tensor, or is complex or bool.
        ValueError: ``table`` is not 2-D, has fewer than two rows, or holds NaN or an infinity.

    Examples:
        >>> min_row_distance(torch.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]]))
        RowDistance(distance=1.0, i=0, j=2)
        >>> min_row_distance(torch.tensor([[1e4, 0.0], [1e4, 3e-5], [1e4, 1e-5]], dtype=torch.float64))
        RowDistance(distance=1e-05, i=0, j=2)
    """
    x = _check_values("table", table, ndim=2)
    if x.size(0) < 2:
        raise ValueError(f"table must have at least 2 rows, got shape {tuple(x.shape)}")
    x = x.to(device="cpu", dtype=torch.float64)
    n = x.size(0)
    best, best_i, best_j = math.inf, 0, 1
    step = max(1, _CHUNK_ELEMENTS // n)
    for s in range(0, n - 1, step):
        e = min(n - 1, s + step)  # rows s … e-1 against columns s … n-1 (the pairs with j > i)
        dist = torch.cdist(x[s:e], x[s:], compute_mode="donot_use_mm_for_euclid_dist")
        local = torch.arange(e - s)
        # each pair once, never a row with itself
        dist[torch.arange(n - s)[None, :] <= local[:, None]] = math.inf
        flat = int(torch.argmin(dist))  # the first minimum in row-major order: smallest i, then j
        value = float(dist.reshape(-1)[flat])
        if value < best:
            row, col = divmod(flat, n - s)
            best, best_i, best_j = value, s + row, s + col
    # recompute the winner from its two rows, so the value does not depend on the blocking
    distance = float(torch.linalg.vector_norm(x[best_i] - x[best_j]))
    return RowDistance(distance, best_i, best_j)


def binary_code(n_positions: int, n_bits: int) -> torch.Tensor:
    """The binary digits of ``0 … n_positions − 1``: column ``b`` is bit ``b`` (least significant first).

    Column ``b`` is a square wave of period ``2^(b+1)``, the discrete counterpart of a sinusoidal column.

    Args:
        n_positions: Number of positions (rows); an integer >= 1.
        n_bits: Number of bits (columns); an integer >= 1 with ``2**n_bits >= n_positions`` (otherwise codes
            would repeat, and nothing is silently truncated).

    Returns:
        An int64 tensor of 0s and 1s with shape ``(n_positions, n_bits)``.

    Raises:
        TypeError: an argument is not an integer.
        ValueError: an argument is < 1, or ``n_positions > 2**n_bits``.

    Examples:
        >>> binary_code(4, 2)
        tensor([[0, 0],
                [1, 0],
                [0, 1],
                [1, 1]])
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    n_bits = check_int("n_bits", n_bits, minimum=1)
    if n_bits > 62:
        raise ValueError(f"n_bits must be <= 62, got {n_bits}")
    if n_positions > 2**n_bits:
        raise ValueError(f"n_positions={n_positions} needs more than n_bits={n_bits} bits (at most {2**n_bits} codes)")
    p = torch.arange(n_positions, dtype=torch.int64)
    return (p[:, None] >> torch.arange(n_bits, dtype=torch.int64)[None, :]) & 1


def _check_values(name: str, value: object, *, ndim: int) -> torch.Tensor:
    """A finite real floating-point tensor or an integer tensor (exact, never NaN) of ``ndim`` dimensions."""
    if isinstance(value, torch.Tensor) and (value.is_complex() or value.dtype == torch.bool):
        raise TypeError(f"{name} must be a real (floating-point or integer) tensor, got dtype {value.dtype}")
    if isinstance(value, torch.Tensor) and not value.is_floating_point():
        if value.dim() != ndim:
            raise ValueError(f"{name} must have {ndim} dimensions, got shape {tuple(value.shape)}")
        return value.detach()
    return check_real_tensor(name, value, ndim=ndim).detach()
