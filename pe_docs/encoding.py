"""The sinusoidal encoding table ``PE[p, 2i] = sin(p·w_i)``, ``PE[p, 2i+1] = cos(p·w_i)``.

How the float32 table is built from few sines and cosines and still lands within 2.5e-7 of the true values
(the payoff of the relative transform, see ``pe_docs.analysis.relative_transform``): write every position as
``p = a + b`` with ``a`` a multiple of a block size ``B`` and ``0 <= b < B``. Only the few block starts ``a``
and the ``B`` offsets ``b`` need sines and cosines evaluated directly; those are computed with the phase in
float64 and rounded once. Every other entry follows from

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
LAYOUTS: tuple[Layout, ...] = ("interleaved", "concat")

# The offset table (B rows of d/2 complex64 numbers) is re-read for every block: keep it within this many
# bytes so that it stays in a core's L2 cache.
_OFFSET_TABLE_BYTES = 1 << 19
_MIN_BLOCK, _MAX_BLOCK = 16, 1024
# Low-precision outputs are produced from float32 rows in chunks of at most this many float32 elements.
_CHUNK_ELEMENTS = 1 << 20
# The directly evaluated factors are computed this many (sin, cos) pairs at a time: their float64 temporaries stay small
# and cache-resident instead of being fresh pages of memory (page faults cost more than the sines).
_PAIRS_PER_CHUNK = 1 << 15


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

    A float32 table is within 2.5e-7 of the true values at every position below ``2**24`` (shown below for
    the default base and even ``d_model`` up to 8192; not exact: even the float64 table rounded once is off by
    up to ``2**-25``, about 3e-8), and it evaluates sines and
    cosines for only a small fraction of its entries; ``benchmarks/bench_table.py`` times it against the
    usual code.

    * ``float32``: positions are split as ``p = a + b`` (block start ``a``, small offset ``b``). The sines
      and cosines of ``a · w_i`` and ``b · w_i`` are computed with the phase in float64 and rounded to
      float32; every entry is then ``sin(a + b)``, ``cos(a + b)`` from the angle-addition formulas — one
      complex multiplication per (sin, cos) pair, the relative transform of
      ``pe_docs.analysis.relative_transform`` applied in bulk. Error bound, in units of ``2^-24`` (the float32
      spacing of numbers in [0.5, 1)):

      - each component of a factor is its float64 value rounded to nearest (within ``1/2``), or one step
        toward zero where rounding to nearest made the pair longer than 1, so that no entry leaves
        [-1, 1] (within ``1``): a factor is within ``√2``;
      - the unrounded product of two rounded factors is then within ``2√2`` of the product of the
        float64 factors (``(z1 + δ1)(z2 + δ2) − z1·z2 = z1·δ2 + δ1·(z2 + δ2)`` and both lengths are <= 1);
      - the float32 complex multiplication rounds two products and a sum per component; as
        ``|x1·x2| + |y1·y2| <= 1``, at most one product is in [0.5, 1): ``1/2 + 1/4 + 1/2 = 1.25``;
      - the float64 phases are not exact either: ``w_i`` is rounded (``pow`` is not correctly rounded) and
        ``a · w_i`` is rounded to float64, whose spacing is ``2^-29`` in [2^23, 2^24). Below ``2**24``
        this moves the two factors together by less than ``0.05`` (bounded for ``base = 10000`` and every
        even ``d_model`` up to 8192 in ``tests/test_encoding.py``; the float64 sines and cosines add far
        less); ``d_model = 2`` has ``w_0 = 1`` and integer phases, which float64 holds exactly.

      Every entry is therefore within ``(2√2 + 1.25 + 0.05) · 2^-24 < 4.13 · 2^-24 < 2.5e-7`` of the true
      value (measured on the whole ``d_model = 2`` table of ``2**24`` rows: 2.25e-7). The usual tutorial
      code (phase in float32) is off by more than 5e-2 near position ``10**6`` (``d_model = 512``). Row
      ``p`` comes from the same block start and offset whatever ``max_len`` is, and the first rows (the
      first block, at least 16) are the float64 values rounded once, bit for bit; elsewhere the last bit
      may depend on how PyTorch vectorises and splits the multiplication.
    * ``float64``: the phase ``p · w_i`` is formed in float64 and its sine and cosine are written straight
      into the output (one float64 phase array of half the output's size is the only temporary).
    * other dtypes (``bfloat16``, ``float16``): the float32 rows above, rounded to ``dtype`` chunk by chunk.

    Memory: besides the output, the float32 method keeps only the block starts (about ``max_len / B`` rows)
    and the offsets (at most ``B`` rows, with ``B`` chosen from ``d_model`` so that they stay in cache), so no
    temporary is larger than the output or 1 MiB, whichever is larger (for ``d_model <= 8192``). The result
    is built on the CPU.

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


def _table_rows(first: int, count: int, d: int, *, base: float, dtype: torch.dtype, layout: str) -> torch.Tensor:
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


def _block_size(d: int) -> int:
    """Offsets per block, fixed by the width alone, so that a row never depends on the table's length.

    The offset table (``B × d/2`` complex64) stays within ``_OFFSET_TABLE_BYTES`` (a core's L2 cache).
    """
    return max(_MIN_BLOCK, min(_MAX_BLOCK, _OFFSET_TABLE_BYTES // (4 * d)))


def _unit_pairs(positions: torch.Tensor, w: torch.Tensor, *, turn: bool) -> torch.Tensor:
    """Unit complex numbers for float64 ``positions``, as complex64 of shape ``(len(positions), d/2)``.

    Block starts (``turn=False``) are ``z(a) = sin(a·w) + i·cos(a·w)``; offsets (``turn=True``) are
    ``e^{−i·b·w} = cos(b·w) − i·sin(b·w)``, so that ``z(a) · e^{−i·b·w} = z(a + b)``.

    The phases and their sines and cosines are computed in float64 and rounded to float32. Where rounding
    to nearest made a pair longer than 1, its components are rounded toward zero instead: with both factors
    of length <= 1, no product can leave [-1, 1] (a table value of 1.0000001 would be a visible defect).
    """
    pairs = torch.empty(len(positions), len(w), 2, dtype=torch.float32)
    rows = max(1, _PAIRS_PER_CHUNK // len(w))
    for lo in range(0, len(positions), rows):
        _unit_pairs_into(pairs[lo : lo + rows], positions[lo : lo + rows], w, turn=turn)
    return pairs.view(torch.complex64).squeeze(-1)


def _unit_pairs_into(pairs: torch.Tensor, positions: torch.Tensor, w: torch.Tensor, *, turn: bool) -> None:
    """``_unit_pairs`` for a few positions, written into the float32 ``pairs`` of shape ``(n, d/2, 2)``."""
    phase = positions[:, None] * w[None, :]
    exact = torch.empty(*phase.shape, 2, dtype=torch.float64)
    if turn:
        torch.cos(phase, out=exact[..., 0])
        torch.sin(phase, out=exact[..., 1]).neg_()
    else:
        torch.sin(phase, out=exact[..., 0])
        torch.cos(phase, out=exact[..., 1])
    pairs.copy_(exact)
    widened = pairs.double()
    x, y = widened.unbind(-1)
    too_long = (x * x).add_(y * y).gt_(1.0)  # |pair|² > 1, computed exactly in float64
    fix = widened.abs_().gt_(exact.abs_())  # components that rounded away from zero
    fix.logical_and_(too_long.unsqueeze(-1))
    # One ulp toward zero: a nonzero float32's magnitude is its bit pattern without the sign, so subtracting 1
    # from the bits shrinks it by one ulp whatever its sign (a component that rounded up is never zero).
    pairs.view(torch.int32).sub_(fix.to(torch.int32))


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
    """float32 rows ``first …`` into the contiguous ``out``: row ``p = a + b`` is ``z(a) · e^{−i·b·w}``.

    ``a = ⌊p/B⌋·B`` and ``b = p − a`` with a block size ``B`` that depends on ``d`` only, so every row is
    computed from the same two factors whatever the table's length.
    Rows of the first block (``p < B``) are written directly (phase in float64, rounded once): there
    ``z(0) = i`` and the product ``i · e^{−i·b·w}`` is exact, so this is the same number, at no extra memory.
    """
    count, d = out.shape
    h = d // 2
    block = _block_size(d)
    n_direct = max(0, min(count, block - first))
    if n_direct:
        _fill_direct(out[:n_direct], first, w, layout)
    if n_direct == count:
        return
    out, first, count = out[n_direct:], first + n_direct, count - n_direct
    m0 = first // block
    n_blocks = (first + count - 1) // block - m0 + 1
    skip = first - m0 * block  # offset of row `first` inside its block
    n_turns = min(block, skip + count)  # offsets that occur
    starts = torch.arange(n_blocks, dtype=torch.float64).mul_(block).add_(m0 * block)
    z_start = _unit_pairs(starts, w, turn=False)  # z(a) = sin + i·cos at the block starts a
    turn = _unit_pairs(torch.arange(n_turns, dtype=torch.float64), w, turn=True)  # e^{-i·b·w}: advances z by b
    # Memory of an output row is sin, cos, sin, cos, …: viewed as complex64 it holds z = sin + i·cos.
    if layout == "interleaved":
        _rotate_into(out.view(torch.complex64), z_start, turn, block, skip)
        return
    # Concatenated layout: the very same complex products (so both layouts hold identical numbers), a few
    # blocks at a time into a small buffer whose real parts (sines) and imaginary parts (cosines) are copied
    # into the two halves of the rows.
    rows_per_chunk = max(1, _CHUNK_ELEMENTS // (block * d)) * block
    buffer = torch.empty(min(count, rows_per_chunk), h, dtype=torch.complex64)
    for lo in range(0, count, rows_per_chunk):
        hi = min(count, lo + rows_per_chunk)
        chunk = buffer[: hi - lo]
        virtual = skip + lo  # row `lo` of `out` sits at offset `virtual` from the first block start
        _rotate_into(chunk, z_start[virtual // block :], turn, block, virtual % block)
        sin_cos = torch.view_as_real(chunk)
        out[lo:hi, :h].copy_(sin_cos[..., 0])
        out[lo:hi, h:].copy_(sin_cos[..., 1])


def _rotate_into(z_out: torch.Tensor, z_start: torch.Tensor, turn: torch.Tensor, block: int, skip: int) -> None:
    """Row ``j`` of ``z_out`` is the row ``r = skip + j`` of the blocks: ``z_start[r // B] · turn[r % B]``."""
    count, h = z_out.shape
    j = m = 0
    if skip:  # the partial first block
        j = min(count, block - skip)
        torch.mul(z_start[0], turn[skip : skip + j], out=z_out[:j])
        m = 1
    full = (count - j) // block
    if full:
        blocks = z_out[j : j + full * block].view(full, block, h)
        torch.mul(z_start[m : m + full, None, :], turn[None, :block, :], out=blocks)
        j, m = j + full * block, m + full
    if j < count:
        torch.mul(z_start[m], turn[: count - j], out=z_out[j:])
