"""Minimal alternatives to the sinusoidal table: learned absolute embeddings, RoPE and ALiBi.

Each is the smallest faithful implementation of the published idea, written to be read and tested:

* :class:`LearnedPositionalEmbedding` — one trainable vector per position (BERT, GPT-2). It has no row
  for a position it was not built with, so a longer sequence is a hard error, not a degradation.
* :func:`rope_rotate` — rotary position embedding (Su et al., RoFormer): rotate each pair of query/key
  features by ``position · w_i``; the dot product of a rotated query and key then depends on the positions
  only through ``j − i``.
* :func:`alibi_slopes` / :func:`alibi_bias` — attention with linear biases (Press et al.): no vectors at
  all, a per-head penalty ``−m · (i − j)`` added to the attention scores.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from pe_docs._checks import check_base, check_d_model, check_int
from pe_docs.frequencies import inverse_frequencies


class LearnedPositionalEmbedding(nn.Module):
    """Learned absolute positions: ``x + P[:seq_len]`` with a trainable ``(max_len, d_model)`` matrix ``P``.

    Args:
        max_len: Number of positions that have a row; an integer >= 1.
        d_model: Embedding width; an integer >= 1.
        batch_first: Inputs are ``(batch, seq, d_model)`` if true, ``(seq, batch, d_model)`` otherwise.

    Raises:
        ValueError: in ``forward``, when the sequence is longer than ``max_len``: position ``max_len`` has
            no row, and nothing can be computed for it.

    Examples:
        >>> emb = LearnedPositionalEmbedding(max_len=8, d_model=4)
        >>> emb(torch.zeros(2, 8, 4)).shape
        torch.Size([2, 8, 4])
    """

    def __init__(self, max_len: int, d_model: int, *, batch_first: bool = True) -> None:
        super().__init__()
        self.max_len = check_int("max_len", max_len, minimum=1)
        self.d_model = check_int("d_model", d_model, minimum=1)
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first must be a bool, got {batch_first!r}")
        self.batch_first = batch_first
        self.weight = nn.Parameter(torch.empty(self.max_len, self.d_model))
        nn.init.normal_(self.weight, std=0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Return ``x`` plus the first ``seq_len`` rows of the position matrix."""
        if not isinstance(x, torch.Tensor):
            raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
        if x.dim() != 3 or x.size(-1) != self.d_model:
            shape = "(batch, seq, d_model)" if self.batch_first else "(seq, batch, d_model)"
            raise ValueError(f"x must have shape {shape} with d_model={self.d_model}, got {tuple(x.shape)}")
        seq_len = x.size(1) if self.batch_first else x.size(0)
        if seq_len > self.max_len:
            raise ValueError(
                f"sequence length {seq_len} exceeds max_len={self.max_len}: a learned embedding has no "
                f"row for positions >= {self.max_len}"
            )
        rows = self.weight[:seq_len].to(x.dtype)
        return x + (rows.unsqueeze(0) if self.batch_first else rows.unsqueeze(1))

    def extra_repr(self) -> str:
        return f"max_len={self.max_len}, d_model={self.d_model}, batch_first={self.batch_first}"


def rope_rotate(
    x: torch.Tensor, positions: torch.Tensor | None = None, *, base: float = 10000.0
) -> torch.Tensor:
    """Rotary position embedding: rotate feature pairs ``(x[2i], x[2i+1])`` by the angle ``p · w_i``.

    ``w_i = base^(-2i/d)`` are the sinusoidal table's frequencies; the angles are formed in float64 and
    the result has ``x``'s dtype. Because a rotation by ``a`` followed by the transpose of a rotation by
    ``b`` is a rotation by ``b − a``, ``rope(q, i) · rope(k, j)`` depends on ``i`` and ``j`` only via
    ``j − i``.

    Args:
        x: Queries or keys, shape ``(..., seq, d)`` with ``d`` even.
        positions: Integer positions of the rows, shape ``(seq,)``; ``arange(seq)`` if omitted.
        base: The frequency base; finite and > 0.

    Returns:
        A tensor shaped like ``x``.

    Raises:
        TypeError: ``x`` or ``positions`` is not a tensor, ``x`` is not floating point.
        ValueError: ``x`` has fewer than 2 dimensions or an odd last dimension, ``positions`` has the
            wrong shape.

    Examples:
        >>> q = torch.tensor([[1.0, 0.0]])
        >>> rope_rotate(q, torch.tensor([1]))  # rotated by 1 radian
        tensor([[0.5403, 0.8415]])
    """
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if not x.is_floating_point():
        raise TypeError(f"x must be a floating-point tensor, got dtype {x.dtype}")
    if x.dim() < 2:
        raise ValueError(f"x must have shape (..., seq, d), got {tuple(x.shape)}")
    d = check_d_model(x.size(-1), "x.size(-1)")
    base = check_base(base)
    seq = x.size(-2)
    if positions is None:
        positions = torch.arange(seq)
    if not isinstance(positions, torch.Tensor):
        raise TypeError(f"positions must be a torch.Tensor, got {type(positions).__name__}")
    if positions.shape != (seq,):
        raise ValueError(f"positions must have shape ({seq},), got {tuple(positions.shape)}")
    angle = positions.to(torch.float64)[:, None] * inverse_frequencies(d, base=base)[None, :]
    cos = torch.cos(angle).to(device=x.device, dtype=x.dtype)
    sin = torch.sin(angle).to(device=x.device, dtype=x.dtype)
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1).flatten(-2)


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """ALiBi's per-head slopes ``m_h``, float64, shape ``(n_heads,)``.

    For ``n`` a power of two the slopes are the geometric sequence ``2^(-8/n), 2^(-16/n), …, 2^(-8)``.
    Otherwise (as in the paper's reference code) take the slopes of the nearest smaller power of two
    ``m = 2^⌊log2 n⌋`` and fill up with every other slope of ``2m`` heads.

    Args:
        n_heads: Number of attention heads; an integer >= 1.

    Raises:
        TypeError/ValueError: ``n_heads`` is not an integer >= 1.

    Examples:
        >>> alibi_slopes(4)
        tensor([0.2500, 0.0625, 0.0156, 0.0039], dtype=torch.float64)
    """
    n = check_int("n_heads", n_heads, minimum=1)

    def power_of_two(k: int) -> torch.Tensor:
        exponent = -8.0 * torch.arange(1, k + 1, dtype=torch.float64) / k
        return torch.pow(torch.tensor(2.0, dtype=torch.float64), exponent)

    m = 2 ** math.floor(math.log2(n))
    if m == n:
        return power_of_two(n)
    return torch.cat((power_of_two(m), power_of_two(2 * m)[0::2][: n - m]))


def alibi_bias(n_heads: int, seq_len: int, *, causal: bool = True) -> torch.Tensor:
    """ALiBi's additive attention bias, float64, shape ``(n_heads, seq_len, seq_len)``.

    ``bias[h, i, j] = −m_h · (i − j)`` for keys ``j <= i``; with ``causal=True`` keys ``j > i`` get
    ``-inf`` (the causal mask ALiBi was designed with), otherwise ``−m_h · |i − j|``.

    Args:
        n_heads: Number of heads; an integer >= 1.
        seq_len: Sequence length; an integer >= 1.
        causal: Mask future keys with ``-inf``.

    Examples:
        >>> alibi_bias(1, 3)[0]
        tensor([[ 0.0000,    -inf,    -inf],
                [-0.0039,  0.0000,    -inf],
                [-0.0078, -0.0039,  0.0000]], dtype=torch.float64)
    """
    slopes = alibi_slopes(n_heads)
    seq_len = check_int("seq_len", seq_len, minimum=1)
    if not isinstance(causal, bool):
        raise TypeError(f"causal must be a bool, got {causal!r}")
    i = torch.arange(seq_len)
    distance = (i[:, None] - i[None, :]).to(torch.float64)
    bias = -slopes[:, None, None] * distance.abs()
    if causal:
        bias = bias.masked_fill(distance < 0, float("-inf"))
    return bias
