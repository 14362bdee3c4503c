"""Relative-position schemes that act inside attention: Shaw et al. (2018) and Transformer-XL (T5's bucketed bias,
which models use, is in :mod:`pe_docs.bias`).

Each function is the smallest faithful version of the published definition, written to be read and tested
against the reference code it comes from:

* Shaw, Uszkoreit & Vaswani (2018), "Self-Attention with Relative Position Representations": the offset
  ``j − i`` is clipped to ``[−k, k]`` and selects one of ``2k + 1`` learned vectors ``a^K`` (added to the
  keys) and ``a^V`` (added to the values). Reference code: tensor2tensor
  ``tensor2tensor/layers/common_attention.py`` (``_generate_relative_positions_matrix``,
  ``dot_product_attention_relative``).
* Transformer-XL (Dai et al., 2019): the score of query ``i`` and key ``j`` is split into four terms, content
  ``q_i·k_j``, content-position ``q_i·r_{i−j}``, a global content bias ``u·k_j`` and a global position bias
  ``v·r_{i−j}``, where ``r_t = W_{k,R} R_t`` projects row ``t`` of the *sinusoidal table* ``R``. Reference
  code: kimiyoung/transformer-xl ``pytorch/mem_transformer.py`` (``PositionalEmbedding``,
  ``RelPartialLearnableMultiHeadAttn``, ``RelMultiHeadAttn._rel_shift``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch

from pe_docs._checks import check_int, check_real_tensor

# ------------------------------------------------------------------------------------------------ Shaw et al.


def shaw_relative_indices(seq_len: int, max_relative_position: int) -> torch.Tensor:
    """Index of the learned vector that query ``i`` uses for key ``j``: ``clip(j − i, −k, k) + k``.

    Shaw et al. (2018) learn ``2k + 1`` vectors ``w_{−k} … w_k`` and give the pair ``(i, j)`` the vector
    ``w_{clip(j − i, k)}`` with ``clip(x, k) = max(−k, min(k, x))``. Shifted by ``k`` the indices run from 0
    to ``2k``, as in tensor2tensor's ``_generate_relative_positions_matrix``.

    Args:
        seq_len: Number of positions (queries and keys); an integer >= 1.
        max_relative_position: The clipping distance ``k``; an integer >= 1.

    Returns:
        An int64 tensor of shape ``(seq_len, seq_len)`` with values in ``[0, 2k]``.

    Raises:
        TypeError: an argument is not an integer.
        ValueError: an argument is < 1.

    Examples:
        >>> shaw_relative_indices(4, 2)
        tensor([[2, 3, 4, 4],
                [1, 2, 3, 4],
                [0, 1, 2, 3],
                [0, 0, 1, 2]])
    """
    n = check_int("seq_len", seq_len, minimum=1)
    k = check_int("max_relative_position", max_relative_position, minimum=1)
    position = torch.arange(n)
    offset = position[None, :] - position[:, None]  # j - i
    return offset.clamp(-k, k) + k


def shaw_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    rel_k: torch.Tensor,
    rel_v: torch.Tensor,
    *,
    causal: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Self-attention with relative position representations (Shaw et al., 2018, eqs. 3–4).

    With ``a^K_{ij} = rel_k[clip(j − i, m) + m]`` and ``a^V_{ij} = rel_v[clip(j − i, m) + m]`` (``m`` the
    clipping distance, ``rel_k.size(0) = 2m + 1``)::

        e_ij = q_i · (k_j + a^K_ij) / √d,   α = softmax_j(e),   z_i = Σ_j α_ij (v_j + a^V_ij)

    ``q``, ``k``, ``v`` are the already projected ``x W^Q``, ``x W^K``, ``x W^V``. No absolute position
    enters anywhere: shifting the whole sequence changes nothing.

    Args:
        q: Queries, a real floating-point tensor of shape ``(..., seq, d)``.
        k: Keys, same shape as ``q``.
        v: Values, same shape as ``q``.
        rel_k: The ``2m + 1`` key vectors ``w^K_{−m} … w^K_m``, shape ``(2m + 1, d)``, same dtype as ``q``.
        rel_v: The ``2m + 1`` value vectors, shape ``(2m + 1, d)``.
        causal: Mask keys ``j > i`` (a decoder).

    Returns:
        ``(z, weights)``: the outputs, shape ``(..., seq, d)``, and the attention weights, shape
        ``(..., seq, seq)``.

    Raises:
        TypeError: an argument is not a real floating-point tensor, or ``causal`` is not a bool.
        ValueError: shapes do not match, ``rel_k``/``rel_v`` have an even number of rows, or an entry is not
            finite.

    Examples:
        >>> q = k = v = torch.zeros(3, 2)
        >>> rel = torch.tensor([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]])  # m = 1: offsets -1, 0, +1
        >>> z, weights = shaw_attention(q, k, v, rel, rel)
        >>> weights[0]  # zero scores: uniform weights
        tensor([0.3333, 0.3333, 0.3333])
        >>> z[:, 0]  # each query adds a^V of the offsets it sees: +1 for keys after it
        tensor([0.6667, 0.3333, 0.0000])
    """
    q = check_real_tensor("q", q)
    k = check_real_tensor("k", k)
    v = check_real_tensor("v", v)
    rel_k = check_real_tensor("rel_k", rel_k, ndim=2)
    rel_v = check_real_tensor("rel_v", rel_v, ndim=2)
    if q.dim() < 2:
        raise ValueError(f"q must have shape (..., seq, d), got shape {tuple(q.shape)}")
    for name, t in (("k", k), ("v", v)):
        if t.shape != q.shape:
            raise ValueError(f"{name} must have the shape of q {tuple(q.shape)}, got {tuple(t.shape)}")
    d = q.size(-1)
    for name, t in (("rel_k", rel_k), ("rel_v", rel_v)):
        if t.size(0) % 2 == 0 or t.size(1) != d:
            raise ValueError(f"{name} must have shape (2m + 1, d={d}) (an odd number of rows), got {tuple(t.shape)}")
    if rel_k.size(0) != rel_v.size(0):
        raise ValueError(f"rel_k and rel_v must have the same rows, got {rel_k.size(0)} and {rel_v.size(0)}")
    if not isinstance(causal, bool):
        raise TypeError(f"causal must be a bool, got {causal!r}")
    seq = q.size(-2)
    index = shaw_relative_indices(seq, (rel_k.size(0) - 1) // 2).to(q.device)
    a_k, a_v = rel_k[index], rel_v[index]  # (seq, seq, d): a[i, j]
    scores = (q @ k.transpose(-2, -1) + torch.einsum("...id,ijd->...ij", q, a_k)) / math.sqrt(d)
    if causal:
        future = torch.ones(seq, seq, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(future, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    z = weights @ v + torch.einsum("...ij,ijd->...id", weights, a_v)
    return z, weights


# ----------------------------------------------------------------------------------------------- Transformer-XL


class TransformerXLTerms(NamedTuple):
    """The four terms of Transformer-XL's attention score, each of shape ``(..., query_len, key_len)``.

    Attributes:
        content: (a) ``q_i · k_j``.
        content_position: (b) ``q_i · r_{i−j}``.
        global_content: (c) ``u · k_j``, the same for every query.
        global_position: (d) ``v · r_{i−j}``, a function of ``i − j`` alone.
    """

    content: torch.Tensor
    content_position: torch.Tensor
    global_content: torch.Tensor
    global_position: torch.Tensor


def _check_xl(q: torch.Tensor, k: torch.Tensor, r: torch.Tensor, u: torch.Tensor, v: torch.Tensor, mem_len: int) -> int:
    for name, t in (("q", q), ("k", k), ("r", r), ("u", u), ("v", v)):
        check_real_tensor(name, t)
    if q.dim() < 2 or k.dim() < 2:
        raise ValueError(f"q and k must have shape (..., len, d), got {tuple(q.shape)} and {tuple(k.shape)}")
    d = q.size(-1)
    mem_len = check_int("mem_len", mem_len, minimum=0)
    q_len, k_len = q.size(-2), k.size(-2)
    if k.size(-1) != d or k_len != q_len + mem_len:
        raise ValueError(
            f"k must have shape (..., query_len + mem_len = {q_len + mem_len}, d={d}), got {tuple(k.shape)}"
        )
    if r.dim() != 2 or r.shape != (k_len, d):
        raise ValueError(f"r must have shape (key_len={k_len}, d={d}), got {tuple(r.shape)}")
    for name, t in (("u", u), ("v", v)):
        if t.shape != (d,):
            raise ValueError(f"{name} must have shape (d={d},), got {tuple(t.shape)}")
    return mem_len


def transformer_xl_terms(
    q: torch.Tensor, k: torch.Tensor, r: torch.Tensor, u: torch.Tensor, v: torch.Tensor, *, mem_len: int = 0
) -> TransformerXLTerms:
    """Transformer-XL's four score terms, each computed directly from its definition (Dai et al., 2019, §3.3).

    Query ``i`` (``0 … query_len − 1``) sits at position ``mem_len + i``; key ``j`` (``0 … key_len − 1``,
    the ``mem_len`` cached positions first) at position ``j``; their distance is ``t = mem_len + i − j``.
    With ``r[t] = W_{k,R} R_t`` (``R`` the sinusoidal table, ``W_{k,R}`` a learned projection)::

        score[i, j] = q_i·k_j  +  q_i·r[t]  +  u·k_j  +  v·r[t]
                       (a)         (b)         (c)       (d)

    Keys after the query (``t < 0``) are masked in a causal language model, and ``r`` has no row for them:
    there (b) and (d) are 0.

    Args:
        q: Projected queries ``W_q E_{x_i}``, shape ``(..., query_len, d)``.
        k: Projected keys ``W_{k,E} E_{x_j}``, shape ``(..., query_len + mem_len, d)``.
        r: Projected position rows ``r[t]`` for distances ``t = 0 … key_len − 1``, shape ``(key_len, d)``.
        u: The global content bias, shape ``(d,)``.
        v: The global position bias, shape ``(d,)``.
        mem_len: Number of cached positions before the queries; an integer >= 0.

    Returns:
        A ``TransformerXLTerms`` of four tensors of shape ``(..., query_len, key_len)``.

    Raises:
        TypeError: an argument is not a real floating-point tensor, or ``mem_len`` not an integer.
        ValueError: shapes do not match, or an entry is not finite.

    Examples:
        >>> q, k, r = torch.ones(2, 1), torch.ones(2, 1), torch.tensor([[10.0], [20.0]])
        >>> terms = transformer_xl_terms(q, k, r, torch.zeros(1), torch.zeros(1))
        >>> terms.content_position  # q_i · r[i - j], zero where j > i
        tensor([[10.,  0.],
                [20., 10.]])
    """
    mem_len = _check_xl(q, k, r, u, v, mem_len)
    q_len, k_len = q.size(-2), k.size(-2)
    t = mem_len + torch.arange(q_len)[:, None] - torch.arange(k_len)[None, :]  # (q_len, k_len)
    valid = t >= 0
    r_ij = r[t.clamp(min=0).to(r.device)]  # (q_len, k_len, d): r[i - j]
    content = q @ k.transpose(-2, -1)
    content_position = torch.einsum("...id,ijd->...ij", q, r_ij) * valid.to(q.device)
    global_content = (k @ u).unsqueeze(-2).expand_as(content)
    global_position = (r_ij @ v) * valid.to(q.device)
    return TransformerXLTerms(content, content_position, global_content, global_position.expand_as(content))


def rel_shift(x: torch.Tensor) -> torch.Tensor:
    """Transformer-XL's shift: turn scores indexed by (query, reversed distance) into (query, key).

    ``x[..., i, m]`` holds a score of query ``i`` against the position row of distance
    ``key_len − 1 − m`` (Transformer-XL lists the rows from the largest distance down to 0). Padding one zero
    column on the left, reading the padded ``(query_len, key_len + 1)`` matrix as ``(key_len + 1,
    query_len)`` and dropping its first row moves row ``i`` to the left by ``query_len − 1 − i``: afterwards
    entry ``[i, j]`` is ``x[i, j + query_len − 1 − i]``, the score of distance ``(key_len − query_len) + i − j``.
    Entries with ``j > i + key_len − query_len`` (keys after the query) hold leftovers and must be masked.
    No gather, no index tensor: one pad and two reshapes.

    Args:
        x: Tensor of shape ``(..., query_len, key_len)`` with ``key_len >= query_len``.

    Returns:
        A tensor of the same shape.

    Raises:
        TypeError: ``x`` is not a tensor.
        ValueError: ``x`` has fewer than 2 dimensions or ``key_len < query_len``.

    Examples:
        >>> x = torch.tensor([[2.0, 1.0, 0.0], [12.0, 11.0, 10.0]])  # distance t sits in column 2 - t
        >>> rel_shift(x)  # one cached key: query i, key j at distance 1 + i - j; [0, 2] is a leftover
        tensor([[ 1.,  0.,  0.],
                [12., 11., 10.]])
    """
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if x.dim() < 2 or x.size(-1) < x.size(-2):
        raise ValueError(f"x must have shape (..., query_len, key_len >= query_len), got {tuple(x.shape)}")
    *lead, q_len, k_len = x.shape
    padded = torch.cat((x.new_zeros(*lead, q_len, 1), x), dim=-1)  # (..., q_len, k_len + 1)
    return padded.reshape(*lead, k_len + 1, q_len)[..., 1:, :].reshape(*lead, q_len, k_len)


def transformer_xl_scores(
    q: torch.Tensor, k: torch.Tensor, r: torch.Tensor, u: torch.Tensor, v: torch.Tensor, *, mem_len: int = 0
) -> torch.Tensor:
    """Transformer-XL's attention scores the way its reference code computes them, masked causally.

    ``(q + u)·k_j`` for every key (terms a + c), ``(q + v)·r`` against the position rows listed from the
    largest distance down to 0 (terms b + d), aligned by ``rel_shift`` — as in
    ``RelPartialLearnableMultiHeadAttn.forward`` (``AC + BD``). Keys after the query get ``-inf``. The
    ``1/√d`` scaling of the reference code is left to the caller. Equal, where not masked, to the sum of
    ``transformer_xl_terms`` (to rounding).

    Args:
        q: Projected queries, shape ``(..., query_len, d)``.
        k: Projected keys, shape ``(..., query_len + mem_len, d)``.
        r: Projected position rows for distances ``0 … key_len − 1``, shape ``(key_len, d)``.
        u: The global content bias, shape ``(d,)``.
        v: The global position bias, shape ``(d,)``.
        mem_len: Number of cached positions before the queries; an integer >= 0.

    Returns:
        A tensor of shape ``(..., query_len, key_len)`` with ``-inf`` where ``j > mem_len + i``.

    Raises:
        TypeError: an argument is not a real floating-point tensor, or ``mem_len`` not an integer.
        ValueError: shapes do not match, or an entry is not finite.

    Examples:
        >>> q, k, r = torch.ones(2, 1), torch.ones(2, 1), torch.tensor([[10.0], [20.0]])
        >>> transformer_xl_scores(q, k, r, torch.zeros(1), torch.zeros(1))
        tensor([[11., -inf],
                [21., 11.]])
    """
    mem_len = _check_xl(q, k, r, u, v, mem_len)
    q_len, k_len = q.size(-2), k.size(-2)
    ac = (q + u) @ k.transpose(-2, -1)
    bd = rel_shift((q + v) @ r.flip(0).T)  # columns of the unshifted product: distances k_len - 1 … 0
    future = torch.arange(k_len)[None, :] > mem_len + torch.arange(q_len)[:, None]
    return (ac + bd).masked_fill(future.to(q.device), float("-inf"))
