"""Minimal alternatives to the sinusoidal table: learned absolute embeddings, RoPE and ALiBi.

Each is the smallest faithful implementation of the published idea, written to be read and tested:

* ``LearnedPositionalEmbedding`` — one trainable vector per position (BERT, GPT-2). It has no row
  for a position it was not built with, so a longer sequence is a hard error, not a degradation.
* ``rope_rotate`` — rotary position embedding (Su et al., RoFormer): inside every attention layer, rotate each
  pair of features of a head's query and key by ``position · w_i`` with ``w_i = base^(-2i/d_head)``; the dot
  product of a rotated query and key then depends on the positions only through ``j − i``. Both pairings in
  use are available: neighbours ``(x[2i], x[2i+1])`` (the paper, Meta's reference code) and halves
  ``(x[i], x[i + d/2])`` (GPT-NeoX, Hugging Face ``rotate_half``).
* ``alibi_slopes`` / ``alibi_bias`` — attention with linear biases (Press et al.): no vectors at
  all, a per-head penalty ``−m · (i − j)`` added to the attention scores.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from pe_docs._checks import (
    check_base,
    check_choice,
    check_d_model,
    check_float_dtype,
    check_int,
    check_sequence_input,
)
from pe_docs.frequencies import inverse_frequencies
from pe_docs.rotary import PAIRINGS, Pairing

# Largest integer magnitude up to which every integer is exact in float64 (the angles are formed in float64).
_EXACT_IN_FLOAT64 = 2**53


def _float64_device(device: torch.device) -> torch.device:
    """Where float64 intermediates for ``device`` are computed: ``device`` itself, or the CPU for MPS."""
    return torch.device("cpu") if device.type == "mps" else device


class LearnedPositionalEmbedding(nn.Module):
    """Learned absolute positions: ``x + P[:seq_len]`` with a trainable ``(max_len, d_model)`` matrix ``P``.

    ``P`` is initialised from ``N(0, 0.02²)`` and added in ``x``'s dtype.

    Args:
        max_len: Number of positions that have a row; an integer >= 1.
        d_model: Embedding width; an integer >= 1.
        batch_first: Inputs are ``(batch, seq, d_model)`` if true, ``(seq, batch, d_model)`` otherwise.

    Attributes:
        max_len: The number of rows, as given.
        d_model: The width, as given.
        batch_first: The input layout, as given.
        weight: The trainable ``(max_len, d_model)`` float32 position matrix ``P``.

    Raises:
        TypeError: ``max_len`` or ``d_model`` is not an integer, ``batch_first`` is not a bool.
        ValueError: ``max_len`` or ``d_model`` is < 1.

    Examples:
        >>> emb = LearnedPositionalEmbedding(max_len=8, d_model=4)
        >>> emb(torch.zeros(2, 8, 4)).shape
        torch.Size([2, 8, 4])
        >>> emb(torch.zeros(2, 9, 4))
        Traceback (most recent call last):
        ...
        ValueError: sequence length 9 exceeds max_len=8: a learned embedding has no row for positions >= 8
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
        """Return ``x`` plus the first ``seq_len`` rows of the position matrix, cast to ``x``'s dtype.

        Args:
            x: Embeddings of shape ``(batch, seq, d_model)`` (``(seq, batch, d_model)`` if not
                ``batch_first``); a real floating-point tensor on the module's device.

        Returns:
            A tensor shaped like ``x``, in ``x``'s dtype.

        Raises:
            TypeError: ``x`` is not a tensor, or not floating point (an integer ``x`` would turn the
                rows into integers: zeros).
            ValueError: ``x`` does not have 3 dimensions, its last dimension is not ``d_model``, or the
                sequence is longer than ``max_len`` (position ``max_len`` has no row).

        Examples:
            >>> emb = LearnedPositionalEmbedding(max_len=8, d_model=4)
            >>> emb(torch.zeros(2, 3, 4, dtype=torch.int64))
            Traceback (most recent call last):
            ...
            TypeError: x must be a floating-point tensor, got dtype torch.int64
        """
        seq_len = check_sequence_input(x, self.d_model, batch_first=self.batch_first)
        if seq_len > self.max_len:
            raise ValueError(
                f"sequence length {seq_len} exceeds max_len={self.max_len}: a learned embedding has no "
                f"row for positions >= {self.max_len}"
            )
        rows = self.weight[:seq_len].to(x.dtype)
        return x + (rows.unsqueeze(0) if self.batch_first else rows.unsqueeze(1))

    def extra_repr(self) -> str:
        """The constructor's arguments, shown by ``repr(module)``.

        Examples:
            >>> LearnedPositionalEmbedding(8, 4)
            LearnedPositionalEmbedding(max_len=8, d_model=4, batch_first=True)
        """
        return f"max_len={self.max_len}, d_model={self.d_model}, batch_first={self.batch_first}"


def rope_rotate(
    x: torch.Tensor,
    positions: torch.Tensor | None = None,
    *,
    base: float = 10000.0,
    pairing: Pairing = "interleaved",
) -> torch.Tensor:
    """Rotary position embedding: rotate each feature pair of ``x`` by the angle ``p · w_i``.

    ``x`` holds one attention head's queries or keys (after the projection), so ``d = x.size(-1)`` is the
    head dimension and the frequencies are ``w_i = base^(-2i/d)``, ``i = 0 … d/2 − 1``. Pair ``i`` is
    ``(a, b) = (x[2i], x[2i+1])`` with ``pairing="interleaved"`` (the RoFormer paper; Meta's reference code,
    which views ``x`` as complex numbers of shape ``(…, d/2, 2)``) or ``(x[i], x[i + d/2])`` with
    ``pairing="half"`` (GPT-NeoX and Hugging Face's ``rotate_half``). Either way the pair becomes
    ``(a·cos − b·sin, a·sin + b·cos)`` of the angle ``p · w_i`` (a counter-clockwise turn). The two pairings
    differ only by a fixed permutation of the features: ``rope_rotate(x[..., perm], pairing="half")`` equals
    ``rope_rotate(x, pairing="interleaved")[..., perm]`` with ``perm = [0, 2, 4, …, 1, 3, 5, …]``, so a model
    trained with one works with the other once the rows of its query and key projections are permuted.

    Because a rotation by ``a`` followed by the transpose of a rotation by ``b`` is a rotation by ``b − a``,
    ``rope(q, i) · rope(k, j)`` depends on ``i`` and ``j`` only via ``j − i``. The angles are formed in
    float64 and the result has ``x``'s dtype.

    Args:
        x: Queries or keys of one head, a real floating-point tensor of shape ``(..., seq, d)`` with ``d``
            even.
        positions: Integer positions of the rows (negative values allowed, magnitude <= ``2**53``), any
            integer dtype, with a shape that broadcasts to ``x.shape[:-1]``: ``(seq,)`` for one position per
            row, or e.g. ``(batch, 1, seq)`` for per-sequence positions. ``arange(seq)`` if omitted.
        base: The frequency base (``rope_theta``: 10000 in the paper and LLaMA 1 and 2, 500000 in LLaMA 3);
            finite and > 0.
        pairing: ``"interleaved"`` (neighbouring features) or ``"half"`` (feature ``i`` with ``i + d/2``).

    Returns:
        A tensor shaped like ``x``, in ``x``'s dtype and on its device.

    Raises:
        TypeError: ``x`` or ``positions`` is not a tensor, ``x`` is not real floating point, ``positions``
            is not an integer tensor (floating-point, bool and complex positions are rejected, not
            rounded), ``base`` is not a real number.
        ValueError: ``x`` has fewer than 2 dimensions or an odd last dimension, ``positions`` does not
            broadcast to ``x.shape[:-1]`` or holds a magnitude above ``2**53``, ``base`` <= 0 or not finite,
            unknown ``pairing``.

    Examples:
        >>> q = torch.tensor([[1.0, 0.0]])
        >>> rope_rotate(q, torch.tensor([1]))  # rotated by 1 radian
        tensor([[0.5403, 0.8415]])
        >>> rope_rotate(q, torch.tensor([-1]))  # and back
        tensor([[ 0.5403, -0.8415]])
        >>> x = torch.tensor([[1.0, 2.0, 3.0, 4.0]])
        >>> perm = torch.tensor([0, 2, 1, 3])
        >>> torch.equal(rope_rotate(x[:, perm], torch.tensor([5]), pairing="half"),
        ...             rope_rotate(x, torch.tensor([5]))[:, perm])
        True
    """
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if not x.is_floating_point():
        raise TypeError(f"x must be a real floating-point tensor, got dtype {x.dtype}")
    if x.dim() < 2:
        raise ValueError(f"x must have shape (..., seq, d), got shape {tuple(x.shape)}")
    d = check_d_model(x.size(-1), "x.size(-1)")
    base = check_base(base)
    pairing = check_choice("pairing", pairing, PAIRINGS)
    work = _float64_device(x.device)
    if positions is None:
        positions = torch.arange(x.size(-2), device=work)
    if not isinstance(positions, torch.Tensor):
        raise TypeError(f"positions must be a torch.Tensor, got {type(positions).__name__}")
    if positions.dtype.is_floating_point or positions.dtype.is_complex or positions.dtype == torch.bool:
        raise TypeError(f"positions must be an integer tensor, got dtype {positions.dtype}")
    rows = tuple(x.shape[:-1])
    try:
        fits = torch.broadcast_shapes(positions.shape, x.shape[:-1]) == x.shape[:-1]
    except RuntimeError:
        fits = False
    if not fits:
        raise ValueError(
            f"positions must have a shape that broadcasts to x.shape[:-1] = {rows}, got shape {tuple(positions.shape)}"
        )
    if positions.numel():
        low, high = int(positions.min()), int(positions.max())
        if max(-low, high) > _EXACT_IN_FLOAT64:
            raise ValueError(f"positions must lie in [-2**53, 2**53] (exact in float64), got values in [{low}, {high}]")
    w = inverse_frequencies(d, base=base).to(work)
    angle = positions.to(device=work, dtype=torch.float64)[..., None] * w
    cos = torch.cos(angle).to(device=x.device, dtype=x.dtype)
    sin = torch.sin(angle).to(device=x.device, dtype=x.dtype)
    if pairing == "interleaved":
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1).flatten(-2)
    a, b = x[..., : d // 2], x[..., d // 2 :]
    return torch.cat((a * cos - b * sin, a * sin + b * cos), dim=-1)


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """ALiBi's per-head slopes ``m_h``, float64, shape ``(n_heads,)``.

    For ``n`` a power of two the slopes are the geometric sequence ``2^(-8/n), 2^(-16/n), …, 2^(-8)``.
    Otherwise (as in the paper's reference code) take the slopes of the nearest smaller power of two
    ``m = 2^⌊log2 n⌋`` and fill up with every other slope of ``2m`` heads.

    Args:
        n_heads: Number of attention heads; an integer >= 1.

    Returns:
        A float64 tensor of shape ``(n_heads,)``, on the CPU.

    Raises:
        TypeError: ``n_heads`` is not an integer.
        ValueError: ``n_heads`` is < 1.

    Examples:
        >>> alibi_slopes(4)
        tensor([0.2500, 0.0625, 0.0156, 0.0039], dtype=torch.float64)
        >>> alibi_slopes(3)  # the slopes of 2 heads, then every other slope of 4 heads (one needed)
        tensor([0.0625, 0.0039, 0.2500], dtype=torch.float64)
    """
    n = check_int("n_heads", n_heads, minimum=1)

    def power_of_two(k: int) -> torch.Tensor:
        exponent = -8.0 * torch.arange(1, k + 1, dtype=torch.float64) / k
        return torch.pow(torch.tensor(2.0, dtype=torch.float64), exponent)

    m = 2 ** math.floor(math.log2(n))
    if m == n:
        return power_of_two(n)
    return torch.cat((power_of_two(m), power_of_two(2 * m)[0::2][: n - m]))


def alibi_bias(
    n_heads: int,
    seq_len: int,
    *,
    causal: bool = True,
    dtype: torch.dtype = torch.float64,
    device: torch.device | str | None = None,
) -> torch.Tensor:
    """ALiBi's additive attention bias, shape ``(n_heads, seq_len, seq_len)``.

    ``bias[h, i, j] = −m_h · (i − j)`` for keys ``j <= i``; with ``causal=True`` keys ``j > i`` get
    ``-inf`` (the causal mask ALiBi was designed with), otherwise ``−m_h · |i − j|``. ``causal=False`` is not
    from the ALiBi paper (Press et al., 2022), which defines and measures the causal case only: the symmetric
    penalty is one extension used for encoders, and cannot tell a key before the query from one after it. The
    diagonal is ``+0.0``. The values are computed in float64 on ``device`` (on the CPU for MPS, which has no float64)
    and rounded once to ``dtype``.

    Args:
        n_heads: Number of heads; an integer >= 1.
        seq_len: Sequence length; an integer >= 1.
        causal: Mask future keys with ``-inf`` (the paper's setting); ``False`` gives the symmetric bias, an
            extension that is not in the paper.
        dtype: Floating-point dtype of the result.
        device: Device of the result; the CPU if omitted.

    Returns:
        A tensor of shape ``(n_heads, seq_len, seq_len)`` in ``dtype`` on ``device``.

    Raises:
        TypeError: ``n_heads`` or ``seq_len`` is not an integer, ``causal`` is not a bool, ``dtype`` is not
            a floating-point dtype.
        ValueError: ``n_heads`` or ``seq_len`` is < 1.

    Examples:
        >>> alibi_bias(1, 3)[0]
        tensor([[ 0.0000,    -inf,    -inf],
                [-0.0039,  0.0000,    -inf],
                [-0.0078, -0.0039,  0.0000]], dtype=torch.float64)
        >>> alibi_bias(1, 2, causal=False, dtype=torch.float32)[0]
        tensor([[ 0.0000, -0.0039],
                [-0.0039,  0.0000]])
    """
    slopes = alibi_slopes(n_heads)
    seq_len = check_int("seq_len", seq_len, minimum=1)
    if not isinstance(causal, bool):
        raise TypeError(f"causal must be a bool, got {causal!r}")
    dtype = check_float_dtype(dtype)
    target = torch.device("cpu") if device is None else torch.device(device)
    work = _float64_device(target)
    i = torch.arange(seq_len, device=work)
    distance = i[:, None] - i[None, :]  # integer i - j
    # Negate the integer distance before the conversion, so that the diagonal is +0.0, not -0.0.
    bias = slopes.to(work)[:, None, None] * (-distance.abs()).to(torch.float64)
    if causal:
        bias = bias.masked_fill(distance < 0, float("-inf"))
    return bias.to(device=target, dtype=dtype)
