"""What attention sees of positions alone: ``(PE_i W_Q) · (PE_j W_K)`` per head, computed at once.

Without projections, ``PE_i · PE_j = Σ cos((j − i)·w)`` depends only on the offset and is the same for
``±k`` (no direction). With generic projections ``W_Q``, ``W_K`` the score depends on ``i`` and ``j``
separately: the relative structure of the table survives only if the learned ``W_Q W_Kᵀ`` respects its
sin/cos pairs.
"""

from __future__ import annotations

import math

import torch

from pe_docs._checks import check_int


def position_scores(
    table: torch.Tensor, w_q: torch.Tensor | None = None, w_k: torch.Tensor | None = None, *, n_heads: int = 1
) -> torch.Tensor:
    """Scaled dot products of projected positions, shape ``(n_heads, L, L)``, float64.

    ``scores[h, i, j] = (PE_i W_Q)_h · (PE_j W_K)_h / √d_k`` where ``(·)_h`` is head ``h``'s slice of
    ``d_k = width / n_heads`` columns. Omitting both projections uses the identity (the plain dot
    product, divided by ``√d_k``).

    Args:
        table: ``(L, d)`` positional table.
        w_q: ``(d, width)`` query projection; give both projections or neither.
        w_k: ``(d, width)`` key projection; give both projections or neither.
        n_heads: Number of heads; must divide ``width``.

    Examples:
        >>> from pe_docs import sinusoidal_table
        >>> position_scores(sinusoidal_table(5, 8)).shape
        torch.Size([1, 5, 5])
    """
    if not isinstance(table, torch.Tensor) or table.dim() != 2:
        raise ValueError(f"table must be a 2-D tensor (L, d), got {table!r}")
    if (w_q is None) != (w_k is None):
        raise ValueError("pass both w_q and w_k, or neither")
    n_heads = check_int("n_heads", n_heads, minimum=1)
    t = table.to(torch.float64)
    if w_q is None or w_k is None:
        q = k = t
    else:
        for name, w in (("w_q", w_q), ("w_k", w_k)):
            if not isinstance(w, torch.Tensor) or w.dim() != 2 or w.size(0) != t.size(1):
                shape = tuple(w.shape) if isinstance(w, torch.Tensor) else type(w).__name__
                raise ValueError(f"{name} must have shape ({t.size(1)}, width), got {shape}")
        if w_q.shape != w_k.shape:
            raise ValueError(
                f"w_q and w_k must have the same shape, got {tuple(w_q.shape)} and {tuple(w_k.shape)}"
            )
        q, k = t @ w_q.to(torch.float64), t @ w_k.to(torch.float64)
    width = q.size(1)
    if width % n_heads:
        raise ValueError(f"n_heads must divide the projected width {width}, got n_heads={n_heads}")
    d_k = width // n_heads
    qh = q.reshape(-1, n_heads, d_k).transpose(0, 1)
    kh = k.reshape(-1, n_heads, d_k).transpose(0, 1)
    return qh @ kh.transpose(-2, -1) / math.sqrt(d_k)


def offset_statistics(scores: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Mean and standard deviation of ``scores[..., i, i + k]`` over ``i``, for every offset ``k = j − i``.

    Args:
        scores: ``(..., L, L)``.

    Returns:
        ``(offsets, mean, std)``: offsets ``−(L−1) … L−1`` and tensors of shape ``(..., 2L − 1)``. ``std``
        is zero for every offset exactly when the scores are a function of ``j − i`` alone.

    Examples:
        >>> s = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
        >>> offset_statistics(s)[1]
        tensor([-1.,  0.,  1.], dtype=torch.float64)
    """
    if not isinstance(scores, torch.Tensor) or scores.dim() < 2 or scores.size(-1) != scores.size(-2):
        raise ValueError(f"scores must be a tensor of shape (..., L, L), got {scores!r}")
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
    return torch.arange(-(length - 1), length), mean, var.sqrt()


def non_relative_fraction(scores: torch.Tensor) -> float:
    """How far scores are from depending on ``j − i`` alone.

    Returns ``sqrt(mean within-offset variance / total variance)``.

    0 means a pure function of the offset; values near 1 mean the offset explains almost nothing.
    Averaged over every leading (head) dimension.
    """
    _, _mean, std = offset_statistics(scores)
    s = scores.to(torch.float64)
    total = s.var(dim=(-2, -1), unbiased=False).mean()
    length = scores.size(-1)
    count = torch.bincount(
        (torch.arange(length)[None, :] - torch.arange(length)[:, None] + length - 1).flatten(),
        minlength=2 * length - 1,
    ).to(torch.float64)
    within = ((std**2) * count).sum(-1).mean() / (length * length)
    if total == 0:
        return 0.0
    return math.sqrt(float(within / total))
