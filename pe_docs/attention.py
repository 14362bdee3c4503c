"""Plain single-head self-attention, used to show why a Transformer needs positions at all."""

from __future__ import annotations

import math

import torch


def self_attention(
    x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor, w_v: torch.Tensor
) -> torch.Tensor:
    """``softmax(Q Kᵀ / √d_k) V`` with ``Q = x W_q``, ``K = x W_k``, ``V = x W_v``; no mask, no positions.

    Args:
        x: Inputs of shape ``(seq, d_model)`` or ``(batch, seq, d_model)``.
        w_q: Query projection of shape ``(d_model, d_k)``.
        w_k: Key projection of shape ``(d_model, d_k)``.
        w_v: Projection of shape ``(d_model, d_v)``.

    Returns:
        Outputs of shape ``(..., seq, d_v)``. Permuting the rows of ``x`` permutes the rows of the output
        in the same way (the operation is permutation-equivariant): on its own it cannot tell order.
    """
    for name, t in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{name} must be a torch.Tensor, got {type(t).__name__}")
    if x.dim() not in (2, 3):
        raise ValueError(f"x must have shape (seq, d_model) or (batch, seq, d_model), got {tuple(x.shape)}")
    d_model = x.size(-1)
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.dim() != 2 or w.size(0) != d_model:
            raise ValueError(f"{name} must have shape ({d_model}, k), got {tuple(w.shape)}")
    if w_q.size(1) != w_k.size(1):
        raise ValueError(f"w_q and w_k must have the same width, got {w_q.size(1)} and {w_k.size(1)}")
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return torch.softmax(scores, dim=-1) @ v
