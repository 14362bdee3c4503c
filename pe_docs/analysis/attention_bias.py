"""What attention sees of positions alone: ``(PE_i W_Q) · (PE_j W_K)`` per head, computed at once.

Without projections, ``PE_i · PE_j = Σ cos((j − i)·w)`` depends only on the offset and is the same for
``±k`` (no direction). With generic projections ``W_Q``, ``W_K`` the score depends on ``i`` and ``j``
separately: the relative structure of the table survives only if the learned ``W_Q W_Kᵀ`` respects its
sin/cos pairs.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch

from pe_docs._checks import check_int, check_real_tensor


def position_scores(
    table: torch.Tensor, w_q: torch.Tensor | None = None, w_k: torch.Tensor | None = None, *, n_heads: int = 1
) -> torch.Tensor:
    """Scaled dot products of projected positions, shape ``(n_heads, L, L)``, float64.

    ``scores[h, i, j] = (PE_i W_Q)_h · (PE_j W_K)_h / √d_k`` where ``(·)_h`` is head ``h``'s slice of
    ``d_k = width / n_heads`` columns. Omitting both projections uses the identity (the plain dot
    product, divided by ``√d_k``).

    Args:
        table: ``(L, d)`` positional table; real floating point, finite, with ``L >= 1`` and ``d >= 1``.
        w_q: ``(d, width)`` query projection (real floating point, finite, ``width >= 1``); give both
            projections or neither.
        w_k: ``(d, width)`` key projection, the same shape as ``w_q``.
        n_heads: Number of heads; an integer >= 1 that divides ``width`` (``d`` without projections).

    Returns:
        A float64 tensor of shape ``(n_heads, L, L)``.

    Raises:
        TypeError: ``table``, ``w_q`` or ``w_k`` is not a real floating-point tensor, or ``n_heads`` is not
            an integer.
        ValueError: a tensor has the wrong number of dimensions, an empty dimension, or NaN/infinite
            entries; only one projection is given; the projections' shapes do not match ``(d, width)`` or
            each other; ``n_heads`` < 1 or does not divide ``width``.

    Examples:
        >>> from pe_docs import sinusoidal_table
        >>> position_scores(sinusoidal_table(5, 8)).shape
        torch.Size([1, 5, 5])
        >>> position_scores(torch.eye(2), torch.eye(2), 2 * torch.eye(2), n_heads=2)
        tensor([[[2., 0.],
                 [0., 0.]],
        <BLANKLINE>
                [[0., 0.],
                 [0., 2.]]], dtype=torch.float64)
    """
    table = check_real_tensor("table", table, ndim=2)
    if table.size(0) < 1 or table.size(1) < 1:
        raise ValueError(f"table must have L >= 1 rows and d >= 1 columns, got shape {tuple(table.shape)}")
    if (w_q is None) != (w_k is None):
        raise ValueError(f"pass both w_q and w_k, or neither; got w_q={_describe(w_q)} and w_k={_describe(w_k)}")
    n_heads = check_int("n_heads", n_heads, minimum=1)
    t = table.to(torch.float64)
    if w_q is None or w_k is None:
        q = k = t
    else:
        for name, w in (("w_q", w_q), ("w_k", w_k)):
            check_real_tensor(name, w, ndim=2)
            if w.size(0) != t.size(1) or w.size(1) < 1:
                raise ValueError(f"{name} must have shape ({t.size(1)}, width) with width >= 1, got {tuple(w.shape)}")
        if w_q.shape != w_k.shape:
            raise ValueError(f"w_q and w_k must have the same shape, got {tuple(w_q.shape)} and {tuple(w_k.shape)}")
        q, k = t @ w_q.to(torch.float64), t @ w_k.to(torch.float64)
    width = q.size(1)
    if width % n_heads:
        raise ValueError(f"n_heads must divide the projected width {width}, got n_heads={n_heads}")
    d_k = width // n_heads
    qh = q.reshape(-1, n_heads, d_k).transpose(0, 1)
    kh = k.reshape(-1, n_heads, d_k).transpose(0, 1)
    return qh @ kh.transpose(-2, -1) / math.sqrt(d_k)


class _OffsetMoments(NamedTuple):
    offsets: torch.Tensor  # −(L−1) … L−1
    mean: torch.Tensor  # (..., 2L − 1)
    var: torch.Tensor  # (..., 2L − 1), population variance within each offset
    pairs: torch.Tensor  # (2L − 1,), number of (i, j) pairs with j − i = offset (`count` would hide tuple.count)


def _offset_moments(scores: object) -> _OffsetMoments:
    """Mean and (population) variance of ``scores[..., i, j]`` grouped by ``j − i``, in float64."""
    scores = check_real_tensor("scores", scores)
    if scores.dim() < 2 or scores.size(-1) != scores.size(-2) or scores.size(-1) < 1:
        raise ValueError(f"scores must have shape (..., L, L) with L >= 1, got shape {tuple(scores.shape)}")
    length = scores.size(-1)
    s = scores.to(torch.float64)
    i = torch.arange(length)
    offset = (i[None, :] - i[:, None] + length - 1).flatten()  # j - i, shifted to 0 … 2L-2
    flat = s.reshape(*s.shape[:-2], length * length)
    count = torch.bincount(offset, minlength=2 * length - 1).to(torch.float64)
    zeros = torch.zeros(*s.shape[:-2], 2 * length - 1, dtype=torch.float64)
    mean = zeros.index_add(-1, offset, flat) / count
    centred = flat - mean[..., offset]
    var = zeros.index_add(-1, offset, centred**2) / count
    return _OffsetMoments(torch.arange(-(length - 1), length), mean, var, count)


def offset_statistics(scores: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Mean and standard deviation of ``scores[..., i, i + k]`` over ``i``, for every offset ``k = j − i``.

    Args:
        scores: A real floating-point tensor of shape ``(..., L, L)`` with ``L >= 1``, every entry finite
            (e.g. the output of ``position_scores``).

    Returns:
        ``(offsets, mean, std)``: the int64 offsets ``−(L−1) … L−1`` and two float64 tensors of shape
        ``(..., 2L − 1)``. ``std`` is the population standard deviation over the ``L − |k|`` entries of
        each diagonal (0 for the two corner offsets, which have one entry). ``std`` is zero for every
        offset exactly when the scores are a function of ``j − i`` alone.

    Raises:
        TypeError: ``scores`` is not a real floating-point tensor.
        ValueError: ``scores`` is not of shape ``(..., L, L)`` with ``L >= 1``, or holds NaN or an infinity.

    Examples:
        >>> s = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
        >>> offsets, mean, std = offset_statistics(s)
        >>> offsets
        tensor([-1,  0,  1])
        >>> mean
        tensor([-1.,  0.,  1.], dtype=torch.float64)
        >>> std
        tensor([0., 0., 0.], dtype=torch.float64)
    """
    moments = _offset_moments(scores)
    return moments.offsets, moments.mean, moments.var.sqrt()


def non_relative_fraction(scores: torch.Tensor) -> float:
    """How far scores are from depending on ``j − i`` alone, as a ratio of standard deviations.

    ``sqrt(within / total)``, where ``within`` is the variance of the scores left inside each offset
    ``j − i`` (the mean over all ``L²`` entries of the squared deviation from their offset's mean) and
    ``total`` is the variance of all ``L²`` scores. Both are averaged over the leading (head) dimensions
    before the ratio is taken. Its square is the share of the variance that the offset does not explain.

    Args:
        scores: A real floating-point tensor of shape ``(..., L, L)`` with ``L >= 1``, every entry finite.

    Returns:
        A float in ``[0, 1]`` (up to rounding): 0 for a pure function of the offset, near 1 when the offset
        explains almost nothing. 0.0 when the scores are constant (no variance to explain).

    Raises:
        TypeError: ``scores`` is not a real floating-point tensor.
        ValueError: ``scores`` is not of shape ``(..., L, L)`` with ``L >= 1``, or holds NaN or an infinity.

    Examples:
        >>> non_relative_fraction(torch.tensor([[0.0, 1.0], [-1.0, 0.0]]))  # depends on j − i only
        0.0
        >>> non_relative_fraction(torch.tensor([[1.0, 0.0], [0.0, -1.0]]))  # offset 0 holds 1 and -1
        1.0
    """
    moments = _offset_moments(scores)
    length = moments.offsets.numel() // 2 + 1
    s = scores.to(torch.float64)
    total = s.var(dim=(-2, -1), unbiased=False).mean()
    if total == 0:
        return 0.0
    within = (moments.var * moments.pairs).sum(-1).mean() / (length * length)
    return math.sqrt(float(within / total))


def _describe(value: object) -> str:
    if isinstance(value, torch.Tensor):
        return f"tensor of shape {tuple(value.shape)}"
    return type(value).__name__
