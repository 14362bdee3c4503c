"""Floating-point accuracy of the encoding: errors in ulps, high-precision references, phase rounding.

``ulp_error`` measures how far a computed tensor is from a more precise reference, in units in the last
place (ulps) of the computed tensor's dtype. ``reference_frequencies`` gives the frequencies
``w_i = base^(-2i/d)`` to any number of digits (mpmath), and ``rows_in_dtype`` rebuilds rows of the table the
way most tutorials do — frequencies and the phase ``p·w`` both in one low-precision dtype — so that the
effect of each rounding can be measured. mpmath is imported only inside the functions that need it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import torch

from pe_docs._checks import check_base, check_choice, check_d_model, check_float_dtype, check_int
from pe_docs.frequencies import FrequencyMethod, inverse_frequencies


def ulp(x: torch.Tensor, dtype: torch.dtype | None = None) -> torch.Tensor:
    """The spacing of ``dtype``'s floating-point numbers at ``|x|`` (one unit in the last place), as float64.

    For ``|x|`` in ``[2^e, 2^(e+1))`` this is ``2^e · eps(dtype)``; below the smallest normal number it is the
    subnormal spacing ``tiny · eps``. NaN and ``±inf`` have no spacing: their ulp is NaN (so an error
    measured in ulps of a non-finite value is NaN rather than a misleading number).

    Args:
        x: Values at which to measure the spacing (any real dtype: floating point or integer).
        dtype: The floating-point format whose spacing is wanted; defaults to ``x.dtype``.

    Returns:
        A float64 tensor of the same shape as ``x``; NaN where ``x`` is NaN or infinite.

    Raises:
        TypeError: ``x`` is not a tensor, or is complex or bool, or ``dtype`` (or ``x.dtype`` when ``dtype``
            is omitted) is not a floating-point dtype.

    Examples:
        >>> ulp(torch.tensor([1.0, 3.0]))
        tensor([1.1921e-07, 2.3842e-07], dtype=torch.float64)
        >>> ulp(torch.tensor([float("nan"), float("inf")]))
        tensor([nan, nan], dtype=torch.float64)
    """
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if x.is_complex() or x.dtype == torch.bool:
        raise TypeError(f"x must be a real tensor, got dtype {x.dtype}")
    dtype = check_float_dtype(x.dtype if dtype is None else dtype)
    info = torch.finfo(dtype)
    mag = x.detach().to(torch.float64).abs()
    # frexp: |x| = m · 2^e with m in [0.5, 1), so |x|'s binade starts at 2^(e-1). Exact (no log2 rounding).
    _, exponent = torch.frexp(mag)
    spacing = torch.ldexp(torch.full_like(mag, info.eps), (exponent - 1).to(torch.float64))
    spacing = torch.where(mag < info.tiny, torch.full_like(mag, info.eps * info.tiny), spacing)
    return torch.where(torch.isfinite(mag), spacing, torch.full_like(mag, math.nan))


def ulp_error(approx: torch.Tensor, reference: torch.Tensor | Sequence[Any]) -> torch.Tensor:
    """Error of ``approx`` in ulps of its own dtype at the reference value: ``|approx − ref| / ulp(ref)``.

    An exactly rounded result has an error of at most 0.5 ulp; a result "within 1 ulp" is faithfully rounded.

    Args:
        approx: The computed values, a floating-point tensor (its dtype sets the ulp).
        reference: The true values, more precise than ``approx``: a float64 tensor (allowed only when
            ``approx`` is float32 or narrower) or a sequence of ``mpmath.mpf`` numbers (any ``approx``
            dtype, including float64). Same number of elements as ``approx``.

    Returns:
        A float64 tensor with the shape of ``approx``; NaN where ``approx`` or a tensor ``reference`` is
        NaN or infinite.

    Raises:
        TypeError: ``approx`` is not a floating-point tensor, or ``reference`` is neither a tensor nor a
            sequence.
        ValueError: the sizes differ, or a float64 reference is used for a float64 ``approx`` (it cannot
            resolve float64 errors: use mpmath values).

    Examples:
        >>> w32 = torch.tensor([1 / 3], dtype=torch.float32)
        >>> ulp_error(w32, torch.tensor([1 / 3], dtype=torch.float64))
        tensor([0.3333], dtype=torch.float64)
    """
    if not isinstance(approx, torch.Tensor):
        raise TypeError(f"approx must be a torch.Tensor, got {type(approx).__name__}")
    dtype = check_float_dtype(approx.dtype, "approx.dtype")
    if isinstance(reference, torch.Tensor):
        if reference.dtype != torch.float64:
            raise TypeError(f"a tensor reference must be float64, got reference.dtype={reference.dtype}")
        if torch.finfo(dtype).bits >= 64:
            raise ValueError(
                f"a float64 reference cannot measure the error of approx.dtype={dtype}; pass mpmath values as reference"
            )
        if reference.numel() != approx.numel():
            raise ValueError(f"reference has {reference.numel()} elements but approx has {approx.numel()}")
        ref = reference.detach().reshape(approx.shape)
        return (approx.detach().to(torch.float64) - ref).abs() / ulp(ref, dtype)
    if isinstance(reference, (str, bytes)) or not isinstance(reference, Sequence):
        raise TypeError(
            f"reference must be a float64 tensor or a sequence of mpmath numbers, got {type(reference).__name__}"
        )
    if len(reference) != approx.numel():
        raise ValueError(f"reference has {len(reference)} elements but approx has {approx.numel()}")
    import mpmath

    info = torch.finfo(dtype)
    # Exact: float64 holds every value of a narrower float dtype.
    values = approx.detach().to(torch.float64).reshape(-1).tolist()
    errors = []
    with mpmath.workprec(200):
        for a, r in zip(values, reference, strict=True):
            r = mpmath.mpf(r)
            if abs(r) < info.tiny:
                spacing = mpmath.mpf(info.eps) * mpmath.mpf(info.tiny)
            else:
                _, e = mpmath.frexp(r)
                spacing = mpmath.ldexp(mpmath.mpf(info.eps), int(e) - 1)
            errors.append(float(abs(mpmath.mpf(a) - r) / spacing))
    return torch.tensor(errors, dtype=torch.float64).reshape(approx.shape)


def reference_frequencies(d_model: int, *, base: float = 10000.0, digits: int = 60) -> list[Any]:
    """The frequencies ``w_i = base^(-2i/d)``, ``i = 0 … d/2 − 1``, as mpmath numbers with ``digits`` digits.

    ``base`` is taken as the exact value of the float it is given (10000.0 is exactly 10000).

    Args:
        d_model: Width of the encoding; a positive even integer.
        base: The constant of the encoding; finite and > 0.
        digits: Decimal digits of working precision; an integer >= 20.

    Returns:
        A list of ``d_model // 2`` ``mpmath.mpf`` values.

    Raises:
        TypeError: ``d_model`` or ``digits`` is not an integer, or ``base`` is not a real number.
        ValueError: ``d_model`` is odd or < 1, ``base`` is not finite and > 0, or ``digits`` < 20.

    Examples:
        >>> [float(w) for w in reference_frequencies(4)]
        [1.0, 0.01]
    """
    d = check_d_model(d_model)
    base = check_base(base)
    digits = check_int("digits", digits, minimum=20)
    import mpmath

    with mpmath.workdps(digits):
        b = mpmath.mpf(base)
        # The exponent -2i/d is a rational number: build it exactly, then raise.
        return [+mpmath.power(b, -mpmath.mpf(2 * i) / d) for i in range(d // 2)]


def rows_in_dtype(
    positions: torch.Tensor | Sequence[int],
    d_model: int,
    *,
    base: float = 10000.0,
    method: FrequencyMethod = "pow",
    dtype: torch.dtype = torch.float32,
) -> torch.Tensor:
    """Rows ``positions`` of the table computed the tutorial way: everything, including ``p·w``, in ``dtype``.

    The frequencies come from ``pe_docs.inverse_frequencies`` with ``method`` in ``dtype``, the positions
    are converted to ``dtype``, and the phase ``p·w`` is rounded to ``dtype`` before ``sin``/``cos``. Compare
    with ``pe_docs.sinusoidal_table``, which forms the phase in float64.

    Args:
        positions: Non-negative integer positions, a 1-D integer tensor or a sequence of ints.
        d_model: Width; a positive even integer.
        base: The constant of the encoding; finite and > 0.
        method: ``"pow"`` or ``"log"`` (see ``pe_docs.inverse_frequencies``).
        dtype: The one floating-point dtype every step is computed in.

    Returns:
        A tensor of shape ``(len(positions), d_model)`` in ``dtype``, interleaved layout.

    Raises:
        TypeError: ``positions`` is not integer-valued, or another argument has the wrong type.
        ValueError: a position is negative, ``positions`` is not 1-D, or another argument is invalid.

    Examples:
        >>> rows_in_dtype([0, 1], 4)
        tensor([[0.0000, 1.0000, 0.0000, 1.0000],
                [0.8415, 0.5403, 0.0100, 0.9999]])
    """
    pos = _check_positions(positions)
    d = check_d_model(d_model)
    dtype = check_float_dtype(dtype)
    method = check_choice("method", method, ("pow", "log"))
    w = inverse_frequencies(d, base=base, method=method, dtype=dtype)
    phase = pos.to(dtype)[:, None] * w[None, :]
    return torch.stack((torch.sin(phase), torch.cos(phase)), dim=-1).reshape(len(pos), d)


def exact_rows(positions: torch.Tensor | Sequence[int], d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """Rows ``positions`` of the table in float64 (phase formed in float64), interleaved layout.

    The reference for ``rows_in_dtype``; the same values as ``sinusoidal_table(..., dtype=float64)`` at
    those rows (to float64 rounding), without building the rows in between. Despite the name these are
    float64 values, not exact ones: rounding ``w_i`` and ``p·w_i`` to float64 leaves errors that grow with
    ``p`` (below 1e-10 at position ``10**6`` for ``d_model = 512``), far below any float32 rounding.

    Args:
        positions: Non-negative integer positions (at most ``2**53``), a 1-D integer tensor or a sequence
            of ints; may be empty.
        d_model: Width; a positive even integer.
        base: The constant of the encoding; finite and > 0.

    Returns:
        A float64 tensor of shape ``(len(positions), d_model)``: columns ``2i`` and ``2i + 1`` hold
        ``sin(p·w_i)`` and ``cos(p·w_i)``.

    Raises:
        TypeError: ``positions`` is not integer-valued, or another argument has the wrong type.
        ValueError: a position is negative or > ``2**53``, ``positions`` is not 1-D, or ``d_model``/``base``
            is invalid.

    Examples:
        >>> exact_rows([1], 2)
        tensor([[0.8415, 0.5403]], dtype=torch.float64)
    """
    pos = _check_positions(positions)
    d = check_d_model(d_model)
    w = inverse_frequencies(d, base=base, dtype=torch.float64)
    phase = pos.to(torch.float64)[:, None] * w[None, :]
    return torch.stack((torch.sin(phase), torch.cos(phase)), dim=-1).reshape(len(pos), d)


def row_errors(
    positions: torch.Tensor | Sequence[int],
    d_model: int,
    *,
    base: float = 10000.0,
    method: FrequencyMethod = "pow",
    dtype: torch.dtype = torch.float32,
) -> torch.Tensor:
    """Largest absolute error of each row of ``rows_in_dtype`` against ``exact_rows``.

    Measures what rounding the frequencies and the phase ``p·w`` to ``dtype`` does to each row.

    Args:
        positions: Non-negative integer positions, a 1-D integer tensor or a sequence of ints.
        d_model: Width; a positive even integer.
        base: The constant of the encoding; finite and > 0.
        method: ``"pow"`` or ``"log"``, how ``rows_in_dtype`` computes the frequencies.
        dtype: The floating-point dtype the rows are computed in.

    Returns:
        A float64 tensor of shape ``(len(positions),)``: ``max_c |rows_in_dtype − exact_rows|`` per row,
        NaN for a row that contains NaN (e.g. float16 positions that overflowed to ``inf``).

    Raises:
        TypeError: as for ``rows_in_dtype``.
        ValueError: as for ``rows_in_dtype``.

    Examples:
        >>> row_errors([0], 8)
        tensor([0.], dtype=torch.float64)
        >>> bool(row_errors([10**6], 512)[0] > 1e-2)  # float32 phase at position 10**6
        True
    """
    approx = rows_in_dtype(positions, d_model, base=base, method=method, dtype=dtype)
    exact = exact_rows(positions, d_model, base=base)
    return (approx.to(torch.float64) - exact).abs().amax(dim=1)


def _check_positions(positions: object) -> torch.Tensor:
    if isinstance(positions, torch.Tensor):
        pos = positions.detach()
    elif isinstance(positions, Sequence) and not isinstance(positions, (str, bytes)):
        for k, p in enumerate(positions):
            check_int(f"positions[{k}]", p)
        pos = torch.tensor(list(positions), dtype=torch.int64)
    else:
        raise TypeError(f"positions must be a tensor or a sequence of ints, got {type(positions).__name__}")
    if pos.dtype.is_floating_point or pos.dtype.is_complex or pos.dtype == torch.bool:
        raise TypeError(f"positions must hold integers, got dtype {pos.dtype}")
    if pos.dim() != 1:
        raise ValueError(f"positions must be 1-D, got shape {tuple(pos.shape)}")
    if pos.numel() and int(pos.min()) < 0:
        raise ValueError(f"positions must be >= 0, got {int(pos.min())}")
    if pos.numel() and int(pos.max()) > 2**53:
        raise ValueError(f"positions must be <= 2**53 (exact in float64), got {int(pos.max())}")
    return pos.to(torch.int64)
