"""Sinusoidal tables as real libraries build them, the bugs people ship, and a checker for your own table.

Every function here is written from the published formula of the variant it names (not copied code), in
float64 unless stated, so the differences between variants are differences of formula, not of rounding:

========================  ==================  ==============  =======================  ================
function                  layout              denominator     positions                odd ``d_model``
========================  ==================  ==============  =======================  ================
``sinusoidal_table``      interleaved         ``d``           ``0 …``                  error
``concat_paper_table``    ``[sin | cos]``     ``d``           ``0 …``                  works (Marian)
``tensor2tensor_table``   ``[sin | cos]``     ``d/2 − 1``     ``0 …``                  zero column
``fairseq_table``         ``[sin | cos]``     ``d/2 − 1``     ``padding_idx + 1 …``    zero column
``tutorial_buffer``       interleaved         ``d``           ``0 …``, ``(L, 1, d)``   crashes
========================  ==================  ==============  =======================  ================

"Denominator" is the ``D`` in ``w_i = 10000^(−i/D)`` for frequency index ``i = 0 … d/2 − 1``; the paper's
``10000^(−2i/d)`` is ``D = d/2``, written here as "``d``" after the paper. tensor2tensor and fairseq use
``D = d/2 − 1`` so that the last frequency is exactly ``1/10000``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

from pe_docs._checks import (
    check_base,
    check_choice,
    check_d_model,
    check_float_dtype,
    check_int,
    check_real,
    check_real_tensor,
)
from pe_docs.encoding import LAYOUTS, Layout
from pe_docs.frequencies import inverse_frequencies
from pe_docs.numerics import exact_rows, rows_in_dtype

# ---------------------------------------------------------------------------------------------- layouts


def _check_table(table: object, name: str = "table") -> torch.Tensor:
    if not isinstance(table, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(table).__name__}")
    if table.dim() < 1:
        raise ValueError(f"{name} must have at least one dimension, got shape {tuple(table.shape)}")
    check_d_model(table.size(-1), f"{name}.size(-1)")
    return table


def _concat_order(d: int) -> torch.Tensor:
    """Column indices that take an interleaved table to ``[sin | cos]``."""
    return torch.cat((torch.arange(0, d, 2), torch.arange(1, d, 2)))


def interleaved_to_concat(table: torch.Tensor) -> torch.Tensor:
    """Reorder the last dimension from ``[sin0, cos0, sin1, cos1, …]`` to ``[sin0, sin1, … | cos0, cos1, …]``.

    A pure column permutation: values are copied bit for bit.

    Args:
        table: A tensor of shape ``(..., d)`` with ``d`` even, any dtype and device.

    Returns:
        A new tensor of the same shape, dtype and device.

    Raises:
        TypeError: ``table`` is not a tensor.
        ValueError: ``table`` is 0-D or its last dimension is odd.

    Examples:
        >>> interleaved_to_concat(torch.tensor([[0.0, 1.0, 2.0, 3.0]]))
        tensor([[0., 2., 1., 3.]])
    """
    table = _check_table(table)
    return table[..., _concat_order(table.size(-1)).to(table.device)]


def concat_to_interleaved(table: torch.Tensor) -> torch.Tensor:
    """Inverse of ``interleaved_to_concat``: ``[sin | cos]`` back to the paper's interleaved columns.

    Args:
        table: A tensor of shape ``(..., d)`` with ``d`` even, any dtype and device.

    Returns:
        A new tensor of the same shape, dtype and device.

    Raises:
        TypeError: ``table`` is not a tensor.
        ValueError: ``table`` is 0-D or its last dimension is odd.

    Examples:
        >>> concat_to_interleaved(torch.tensor([[0.0, 2.0, 1.0, 3.0]]))
        tensor([[0., 1., 2., 3.]])
    """
    table = _check_table(table)
    inverse = torch.argsort(_concat_order(table.size(-1)))
    return table[..., inverse.to(table.device)]


# ---------------------------------------------------------------------------------------- the variants


def _phase(positions: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The phase ``p · w`` of every position and frequency, in float64, shape ``(len(positions), len(w))``."""
    return positions.to(torch.float64)[:, None] * w[None, :]


def _odd_width_frequencies(d: int, base: float) -> torch.Tensor:
    """``base^(-2i/d)`` for ``i = 0 … (d - 1)/2`` and odd ``d`` (DistilBERT/Marian), which
    ``pe_docs.inverse_frequencies`` rejects; the same expression, so it matches it bit for bit."""
    two_i = torch.arange(0, d, 2, dtype=torch.float64)
    return torch.pow(torch.tensor(base, dtype=torch.float64), -(two_i / d))


def _t2t_frequencies(d: int, max_timescale: float, min_timescale: float = 1.0) -> torch.Tensor:
    n = d // 2
    increment = math.log(max_timescale / min_timescale) / max(n - 1, 1)
    return min_timescale * torch.exp(-increment * torch.arange(n, dtype=torch.float64))


def _concat_with_pad(sin: torch.Tensor, cos: torch.Tensor, d: int) -> torch.Tensor:
    parts = [sin, cos]
    if d % 2:
        parts.append(torch.zeros(sin.size(0), 1, dtype=sin.dtype))
    return torch.cat(parts, dim=-1)


def concat_paper_table(
    max_len: int, d_model: int, *, base: float = 10000.0, dtype: torch.dtype = torch.float64
) -> torch.Tensor:
    """The paper's frequencies in the ``[sin | cos]`` layout (Hugging Face Marian/BART-style tables).

    Column ``j`` uses the exponent ``2·⌊j/2⌋ / d`` before the columns are split into sines (even ``j``) and
    cosines (odd ``j``). For even ``d_model`` this equals ``sinusoidal_table(..., layout="concat")``; an odd
    ``d_model`` works and gives one more sine than cosine column.

    Args:
        max_len: Number of positions (rows); an integer >= 1.
        d_model: Width; an integer >= 1 (odd allowed).
        base: The frequency base; finite and > 0.
        dtype: Floating-point dtype of the result (the phase is always formed in float64).

    Returns:
        A tensor of shape ``(max_len, d_model)``: ``⌈d/2⌉`` sine columns, then ``⌊d/2⌋`` cosine columns.

    Raises:
        TypeError: an argument has the wrong type (``dtype`` not floating point).
        ValueError: ``max_len`` or ``d_model`` is < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> concat_paper_table(2, 3)
        tensor([[0.0000, 0.0000, 1.0000],
                [0.8415, 0.0022, 0.5403]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_int("d_model", d_model, minimum=1)
    base = check_base(base)
    dtype = check_float_dtype(dtype)
    w = _odd_width_frequencies(d, base) if d % 2 else inverse_frequencies(d, base=base)
    phase = _phase(torch.arange(max_len), w)
    table = torch.cat((torch.sin(phase), torch.cos(phase[:, : d // 2])), dim=-1)
    return table.to(dtype)


def tensor2tensor_table(
    max_len: int,
    d_model: int,
    *,
    min_timescale: float = 1.0,
    max_timescale: float = 1.0e4,
    start: int = 0,
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """tensor2tensor's ``get_timing_signal_1d``: ``[sin | cos]`` with ``w_i = 10000^(−i/(d/2 − 1))``.

    The timescales run geometrically from ``min_timescale`` to exactly ``max_timescale`` (the last
    wavelength is ``2π·10000``, which the paper's formula never reaches); an odd ``d_model`` gets a zero
    column on the right.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width (the "channels"); an integer >= 2.
        min_timescale: Shortest timescale (``1/w``); finite and > 0.
        max_timescale: Longest timescale (``1/w``); finite and > 0.
        start: First position; an integer >= 0.
        dtype: Floating-point dtype of the result (the phase is always formed in float64).

    Returns:
        A tensor of shape ``(max_len, d_model)``: rows are positions ``start … start + max_len − 1``.

    Raises:
        TypeError: an argument has the wrong type (``dtype`` not floating point).
        ValueError: an argument is out of range.

    Examples:
        >>> tensor2tensor_table(2, 4)
        tensor([[0.0000e+00, 0.0000e+00, 1.0000e+00, 1.0000e+00],
                [8.4147e-01, 1.0000e-04, 5.4030e-01, 1.0000e+00]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_int("d_model", d_model, minimum=2)
    start = check_int("start", start, minimum=0)
    min_timescale = check_base(min_timescale, "min_timescale")
    max_timescale = check_base(max_timescale, "max_timescale")
    dtype = check_float_dtype(dtype)
    phase = _phase(torch.arange(start, start + max_len), _t2t_frequencies(d, max_timescale, min_timescale))
    return _concat_with_pad(torch.sin(phase), torch.cos(phase), d).to(dtype)


def fairseq_table(
    max_len: int, d_model: int, *, padding_idx: int = 1, dtype: torch.dtype = torch.float64
) -> torch.Tensor:
    """What fairseq's ``SinusoidalPositionalEmbedding`` adds to tokens ``0 … max_len − 1`` of a sequence.

    Same frequencies and layout as ``tensor2tensor_table`` (``[sin | cos]``, denominator ``d/2 − 1``,
    zero column for odd ``d``), but fairseq numbers the tokens of an unpadded sequence from
    ``padding_idx + 1``: row ``s`` here is the encoding of position ``s + padding_idx + 1``. (Row
    ``padding_idx`` of fairseq's own weight matrix is zeroed and used only for padding tokens.)

    Args:
        max_len: Number of tokens; an integer >= 1.
        d_model: Width; an integer >= 4.
        padding_idx: fairseq's padding index; an integer >= 0.
        dtype: Floating-point dtype of the result.

    Returns:
        A tensor of shape ``(max_len, d_model)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> torch.equal(fairseq_table(3, 8, padding_idx=1), tensor2tensor_table(3, 8, start=2))
        True
    """
    padding_idx = check_int("padding_idx", padding_idx, minimum=0)
    d = check_int("d_model", d_model, minimum=4)
    return tensor2tensor_table(max_len, d, start=padding_idx + 1, dtype=dtype)


def tutorial_buffer(max_len: int, d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """The PyTorch tutorial's buffer: shape ``(max_len, 1, d_model)``, float32, phase rounded in float32.

    Sequence-first (``x + pe[:x.size(0)]`` for ``x`` of shape ``(seq, batch, d)``). The tutorial computes
    ``exp(arange(0, d, 2) · (−ln(base)/d))`` and the phase in float32, which is
    ``pe_docs.rows_in_dtype`` with ``method="log"`` and ``dtype=float32``; the buffer is exactly that,
    with a batch axis of 1. The code fills the sine columns ``pe[:, 0, 0::2]`` and the cosine columns
    ``pe[:, 0, 1::2]`` from the same ``⌈d/2⌉`` frequencies, so an odd ``d_model`` fails as the original
    does.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; an integer >= 1 (an odd width raises ``RuntimeError``, see below).
        base: The frequency base; finite and > 0.

    Returns:
        A float32 tensor of shape ``(max_len, 1, d_model)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` or ``d_model`` is < 1, ``base`` <= 0 or not finite.
        RuntimeError: for odd ``d_model`` — ``ceil(d/2)`` frequencies do not fit ``floor(d/2)`` cosine
            columns (this reproduces the tutorial's crash; it is not input validation).

    Examples:
        >>> tutorial_buffer(10, 4).shape
        torch.Size([10, 1, 4])
        >>> tutorial_buffer(10, 7)
        Traceback (most recent call last):
        ...
        RuntimeError: the tutorial's code fails for odd d_model=7: 4 cosines do not fit the 3 columns pe[:, 0, 1::2]
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_int("d_model", d_model, minimum=1)
    base = check_base(base)
    if d % 2:
        raise RuntimeError(
            f"the tutorial's code fails for odd d_model={d}: {(d + 1) // 2} cosines do not fit the {d // 2} "
            "columns pe[:, 0, 1::2]"
        )
    return rows_in_dtype(torch.arange(max_len), d, base=base, method="log", dtype=torch.float32)[:, None]


# -------------------------------------------------------------------------------------------- the bugs


def _interleaved(sin_w: torch.Tensor, cos_w: torch.Tensor, max_len: int) -> torch.Tensor:
    """Interleaved rows ``sin(p·sin_w[i]), cos(p·cos_w[i])`` for ``p = 0 … max_len − 1``, float64.

    Unlike ``pe_docs.exact_rows`` the sine and cosine of a pair may have different frequencies, which is
    what the bugs below get wrong; the correct table is built by ``exact_rows``.
    """
    p = torch.arange(max_len)
    return torch.stack((torch.sin(_phase(p, sin_w)), torch.cos(_phase(p, cos_w))), dim=-1).flatten(-2)


def odd_cosine_exponent_table(max_len: int, d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """Bug: the cosine of pair ``i`` uses exponent ``(2i + 1)/d`` instead of ``2i/d`` (float64).

    Common in tutorials that read "2i+1" in ``PE(pos, 2i+1)`` as part of the exponent. Each sine/cosine
    pair then has two different frequencies, so no rotation maps position ``p`` to ``p + k``.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; a positive even integer.
        base: The frequency base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)``, interleaved layout.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` < 1, ``d_model`` odd or < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> odd_cosine_exponent_table(2, 2, base=100.0)  # cos(1 · 100^(-1/2)) = cos(0.1)
        tensor([[0.0000, 1.0000],
                [0.8415, 0.9950]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    two_i = torch.arange(0, d, 2, dtype=torch.float64)
    b = torch.tensor(check_base(base), dtype=torch.float64)
    return _interleaved(b ** (-two_i / d), b ** (-(two_i + 1) / d), max_len)


def doubled_exponent_table(max_len: int, d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """Bug: ``base ** (2 * arange(0, d, 2) / d)`` — the exponent is ``4i/d`` (the ``2i`` is doubled).

    Half the frequencies fall below the paper's smallest, ``1/base``; the table is still a valid rotation
    family, just a different (and less useful) one.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; a positive even integer.
        base: The frequency base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)``, interleaved layout.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` < 1, ``d_model`` odd or < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> doubled_exponent_table(2, 4, base=4.0)[1]  # second pair: w = 4^(-4/4) = 0.25, not 4^(-2/4)
        tensor([0.8415, 0.5403, 0.2474, 0.9689], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    four_i = 2 * torch.arange(0, d, 2, dtype=torch.float64)
    w = torch.tensor(check_base(base), dtype=torch.float64) ** (-four_i / d)
    return _interleaved(w, w, max_len)


def doubled_and_odd_exponent_table(max_len: int, d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """Both bugs at once (source notebook 003): sines use ``2·2i/d``, cosines ``2·(2i + 1)/d``.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; a positive even integer.
        base: The frequency base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)``, interleaved layout.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` < 1, ``d_model`` odd or < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> doubled_and_odd_exponent_table(2, 2, base=4.0)  # sin(1 · 4^0), cos(1 · 4^(-2/2)) = cos(0.25)
        tensor([[0.0000, 1.0000],
                [0.8415, 0.9689]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    b = torch.tensor(check_base(base), dtype=torch.float64)
    sin_w = b ** -(2 * torch.arange(0, d, 2, dtype=torch.float64) / d)
    cos_w = b ** -(2 * torch.arange(1, d, 2, dtype=torch.float64) / d)
    return _interleaved(sin_w, cos_w, max_len)


def integer_exponent_table(max_len: int, d_model: int) -> torch.Tensor:
    """Bug: the exponent computed in integer arithmetic, so every frequency is 1.

    In old PyTorch ``torch.arange(0, d, 2) * -(math.log(10000.0) / d)`` kept the integer dtype and the
    scalar was truncated to 0 (BERT-pytorch #18); ``2 * i // d`` has the same effect. Every column pair is
    then ``sin(p), cos(p)``: the table repeats itself every ``2π`` positions and carries one number's worth
    of information. With every exponent 0 the base drops out, so this table takes none.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; a positive even integer.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)``: columns ``2i`` are ``sin(p)``, columns ``2i + 1``
        are ``cos(p)``.

    Raises:
        TypeError: an argument is not an integer.
        ValueError: ``max_len`` < 1, ``d_model`` odd or < 1.

    Examples:
        >>> integer_exponent_table(2, 4)
        tensor([[0.0000, 1.0000, 0.0000, 1.0000],
                [0.8415, 0.5403, 0.8415, 0.5403]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    w = torch.ones(d // 2, dtype=torch.float64)
    return _interleaved(w, w, max_len)


def wrong_axis_rows(max_len: int, d_model: int, *, batch: int = 0, base: float = 10000.0) -> torch.Tensor:
    """Bug: a batch-first buffer added to a sequence-first input along the wrong axis.

    For ``x`` of shape ``(seq, B, d)`` and a buffer ``pe`` of shape ``(1, L, d)`` (``L >= B``), the line
    ``x + pe[:, :x.size(1)]`` broadcasts without error and adds ``PE[b]`` to every token of batch element
    ``b``. Returns what batch element ``batch`` receives at positions ``0 … max_len − 1``: the paper's row
    ``batch`` (float64) every time.

    Args:
        max_len: Sequence length (rows of the result); an integer >= 1.
        d_model: Width; a positive even integer.
        batch: The batch element ``b`` whose rows are returned; an integer >= 0.
        base: The frequency base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)`` whose rows all equal ``exact_rows([batch], d_model)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` < 1, ``batch`` < 0, ``d_model`` odd or < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> wrong_axis_rows(3, 2, batch=1)  # every position of batch element 1 gets PE[1]
        tensor([[0.8415, 0.5403],
                [0.8415, 0.5403],
                [0.8415, 0.5403]], dtype=torch.float64)
        >>> from pe_docs import sinusoidal_table
        >>> pe = sinusoidal_table(5, 8, dtype=torch.float64)[None]  # batch-first buffer
        >>> x = torch.zeros(4, 3, 8, dtype=torch.float64)  # sequence-first input, 3 batch elements
        >>> torch.equal((x + pe[:, : x.size(1)])[:, 2], wrong_axis_rows(4, 8, batch=2))
        True
    """
    max_len = check_int("max_len", max_len, minimum=1)
    batch = check_int("batch", batch, minimum=0)
    if batch > 2**53:
        raise ValueError(f"batch must be <= 2**53 (exact in float64), got {batch}")
    d = check_d_model(d_model)
    return exact_rows([batch], d, base=base).expand(max_len, d).clone()


# ---------------------------------------------------------------------------------------- the checker


def pairwise_shift_residual(table: torch.Tensor, k: int = 1, *, layout: Layout = "interleaved") -> float:
    """How far the table is from having a relative transform: the best 2×2 map per sin/cos pair.

    For each column pair (``(2i, 2i+1)`` interleaved, ``(i, d/2 + i)`` concatenated) fit, by least squares
    in float64, the 2×2 matrix ``M_i`` with ``[a_p, b_p] M_i ≈ [a_{p+k}, b_{p+k}]`` over all rows, and
    return the largest absolute residual. A correct table (any denominator) gives a residual at rounding
    level (the map is a rotation by ``k·w_i``); a pair whose sine and cosine have different frequencies
    cannot be mapped, and the residual is of order 1.

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
        >>> pairwise_shift_residual(sinusoidal_table(64, 16, dtype=torch.float64)) < 1e-12
        True
        >>> pairwise_shift_residual(odd_cosine_exponent_table(64, 16)) > 0.5
        True
    """
    table = _check_table(table)
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
class TableMatch:
    """What ``identify_table`` found.

    Attributes:
        name: The first known variant or bug (in ``KNOWN_TABLES`` order) within tolerance, or
            ``"unknown"``.
        max_error: Largest absolute difference from that candidate (from the closest one if unknown).
        atol: The tolerance used.
        closest: The candidate with the smallest error (equals ``name`` unless several match).
        also_within_tolerance: Other candidates within tolerance (the table is too short to tell them apart).
        errors: Every candidate's largest absolute difference (``inf`` for a table with NaN entries).
        shift_residual: ``pairwise_shift_residual`` for ``k = 1`` in the matched layout (interleaved if
            unknown); ``nan`` if not computable (non-finite table).
        description: One line on what the candidate is, and the fix if it is a bug.

    Examples:
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

    @property
    def is_bug(self) -> bool:
        """True when the matched candidate is a known bug (False for correct variants and ``"unknown"``)."""
        return self.name in _BUGS


_DESCRIPTIONS: dict[str, str] = {
    "paper": "the paper's table (interleaved sin/cos, w_i = 10000^(-2i/d)); correct",
    "concat": "paper frequencies in the [sin | cos] layout (Marian; pe_docs layout='concat'); correct",
    "tensor2tensor": "[sin | cos] with denominator d/2 - 1 (tensor2tensor); correct, a different variant",
    "fairseq": "[sin | cos], denominator d/2 - 1, positions from padding_idx + 1 = 2 (fairseq); correct",
    "float32-phase": "paper table with the phase rounded in float32 (tutorial code); fine for short tables",
    "odd-cosine-exponent": "BUG: cosine uses exponent (2i+1)/d; fix: use 2i/d for both columns of a pair",
    "doubled-exponent": "BUG: exponent 4i/d; fix: w_i = base ** (-arange(0, d, 2) / d), no extra factor 2",
    "doubled-and-odd-exponent": "BUG: both of the above (seed notebook 003); fix both exponents",
    "integer-exponent": "BUG: every frequency is 1 (integer arithmetic); fix: arange(..., dtype=float64)",
    "bfloat16-recomputed": "BUG: table recomputed in bfloat16; fix: build in float32/64, then cast",
    "float16-recomputed": "BUG: table recomputed in float16; fix: build in float32/64, then cast",
    "constant-rows": "BUG: every position has the same vector (encoding added along the batch axis?); "
    "fix: index the buffer by the sequence axis",
}
_BUGS = frozenset(
    {
        "odd-cosine-exponent",
        "doubled-exponent",
        "doubled-and-odd-exponent",
        "integer-exponent",
        "bfloat16-recomputed",
        "float16-recomputed",
        "constant-rows",
    }
)
KNOWN_TABLES: tuple[str, ...] = tuple(_DESCRIPTIONS)
"""Names of every table ``identify_table`` recognises, in the order it tries them.

Correct variants first (``"paper"``, ``"concat"``, ``"tensor2tensor"``, ``"fairseq"``, ``"float32-phase"``),
then the bugs (:attr:`TableMatch.is_bug` is true for these); a table that matches none is ``"unknown"``.

Examples:
    >>> KNOWN_TABLES[:2], len(KNOWN_TABLES)
    (('paper', 'concat'), 12)
"""

_DEFAULT_ATOL = {torch.float64: 1e-3, torch.float32: 1e-3, torch.float16: 2e-3, torch.bfloat16: 1e-2}


def _candidates(max_len: int, d: int, base: float) -> dict[str, torch.Tensor]:
    p = torch.arange(max_len)
    paper = exact_rows(p, d, base=base)
    return {
        "paper": paper,
        "concat": interleaved_to_concat(paper),
        "tensor2tensor": tensor2tensor_table(max_len, d, max_timescale=base),
        "fairseq": tensor2tensor_table(max_len, d, max_timescale=base, start=2),
        "float32-phase": rows_in_dtype(p, d, base=base, method="log", dtype=torch.float32).to(torch.float64),
        "odd-cosine-exponent": odd_cosine_exponent_table(max_len, d, base=base),
        "doubled-exponent": doubled_exponent_table(max_len, d, base=base),
        "doubled-and-odd-exponent": doubled_and_odd_exponent_table(max_len, d, base=base),
        "integer-exponent": integer_exponent_table(max_len, d),
        "bfloat16-recomputed": rows_in_dtype(p, d, base=base, method="log", dtype=torch.bfloat16).to(torch.float64),
        "float16-recomputed": rows_in_dtype(p, d, base=base, method="log", dtype=torch.float16).to(torch.float64),
    }


def identify_table(table: torch.Tensor, *, base: float = 10000.0, atol: float | None = None) -> TableMatch:
    """Tell which known variant or bug a positional-encoding table matches.

    Point it at the ``(L, d)`` table your model adds (for a sequence-first buffer of shape ``(L, 1, d)``
    pass ``buffer[:, 0]``; to test what a module really adds, pass ``module(zeros)`` for a zero input
    with dropout off). Every candidate is built at the same size in float64 and compared; the first
    candidate in ``KNOWN_TABLES`` order within ``atol`` is reported. Use at least a few dozen rows:
    the paper and tensor2tensor tables differ by only ~1e-3 at position 1.

    Args:
        table: Shape ``(L, d)`` with ``L >= 4`` and ``d >= 4`` even; any real floating dtype, any device.
            NaN or infinite entries are allowed and give ``"unknown"``.
        base: The frequency base the candidates are built with; finite and > 0.
        atol: Largest absolute difference that counts as a match, a finite number > 0 (Python or NumPy
            scalar); by default 1e-3 for float32/float64 tables, 2e-3 for float16, 1e-2 for bfloat16 (the
            rounding of an exact table in that dtype).

    Returns:
        A ``TableMatch``.

    Raises:
        TypeError: ``table`` is not a real floating-point tensor, ``base`` or ``atol`` is not a real number.
        ValueError: wrong shape, odd width (see the variants page: pad columns are not identified),
            ``base`` or ``atol`` not finite or <= 0.

    Examples:
        >>> from pe_docs import sinusoidal_table
        >>> identify_table(sinusoidal_table(64, 32)).name
        'paper'
        >>> identify_table(odd_cosine_exponent_table(64, 32)).name
        'odd-cosine-exponent'
    """
    check_real_tensor("table", table, finite=False)
    if table.dim() != 2:
        hint = " (for a (L, 1, d) buffer pass buffer[:, 0])" if table.dim() == 3 else ""
        raise ValueError(f"table must have shape (L, d), got {tuple(table.shape)}{hint}")
    length = check_int("table.size(0)", table.size(0), minimum=4)
    d = check_d_model(table.size(1), "table.size(1)")
    if d < 4:
        raise ValueError(f"table.size(1) must be >= 4, got {d}")
    base = check_base(base)
    if atol is None:
        atol = _DEFAULT_ATOL.get(table.dtype, 1e-3)
    else:
        atol = check_real("atol", atol, minimum=0.0, open_minimum=True)
    t = table.detach().to(device="cpu", dtype=torch.float64)

    errors = {name: float((t - c).abs().max()) for name, c in _candidates(length, d, base).items()}
    errors["constant-rows"] = float((t - t[:1]).abs().max())
    # A NaN entry makes every difference NaN (and inf - inf is NaN): such a table matches nothing.
    errors = {k: (math.inf if math.isnan(v) else v) for k, v in errors.items()}

    within = [name for name in KNOWN_TABLES if errors[name] <= atol]
    closest = min(KNOWN_TABLES, key=lambda n: errors[n])
    name = within[0] if within else "unknown"
    layout = "concat" if name in ("concat", "tensor2tensor", "fairseq") else "interleaved"
    residual = pairwise_shift_residual(t, 1, layout=layout) if torch.isfinite(t).all() else math.nan
    return TableMatch(
        name=name,
        max_error=errors[name] if within else errors[closest],
        atol=float(atol),
        closest=closest,
        also_within_tolerance=tuple(within[1:]),
        errors=errors,
        shift_residual=residual,
        description=_DESCRIPTIONS.get(name, "matches no known variant or bug within atol; see `closest`"),
    )
