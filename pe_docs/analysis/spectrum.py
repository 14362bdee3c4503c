"""Reading a column's frequency off its spectrum, and what a finite stretch of positions can resolve.

Column pair ``i`` is a pure tone of ``f_i = w_i / 2π`` cycles per position. A discrete Fourier transform of
``N`` positions has bins ``1/N`` apart, so:

* a column whose wavelength ``λ_i = 1/f_i`` is longer than ``N`` completes less than one cycle in the window:
  no bin other than the DC bin lies below its frequency, and its peak cannot be told from the mean;
* a bare ``argmax`` over bins is off by up to half a bin (``0.5/N``), a large relative error for a frequency
  only a few bins above zero; and without a window, leakage from the edges blurs the peak.

``peak_frequencies`` measures the peak with a Hann window, zero padding and interpolation, and reports
``NaN`` for a column whose peak is too close to zero to be resolved; ``measured_frequencies`` gives every
column of the encoding enough positions to be measured.
"""

from __future__ import annotations

import math

import torch

from pe_docs._checks import check_base, check_d_model, check_int, check_real, check_real_tensor
from pe_docs.frequencies import inverse_frequencies


def peak_frequencies(
    signals: torch.Tensor,
    *,
    window: bool = True,
    refine: bool = True,
    pad: int = 4,
    min_cycles: float = 2.0,
) -> torch.Tensor:
    """Frequency of the strongest non-zero peak of each column's spectrum, in cycles per sample.

    For each column of ``signals`` (``N`` samples): with ``window``, subtract the window-weighted mean and
    multiply by a symmetric Hann window (this suppresses the leakage of a window edge and of the mean into the
    other bins); take ``|rfft|`` over ``pad·N`` points (zero padding: bins ``1/(pad·N)`` apart); find the
    largest bin after the DC bin; with ``refine``, place the peak by fitting a parabola through the logarithm
    of that bin and its two neighbours. A peak below ``min_cycles / N`` — fewer than ``min_cycles`` cycles in
    the window, where a tone cannot be separated from the mean — is reported as ``NaN``.

    ``window=False, refine=False, pad=1, min_cycles=0`` is the bare ``argmax`` of ``|FFT|`` over bins
    ``1 … N/2``: its answer is a multiple of ``1/N``, and it returns ``1/N`` for any column that completes
    less than one cycle.

    Args:
        signals: A real floating-point tensor of shape ``(N,)`` or ``(N, C)`` (one signal per column), with
            ``N >= 4`` and every entry finite. Computed on the CPU in float64.
        window: Whether to remove the weighted mean and apply a Hann window.
        refine: Whether to interpolate the peak between bins (log-parabolic).
        pad: Zero-padding factor, the transform has ``pad·N`` points; an integer >= 1.
        min_cycles: Peaks below ``min_cycles / N`` are ``NaN``; a real number >= 0.

    Returns:
        A float64 tensor of shape ``()`` (for 1-D ``signals``) or ``(C,)``: frequencies in cycles per sample,
        in ``(0, 0.5]``, or ``NaN``. A constant column has no peak and gives ``NaN``.

    Raises:
        TypeError: ``signals`` is not a real floating-point tensor, ``pad`` not an integer, ``min_cycles``
            not a real number, ``window`` or ``refine`` not a bool.
        ValueError: ``signals`` is not 1-D or 2-D, has fewer than 4 samples or non-finite entries; ``pad``
            < 1; ``min_cycles`` < 0.

    Examples:
        >>> p = torch.arange(200, dtype=torch.float64)
        >>> round(peak_frequencies(torch.sin(2 * torch.pi * 0.0731 * p)).item(), 4)
        0.0731
        >>> peak_frequencies(torch.sin(2 * torch.pi * p / 500))  # 0.4 cycles in the window
        tensor(nan, dtype=torch.float64)
    """
    x = check_real_tensor("signals", signals, ndim=(1, 2))
    for name, flag in (("window", window), ("refine", refine)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, got {flag!r} of type {type(flag).__name__}")
    pad = check_int("pad", pad, minimum=1)
    min_cycles = check_real("min_cycles", min_cycles, minimum=0.0)
    n = x.size(0)
    if n < 4:
        raise ValueError(f"signals must have at least 4 samples (rows), got shape {tuple(x.shape)}")
    one_d = x.dim() == 1
    x = x.detach().to(device="cpu", dtype=torch.float64).reshape(n, -1)
    if window:
        hann = torch.hann_window(n, periodic=False, dtype=torch.float64)[:, None]
        x = (x - (hann * x).sum(0) / hann.sum()) * hann
    m = pad * n
    spectrum = torch.fft.rfft(x, n=m, dim=0).abs()
    bins = spectrum.size(0)  # m // 2 + 1
    k = spectrum[1:].argmax(dim=0) + 1
    peak = k.to(torch.float64)
    if refine:
        cols = torch.arange(spectrum.size(1))
        inner = k < bins - 1  # the Nyquist bin has no right neighbour: keep it as is
        kk = k.clamp(max=bins - 2)
        tiny = torch.finfo(torch.float64).tiny
        a, b, c = (spectrum[kk + j, cols].clamp(min=tiny).log() for j in (-1, 0, 1))
        curvature = a - 2 * b + c
        shift = torch.where(curvature < 0, 0.5 * (a - c) / curvature.where(curvature < 0, -1.0), 0.0)
        peak = torch.where(inner, kk + shift, peak)
    freq = peak / m
    flat = spectrum[1:].amax(dim=0) == 0
    freq[(freq * n < min_cycles) | flat] = math.nan
    return freq[0] if one_d else freq


def measured_frequencies(
    d_model: int, *, cycles: float = 8.0, samples: int = 1024, base: float = 10000.0
) -> torch.Tensor:
    """Each sine column's frequency, measured from its spectrum with enough positions to resolve it.

    Column ``2i`` is sampled at ``samples`` positions ``0, s_i, 2·s_i, …`` with the stride
    ``s_i = ⌈cycles·λ_i / samples⌉``, so the window spans at least ``cycles`` wavelengths ``λ_i = 2π/w_i``
    (8 × 60 611 positions for the slowest column at ``d_model = 512``) while every column costs the same.
    A stride below half a wavelength loses nothing: the sampled tone stays below half a cycle per sample (no
    aliasing), since ``f_i·s_i < cycles/samples + f_i < 1/2`` when ``f_i < 1/4``, and columns with
    ``f_i >= 1/4`` get the stride 1. ``peak_frequencies`` (Hann window, zero padding ×4, interpolation)
    measures each sampled column, and dividing by ``s_i`` gives cycles per position. Values are the float64
    sines of ``p·w_i``.

    Args:
        d_model: Width; a positive even integer.
        cycles: Wavelengths each window spans at least; a real number >= 2.
        samples: Samples per column; an integer >= ``4·cycles``.
        base: The constant of the encoding; finite and > 0.

    Returns:
        A float64 tensor of shape ``(d_model // 2,)``: measured frequencies in cycles per position, to
        compare with ``w_i / 2π``.

    Raises:
        TypeError: ``d_model`` or ``samples`` is not an integer, ``cycles`` or ``base`` not a real number.
        ValueError: ``d_model`` odd or < 1, ``cycles`` < 2, ``samples`` < ``4·cycles``, ``base`` not finite
            and > 0, or a column at or above half a cycle per position (``base < 1`` can make ``w_i >= π``:
            integer positions alias it, no spectrum can recover it).

    Examples:
        >>> f = measured_frequencies(8)
        >>> bool(torch.allclose(f, inverse_frequencies(8) / (2 * torch.pi), rtol=1e-3))
        True
    """
    d = check_d_model(d_model)
    cycles = check_real("cycles", cycles, minimum=2.0)
    samples = check_int("samples", samples, minimum=1)
    if samples < 4 * cycles:
        raise ValueError(f"samples must be >= 4 * cycles = {4 * cycles:g}, got {samples}")
    base = check_base(base)
    w = inverse_frequencies(d, base=base, dtype=torch.float64)
    f = w / (2 * math.pi)
    if bool((f >= 0.5).any()):
        raise ValueError(
            f"a column turns by more than half a cycle per position (largest w = {w.max().item():.4g} >= π with "
            f"base={base!r}): integer positions alias it, its frequency cannot be measured"
        )
    stride = torch.ceil(cycles / f / samples)
    positions = torch.arange(samples, dtype=torch.float64)[:, None] * stride[None, :]
    per_sample = peak_frequencies(torch.sin(positions * w[None, :]))
    return per_sample / stride
