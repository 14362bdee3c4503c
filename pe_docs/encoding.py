"""The sinusoidal encoding table ``PE[p, 2i] = sin(p·w_i)``, ``PE[p, 2i+1] = cos(p·w_i)``.

How the float32 table is built fast *and* exactly (the payoff of the relative transform, see
:func:`pe_docs.relative_transform`): write every position as ``p = a + b`` with ``a`` a multiple of a block
size ``B`` and ``0 <= b < B``. Only the few block starts ``a`` and the ``B`` offsets ``b`` need real sines
and cosines; those are computed with the phase in float64 and rounded once. Every other entry follows from

    sin(a + b) = sin a · cos b + cos a · sin b,    cos(a + b) = cos a · cos b − sin a · sin b,

which is one complex multiplication per (sin, cos) pair: with ``z(p) = sin(p·w) + i·cos(p·w)``,
``z(a + b) = z(a) · (cos(b·w) − i·sin(b·w))``. In the interleaved layout the float32 output *is* an array
of complex64 numbers ``z`` (its memory is ``sin, cos, sin, cos, …``), so the whole table is written by a
single broadcast ``torch.mul(..., out=...)``: no temporary as large as the output, and each output byte is
written once.
"""

from __future__ import annotations

from typing import Literal

import torch

from pe_docs._checks import check_base, check_choice, check_d_model, check_float_dtype, check_int
from pe_docs.frequencies import inverse_frequencies

Layout = Literal["interleaved", "concat"]
LAYOUTS: tuple[str, ...] = ("interleaved", "concat")

# The offset table (B rows of d/2 complex64 numbers) is re-read for every block: keep it within this many
# bytes so that it stays in a core's L2 cache.
_OFFSET_TABLE_BYTES = 1 << 19
_MIN_BLOCK, _MAX_BLOCK = 16, 1024
# Tables with fewer rows than this are computed directly (phase in float64, one rounding per entry).
_MIN_ROWS = 64
# Low-precision outputs are produced from float32 rows in chunks of at most this many float32 elements.
_CHUNK_ELEMENTS = 1 << 20


def sinusoidal_table(
    max_len: int,
    d_model: int,
    *,
    base: float = 10000.0,
    dtype: torch.dtype = torch.float32,
    device: torch.device | str | None = None,
    layout: Layout = "interleaved",
) -> torch.Tensor:
    """The positional-encoding table for positions ``0 … max_len - 1``.

    ``PE[p, 2i] = sin(p · w_i)`` and ``PE[p, 2i + 1] = cos(p · w_i)`` with ``w_i = base^(-2i / d_model)``
    (the paper's interleaved layout). With ``layout="concat"`` the columns are ``[sin … | cos …]`` instead:
    ``PE[p, i] = sin(p · w_i)``, ``PE[p, d/2 + i] = cos(p · w_i)`` — the column order of tensor2tensor and
    fairseq, with the same frequencies.

    The table is exact, and a float32 table costs about as much as filling freshly allocated memory:

    * ``float32``: positions are split as ``p = a + b`` (block start ``a``, small offset ``b``). The sines
      and cosines of ``a · w_i`` and ``b · w_i`` are computed with the phase in float64 and rounded to
      float32; every entry is then ``sin(a + b)``, ``cos(a + b)`` from the angle-addition formulas — one
      complex multiplication per (sin, cos) pair, the relative transform of
      :func:`pe_docs.relative_transform` applied in bulk. Each rounded input is off by at most ``2^-24``
      relative, so an entry is within ``4 · 2^-24 ≈ 2.4e-7`` of the true value (measured: about 1.5e-7) at
      every position below ``2**24``. The usual tutorial code (phase in float32) is off by about 6e-2 at
      position ``10**6``. Tables of fewer than 64 rows are computed like float64 below, then rounded.
    * ``float64``: the phase ``p · w_i`` is formed in float64 and its sine and cosine are written straight
      into the output (one float64 phase array of half the output's size is the only temporary).
    * other dtypes (``bfloat16``, ``float16``): the float32 rows above, rounded to ``dtype`` chunk by chunk.

    No temporary is larger than the output (for ``max_len >= 2``): the two helper tables of the float32
    method have ``max_len / B + B`` rows together, for a block size ``B <= max_len / 2`` chosen so that the
    offsets stay in cache. The result is built on the CPU.

    Args:
        max_len: Number of positions (rows); an integer >= 1.
        d_model: Width (columns); a positive even integer.
        base: The constant in ``w_i``; finite and > 0.
        dtype: Floating-point dtype of the result.
        device: Device of the result (computed on the CPU, then moved).
        layout: ``"interleaved"`` (paper) or ``"concat"`` (tensor2tensor/fairseq order).

    Returns:
        A tensor of shape ``(max_len, d_model)``.

    Raises:
        TypeError: a size is not an integer, ``base`` is not a real number, ``dtype`` is not floating.
        ValueError: ``max_len`` < 1, ``d_model`` odd or < 1, ``base`` <= 0 or not finite, unknown ``layout``.

    Examples:
        >>> sinusoidal_table(2, 4, dtype=torch.float64)
        tensor([[0.0000, 1.0000, 0.0000, 1.0000],
                [0.8415, 0.5403, 0.0100, 1.0000]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    base = check_base(base)
    dtype = check_float_dtype(dtype)
    layout = check_choice("layout", layout, LAYOUTS)
    table = _table_rows(0, max_len, d, base=base, dtype=dtype, layout=layout)
    return table if device is None else table.to(device=device)


def _table_rows(
    first: int, count: int, d: int, *, base: float, dtype: torch.dtype, layout: str
) -> torch.Tensor:
    """Rows ``first … first + count - 1`` of the table (arguments already checked); CPU, ``dtype``."""
    w = inverse_frequencies(d, base=base, dtype=torch.float64)
    out = torch.empty(count, d, dtype=dtype)
    if dtype == torch.float64:
        _fill_direct(out, first, w, layout)
    elif dtype == torch.float32:
        _fill_float32(out, first, w, layout)
    else:
        # float32 rows take twice the bytes of 16-bit rows: at most half the rows at a time.
        rows = max(1, min(count // 2, _CHUNK_ELEMENTS // d))
        buffer = torch.empty(rows, d, dtype=torch.float32)
        for start in range(0, count, rows):
            n = min(rows, count - start)
            _fill_float32(buffer[:n], first + start, w, layout)
            out[start : start + n].copy_(buffer[:n])
    return out


def _block_size(count: int, d: int) -> int:
    """Offsets per block: the offset table (``B × d/2`` complex64) stays within ``_OFFSET_TABLE_BYTES``.

    At most ``count // 2``, so that the two small tables together have fewer rows than the output.
    """
    b = _OFFSET_TABLE_BYTES // (4 * d)
    return max(1, min(count // 2, max(_MIN_BLOCK, min(_MAX_BLOCK, b))))


def _starts_and_turns(first: int, block: int, n_blocks: int, w: torch.Tensor) -> torch.Tensor:
    """The two small exact tables as one float32 tensor of shape ``(n_blocks + block, d/2, 2)``.

    Rows ``m < n_blocks`` hold ``(sin(a·w), cos(a·w))`` for the block starts ``a = first + m·block``;
    rows ``n_blocks + b`` hold ``(cos(b·w), −sin(b·w))`` for the offsets ``b < block``. Read as complex64, a
    start row is ``z(a) = sin + i·cos``, an offset row is ``e^{−i·b·w}``, and ``z(a) · e^{−i·b·w} = z(a+b)``.
    The phases and their sines and cosines are computed in float64 and rounded once, on store.
    """
    h = w.numel()
    positions = torch.empty(n_blocks + block, dtype=torch.float64)
    torch.arange(n_blocks, dtype=torch.float64, out=positions[:n_blocks]).mul_(block).add_(first)
    torch.arange(block, dtype=torch.float64, out=positions[n_blocks:])
    phase = positions[:, None] * w[None, :]
    pairs = torch.empty(n_blocks + block, h, 2, dtype=torch.float32)
    torch.sin(phase[:n_blocks], out=pairs[:n_blocks, :, 0])
    torch.cos(phase[:n_blocks], out=pairs[:n_blocks, :, 1])
    torch.cos(phase[n_blocks:], out=pairs[n_blocks:, :, 0])
    torch.sin(phase[n_blocks:], out=pairs[n_blocks:, :, 1]).neg_()
    return pairs


def _fill_direct(out: torch.Tensor, first: int, w: torch.Tensor, layout: str) -> None:
    """Phase in float64; its sine and cosine rounded once, straight into ``out`` (float64 or float32)."""
    count, d = out.shape
    h = d // 2
    phase = torch.arange(first, first + count, dtype=torch.float64)[:, None] * w[None, :]
    if layout == "interleaved":
        pairs = out.view(count, h, 2)
        torch.sin(phase, out=pairs[..., 0])
        torch.cos(phase, out=pairs[..., 1])
    else:
        torch.sin(phase, out=out[:, :h])
        torch.cos(phase, out=out[:, h:])


def _fill_float32(out: torch.Tensor, first: int, w: torch.Tensor, layout: str) -> None:
    """float32 rows ``first …`` into the contiguous ``out`` by block start × offset (angle addition)."""
    count, d = out.shape
    h = d // 2
    if count < _MIN_ROWS:
        _fill_direct(out, first, w, layout)
        return
    block = _block_size(count, d)
    n_blocks = -(-count // block)
    full = count // block  # blocks with all `block` offsets; the last one may be ragged
    rest = count - full * block
    pairs = _starts_and_turns(first, block, n_blocks, w)
    if layout == "interleaved":
        # Memory of a row is sin, cos, sin, cos, …: viewed as complex64 it holds z = sin + i·cos.
        z = pairs.view(torch.complex64).view(n_blocks + block, h)
        z_start, turn = z[:n_blocks], z[n_blocks:]  # turn[b] = e^{-i·b·w}: advances z by b positions
        z_out = out.view(torch.complex64)  # (count, h)
        if full:
            blocks = z_out[: full * block].view(full, block, h)
            torch.mul(z_start[:full, None, :], turn[None, :, :], out=blocks)
        if rest:
            torch.mul(z_start[full], turn[:rest], out=z_out[full * block :])
        return
    # Concatenated layout: real arithmetic into the two halves (small inputs made contiguous first).
    #   sin(a+b) = sin a · cos b + cos a · sin b,   cos(a+b) = cos a · cos b − sin a · sin b
    sin_a, cos_a = pairs[:n_blocks, :, 0].contiguous(), pairs[:n_blocks, :, 1].contiguous()
    cos_b, minus_sin_b = pairs[n_blocks:, :, 0].contiguous(), pairs[n_blocks:, :, 1].contiguous()
    parts = []
    if full:
        parts.append((out[: full * block].view(full, block, d), slice(0, full), slice(None)))
    if rest:
        parts.append((out[full * block :].view(1, rest, d), slice(full, full + 1), slice(0, rest)))
    for target, starts, offsets in parts:
        sa, ca = sin_a[starts, None, :], cos_a[starts, None, :]
        msb, cb = minus_sin_b[None, offsets, :], cos_b[None, offsets, :]
        sin_out, cos_out = target[..., :h], target[..., h:]
        torch.mul(sa, cb, out=sin_out).addcmul_(ca, msb, value=-1.0)
        torch.mul(ca, cb, out=cos_out).addcmul_(sa, msb)
