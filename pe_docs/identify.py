"""The checker behind ``identify_table``: which known table or bug a tensor holds, and where its rows start.

``pairwise_shift_residual`` measures how far a table is from having a relative transform; ``identify_table``
compares a table with every correct family (layout × frequency spacing, at the offset and direction its phases
give), every formula bug of ``pe_docs._tables.FORMULA_BUGS`` (the bug gallery, ``pe_docs.variants.bugs``, builds
them) and a recomputation in float16/bfloat16, and returns a ``TableMatch``. ``KNOWN_TABLES`` lists the names in
the order they are tried.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch
from numpy.typing import ArrayLike

from pe_docs._checks import (
    check_base,
    check_choice,
    check_d_model,
    check_int,
    check_real,
    check_real_tensor,
)
from pe_docs._tables import FORMULA_BUGS, bug_frequencies, check_table, t2t_frequencies
from pe_docs.encoding import LAYOUTS, Layout
from pe_docs.frequencies import inverse_frequencies
from pe_docs.layouts import concat_to_interleaved


def pairwise_shift_residual(table: torch.Tensor, k: int = 1, *, layout: Layout = "interleaved") -> float:
    """How far the table is from having a relative transform: the best 2×2 map per sin/cos pair.

    For each column pair (``(2i, 2i+1)`` interleaved, ``(i, d/2 + i)`` concatenated — either order within
    the pair, so ``[cos | sin]`` tables use ``"concat"`` too) fit, by least squares in float64, the 2×2
    matrix ``M_i`` with ``[a_p, b_p] M_i ≈ [a_{p+k}, b_{p+k}]`` over all rows, and return the largest
    absolute residual. A correct table (any denominator, positions ascending or descending) gives a residual
    at rounding level (the map is a rotation by ``±k·w_i``); a pair whose sine and cosine have different
    frequencies cannot be mapped, and the residual is of order 1.

    Args:
        table: A real floating-point tensor of shape ``(L, d)``, ``d`` even, ``L > k + 2``, all finite.
        k: The shift; an integer >= 1.
        layout: ``"interleaved"`` or ``"concat"``: how columns are paired.

    Returns:
        The largest absolute residual, a Python float.

    Raises:
        TypeError: ``table`` is not a real floating-point tensor, ``k`` is not an integer.
        ValueError: ``table`` is not 2-D, has an odd width, too few rows or non-finite entries; ``k`` < 1;
            ``layout`` unknown.

    Examples:
        >>> from pe_docs import sinusoidal_table
        >>> from pe_docs.variants import odd_cosine_exponent_table
        >>> pairwise_shift_residual(sinusoidal_table(64, 16, dtype=torch.float64)) < 1e-12
        True
        >>> pairwise_shift_residual(odd_cosine_exponent_table(64, 16)) > 0.5
        True
    """
    table = check_table(table)
    check_real_tensor("table", table, ndim=2, finite=True)
    k = check_int("k", k, minimum=1)
    if table.size(0) <= k + 2:
        raise ValueError(f"table needs more than k + 2 = {k + 2} rows, got {table.size(0)}")
    layout = check_choice("layout", layout, LAYOUTS)
    t = table.detach().to(device="cpu", dtype=torch.float64)  # the gelsd driver runs on the CPU
    if layout == "concat":
        t = concat_to_interleaved(t)
    pairs = t.reshape(t.size(0), -1, 2).transpose(0, 1)  # (d/2, L, 2)
    x, y = pairs[:, :-k], pairs[:, k:]
    m = torch.linalg.lstsq(x, y, driver="gelsd").solution
    return float((x @ m - y).abs().max())


@dataclass(frozen=True)
class _Family:
    """A correct table: one column layout and one frequency spacing, and the libraries that ship it."""

    name: str
    layout: str  # "interleaved", "concat" ([sin | cos]) or "concat-cos-first" ([cos | sin])
    spacing: str  # "paper" (w_i = base^(-2i/d)) or "tensor2tensor" (w_i = base^(-i/(d/2 - 1)))
    libraries: tuple[str, ...]


_FAMILIES: tuple[_Family, ...] = (
    _Family(
        "paper",
        "interleaved",
        "paper",
        (
            "the paper",
            "PyTorch tutorial",
            "d2l",
            "DistilBERT/XLM (sinusoidal_pos_embds=True)",
            "keras_hub SinePositionEncoding (float32)",
            "pe_docs",
        ),
    ),
    _Family("concat", "concat", "paper", ("Hugging Face Marian port", "Transformer-XL (descending)")),
    _Family(
        "concat-cos-first",
        "concat-cos-first",
        "paper",
        ("diffusers flip_sin_to_cos=True, downscale_freq_shift=0 (UNet2DConditionModel default)",),
    ),
    _Family(
        "tensor2tensor",
        "concat",
        "tensor2tensor",
        ("tensor2tensor", "fairseq", "Whisper", "Marian C++", "diffusers default (downscale_freq_shift=1)"),
    ),
    _Family(
        "tensor2tensor-cos-first",
        "concat-cos-first",
        "tensor2tensor",
        ("diffusers flip_sin_to_cos=True, downscale_freq_shift=1 (CombinedTimestepLabelEmbeddings)",),
    ),
    _Family("tensor2tensor-interleaved", "interleaved", "tensor2tensor", ()),
)
_FAMILY = {f.name: f for f in _FAMILIES}

_LOW_PRECISION = {"float16-recomputed": torch.float16, "bfloat16-recomputed": torch.bfloat16}

_LAYOUT_TEXT = {"interleaved": "interleaved sin/cos", "concat": "[sin | cos]", "concat-cos-first": "[cos | sin]"}
_SPACING_TEXT = {
    "paper": "paper spacing w_i = base^(-2i/d)",
    "tensor2tensor": "tensor2tensor spacing w_i = base^(-i/(d/2 - 1))",
}


def _family_description(fam: _Family) -> str:
    shipped = ", ".join(fam.libraries) if fam.libraries else "no library known to ship it"
    return f"{_SPACING_TEXT[fam.spacing]}, {_LAYOUT_TEXT[fam.layout]}: {shipped}; correct"


_DESCRIPTIONS: dict[str, str] = {
    **{fam.name: _family_description(fam) for fam in _FAMILIES},
    **{name: description for name, (description, _) in FORMULA_BUGS.items()},
    "constant-rows": "BUG: every position has the same vector (encoding added along the batch axis?); "
    "fix: index the buffer by the sequence axis",
    "float16-recomputed": "BUG: a known table recomputed in float16 (errors grow with position as an 11-bit "
    "mantissa's do); fix: build in float32/64, then cast",
    "bfloat16-recomputed": "BUG: a known table recomputed in bfloat16 (errors grow with position as an 8-bit "
    "mantissa's do); fix: build in float32/64, then cast",
}
KNOWN_TABLES: tuple[str, ...] = tuple(_DESCRIPTIONS)
"""Names of every table ``identify_table`` recognises, in the order it tries them.

The correct families first — each a column layout (interleaved, ``[sin | cos]``, ``[cos | sin]``) with a
frequency spacing (the paper's ``base^(−2i/d)``, tensor2tensor's ``base^(−i/(d/2 − 1))``): ``"paper"``,
``"concat"``, ``"concat-cos-first"``, ``"tensor2tensor"``, ``"tensor2tensor-cos-first"``,
``"tensor2tensor-interleaved"`` — then the bugs (:attr:`TableMatch.is_bug` is true for these), the last two
found by their effect: a table holding float16 (bfloat16) numbers whose errors from a correct family stay within
what rounding its positions, frequencies and phases to float16 (bfloat16) can cause. A table that matches none
is ``"unknown"``.

Examples:
    >>> KNOWN_TABLES[:2], len(KNOWN_TABLES)
    (('paper', 'concat'), 13)
"""
_BUGS = frozenset(KNOWN_TABLES[len(_FAMILIES) :])

_FP16_OVERFLOW = 65520  # the first integer that rounds to +inf in float16
_SAMPLE_EDGE = 32  # rows kept at each end of the table in the sample
_SAMPLE_SPREAD = 64  # rows spread evenly in between
_CHUNK = 8192  # rows compared at a time on the full table
_RESIDUAL_ROWS = 1024  # rows used for the shift residual
_DECODE_LIMIT = 2**20  # positions read from a row's phases up to about this


@dataclass(frozen=True)
class TableMatch:
    """What ``identify_table`` found.

    Attributes:
        name: The first entry of ``KNOWN_TABLES`` that matches, or ``"unknown"``.
        max_error: Largest absolute difference from the matched table over every row (for ``"unknown"``: from
            the closest candidate, over the rows examined). For the ``*-recomputed`` bugs it is the difference
            from the exact table of the family found (often close to 2: the phases are off by radians).
        atol: The tolerance for the correct families and the formula bugs: ``atol`` if given, else
            ``eps + 4·2⁻²⁴·P``, where ``P`` is the largest position of the candidate's rows — four times the
            float32 rounding of the phase ``p·w`` at ``P`` — and ``eps`` is the spacing of numbers just above 1
            in the precision the values carry: bfloat16 (float16) when every value sampled is a bfloat16
            (float16) number, else the table's dtype; at least ``2⁻²⁰``.
        closest: The candidate with the smallest error on the rows examined.
        also_within_tolerance: Other candidates that match too (a table too short or too coarse to tell them
            apart).
        errors: Every candidate's largest absolute difference on the rows examined (``inf`` where the table has
            NaN or infinite entries): for a table of more than 128 rows, a sample (see ``identify_table``),
            except for candidates that matched the sample, which were checked on every row. The
            ``*-recomputed`` entries appear only when that test ran.
        shift_residual: ``pairwise_shift_residual`` for ``k = 1`` with the matched pairing (interleaved if
            unknown) on at most the first 1024 rows after any zero row; ``nan`` if not computable.
        description: One line on what the candidate is, and the fix if it is a bug.
        layout: ``"interleaved"``, ``"concat"`` (``[sin | cos]``) or ``"concat-cos-first"`` (``[cos | sin]``);
            ``"interleaved"`` for the formula bugs; ``None`` when unknown or for ``"constant-rows"``.
        spacing: ``"paper"`` (``w_i = base^(−2i/d)``) or ``"tensor2tensor"`` (``base^(−i/(d/2 − 1))``) for the
            correct families and the ``*-recomputed`` bugs; ``None`` otherwise.
        offset: The position held by row 0 (``0`` unless the table starts elsewhere, e.g. fairseq's tokens
            at ``padding_idx + 1``).
        descending: True when the positions decrease down the rows (Transformer-XL: ``klen − 1 … 0``).
        zero_rows: Rows that are exactly zero and were left out (fairseq zeroes row ``padding_idx``).
        rows: How the ``(L, d)`` rows were taken from the input: ``"table"``, ``"table[0]"`` (batch-first
            ``(1, L, d)``) or ``"table[:, 0]"`` (sequence-first ``(L, 1, d)``).
        libraries: Who ships the matched family (or, for the ``*-recomputed`` bugs, the family recomputed), as
            read in each library's source; the variants page cites the files.

    Examples:
        >>> from pe_docs.variants import wrong_axis_rows
        >>> match = identify_table(wrong_axis_rows(64, 32))
        >>> match.name, match.is_bug
        ('constant-rows', True)
        >>> match.description.split(";")[0]
        'BUG: every position has the same vector (encoding added along the batch axis?)'
    """

    name: str
    max_error: float
    atol: float
    closest: str
    also_within_tolerance: tuple[str, ...]
    errors: dict[str, float] = field(repr=False)
    shift_residual: float
    description: str
    layout: str | None = None
    spacing: str | None = None
    offset: int = 0
    descending: bool = False
    zero_rows: tuple[int, ...] = ()
    rows: str = "table"
    libraries: tuple[str, ...] = ()

    @property
    def is_bug(self) -> bool:
        """True when the matched candidate is a known bug (False for correct variants and ``"unknown"``)."""
        return self.name in _BUGS


# --------------------------------------------------------------------------------------- candidate rows


def _family_frequencies(spacing: str, d: int, base: float) -> torch.Tensor:
    if spacing == "paper":
        return inverse_frequencies(d, base=base)
    return t2t_frequencies(d, base)


def _split(values: torch.Tensor, layout: str) -> tuple[torch.Tensor, torch.Tensor]:
    """(sine columns, cosine columns) of ``values`` in a layout, as ``(R, d/2)`` views, one column per frequency."""
    n = values.size(1) // 2
    if layout == "interleaved":
        pairs = values.reshape(values.size(0), n, 2)
        return pairs[..., 0], pairs[..., 1]
    first, second = values[:, :n], values[:, n:]
    return (first, second) if layout == "concat" else (second, first)


@dataclass
class _Candidate:
    """One table to compare with: a family (at an offset and direction), a formula bug, or constant rows."""

    name: str
    offset: int = 0
    descending: bool = False
    family: _Family | None = None
    error: float = math.inf  # largest |table − exact| on the rows examined
    ratio: float = math.inf  # low precision only: largest |table − exact| / bound where the bound is < 2

    def positions(self, rows: torch.Tensor) -> torch.Tensor:
        return self.offset - rows if self.descending else self.offset + rows

    def largest_position(self, length: int) -> int:
        return self.offset if self.descending else self.offset + length - 1

    def pattern(self, d: int, base: float) -> tuple[str, torch.Tensor, torch.Tensor]:
        """(layout, sine frequencies, cosine frequencies)."""
        if self.family is not None:
            w = _family_frequencies(self.family.spacing, d, base)
            return self.family.layout, w, w
        return ("interleaved", *bug_frequencies(self.name, d, base))


def _wrap(x: torch.Tensor) -> torch.Tensor:
    """Angles folded into [−π, π)."""
    return torch.remainder(x + math.pi, 2 * math.pi) - math.pi


def _decode_positions(rows: torch.Tensor, fam: _Family, base: float) -> torch.Tensor:
    """The integer position each float64 row would hold in ``fam`` (phase unwrapping, lowest frequency first).

    The lowest frequency gives the position modulo its wavelength ``Λ = 2π/w_min`` (about 60 000); up to 32
    higher frequencies, each at most ``base^(1/31)`` times the previous one, refine it. Every start
    ``θ/w_min + kΛ`` with ``k = −1, 0, 1, …`` up to position ``2²⁰`` is refined (``k = −1``: a row at position 0
    with a little noise reads as just below ``Λ``); the smallest non-negative result whose phases all agree
    within a quarter of a radian wins (else the one that agrees best).
    """
    w = _family_frequencies(fam.spacing, rows.size(1), base)
    sines, cosines = _split(rows, fam.layout)
    theta = torch.atan2(sines, cosines)  # (R, n)
    n = w.numel()
    steps = torch.unique(torch.linspace(0, n - 1, min(n, 32)).round().long()).flip(0).tolist()
    lowest = float(w[-1])
    wavelength = 2 * math.pi / lowest
    laps = torch.arange(-1, math.ceil(_DECODE_LIMIT / wavelength) + 1, dtype=torch.float64)
    p = torch.remainder(theta[:, -1], 2 * math.pi)[None, :] / lowest + laps[:, None] * wavelength  # (K, R)
    for i in steps:
        p = p + _wrap(theta[None, :, i] - p * w[i]) / w[i]
    p = p.round()
    miss = _wrap(theta[None, :, :] - p[:, :, None] * w[None, None, :]).abs().amax(dim=2)  # (K, R)
    miss[p < 0] = math.inf
    # the smallest position whose phases all agree within a quarter radian, else the best agreement
    agree = miss < 0.25
    pick = torch.where(agree.any(dim=0), agree.to(torch.int8).argmax(dim=0), miss.argmin(dim=0))
    return p.gather(0, pick[None, :])[0].to(torch.int64)


def _as_tensor(table: object) -> torch.Tensor:
    """``table`` itself if it is a tensor, else a CPU tensor holding exactly the numbers ``numpy.asarray`` gives.

    NumPy's float16, float32 and float64 keep their dtype; ``ml_dtypes``' bfloat16 (JAX, TensorFlow) becomes
    torch's bfloat16 bit for bit. Any other dtype (integers, ``longdouble``, complex, objects, strings) is
    refused rather than rounded.
    """
    if isinstance(table, torch.Tensor):
        return table
    try:
        array = np.asarray(table)
    except (TypeError, ValueError) as err:  # e.g. ragged nested lists
        raise ValueError(
            f"table must be a tensor or an array, got a {type(table).__name__} that numpy.asarray refuses: {err}"
        ) from err
    if array.dtype in (np.float16, np.float32, np.float64):
        return torch.from_numpy(np.array(array, order="C", copy=True))
    if array.dtype.name == "bfloat16" and array.dtype.itemsize == 2:
        return torch.from_numpy(np.ascontiguousarray(array).view(np.int16).copy()).view(torch.bfloat16)
    raise TypeError(
        f"table must hold real floating-point numbers (float16, bfloat16, float32 or float64), got a "
        f"{type(table).__name__} that numpy.asarray reads as dtype {array.dtype}"
    )


def _table_rows(table: object) -> tuple[torch.Tensor, str]:
    """The ``(L, d)`` rows of ``table`` and how they were taken (``"table"``, ``"table[0]"``, ``"table[:, 0]"``)."""
    table = check_real_tensor("table", _as_tensor(table), finite=False)
    if table.dim() == 2:
        return table, "table"
    if table.dim() == 3 and table.size(0) == 1 and table.size(1) > 1:
        return table[0], "table[0]"
    if table.dim() == 3 and table.size(1) == 1 and table.size(0) > 1:
        return table[:, 0], "table[:, 0]"
    hint = ""
    if table.dim() == 3:
        hint = (
            " (pass one sequence's rows: table[b] for a batch-first (B, L, d) tensor, table[:, b] for a "
            "sequence-first (L, B, d) one)"
        )
    raise ValueError(f"table must have shape (L, d), (1, L, d) or (L, 1, d), got {tuple(table.shape)}{hint}")


def _sample(length: int) -> torch.Tensor:
    if length <= 2 * _SAMPLE_EDGE + _SAMPLE_SPREAD:
        return torch.arange(length)
    edges = torch.cat((torch.arange(_SAMPLE_EDGE), torch.arange(length - _SAMPLE_EDGE, length)))
    spread = torch.linspace(0, length - 1, _SAMPLE_SPREAD).round().long()
    return torch.unique(torch.cat((edges, spread)))


def _nan_to_inf(x: float) -> float:
    return math.inf if math.isnan(x) else x


class _Checker:
    """Compares one ``(L, d)`` table with candidates: on sampled rows first, then on every row, chunk by chunk."""

    def __init__(self, t: torch.Tensor, base: float, atol: float | None) -> None:
        self.t = t.contiguous()
        self.length, self.d = self.t.shape
        self.base = base
        self.atol = atol
        low, high = torch.aminmax(self.t, dim=1)  # NaN propagates: one pass finds zero and non-finite rows
        self.finite = torch.isfinite(low) & torch.isfinite(high)
        self.zero = (low == 0) & (high == 0)
        self.zero_rows = tuple(torch.nonzero(self.zero).flatten().tolist())
        self.usable = torch.nonzero(self.finite & ~self.zero).flatten()
        self.first_row = self.t[:1].to(torch.float64)
        sample = _sample(self.length)
        if self.usable.numel():
            sample = torch.unique(torch.cat((sample, self.usable[[0, -1]])))
        self.sample = sample
        self.sample_values = self.t[sample].to(torch.float64)
        # The precision the values carry: a table rounded to float16 or bfloat16 (and perhaps cast back to
        # float32) holds only numbers of that format. Checked on the sample's finite rows.
        # bfloat16 is tried first: its 8-bit numbers are float16 numbers too (within float16's range).
        values = self.sample_values[torch.isfinite(self.sample_values).all(dim=1)]
        self.precision = t.dtype
        for dt in (torch.bfloat16, torch.float16):
            if bool(torch.equal(values.to(dt).to(torch.float64), values)):
                self.precision = dt
                break
        self.eps = max(torch.finfo(self.precision).eps, 2.0**-20)
        self._placements: dict[str, list[tuple[int, bool]]] = {}

    def tolerance(self, cand: _Candidate) -> float:
        """``atol``, or ``eps + 4·2⁻²⁴·P`` for the candidate's largest position ``P`` (``eps`` for constant rows)."""
        if self.atol is not None:
            return self.atol
        if cand.name == "constant-rows":
            return self.eps
        return self.eps + 4 * 2.0**-24 * cand.largest_position(self.length)

    # -- differences ------------------------------------------------------------------------------------
    def _differences(
        self, cand: _Candidate, rows: torch.Tensor, values: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """|table − exact| for the sine and the cosine columns, each ``(R, d/2)`` in float64, and the phases."""
        layout, sin_w, cos_w = cand.pattern(self.d, self.base)
        positions = cand.positions(rows).to(torch.float64)[:, None]
        sines, cosines = _split(values, layout)
        ds = torch.sin(positions * sin_w[None, :]).sub_(sines).abs_()
        phase = positions * cos_w[None, :]
        dc = torch.cos(phase).sub_(cosines).abs_()
        return ds, dc, phase

    def _error(self, cand: _Candidate, rows: torch.Tensor, values: torch.Tensor) -> float:
        if cand.name == "constant-rows":
            return _nan_to_inf(float((values.to(torch.float64) - self.first_row).abs().max()))
        ds, dc, _ = self._differences(cand, rows, values)
        per_row = torch.maximum(ds.amax(dim=1), dc.amax(dim=1))  # NaN propagates
        if cand.family is not None:
            per_row[self.zero[rows]] = 0.0
        return _nan_to_inf(float(per_row.max()))

    def _ratio(
        self, cand: _Candidate, rows: torch.Tensor, values: torch.Tensor, dtype: torch.dtype, *, sample: bool
    ) -> tuple[float, float]:
        """(largest |table − exact| / bound over the entries the bound constrains (< 2), largest |table − exact|
        over the finite rows); the ratio is inf when the bound cannot hold.

        On the sample at least one entry must be constrained (else inf); a chunk of the full table may have none
        (0).

        The bound, per entry, for a table of the candidate's family computed in ``dtype`` (unit roundoff ``u``):
        positions, frequencies and the phase ``φ = p·w`` rounded to ``dtype`` move the phase by at most
        ``φ·u·(4 + 3x)``, where ``x = −ln w`` (a frequency ``exp(−x)`` or ``base^(−e)`` computed from a rounded
        exponent is off by ``u·(2 + 3x)`` relative; the position and the product by ``u`` each); the sine or
        cosine adds ``2u`` (its own error and the rounding of the result) and ``eps`` the table's dtype. Past 2 the
        bound says nothing. float16 positions from 65 520 on are ``inf``: those rows must be NaN, the others finite.
        """
        keep = ~self.zero[rows]
        finite = self.finite[rows]
        limit = _FP16_OVERFLOW if dtype == torch.float16 else math.inf  # no other dtype overflows here
        overflow = cand.positions(rows) >= limit
        if bool((keep & (finite == overflow)).any()):
            return math.inf, math.inf
        keep &= finite
        if not bool(keep.any()):
            return (math.inf if sample else 0.0), 0.0
        ds, dc, phase = self._differences(cand, rows[keep], values[keep])
        difference = torch.maximum(ds, dc)
        error = float(difference.max())
        u = torch.finfo(dtype).eps / 2
        x = -torch.log(cand.pattern(self.d, self.base)[1])
        bound = (phase * (u * (4 + 3 * x))[None, :] + (2 * u + self.eps)).clamp_(max=2.0)
        constrained = bound < 2
        if not bool(constrained.any()):
            return (math.inf if sample else 0.0), error
        return float(difference.div_(bound)[constrained].max()), error

    def sample_error(self, cand: _Candidate) -> float:
        return self._error(cand, self.sample, self.sample_values)

    def sample_ratio(self, cand: _Candidate, dtype: torch.dtype) -> float:
        return self._ratio(cand, self.sample, self.sample_values, dtype, sample=True)[0]

    def full(self, cand: _Candidate, dtype: torch.dtype | None = None) -> tuple[float, float]:
        """(largest error over the finite rows, largest bound ratio — ``nan`` without ``dtype``) over every row."""
        err, ratio = 0.0, (0.0 if dtype is not None else math.nan)
        for start in range(0, self.length, _CHUNK):
            rows = torch.arange(start, min(start + _CHUNK, self.length))
            values = self.t[start : start + _CHUNK]
            if dtype is None:
                err = max(err, self._error(cand, rows, values))
                continue
            chunk_ratio, chunk_error = self._ratio(cand, rows, values, dtype, sample=False)
            ratio, err = max(ratio, chunk_ratio), max(err, chunk_error)
        return err, ratio

    # -- where the rows start ---------------------------------------------------------------------------
    def placements(self, fam: _Family) -> list[tuple[int, bool]]:
        """(offset, descending) pairs for ``fam``, read from the phases of the first and last usable rows."""
        if fam.name not in self._placements:
            found: list[tuple[int, bool]] = []
            if self.usable.numel() >= 4:
                ends = self.usable[[0, -1]]
                (ra, rb), (pa, pb) = ends.tolist(), _decode_positions(self.t[ends].double(), fam, self.base).tolist()
                for offset, descending in ((pa - ra, False), (pb - rb, False), (pb + rb, True), (pa + ra, True)):
                    if offset >= (self.length - 1 if descending else 0) and (offset, descending) not in found:
                        found.append((offset, descending))
            self._placements[fam.name] = found
        return self._placements[fam.name]

    def residual(self, layout: str) -> float:
        """``pairwise_shift_residual`` on the first rows after any zero row (``nan`` if not computable)."""
        start = self.zero_rows[-1] + 1 if self.zero_rows else 0
        block = self.t[start : start + _RESIDUAL_ROWS]
        if block.size(0) < 4 or not bool(torch.isfinite(block).all()):
            return math.nan
        return pairwise_shift_residual(block, 1, layout="interleaved" if layout == "interleaved" else "concat")


def identify_table(table: torch.Tensor | ArrayLike, *, base: float = 10000.0, atol: float | None = None) -> TableMatch:
    """Tell which known variant or bug a positional-encoding table matches, and where its rows start.

    Pass the table your model adds: ``(L, d)``, or a buffer with a batch axis of 1, batch-first ``(1, L, d)``
    (tensor2tensor, d2l, keras_hub) or sequence-first ``(L, 1, d)`` (the PyTorch tutorial, Marian C++,
    Transformer-XL) — :attr:`TableMatch.rows` says which rows were read. To test what a module really adds,
    pass ``module(zeros)`` for a zero input with dropout off.

    Steps, in ``KNOWN_TABLES`` order:

    1. The correct families — each column layout (interleaved, ``[sin | cos]``, ``[cos | sin]``) with each
       frequency spacing (the paper's, tensor2tensor's). For each, the positions of the first and last usable
       rows are read from their phases, which gives the offset of row 0 and the direction (ascending, or
       descending as in Transformer-XL); rows that are exactly zero (fairseq's padding row) are left out. A
       family matches when every entry is within :attr:`TableMatch.atol` of its exact float64 table. The
       default tolerance grows with the largest position ``P``: a float32 table built the usual way (phase
       ``p·w`` rounded to float32) is off by about ``2⁻²⁴·P``, so a fixed tolerance would call a correct long
       table unknown.
    2. The formula bugs (positions ``0 … L − 1``), and ``"constant-rows"``, with the same tolerance.
    3. Recomputed in low precision, found by its effect: a table whose values are all float16 (bfloat16)
       numbers and whose every entry stays within the error that rounding positions, frequencies and phases to
       that precision can cause, for some family — an error that grows with the phase, so the high-frequency
       columns of late rows may be anything while the low-frequency columns stay close. This holds whatever
       formula computed the table in that precision (``exp``/``log``, ``pow``, a division, Keras's masks). In
       float16 the rows from position 65 520 on are NaN (the position rounds to ``inf``); they are accepted
       there. A table whose phases were rounded in low precision but whose values were computed in float32 is
       not recognised (it holds no float16 or bfloat16 numbers): it comes back ``"unknown"``.

    Candidates are compared on a sample of at most 130 rows (the first and last 32, 64 spread between, and the
    first and last usable rows); only the match is then compared on every row, with one float64 sine and
    cosine per entry.

    Integer positions only (a diffusers table of fractional timesteps is ``"unknown"``); positions are read
    up to about ``2²⁰``.

    Args:
        table: Shape ``(L, d)``, ``(1, L, d)`` or ``(L, 1, d)`` with ``L >= 4`` and ``d >= 4`` even: a torch
            tensor of any real floating dtype on any device, or a NumPy array (float16, float32, float64, or
            ``ml_dtypes``' bfloat16) or anything ``numpy.asarray`` turns into one (a JAX or TensorFlow array,
            nested lists), read exactly and answered as the same tensor would be. NaN or infinite entries give
            ``"unknown"`` except as described above.
        base: The frequency base the candidates are built with; finite and > 0.
        atol: A fixed tolerance for steps 1 and 2 instead of the default, a finite number > 0 (Python or NumPy
            scalar).

    Returns:
        A ``TableMatch``.

    Raises:
        TypeError: ``table`` does not hold real floating-point numbers (an integer tensor or array, say),
            ``base`` or ``atol`` is not a real number.
        ValueError: another shape (the message says which rows to pass), fewer than 4 rows or columns, an odd
            width (the message says which column to drop: the zero pad column, or the unpaired one together
            with the ``base`` to pass), something ``numpy.asarray`` refuses, ``base`` or ``atol`` not finite or
            <= 0.

    Examples:
        >>> from pe_docs import sinusoidal_table
        >>> from pe_docs.variants import odd_cosine_exponent_table, transformer_xl_pos_emb
        >>> identify_table(sinusoidal_table(64, 32)).name
        'paper'
        >>> identify_table(odd_cosine_exponent_table(64, 32)).name
        'odd-cosine-exponent'
        >>> m = identify_table(transformer_xl_pos_emb(100, 16))
        >>> m.name, m.rows, m.offset, m.descending
        ('concat', 'table[:, 0]', 99, True)
        >>> identify_table(sinusoidal_table(64, 32).numpy()).name  # a NumPy array: the same answer
        'paper'
    """
    rows, how = _table_rows(table)
    check_int("table.size(0)", rows.size(0), minimum=4)
    if rows.size(1) % 2:
        raise ValueError(_odd_width_message(rows))
    d = check_d_model(rows.size(1), "table.size(1)")
    if d < 4:
        raise ValueError(f"table.size(1) must be >= 4, got {d}")
    base = check_base(base)
    if atol is not None:
        atol = check_real("atol", atol, minimum=0.0, open_minimum=True)
    checker = _Checker(rows.detach().to("cpu"), base, atol)

    # 1. correct families: best placement of each, by error on the sample
    families: list[_Candidate] = []
    for fam in _FAMILIES:
        tried = [_Candidate(fam.name, offset, descending, fam) for offset, descending in checker.placements(fam)]
        for cand in tried:
            cand.error = checker.sample_error(cand)
        within = [c for c in tried if c.error <= checker.tolerance(c)]
        if within:  # the placement with the smallest positions among those that fit
            families.append(min(within, key=lambda c: c.largest_position(checker.length)))
        else:
            families.append(min(tried, key=lambda c: c.error, default=_Candidate(fam.name, family=fam)))
    # 2. formula bugs and constant rows, positions 0 … L − 1
    bugs = [_Candidate(name) for name in (*FORMULA_BUGS, "constant-rows")]
    for cand in bugs:
        cand.error = checker.sample_error(cand)
    ordered = families + bugs
    errors = {c.name: c.error for c in ordered}

    matched = []
    for cand in ordered:
        if cand.error <= checker.tolerance(cand):
            cand.error, _ = checker.full(cand)
            errors[cand.name] = cand.error
            if cand.error <= checker.tolerance(cand):
                matched.append(cand)
    match = matched[0] if matched else None

    # 3. recomputed in float16 / bfloat16: the family (and placement) with the smallest bound ratio
    if match is None:
        for name, dtype in _LOW_PRECISION.items():
            if checker.precision != dtype:
                continue  # a table computed in a dtype holds only numbers of that dtype
            best = None
            for fam in _FAMILIES:
                for offset, descending in checker.placements(fam):
                    cand = _Candidate(name, offset, descending, fam)
                    cand.ratio = checker.sample_ratio(cand, dtype)
                    if cand.ratio <= 1 and (best is None or cand.ratio < best.ratio):
                        best = cand
            if best is not None:
                best.error, best.ratio = checker.full(best, dtype)
                errors[name] = best.error
                if best.ratio <= 1:
                    match = best
                    break

    closest = min(errors, key=lambda n: errors[n])
    family = match.family if match is not None else None
    if family is not None:
        layout: str | None = family.layout
    elif match is not None and match.name in FORMULA_BUGS:
        layout = "interleaved"
    else:
        layout = None
    return TableMatch(
        name=match.name if match is not None else "unknown",
        max_error=match.error if match is not None else errors[closest],
        atol=checker.tolerance(match if match is not None else families[0]),
        closest=closest,
        also_within_tolerance=tuple(c.name for c in matched[1:]),
        errors=errors,
        shift_residual=checker.residual(layout or "interleaved"),
        description=_describe(match, checker),
        layout=layout,
        spacing=family.spacing if family is not None else None,
        offset=match.offset if match is not None else 0,
        descending=match.descending if match is not None else False,
        zero_rows=checker.zero_rows,
        rows=how,
        libraries=family.libraries if family is not None else (),
    )


def _odd_width_message(rows: torch.Tensor) -> str:
    """What to do with a table of odd width: drop its zero pad column, or its one unpaired column."""
    d = rows.size(1)
    text = f"table.size(1) must be even (each frequency fills one sine and one cosine column), got {d}: "
    if bool((rows[:, -1] == 0).all()):
        return text + (
            "its last column is all zeros, the pad tensor2tensor, fairseq and diffusers add for an odd width; "
            "pass table[..., :-1]"
        )
    return text + (
        f"drop the unpaired column and pass base=base ** ({d - 1} / {d}), the same frequencies on {d - 1} "
        f"columns (Hugging Face's Marian port: the last sine, table[..., [j for j in range({d}) if j != {d // 2}]]; "
        "DistilBERT/XLM: the last column, table[..., :-1])"
    )


def _describe(match: _Candidate | None, checker: _Checker) -> str:
    if match is None:
        return "matches no known variant or bug within tolerance; see `closest` and `errors`"
    text = _DESCRIPTIONS[match.name]
    if match.family is not None and match.name not in _FAMILY:
        text += f"; the table recomputed is {match.family.name!r}"
    if match.offset or match.descending:
        last = match.offset - (checker.length - 1) if match.descending else match.offset + checker.length - 1
        text += f"; rows hold positions {match.offset} … {last}"
    if checker.zero_rows and match.family is not None:
        text += f"; zero rows {list(checker.zero_rows)} left out (padding)"
    return text
