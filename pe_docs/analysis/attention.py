"""Plain single-head self-attention, used to show why a Transformer needs positions at all."""

from __future__ import annotations

import math

import torch

from pe_docs._checks import check_real_tensor


def self_attention(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor, w_v: torch.Tensor) -> torch.Tensor:
    """``softmax(Q Kᵀ / √d_k) V`` with ``Q = x W_q``, ``K = x W_k``, ``V = x W_v``; no mask, no positions.

    All four arguments must be real floating-point tensors of one dtype on one device (nothing is cast
    silently). Non-finite entries are not rejected; they propagate to the output.

    Args:
        x: Inputs of shape ``(seq, d_model)`` or ``(batch, seq, d_model)``, ``d_model >= 1``.
        w_q: Query projection of shape ``(d_model, d_k)``, ``d_k >= 1``.
        w_k: Key projection of shape ``(d_model, d_k)``.
        w_v: Value projection of shape ``(d_model, d_v)``, ``d_v >= 1``.

    Returns:
        Outputs of shape ``(..., seq, d_v)`` in the inputs' dtype. Permuting the rows of ``x`` permutes the
        rows of the output in the same way (the operation is permutation-equivariant): on its own it cannot
        tell order.

    Raises:
        TypeError: an argument is not a tensor, not real floating point, or has a different dtype from
            ``x``.
        ValueError: an argument has the wrong shape, a width (``d_model``, ``d_k``, ``d_v``) is 0, ``w_q``
            and ``w_k`` differ in width, or an argument is on a different device from ``x``.

    Examples:
        >>> x = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> w = torch.eye(2)
        >>> self_attention(x, w, w, w)
        tensor([[0.6698, 0.3302],
                [0.3302, 0.6698]])
        >>> self_attention(x.flip(0), w, w, w)  # the same rows, permuted the same way
        tensor([[0.3302, 0.6698],
                [0.6698, 0.3302]])
        >>> self_attention(x, w.double(), w, w)
        Traceback (most recent call last):
        ...
        TypeError: w_q must have the same dtype as x (torch.float32), got torch.float64
    """
    check_real_tensor("x", x, finite=False)
    if x.dim() not in (2, 3):
        raise ValueError(f"x must have shape (seq, d_model) or (batch, seq, d_model), got {tuple(x.shape)}")
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        check_real_tensor(name, w, finite=False)
        if w.dtype != x.dtype:
            raise TypeError(f"{name} must have the same dtype as x ({x.dtype}), got {w.dtype}")
        if w.device != x.device:
            raise ValueError(f"{name} must be on the same device as x ({x.device}), got {w.device}")
    d_model = x.size(-1)
    if d_model < 1:
        raise ValueError(f"x must have a last dimension (d_model) >= 1, got shape {tuple(x.shape)}")
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.dim() != 2 or w.size(0) != d_model:
            raise ValueError(f"{name} must have shape ({d_model}, k), got {tuple(w.shape)}")
        if w.size(1) < 1:
            raise ValueError(f"{name} must have a width (second dimension) >= 1, got shape {tuple(w.shape)}")
    if w_q.size(1) != w_k.size(1):
        raise ValueError(f"w_q and w_k must have the same width, got {w_q.size(1)} and {w_k.size(1)}")
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return torch.softmax(scores, dim=-1) @ v
