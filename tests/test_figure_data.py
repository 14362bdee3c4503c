"""Every figure plots the data it claims: the arrays inside each drawn Figure against independent references.

For every figure registered in ``site_tools.build.figures.FIGURES``, the registered ``pe_docs.plotting`` function is
called with the registered arguments, and what it put on the axes (line x/y data, x/y/z of 3-D lines and
points, image arrays, scatter offsets and colours, marker positions, shaded spans, annotated points, the
numbers in labels) is compared with values computed here from the documented closed forms, in float64 with
NumPy (``PE[p, 2i] = sin(p·w_i)``, ``PE[p, 2i+1] = cos(p·w_i)``, ``w_i = 10000^(-2i/d)``;
``s(k) = (2/d)·Σ cos(k·w_i)`` and its sums over bands of pairs; singular values and principal components by
LAPACK's SVD; spectra by NumPy's FFT; ulps with mpmath) — not with the helpers the plotting code calls. Where
a figure shows how a library function behaves (the frequencies of ``inverse_frequencies`` in float32 and
float64, the tutorial rows in low precision, ``measured_frequencies``), that function is called, and
everything around it (phases, reference rows, errors, running maxima, ulps, relative errors) is recomputed
here. The log-spaced positions of the two precision figures are ``pe_docs.analysis.dtypes.log_spaced_positions``
(unit-tested in tests/test_dtypes.py); here they are checked to run from 1 to the last position.

``CHECKS`` has one checker per registered figure (a new figure without one fails
``test_every_registered_figure_has_a_data_check``), and ``test_every_plotted_array_is_checked`` negates and
reverses each plotted array in turn (and transposes each image, moves each span and annotated point by one,
stretches each wireframe) and requires the checker to notice. The checkers read the English light figure;
``test_the_chinese_dark_figure_plots_the_same_data`` holds the other language and theme to the same arrays.
"""

from __future__ import annotations

import inspect
import itertools
import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import matplotlib
import mpmath
import numpy as np
import pytest
import torch
from matplotlib.collections import Collection, PathCollection
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.text import Annotation
from mpl_toolkits.mplot3d.art3d import Line3D, Line3DCollection, Path3DCollection

from pe_docs import inverse_frequencies, plotting
from pe_docs.analysis import measured_frequencies
from pe_docs.analysis.dtypes import log_spaced_positions
from site_tools.build.figures import FIGURES

BASE = 10000.0


# ---------------------------------------------------------------------------------------------------------
# Independent references (NumPy/mpmath, float64; cached and read-only, they are reused by the mutation test)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@cache
def freqs(d: int) -> np.ndarray:
    """``w_i = 10000^(-2i/d)``, Python floats (C ``pow``)."""
    return _frozen(np.array([BASE ** (-(2 * i) / d) for i in range(d // 2)]))


@cache
def wavelength(d: int) -> np.ndarray:
    """``λ_i = 2π · 10000^(2i/d)``, the closed form (not ``2π / w_i``)."""
    return _frozen(np.array([2 * math.pi * BASE ** (2 * i / d) for i in range(d // 2)]))


def rows(positions: Sequence[int] | np.ndarray, d: int, w: np.ndarray | None = None) -> np.ndarray:
    """Rows of the table at ``positions``, float64, interleaved: columns 2i, 2i+1 = sin, cos of p·w_i."""
    w = freqs(d) if w is None else w
    phase = np.asarray(positions, dtype=np.float64)[:, None] * w[None, :]
    out = np.empty((phase.shape[0], d))
    out[:, 0::2], out[:, 1::2] = np.sin(phase), np.cos(phase)
    return out


@cache
def table(n: int, d: int) -> np.ndarray:
    return _frozen(rows(np.arange(n), d))


@cache
def similarity(d: int, max_k: int) -> np.ndarray:
    """``s(k) = (2/d) Σ_i cos(k·w_i)`` for ``k = 0 … max_k``."""
    k = np.arange(max_k + 1, dtype=np.float64)
    return _frozen(np.cos(k[:, None] * freqs(d)[None, :]).sum(axis=1) * (2 / d))


@cache
def ulp_errors(d: int, method: str, dtype: torch.dtype) -> np.ndarray:
    """Error of ``inverse_frequencies(d, method, dtype)`` in ulps of ``dtype`` at the true value (mpmath)."""
    approx = inverse_frequencies(d, method=method, dtype=dtype).double().tolist()
    eps = mpmath.mpf(torch.finfo(dtype).eps)
    out = []
    with mpmath.workdps(60):
        for i, a in enumerate(approx):
            true = mpmath.power(mpmath.mpf(10000), mpmath.mpf(-2 * i) / d)
            exponent = int(mpmath.floor(mpmath.log(true, 2)))  # true in [2^e, 2^(e+1)): ulp = 2^e · eps
            out.append(float(abs(mpmath.mpf(a) - true) / (mpmath.mpf(2) ** exponent * eps)))
    return _frozen(np.array(out))


def float64_rows(positions: np.ndarray, d: int) -> np.ndarray:
    """The float64 rows the precision figures measure against, with the library's float64 frequencies.

    Their errors are a few 1e-8 (float32 rounded once) and must be resolved to ~1e-12: with frequencies from
    another ``pow`` (1 ulp apart), phases near p = 10^6 would differ by up to 2e-10. Phases, sines and
    cosines are formed here."""
    return rows(positions, d, inverse_frequencies(d, dtype=torch.float64).numpy())


def low_precision_rows(positions: np.ndarray, d: int, dtype: torch.dtype, method: str) -> np.ndarray:
    """The tutorial rows: ``inverse_frequencies`` in ``dtype``, positions and phase rounded to ``dtype``."""
    w = inverse_frequencies(d, method=method, dtype=dtype)
    phase = torch.from_numpy(positions).to(dtype)[:, None] * w[None, :]
    return torch.stack((phase.sin(), phase.cos()), dim=-1).reshape(len(positions), d).double().numpy()


def rounded_once_error(exact: np.ndarray, dtype: torch.dtype) -> np.ndarray:
    """Largest |error| per row of the float64 rows rounded once to ``dtype``."""
    return np.abs(torch.from_numpy(exact).to(dtype).double().numpy() - exact).max(axis=1)


@cache
def singular_ratios(length: int, d: int) -> np.ndarray:
    s = np.linalg.svd(table(length, d), compute_uv=False)
    return _frozen(s / s[0])


def first_rise(values: np.ndarray) -> int | None:
    up = np.flatnonzero(values[1:] > values[:-1])
    return int(up[0]) if up.size else None


def first_negative(values: np.ndarray) -> int | None:
    neg = np.flatnonzero(values < 0)
    return int(neg[0]) if neg.size else None


def closest_columns(n_bits: int, d: int) -> list[int]:
    """Sine column ``2i`` per bit ``b``: ``λ_i`` closest in ratio to ``2π·2^b`` (π times the bit's period).

    ``log λ_i = log 2π + (2i/d) log 10000`` is linear in ``i``, so the closest ``i`` is a rounding."""
    step = 2 * math.log(BASE) / d
    return [2 * min(d // 2 - 1, max(0, round(b * math.log(2) / step))) for b in range(n_bits)]


@cache
def pca(length: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates of rows ``0 … length − 1`` on the first two principal components (``U·Σ`` of the centred
    table, by LAPACK's SVD) and the share of the variance of every component (``σ_j² / Σ σ²``).

    A singular vector's sign is arbitrary: compare coordinates up to one sign per component."""
    centred = table(length, d) - table(length, d).mean(axis=0)
    u, s, _ = np.linalg.svd(centred, full_matrices=False)
    share = s**2 / (s**2).sum()
    # distinct leading values: the first two components are unique up to sign
    assert share[0] - share[1] > 1e-3 and share[1] - share[2] > 1e-3, share[:3]
    return _frozen(u[:, :2] * s[:2]), _frozen(share)


@cache
def bare_fft_peaks(n: int, d: int) -> np.ndarray:
    """``argmax`` of ``|FFT|`` over bins ``1 … n/2`` of each sine column of rows ``0 … n − 1``, over ``n``."""
    spectrum = np.abs(np.fft.rfft(table(n, d)[:, 0::2], axis=0))[1:]
    top = np.sort(spectrum, axis=0)[-2:]
    assert np.all(top[1] - top[0] > 1e-9 * top[1])  # no near-tie: the argmax does not hang on rounding
    return _frozen((spectrum.argmax(axis=0) + 1) / n)


def band_edges(d: int, n_bands: int) -> list[int]:
    """Contiguous bands of pairs, fastest first, sizes as equal as possible, the first bands one larger."""
    m = d // 2
    sizes = [m // n_bands + (b < m % n_bands) for b in range(n_bands)]
    return [0, *np.cumsum(sizes).tolist()]


@cache
def band_terms(d: int, max_k: int, n_bands: int) -> np.ndarray:
    """``(2/d) Σ_{i in band b} cos(k·w_i)`` for ``k = 0 … max_k``, one row per band."""
    cos = np.cos(np.arange(max_k + 1, dtype=np.float64)[:, None] * freqs(d)[None, :])
    edges = band_edges(d, n_bands)
    return _frozen(np.stack([cos[:, lo:hi].sum(axis=1) for lo, hi in itertools.pairwise(edges)]) * (2 / d))


@cache
def record_returns(max_offset: int) -> tuple[np.ndarray, np.ndarray]:
    """Offsets ``n <= max_offset`` (at most ``2**26``) at which ``n`` radians comes closer to a multiple of 2π than
    at every smaller offset, by brute force over every ``n``, and ``2·|sin(n/2)|`` at each (mpmath).

    2π is split Cody–Waite style into ``hi`` (26 significant bits, so ``k·hi`` is exact in float64 for the
    ``k < 2**24`` turns involved) plus ``lo``: ``n − k·2π = (n − k·hi) − k·lo`` to about 1e-15 radian."""
    assert max_offset <= 2**26
    with mpmath.workdps(40):
        hi = float(mpmath.nint(2 * mpmath.pi * 2**23)) / 2**23
        lo = float(2 * mpmath.pi - mpmath.mpf(hi))
        best, found = math.inf, []
        for start in range(1, max_offset + 1, 1 << 22):
            n = np.arange(start, min(start + (1 << 22), max_offset + 1), dtype=np.float64)
            k = np.round(n / (hi + lo))
            gap = np.abs((n - k * hi) - k * lo)
            before = np.minimum.accumulate(np.concatenate(([best], gap[:-1])))
            found += n[gap < before].astype(np.int64).tolist()
            best = min(best, float(gap.min()))
        chords = [float(abs(2 * mpmath.sin(mpmath.mpf(k) / 2))) for k in found]
    return _frozen(np.array(found, dtype=np.float64)), _frozen(np.array(chords))


# ---------------------------------------------------------------------------------------------------------
# Reading a figure


def xy(line: Line2D) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(line.get_xdata(), dtype=np.float64), np.asarray(line.get_ydata(), dtype=np.float64)


def only_image(ax: Any) -> AxesImage:
    (image,) = ax.get_images()
    return image


def pixels(ax: Any) -> np.ndarray:
    return np.asarray(np.ma.getdata(only_image(ax).get_array()), dtype=np.float64)


def close(actual: Any, expected: Any, *, atol: float, rtol: float = 0.0, what: str = "") -> None:
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape}, expected {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)


def same_ints(actual: np.ndarray, expected: Any, what: str = "") -> None:
    expected = np.asarray(expected)
    assert actual.shape == expected.shape and np.array_equal(actual, expected), what


def data_lines(ax: Any) -> list[Line2D]:
    """Lines with a legend label, in drawing order (markers and reference lines have '_child…' labels)."""
    return [line for line in ax.get_lines() if not line.get_label().startswith("_")]


def xyz(line: Line3D) -> np.ndarray:
    """A 3-D line's data, shape (3, n)."""
    return np.array([np.asarray(v, dtype=np.float64) for v in line.get_data_3d()])


def offsets_3d(dots: Path3DCollection) -> np.ndarray:
    """A 3-D scatter's points in data coordinates, shape (3, n). ``get_offsets`` holds their 2-D projection
    (after a draw), and matplotlib has no public getter for the 3-D ones."""
    return np.array([np.asarray(np.ma.getdata(v), dtype=np.float64) for v in dots._offsets3d])


def point_colours(dots: PathCollection) -> np.ndarray:
    """The RGBA colour of each point, in the order the points were given (a 3-D scatter's own
    ``get_facecolor`` reorders them by depth)."""
    return np.asarray(Collection.get_facecolor(dots), dtype=np.float64)


def horizontal_line(line: Line2D, y: float, ax: Any) -> None:
    """``line`` runs across the whole axes at height ``y`` (an ``axhline``)."""
    close(np.concatenate(xy(line)), [0, 1, y, y], atol=0, what=f"the line at y = {y}")
    assert line.get_transform() == ax.get_yaxis_transform()


def fit_torus(segments: Sequence[np.ndarray]) -> tuple[float, float, float]:
    """The torus a wireframe draws, round the z axis: radius ``R`` of the hole's circle, radius ``r`` of the
    tube, height ``z0`` of its centre. In the plane (ρ = √(x² + y²), z) every vertex lies on the circle of
    centre (R, z0) and radius r: ``ρ² + z² = 2R·ρ + 2z0·z + (r² − R² − z0²)``, linear in the unknowns."""
    points = np.concatenate(segments)
    rho, z = np.hypot(points[:, 0], points[:, 1]), points[:, 2]
    (two_r, two_z0, c), *_ = np.linalg.lstsq(np.stack((rho, z, np.ones_like(z)), axis=1), rho**2 + z**2)
    big, z0 = two_r / 2, two_z0 / 2
    small = math.sqrt(max(c + big**2 + z0**2, 0.0))
    residual = np.abs(np.hypot(rho - big, z - z0) - small).max()
    assert residual < 1e-9, f"the wireframe is not a torus round the z axis (off by {residual:.3g})"
    assert big > small > 0, (big, small)  # a ring, not a self-intersecting spindle
    return big, small, z0


# ---------------------------------------------------------------------------------------------------------
# One checker per figure: (figure, registered kwargs) -> raises AssertionError when the data are wrong


def check_heatmap(fig: Figure, *, max_len: int, d_model: int) -> None:
    ax = fig.axes[0]
    image = only_image(ax)
    # positions down (row 0 at the top), dimensions across
    assert image.origin == "upper" and "position" in ax.get_ylabel() and "dimension" in ax.get_xlabel()
    close(pixels(ax), table(max_len, d_model), atol=1e-12, what="heatmap")
    assert image.get_clim() == (-1, 1)


def check_waveforms(fig: Figure, *, max_len: int, d_model: int, dims: Sequence[int]) -> None:
    lines = fig.axes[0].get_lines()
    assert len(lines) == len(dims)
    for line, j in zip(lines, dims, strict=True):
        x, y = xy(line)
        same_ints(x, np.arange(max_len), f"x of column {j}")
        close(y, table(max_len, d_model)[:, j], atol=1e-12, what=f"column {j}")
        assert line.get_label() == f"j = {j} ({'sin' if j % 2 == 0 else 'cos'})"


def check_wavelengths(fig: Figure, *, d_model: int) -> None:
    ax = fig.axes[0]
    lam = wavelength(d_model)
    ladder, first, last, limit = ax.get_lines()
    x, y = xy(ladder)
    same_ints(x, np.arange(d_model // 2), "frequency index")
    close(y, lam, rtol=1e-13, atol=0, what="wavelengths")
    for line, i in ((first, 0), (last, d_model // 2 - 1)):
        close(np.concatenate(xy(line)), [i, lam[i]], rtol=1e-13, atol=0, what=f"marker λ_{i}")
    close(np.concatenate(xy(limit)), [0, 1] + [2 * math.pi * BASE] * 2, rtol=1e-15, atol=0, what="2π·base line")
    assert limit.get_transform() == ax.get_yaxis_transform()  # across the whole axes
    texts = [t.get_text() for t in ax.texts]
    assert texts[0] == f"λ_0 = {2 * math.pi:,.1f}"
    assert texts[1] == f"λ_{d_model // 2 - 1} = {lam[-1]:,.0f}"
    assert f"2π·base = {2 * math.pi * BASE:,.0f} (upper limit" in texts[2]
    for note, point in zip(ax.texts, ([0, lam[0]], [d_model // 2 - 1, lam[-1]], [0, 2 * math.pi * BASE]), strict=True):
        close(note.xy, point, rtol=1e-13, atol=0, what=f"point annotated {note.get_text()!r}")
    assert ax.get_yscale() == "log"


def check_scale_shares(fig: Figure, *, d_model: int) -> None:
    """One tick per wavelength: the closed form (top) and 2π over evenly spaced frequencies from 1 to 1/10000 (bottom);
    under each row, the count of its wavelengths in [10, 100), [100, 1000) and [1000, 10000)."""
    ax = fig.axes[0]
    even = 2 * math.pi / np.linspace(1.0, 1.0 / BASE, d_model // 2)
    geometric, evenly = ax.get_lines()
    for line, lam, y, what in ((geometric, wavelength(d_model), 1, "geometric"), (evenly, even, 0, "even")):
        x, ys = xy(line)
        close(x, lam, rtol=1e-12, atol=0, what=f"{what} wavelengths")
        assert set(ys.tolist()) == {y} and line.get_marker() == "|"
    counts = [t.get_text() for t in ax.texts if t.get_text().isdigit()]
    per_range = [
        str(int(((lam >= lo) & (lam < 10 * lo)).sum())) for lam in (wavelength(d_model), even) for lo in (10, 100, 1000)
    ]
    assert counts == per_range
    spans = [patch.get_bbox().bounds for patch in ax.patches]  # the ranges shaded: (x, y, width, height)
    close(spans, [(lo, 0, 9 * lo, 1) for lo in (10, 100, 1000)], rtol=1e-12, atol=0, what="tenfold ranges")
    assert ax.get_xscale() == "log"


def check_scales(
    fig: Figure, *, d_model: int, short: int, long: int, low_dims: Sequence[int], high_dims: Sequence[int]
) -> None:
    lam = wavelength(d_model)
    stride = max(1, long // 1500)  # documented: every max(1, long // 1500)-th position
    far = np.arange(0, long, stride)
    for ax, positions, dims, atol in (
        (fig.axes[0], np.arange(short), low_dims, 1e-12),
        (fig.axes[1], far, high_dims, 1e-10),  # p·w at p < 60 000: float64 phases agree to ~1e-11
    ):
        reference = rows(positions, d_model)
        lines = ax.get_lines()
        assert len(lines) == len(dims)
        for line, j in zip(lines, dims, strict=True):
            x, y = xy(line)
            same_ints(x, positions, f"positions of column {j}")
            close(y, reference[:, j], atol=atol, what=f"column {j}")
            assert line.get_label() == f"j = {j}, λ ≈ {lam[j // 2]:,.{1 if lam[j // 2] < 100 else 0}f}"


def check_binary_vs_sinusoid(fig: Figure, *, n_bits: int, d_model: int) -> None:
    n = 2**n_bits
    p = np.arange(n)
    bits_ax, sines_ax = fig.axes
    steps = bits_ax.get_lines()
    assert len(steps) == n_bits
    for b, line in enumerate(steps):
        x, y = xy(line)
        same_ints(x, p, f"positions of bit {b}")
        assert line.get_drawstyle() == "steps-post"
        bit = np.array([(q >> b) & 1 for q in range(n)])
        close(y, 2 * bit - 1 + 2.6 * b, atol=1e-6, what=f"bit {b}")  # drawn in float32: 0/1 exact, offset not
        assert bits_ax.texts[b].get_text() == str(2 ** (b + 1))  # its period
    columns = closest_columns(n_bits, d_model)
    lines = sines_ax.get_lines()
    assert len(lines) == 2 * n_bits
    lam = wavelength(d_model)
    for b, j in enumerate(columns):
        w = freqs(d_model)[j // 2]
        curve, dots = lines[2 * b], lines[2 * b + 1]
        x, y = xy(curve)
        assert x[0] == 0 and x[-1] == n - 1 and len(x) >= 10 * n and np.all(np.diff(x) > 0)
        close(y, np.sin(x * w) + 2.6 * b, atol=1e-12, what=f"sine curve of bit {b} (column {j})")
        x, y = xy(dots)
        same_ints(x, p, f"dots of bit {b}")
        close(y, np.sin(p * w) + 2.6 * b, atol=1e-12, what=f"sine dots of bit {b} (column {j})")
        assert sines_ax.texts[b].get_text() == f"j = {j}\nλ ≈ {lam[j // 2]:.1f}"


def check_neighbour_similarity(fig: Figure, *, d_models: Sequence[int], max_k: int) -> None:
    ax = fig.axes[0]
    k = np.arange(1, max_k + 1)
    lines = {line.get_label(): line for line in ax.get_lines()}
    for d in d_models:
        s = similarity(d, max_k)
        # the closed form is the cosine of table rows k apart, at any p
        for p in (0, 1000):
            for off in (1, max_k // 2, max_k):
                a, b = rows([p], d)[0], rows([p + off], d)[0]
                assert math.isclose(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)), s[off], abs_tol=1e-12)
        x, y = xy(lines[f"d = {d}"])
        same_ints(x, k, f"offsets, d = {d}")
        close(y, s[1:], atol=1e-12, what=f"similarity, d = {d}")
        rise, negative = first_rise(s), first_negative(s)
        for value, pattern, marker in ((rise, "rises after k = ", "v"), (negative, "first < 0 at k = ", "o")):
            labelled = [line for label, line in lines.items() if label.startswith(f"d = {d}: {pattern}")]
            if value is None or value > max_k:
                assert labelled == []
                continue
            (line,) = labelled
            assert line.get_label() == f"d = {d}: {pattern}{value}" and line.get_marker() == marker
            close(np.concatenate(xy(line)), [value, s[value]], atol=1e-12, what=f"marker {pattern}{value}")
    (zero,) = (line for label, line in lines.items() if label.startswith("_"))  # s = 0, across the axes
    close(np.concatenate(xy(zero)), [0, 1, 0, 0], atol=0, what="the line s = 0")
    assert zero.get_transform() == ax.get_yaxis_transform()
    assert ax.get_xscale() == "log"


def check_frequency_ulps(
    fig: Figure, *, d_model: int, dtypes: Sequence[torch.dtype] = (torch.float32, torch.float64)
) -> None:
    assert len(fig.axes) == len(dtypes)
    for ax, dtype in zip(fig.axes, dtypes, strict=True):
        assert ax.get_title() == f"{str(dtype).removeprefix('torch.')}, d = {d_model}"
        lines = ax.get_lines()
        assert len(lines) == 2
        for line, method, marker in zip(lines, ("log", "pow"), (".", "x"), strict=True):
            err = ulp_errors(d_model, method, dtype)
            x, y = xy(line)
            same_ints(x, np.arange(d_model // 2), "frequency index")
            close(y, err, rtol=1e-9, atol=1e-12, what=f"{method} in {dtype}")
            assert line.get_marker() == marker
            assert line.get_label() == f"{method}: max {err.max():.1f} ulp"


@cache
def log_trick_errors(d_model: int, max_position: int, per_decade: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    positions = log_spaced_positions(max_position, per_decade=per_decade).numpy()
    assert positions[0] == 1 and positions[-1] == max_position and np.all(np.diff(positions) > 0)
    exact = float64_rows(positions, d_model)
    return positions, {
        "pow": np.abs(low_precision_rows(positions, d_model, torch.float32, "pow") - exact).max(axis=1),
        "log": np.abs(low_precision_rows(positions, d_model, torch.float32, "log") - exact).max(axis=1),
        "once": rounded_once_error(exact, torch.float32),
    }


def check_log_trick_error(fig: Figure, *, d_model: int, max_position: int, per_decade: int = 27) -> None:
    ax = fig.axes[0]
    positions, expected = log_trick_errors(d_model, max_position, per_decade)
    lines = ax.get_lines()
    assert len(lines) == 3
    for line, key in zip(lines, ("pow", "log", "once"), strict=True):
        x, y = xy(line)
        same_ints(x, positions, "positions")
        close(y, np.maximum(expected[key], 1e-9), atol=1e-12, what=key)
        label = line.get_label()
        assert (f"{key} frequencies" in label) if key != "once" else ("float64 (rounded once)" in label)
    assert ax.get_xscale() == ax.get_yscale() == "log"


@cache
def dtype_errors(max_position: int, d_model: int) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:
    """Positions and (label, error of each row) of each recipe, in the order of ``pe_docs.analysis.dtypes.RECIPES``."""
    positions = log_spaced_positions(max_position, per_decade=60).numpy()
    assert positions[0] == 1 and positions[-1] == max_position and np.all(np.diff(positions) > 0)
    exact = float64_rows(positions, d_model)

    def tutorial(dtype: torch.dtype) -> np.ndarray:  # NaN rows (float16 overflow) stay NaN
        return np.abs(low_precision_rows(positions, d_model, dtype, "log") - exact).max(axis=1)

    return positions, [
        ("float32, phase in float32", tutorial(torch.float32)),
        ("float32, phase in float64 (rounded once)", rounded_once_error(exact, torch.float32)),
        ("bfloat16, recomputed in bfloat16", tutorial(torch.bfloat16)),
        ("float16, recomputed in float16", tutorial(torch.float16)),
        ("bfloat16, float64 table rounded once", rounded_once_error(exact, torch.bfloat16)),
        ("float16, float64 table rounded once", rounded_once_error(exact, torch.float16)),
    ]


def check_dtype_error(fig: Figure, *, max_position: int, d_model: int) -> None:
    ax = fig.axes[0]
    positions, expected = dtype_errors(max_position, d_model)
    lines = data_lines(ax)
    assert len(lines) == len(expected)
    crosses = [line for line in ax.get_lines() if line.get_marker() == "x"]
    for line, (label, err) in zip(lines, expected, strict=True):
        assert line.get_label().startswith(label)
        x, y = xy(line)
        same_ints(x, positions, "positions")
        worst = np.maximum.accumulate(err)  # running maximum; np.maximum propagates NaN
        close(y, np.maximum(worst, 1e-9), atol=1e-12, what=label)
        nan = np.isnan(worst)
        if nan.any():  # a cross at y = 2 where the curve ends
            first = positions[np.argmax(nan)]
            marks = [np.concatenate(xy(c)).tolist() for c in crosses if c.get_color() == line.get_color()]
            assert marks == [[first, 2.0]], f"{label}: cross {marks}, expected at ({first}, 2)"
    # float16 phases: positions from 65 520 on round to inf, and their rows are NaN from there on
    integers = torch.arange(60000, 70000)
    overflow = int(integers[integers.to(torch.float16).isinf()][0])
    assert overflow == 65520
    same_ints(np.isnan(xy(lines[3])[1]), positions >= overflow, "float16 NaN from 65 520 on")
    assert len(crosses) == 1
    assert ax.get_xscale() == ax.get_yscale() == "log"


def check_singular_values(fig: Figure, *, lengths: Sequence[int], d_model: int) -> None:
    lines = fig.axes[0].get_lines()
    assert len(lines) == len(lengths)
    for line, length in zip(lines, lengths, strict=True):
        ratios = singular_ratios(length, d_model)
        x, y = xy(line)
        same_ints(x, np.arange(1, min(length, d_model) + 1), f"index, L = {length}")
        # both SVDs are backward stable: the ratios agree to ~1e-13 (absolute) down to round-off
        close(y, ratios, rtol=1e-9, atol=1e-12, what=f"σ_k / σ_1, L = {length}")
        assert line.get_label() == f"L = {length}"


def check_position_scores(
    fig: Figure,
    *,
    max_len: int,
    d_model: int,
    seed: int,
    panels: Sequence[str] = ("plain", "projected"),
    ahead: int = 7,
    names: tuple[str, str] = ("i", "j"),
) -> None:
    offset = np.arange(max_len)[None, :] - np.arange(max_len)[:, None]  # j - i: column j, row i
    g = torch.Generator().manual_seed(seed)  # documented: W_Q then W_K, N(0, 1/d), float64
    w_q = torch.randn(d_model, d_model, generator=g, dtype=torch.float64).numpy() / math.sqrt(d_model)
    w_k = torch.randn(d_model, d_model, generator=g, dtype=torch.float64).numpy() / math.sqrt(d_model)
    t = table(max_len, d_model)
    expected = []
    if "plain" in panels:
        expected.append(np.cos(offset[:, :, None] * freqs(d_model)).sum(axis=-1) / math.sqrt(d_model))
    if "projected" in panels:
        projected = (t @ w_q) @ (t @ w_k).T / math.sqrt(d_model)  # row i = query, column j = key
        assert np.abs(projected - projected.T).max() > 0.1  # so a transposed panel cannot pass
        expected.append(projected)
    if "ahead" in panels:  # PE_i^T T_k^T PE_j = PE_{i+k} · PE_j = sum_p cos((j - i - k) w_p): peaks at j = i + k
        expected.append(np.cos((offset[:, :, None] - ahead) * freqs(d_model)).sum(axis=-1) / math.sqrt(d_model))
    if "rope" in panels:  # then the token x ~ N(0, 1); q = x W_Q, k = x W_K, pairs (2i, 2i+1) as complex numbers a + ib
        x = torch.randn(d_model, generator=g, dtype=torch.float64).numpy()
        q, k = x @ w_q, x @ w_k
        zq, zk = q[0::2] + 1j * q[1::2], k[0::2] + 1j * k[1::2]
        # (R_i q) · (R_j k) = Re(sum_p zq e^(i·i·w_p) conj(zk e^(i·j·w_p))), a function of j - i
        rotary = (zq * zk.conj() * np.exp(-1j * offset[:, :, None] * freqs(d_model))).sum(-1).real / math.sqrt(d_model)
        assert np.abs(rotary - rotary.T).max() > 0.1  # +k and -k differ: a transposed panel cannot pass
        expected.append(rotary)
    assert len(expected) == len(panels)
    assert sum(bool(ax.get_images()) for ax in fig.axes) == len(expected)
    a, b = names
    for ax, want in zip(fig.axes, expected, strict=False):
        assert ax.get_ylabel().endswith(f" {a}") and ax.get_xlabel().endswith(f" {b}")
        close(pixels(ax), want, atol=1e-12, what=ax.get_title())
        m = np.abs(want).max()
        close(only_image(ax).get_clim(), (-m, m), atol=1e-12, what="colour scale")


def check_transform_matrices(fig: Figure, *, ks: Sequence[int], d_model: int) -> None:
    start = np.arange(1000, 1064)
    for ax, k in zip(fig.axes, ks, strict=False):
        expected = np.zeros((d_model, d_model))
        for i, w in enumerate(freqs(d_model)):
            c, s = math.cos(k * w), math.sin(k * w)
            expected[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
        m = pixels(ax)
        close(m, expected, atol=1e-13, what=f"T_{k}")
        # what T_k is for: T_k @ PE[p] = PE[p + k] (rows: PE[p + k] = PE[p] @ T_kᵀ)
        close(rows(start, d_model) @ m.T, rows(start + k, d_model), atol=1e-11, what=f"T_{k} moves by {k}")
        assert ax.get_title() == f"$T_{{{k}}}$"
    assert sum(bool(ax.get_images()) for ax in fig.axes) == len(ks)


def check_clock_hands(
    fig: Figure,
    *,
    positions: Sequence[int],
    d_model: int,
    ncols: int | None = None,
    text_size: float | None = None,
    layout: str = "wide",
) -> None:
    hands = d_model // 2
    ncols = ncols or (3 if layout == "wide" else 2)  # documented: 3 clocks a row, 2 in the narrow layout
    text_size = text_size or (9.0 if layout == "wide" else 10.0)
    assert len(fig.axes) == len(positions)
    # the layout: clocks in rows of ncols, in order; the legend's text at text_size
    grid = [(ax.get_subplotspec().rowspan.start, ax.get_subplotspec().colspan.start) for ax in fig.axes]
    assert grid == [divmod(n, ncols) for n in range(len(positions))], grid
    assert [t.get_fontsize() for t in fig.legends[0].get_texts()] == [text_size] * hands
    face = np.linspace(0, 2 * np.pi, 200)
    for ax, p in zip(fig.axes, positions, strict=True):
        lines = ax.get_lines()
        assert len(lines) == 1 + 2 * hands
        close(np.stack(xy(lines[0])), np.stack((np.cos(face), np.sin(face))), atol=1e-12, what="clock face")
        row = rows([p], d_model)[0]
        for i in range(hands):
            length = 1 - 0.15 * i
            tip = length * row[2 * i], length * row[2 * i + 1]  # the hand's tip: (x, y) = (sin, cos) of p·w_i
            close(np.stack(xy(lines[1 + i])), [[0, tip[0]], [0, tip[1]]], atol=1e-12, what=f"hand {i} at {p}")
            close(np.stack(xy(lines[1 + hands + i])), [[tip[0]], [tip[1]]], atol=1e-12, what=f"tip {i} at {p}")
        assert ax.get_title() == f"position {p}"
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == [f"w = 1/{round(1 / w)}" if w < 1 else "w = 1" for w in freqs(d_model)], labels


def check_unit_circle(line: Line2D) -> None:
    """The line is the unit circle, drawn counter-clockwise from angle 0 (as ``_style.unit_circle`` draws it)."""
    x, y = xy(line)
    t = np.linspace(0, 2 * np.pi, len(x))
    close(np.stack((x, y)), np.stack((np.cos(t), np.sin(t))), atol=1e-12, what="unit circle")


def check_sine_alone(fig: Figure, *, theta: float, turn: float) -> None:
    before, after = fig.axes
    for ax, angles in ((before, (theta, math.pi - theta)), (after, (theta + turn, math.pi - theta + turn))):
        circle, *hands, level_a, level_b = ax.get_lines()
        check_unit_circle(circle)
        tips = np.array([[math.sin(a), math.cos(a)] for a in angles])  # clockwise from twelve: (x, y) = (sin, cos)
        drawn = [np.stack(xy(hand), axis=-1) for hand in hands]
        close(drawn, [[[0, 0], tip] for tip in tips], atol=1e-12, what="hands, from the centre to the tip")
        for level, (sine, _) in zip((level_a, level_b), tips, strict=True):  # a dashed line through each tip
            assert level.get_linestyle() == "--"
            close(np.stack(xy(level)), [[sine, sine], [-1.2, 1.2]], atol=1e-12, what="sine of a tip")
        close([note.xy for note in ax.texts], tips, atol=1e-12, what="labels at the tips")
        shown = [note.get_text().split("= ")[1] for note in ax.texts]
        assert shown == [f"{x:.2f}".replace("-", "−") for x in tips[:, 0]]
    # the claim the figure makes: the same sine before the turn, different sines after it
    assert math.isclose(math.sin(theta), math.sin(math.pi - theta), abs_tol=1e-15)
    assert abs(math.sin(theta + turn) - math.sin(math.pi - theta + turn)) > 0.1


def check_step_walks(fig: Figure, *, stretch: float, turn: float, steps: int) -> None:
    p = np.arange(steps + 1)
    assert len(fig.axes) == 3
    for ax, scale in zip(fig.axes, (stretch, 1 / stretch, 1.0), strict=True):
        circle, path = ax.get_lines()
        check_unit_circle(circle)
        # M^p applied to position 0, (sin 0, cos 0): the point turned by p·turn, its length scale^p; x = sin, y = cos
        expected = scale ** p[:, None] * np.stack((np.sin(p * turn), np.cos(p * turn)), axis=-1)
        close(np.stack(xy(path), axis=-1), expected, atol=1e-12, what=f"walk of x{scale:.3f} a step")
        (dots,) = (c for c in ax.collections if isinstance(c, PathCollection))
        close(np.ma.getdata(dots.get_offsets()), expected, atol=1e-12, what=f"points of x{scale:.3f} a step")
        colours = matplotlib.colormaps["viridis"](np.linspace(0, 1, steps + 1))  # coloured by position
        close(point_colours(dots), colours, atol=1e-12, what="colour of each point")
        assert [note.get_text() for note in ax.texts] == ["p=0", f"p={steps}"]
        for note in ax.texts:
            close(note.xy, expected[int(note.get_text().removeprefix("p="))], atol=1e-12, what=note.get_text())
    # the claim: only the step that keeps lengths stays on the circle
    lengths = [np.hypot(*xy(ax.get_lines()[1])) for ax in fig.axes]
    assert lengths[0][-1] > 3 and lengths[1][-1] < 0.3
    close(lengths[2], np.ones(steps + 1), atol=1e-12, what="lengths of the turning walk")


def check_rotating_pairs(fig: Figure, *, d_model: int, positions: int, pairs: Sequence[int]) -> None:
    p = np.arange(positions)
    assert len(fig.axes) == len(pairs)
    for ax, i in zip(fig.axes, pairs, strict=True):
        w = freqs(d_model)[i]
        circle, path = ax.get_lines()
        check_unit_circle(circle)
        expected = np.stack((np.sin(p * w), np.cos(p * w)), axis=-1)  # x = sin, y = cos
        close(np.stack(xy(path), axis=-1), expected, atol=1e-12, what=f"path of pair {i}")
        (dots,) = (c for c in ax.collections if isinstance(c, PathCollection))
        close(np.ma.getdata(dots.get_offsets()), expected, atol=1e-12, what=f"points of pair {i}")
        colours = matplotlib.colormaps["viridis"](np.linspace(0, 1, positions))  # coloured by position
        close(point_colours(dots), colours, atol=1e-12, what=f"colour of each point of pair {i}")
        for note in ax.texts:
            q = int(note.get_text().removeprefix("p="))
            close(note.xy, expected[q], atol=1e-12, what=note.get_text())
        assert ax.get_title() == f"pair {i}: w = {w:.3g}" and ax.get_xlabel() == f"sin(p·w_{i})"


def check_encoding_curve(fig: Figure, *, d_model: int, positions: int, pairs: Sequence[int]) -> None:
    (a, b), n, d = pairs, positions, d_model
    p = np.arange(n)
    t = table(n, d)
    lam = wavelength(d)
    colours = matplotlib.colormaps["viridis"](np.linspace(0, 1, n))  # "coloured by position", first to last
    left, right = fig.axes
    # left: columns 2a, 2a+1, 2b of rows 0 … n − 1, as a line and as points
    expected = np.stack((t[:, 2 * a], t[:, 2 * a + 1], t[:, 2 * b]))
    (curve,) = left.get_lines()
    close(xyz(curve), expected, atol=1e-12, what="the curve of rows")
    (dots,) = left.collections
    assert isinstance(dots, Path3DCollection)
    close(offsets_3d(dots), expected, atol=1e-12, what="the points of rows")
    close(point_colours(dots), colours, atol=1e-12, what="colour of each row")
    z = expected[2]
    assert np.any(np.diff(z) > 0) and np.any(np.diff(z) < 0)  # the title's "turns back"
    assert left.get_title().startswith(f"columns {2 * a}, {2 * a + 1}, {2 * b}: bounded")
    assert (left.get_xlabel(), left.get_ylabel(), left.get_zlabel()) == (
        f"sin(p·w_{a})",
        f"cos(p·w_{a})",
        f"sin(p·w_{b})",
    )
    # right: angles (p·w_a, p·w_b) on the drawn torus, pair a round the tube, pair b round the hole
    (wire,) = (c for c in right.collections if isinstance(c, Line3DCollection))
    big, small, z0 = fit_torus(wire._segments3d)  # the wireframe's 3-D segments (no public getter)
    ta, tb = p * freqs(d)[a], p * freqs(d)[b]
    ring = big + small * np.cos(ta)
    on_torus = np.stack((ring * np.cos(tb), ring * np.sin(tb), z0 + small * np.sin(ta)))
    (path,) = right.get_lines()
    close(xyz(path), on_torus, atol=1e-12, what="the path on the torus")
    (ends,) = (c for c in right.collections if isinstance(c, Path3DCollection))
    close(offsets_3d(ends), on_torus[:, [0, -1]], atol=1e-12, what="first and last position on the torus")
    close(point_colours(ends), colours[[0, -1]], atol=1e-12, what="colours of the first and last position")
    assert right.get_title() == f"pairs {a} (λ ≈ {lam[a]:.0f}) and {b} (λ ≈ {lam[b]:.0f}) on a torus"
    assert fig.get_suptitle() == f"Rows 0…{n - 1} of a d = {d} table, coloured by position"


def check_principal_components(fig: Figure, *, d_model: int, lengths: Sequence[int], n_shown: int) -> None:
    left, right, bar = fig.axes
    last = lengths[-1]
    coords, share = pca(last, d_model)
    # left: rows 0 … L − 1 on the first two components, as a line and as points coloured by position
    (line,) = left.get_lines()
    (dots,) = left.collections
    points = np.ma.getdata(dots.get_offsets())
    assert points.shape == (last, 2)
    for j in range(2):
        sign = 1.0 if points[:, j] @ coords[:, j] >= 0 else -1.0  # the one sign LAPACK and eigh may disagree on
        # eigh of XXᵀ (the library) and LAPACK's SVD agree to ~1e-13 here (|coordinates| up to ~6)
        close(points[:, j], sign * coords[:, j], atol=1e-11, what=f"points on PC {j + 1}")
        close(xy(line)[j], sign * coords[:, j], atol=1e-11, what=f"line on PC {j + 1}")  # same sign as the points
    same_ints(np.asarray(dots.get_array()), np.arange(last), "colour = position")
    assert dots.get_clim() == (0, last - 1) and dots.get_cmap().name == "viridis"
    assert dots.colorbar is not None and dots.colorbar.ax is bar and bar.get_ylabel() == "position  p"
    assert left.get_xlabel() == f"PC 1 ({share[0]:.0%} of the variance)"
    assert left.get_ylabel() == f"PC 2 ({share[1]:.0%})"
    assert left.get_title() == f"L = {last}, d = {d_model}: first two components"
    # right: the share of each of the first n_shown components, one curve per length
    lines = right.get_lines()
    assert len(lines) == len(lengths)
    for curve, length in zip(lines, lengths, strict=True):
        expected = pca(length, d_model)[1][:n_shown]
        x, y = xy(curve)
        same_ints(x, np.arange(1, len(expected) + 1), f"component index, L = {length}")
        close(y, 100 * expected, rtol=1e-9, atol=1e-12, what=f"share of variance (%), L = {length}")
        assert curve.get_label() == f"L = {length}: first 3 hold {expected[:3].sum():.0%}"


def check_similarity_matrix(fig: Figure, *, d_models: Sequence[int], positions: int) -> None:
    n = positions
    panels = [ax for ax in fig.axes if ax.get_images()]
    assert len(panels) == len(d_models)
    offset = np.abs(np.arange(n)[None, :] - np.arange(n)[:, None])  # |j − i|
    for ax, d in zip(panels, d_models, strict=True):
        s = similarity(d, n - 1)
        # the closed form is the cosine of the rows: spot-check it against the float64 table
        for i, j in ((0, 0), (3, 200), (n - 1, 17)):
            a, b = table(n, d)[i], table(n, d)[j]
            assert math.isclose(a @ b / (d / 2), s[abs(j - i)], abs_tol=1e-12)
        image = only_image(ax)
        assert image.origin == "upper" and image.get_clim() == (-1, 1)
        close(pixels(ax), s[offset], atol=1e-12, what=f"cos(PE[i], PE[j]), d = {d}")
        rise = first_rise(s)
        assert ax.get_title() == f"d = {d}" + (f", first rise after k = {rise}" if rise is not None else "")
        assert ax.get_xlabel() == "position  j"
    assert panels[0].get_ylabel() == "position  i"
    assert only_image(panels[-1]).colorbar is not None  # one colour bar for all (every image spans -1 … 1)


def check_measured_frequencies(fig: Figure, *, d_model: int, n_positions: int) -> None:
    d, n = d_model, n_positions
    i = np.arange(d // 2)
    theory = freqs(d) / (2 * math.pi)
    bare = bare_fft_peaks(n, d)
    good = measured_frequencies(d).numpy()  # the library measurement the figure shows
    unresolved = np.flatnonzero(wavelength(d) > n)  # less than one cycle in n positions
    first = int(unresolved[0])
    assert np.array_equal(unresolved, np.arange(first, d // 2))
    assert np.all(bare[first:] == 1 / n)  # the bare argmax answers one bin for every slower column
    top, bottom = fig.axes
    *lines, one_bin = top.get_lines()
    labels = [
        "theory  w_i / 2π",
        f"bare FFT of {n} positions (no window, argmax)",
        f"≥ {inspect.signature(measured_frequencies).parameters['cycles'].default:g} wavelengths per column, "
        "Hann window, interpolated",
    ]
    for line, expected, label in zip(lines, (theory, bare, good), labels, strict=True):
        x, y = xy(line)
        same_ints(x, i, f"frequency index, {label}")
        close(y, expected, rtol=1e-13, atol=0, what=label)
        assert line.get_label() == label
    horizontal_line(one_bin, 1 / n, top)
    errors = bottom.get_lines()
    assert len(errors) == 2
    for line, measured, label in zip(errors, (bare, good), labels[1:], strict=True):
        x, y = xy(line)
        same_ints(x, i, f"frequency index, error of {label}")
        close(y, np.abs(measured - theory) / theory, rtol=1e-9, atol=1e-14, what=f"relative error, {label}")
    # the shaded band: columns first … d/2 − 1, the whole height of both axes
    for ax in (top, bottom):
        (band,) = ax.patches
        assert isinstance(band, Rectangle) and band.get_data_transform() == ax.get_xaxis_transform()
        close(
            [band.get_x(), band.get_y(), band.get_width(), band.get_height()],
            [first - 0.5, 0, d // 2 - first, 1],
            atol=1e-12,
            what="shaded columns λ > n",
        )
    (note,) = top.texts
    assert isinstance(note, Annotation)
    assert note.get_text() == f"λ > {n}: {d // 2 - first} columns\nless than one cycle in {n} positions"
    close(note.xy, (first, theory[-1]), rtol=1e-13, atol=0, what="annotated point")
    assert top.get_yscale() == bottom.get_yscale() == "log"


def check_band_contributions(fig: Figure, *, d_model: int, max_k: int, n_bands: int) -> None:
    d = d_model
    k = np.arange(1, max_k + 1)
    terms = band_terms(d, max_k, n_bands)
    total = similarity(d, max_k)
    close(terms.sum(axis=0), total, atol=1e-12, what="the bands add up to s(k)")
    edges, lam = band_edges(d, n_bands), wavelength(d)
    names = ("high", "middle", "low") if n_bands == 3 else tuple(f"band {b + 1}" for b in range(n_bands))
    ax = fig.axes[0]
    *lines, zero = ax.get_lines()
    assert len(lines) == n_bands + 1
    labels = [
        f"{name}: pairs {lo}–{hi - 1}, λ {lam[lo]:,.0f}–{lam[hi - 1]:,.0f}"
        for name, (lo, hi) in zip(names, itertools.pairwise(edges), strict=True)
    ]
    # k·w_i up to k = max_k: float64 phases from two pow implementations (1 ulp apart) agree to ~k·1e-16
    for line, expected, label in zip(lines, [*terms, total], [*labels, "sum = s(k)"], strict=True):
        x, y = xy(line)
        same_ints(x, k, f"offsets, {label}")
        close(y, expected[1:], atol=1e-11, what=label)
        assert line.get_label() == label
    horizontal_line(zero, 0.0, ax)
    assert ax.get_xscale() == "log"


def t5_bucket(offset: int, *, bidirectional: bool, num_buckets: int, max_distance: int) -> int:
    """T5's bucket of one offset ``j - i``, from its definition in Python floats (one bucket per small
    distance, then ``⌊ln(δ/exact) / ln(max_distance/exact) · (n − exact)⌋`` more, capped at ``n − 1``)."""
    n, first = num_buckets, 0
    if bidirectional:
        n //= 2
        first = n if offset > 0 else 0
        distance = abs(offset)
    else:
        distance = max(-offset, 0)
    exact = n // 2
    if distance < exact:
        return first + distance
    grow = math.floor(math.log(distance / exact) / math.log(max_distance / exact) * (n - exact))
    return first + min(n - 1, exact + grow)


def check_t5_buckets(fig: Figure, *, max_offset: int, num_buckets: int, max_distance: int) -> None:
    ax = fig.axes[0]
    offsets = np.arange(-max_offset, max_offset + 1)
    lines = data_lines(ax)
    assert len(lines) == 2
    for line, bidirectional in zip(lines, (True, False), strict=True):
        x, y = xy(line)
        same_ints(x, offsets, "offsets")
        expected = [
            t5_bucket(int(o), bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
            for o in offsets
        ]
        same_ints(y, expected, f"buckets, bidirectional={bidirectional}")
    marks = [line for line in ax.get_lines() if line not in lines]
    assert [list(xy(m)[0]) for m in marks] == [[-max_distance] * 2, [max_distance] * 2]
    assert all(list(xy(m)[1]) == [0, 1] for m in marks)


def extended_wavelengths(d: int, s: float, length: int, base: float) -> dict[str, np.ndarray]:
    """Wavelengths ``2π / w'_i`` of the original ladder, position interpolation, the NTK-aware base
    ``base · s^(d/(d−2))`` and YaRN (ramp in the pair index between the indices where the number of turns
    ``L·w_i/2π`` is 32 and 1), from the formulas of the YaRN paper and reference code, in NumPy."""
    i = np.arange(d // 2)
    w = base ** (-(2 * i) / d)
    ntk = (base * s ** (d / (d - 2))) ** (-(2 * i) / d)

    def index(turns: float) -> float:
        return d * math.log(length / (turns * 2 * math.pi)) / (2 * math.log(base))

    low, high = max(math.floor(index(32)), 0), min(math.ceil(index(1)), d - 1)
    ramp = np.clip((i - low) / ((high - low) or 0.001), 0, 1)
    yarn = (1 - ramp) * w + ramp * w / s
    return {name: 2 * math.pi / v for name, v in (("original", w), ("PI", w / s), ("NTK", ntk), ("YaRN", yarn))}


def check_context_extension(fig: Figure, *, head_dim: int, factor: float, original_len: int, base: float) -> None:
    ax = fig.axes[0]
    lines = data_lines(ax)
    expected = extended_wavelengths(head_dim, factor, original_len, base)
    assert len(lines) == len(expected)
    for line, (name, lam) in zip(lines, expected.items(), strict=True):
        x, y = xy(line)
        same_ints(x, np.arange(head_dim // 2), f"pairs of {name}")
        close(y, lam, rtol=1e-12, atol=0, what=name)
    marks = [line for line in ax.get_lines() if line not in lines]
    assert len(marks) == 2
    horizontal_line(marks[0], original_len, ax)
    horizontal_line(marks[1], factor * original_len, ax)
    assert ax.get_yscale() == "log"
    # YaRN's ramp: a band over the pairs between the last unchanged one and the first interpolated one
    index = [head_dim * math.log(original_len / (t * 2 * math.pi)) / (2 * math.log(base)) for t in (32, 1)]
    low, high = max(math.floor(index[0]), 0), min(math.ceil(index[1]), head_dim - 1)
    (band,) = ax.patches
    close(band.get_bbox().bounds, [low, 0, high - low, 1], atol=0, what="YaRN's ramp")
    notes = {note.get_text(): note.xy for note in ax.texts}
    expected_notes = {
        f"trained length L = {original_len:,}": (0, original_len),
        f"extended length s·L = {factor * original_len:,.0f}": (0, factor * original_len),
        "YaRN's ramp": ((low + high) / 2, 2 * math.pi),
    }
    assert set(notes) == set(expected_notes), sorted(notes)
    for text, point in expected_notes.items():
        close(notes[text], point, atol=0, what=text)


def check_closest_returns(fig: Figure, *, positions: int, max_offset: int) -> None:
    left, right = fig.axes
    (circle,) = left.get_lines()
    check_unit_circle(circle)
    p = np.arange(positions)
    expected = np.stack((np.sin(p), np.cos(p)), axis=-1)  # pair 0, w_0 = 1: (x, y) = (sin p, cos p), the clock hand
    (dots,) = (c for c in left.collections if isinstance(c, PathCollection))
    close(np.ma.getdata(dots.get_offsets()), expected, atol=1e-12, what="pair 0 of each position")
    colours = matplotlib.colormaps["viridis"](np.linspace(0, 1, positions))
    close(point_colours(dots), colours, atol=1e-12, what="colour of each point")
    offsets, chords = record_returns(max_offset)
    shown = [0] + [int(n) for n in offsets if 1 < n < positions]
    notes = [t for t in left.texts if isinstance(t, Annotation)]
    assert [note.get_text() for note in notes] == [f"p={q}" for q in shown]
    for note, q in zip(notes, shown, strict=True):
        close(note.xy, [math.sin(q), math.cos(q)], atol=1e-12, what=note.get_text())
    curve, spacing, exact = right.get_lines()
    close(xy(curve)[0], offsets, atol=0, what="record offsets")
    close(xy(curve)[1], chords, rtol=1e-9, atol=0, what="distance of pair 0 at each record")
    horizontal_line(spacing, 2.0**-24, right)
    close(np.concatenate(xy(exact)), [2**24, 2**24, 0, 1], atol=0, what="the line at 2**24")
    assert exact.get_transform() == right.get_xaxis_transform()


# name -> (the pe_docs.plotting function registered for it, its checker). EVERY figure registered in
# site_tools.build.figures.FIGURES needs its checker here, in this file (not in a separate test file): the mutation
# test below proves each checker against its figure, and test_every_registered_figure_has_a_data_check fails
# for a figure without one.
def check_variant_tables(fig: Figure, *, max_len: int, d_model: int) -> None:
    """The paper's table interleaved and as ``[sin | cos]``, and tensor2tensor's ``[sin | cos]`` table minus it."""
    inter_ax, concat_ax, gap_ax = fig.axes[:3]
    interleaved = table(max_len, d_model)
    concat = np.concatenate([interleaved[:, 0::2], interleaved[:, 1::2]], axis=1)  # sines, then cosines
    half = d_model // 2
    w_t2t = BASE ** (-np.arange(half) / (half - 1))  # tensor2tensor: w_i = 10000^(-i/(d/2 - 1))
    phase = np.arange(max_len)[:, None] * w_t2t[None, :]
    gap = np.concatenate([np.sin(phase), np.cos(phase)], axis=1) - concat
    assert np.abs(gap[0]).max() == 0 and np.abs(gap[-1]).max() > 0.1  # nothing at position 0, then it grows
    assert "position" in inter_ax.get_ylabel()
    for ax, expected, limit in (
        (inter_ax, interleaved, 1.0),
        (concat_ax, concat, 1.0),
        (gap_ax, gap, np.abs(gap).max()),
    ):
        assert "column" in ax.get_xlabel()
        close(pixels(ax), expected, atol=1e-12, what=ax.get_title())
        close(only_image(ax).get_clim(), (-limit, limit), atol=1e-12, what="colour scale")


def check_table_2d(fig: Figure, *, grid: int, d_model: int, patch: Sequence[int]) -> None:
    """MAE's 2-D table (facebookresearch/mae ``get_2d_sincos_pos_embed``, NumPy, float64): the first half
    ``[sin | cos]`` of the column index, the second of the row index, frequencies ``10000^(−i/(d/4))``."""
    q = d_model // 4
    w = BASE ** (-np.arange(q) / q)
    row, column = np.divmod(np.arange(grid * grid), grid)
    halves = [f(a[:, None] * w) for a in (column, row) for f in (np.sin, np.cos)]
    expected = np.concatenate(halves, axis=1)
    left, right = fig.axes[:2]
    close(pixels(left), expected, atol=1e-12, what="2-D table")
    assert only_image(left).get_clim() == (-1, 1)
    unit = expected / np.linalg.norm(expected, axis=1, keepdims=True)
    r, c = patch
    close(pixels(right), (unit @ unit[r * grid + c]).reshape(grid, grid), atol=1e-12, what="cosine similarity")
    (marker,) = right.get_lines()
    close(np.concatenate(xy(marker)), [c, r], atol=0, what="reference patch (x = column, y = row)")


CHECKS: dict[str, tuple[str, Callable[..., None]]] = {
    "heatmap": ("plot_heatmap", check_heatmap),
    "sine-alone": ("plot_sine_alone", check_sine_alone),
    "step-walks": ("plot_step_walks", check_step_walks),
    "waveforms": ("plot_waveforms", check_waveforms),
    "wavelengths": ("plot_wavelengths", check_wavelengths),
    "scale-shares": ("plot_scale_shares", check_scale_shares),
    "scales": ("plot_scales", check_scales),
    "binary-vs-sinusoid": ("plot_binary_vs_sinusoid", check_binary_vs_sinusoid),
    "neighbour-similarity": ("plot_neighbour_similarity", check_neighbour_similarity),
    "frequency-ulps": ("plot_frequency_ulps", check_frequency_ulps),
    "log-trick-error": ("plot_log_trick_error", check_log_trick_error),
    "dtype-error": ("plot_dtype_error", check_dtype_error),
    "singular-values": ("plot_singular_values", check_singular_values),
    "position-scores": ("plot_position_scores", check_position_scores),
    "ahead-scores": ("plot_position_scores", check_position_scores),
    "rope-scores": ("plot_position_scores", check_position_scores),
    "transform-matrices": ("plot_transform_matrices", check_transform_matrices),
    "rotating-pairs": ("plot_rotating_pairs", check_rotating_pairs),
    "clock-hands": ("plot_clock_hands", check_clock_hands),
    "geometry-curve": ("plot_encoding_curve", check_encoding_curve),
    "geometry-pca": ("plot_principal_components", check_principal_components),
    "geometry-similarity": ("plot_similarity_matrix", check_similarity_matrix),
    "geometry-frequencies": ("plot_measured_frequencies", check_measured_frequencies),
    "geometry-bands": ("plot_band_contributions", check_band_contributions),
    "closest-returns": ("plot_closest_returns", check_closest_returns),
    "t5-buckets": ("plot_t5_buckets", check_t5_buckets),
    "context-extension": ("plot_context_extension", check_context_extension),
    "variant-tables": ("plot_variant_tables", check_variant_tables),
    "table-2d": ("plot_table_2d", check_table_2d),
}
# The narrow layouts (a phone's): the same data, the same checker (and test_narrow_figure_holds_the_wide_figures_data)
CHECKS |= {f"{name}-narrow": CHECKS[name] for name in list(CHECKS)}
WIDE = sorted(name for name in FIGURES if not name.endswith("-narrow"))
NARROW = sorted(name for name in FIGURES if name.endswith("-narrow"))


@cache
def draw(name: str, lang: str = "en", theme: str = "light") -> Figure:
    """The registered figure, drawn once per session (the mutation test restores what it changes)."""
    spec = FIGURES[name]
    return getattr(plotting, spec.function)(**spec.kwargs, lang=lang, theme=theme)


def test_every_registered_figure_has_a_data_check() -> None:
    assert set(CHECKS) == set(FIGURES), "add a checker to CHECKS for each new figure (and drop removed ones)"
    for name, (function, _) in CHECKS.items():
        assert FIGURES[name].function == function, name


def checked_kwargs(name: str) -> dict[str, Any]:
    """The registered arguments of a figure that its checker takes: all of them but the layout, which places the
    panels, not the data, unless the checker checks the layout too (the clocks': their grid)."""
    check = CHECKS[name][1]
    return {k: v for k, v in FIGURES[name].kwargs.items() if k != "layout" or k in inspect.signature(check).parameters}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_plots_the_data_it_claims(name: str) -> None:
    CHECKS[name][1](draw(name), **checked_kwargs(name))


# ---------------------------------------------------------------------------------------------------------
# The checkers check: every plotted array, negated or reversed, makes its figure's checker fail


Mutation = tuple[str, Callable[[np.ndarray], np.ndarray]]
Plotted = tuple[str, Callable[[], np.ndarray], Callable[[np.ndarray], None], list[Mutation]]
NEGATED: Mutation = ("negated", np.negative)
REVERSED: Mutation = ("reversed", lambda v: v[::-1])
TRANSPOSED: Mutation = ("transposed", lambda v: v.T)
SHIFTED: Mutation = ("moved by 1", lambda v: v + np.eye(len(v))[0])  # first entry + 1: an off-by-one index
SCALED: Mutation = ("scaled by 1.1", lambda v: v * 1.1)


def _flip_y(v: np.ndarray) -> np.ndarray:
    """Scatter offsets (n, 2): negate the y column."""
    v = v.copy()
    v[:, 1] *= -1
    return v


def _line_3d(line: Line3D, c: int) -> tuple[Callable[[], np.ndarray], Callable[[np.ndarray], None]]:
    def put(v: np.ndarray) -> None:
        data = list(line.get_data_3d())
        data[c] = v
        line.set_data_3d(*data)

    return lambda: np.asarray(line.get_data_3d()[c], dtype=np.float64), put


def _scatter_3d(dots: Path3DCollection, c: int) -> tuple[Callable[[], np.ndarray], Callable[[np.ndarray], None]]:
    def put(v: np.ndarray) -> None:  # what set_3d_properties stores; matplotlib has no public setter for it
        data = list(dots._offsets3d)
        data[c] = v
        dots._offsets3d = tuple(data)

    return lambda: offsets_3d(dots)[c], put


def _segments_3d(wire: Line3DCollection, c: int) -> tuple[Callable[[], np.ndarray], Callable[[np.ndarray], None]]:
    """Coordinate ``c`` of every vertex of every segment, concatenated."""

    def put(v: np.ndarray) -> None:
        segments, start = [np.array(s, dtype=np.float64) for s in wire._segments3d], 0
        for s in segments:
            s[:, c] = v[start : start + len(s)]
            start += len(s)
        wire.set_segments(segments)

    return lambda: np.concatenate([np.asarray(s, dtype=np.float64)[:, c] for s in wire._segments3d]), put


def _arrays(fig: Figure) -> list[Plotted]:
    """(description, get, set, mutations) for every plotted array: each line's y and x data (x, y and z of a
    3-D line), each image, each scatter's points (x, y and z in 3-D) and their colours when they vary point by
    point (the array a colour map turns into colours, or the RGBA rows), each coordinate of a 3-D wireframe,
    each patch's bounds (the shaded columns of a span), each annotated point. Colour-bar ramps are not data."""
    found: list[Plotted] = []
    for a, ax in enumerate(fig.axes):
        for n, line in enumerate(ax.get_lines()):
            what = f"axes {a}, line {n} ({line.get_label()})"
            if isinstance(line, Line3D):  # get_xdata/get_ydata of a 3-D line hold its last 2-D projection
                for c, coordinate in enumerate("xyz"):
                    found.append((f"{what}, {coordinate}", *_line_3d(line, c), [NEGATED, REVERSED]))
                continue
            found.append(
                (
                    f"{what}, y",
                    lambda line=line: np.asarray(line.get_ydata(), dtype=np.float64),
                    lambda v, line=line: line.set_ydata(v),
                    [NEGATED, REVERSED],
                )
            )
            found.append(
                (
                    f"{what}, x",
                    lambda line=line: np.asarray(line.get_xdata(), dtype=np.float64),
                    lambda v, line=line: line.set_xdata(v),
                    [NEGATED, REVERSED],
                )
            )
        for n, image in enumerate(ax.get_images()):
            found.append(
                (
                    f"axes {a}, image {n}",
                    lambda image=image: np.asarray(np.ma.getdata(image.get_array()), dtype=np.float64),
                    lambda v, image=image: image.set_data(v),
                    [NEGATED, REVERSED, TRANSPOSED],
                )
            )
        for n, dots in enumerate(c for c in ax.collections if isinstance(c, PathCollection)):
            what = f"axes {a}, scatter {n}"
            if isinstance(dots, Path3DCollection):  # its get_offsets hold a 2-D projection
                for c, coordinate in enumerate("xyz"):
                    found.append((f"{what}, {coordinate}", *_scatter_3d(dots, c), [NEGATED, REVERSED]))
            else:
                found.append(
                    (
                        what,
                        lambda dots=dots: np.array(np.ma.getdata(dots.get_offsets())),
                        lambda v, dots=dots: dots.set_offsets(v),
                        [("y negated", _flip_y), REVERSED],
                    )
                )
            if dots.get_array() is not None:  # colours from a colour map
                found.append(
                    (
                        f"{what}, colour values",
                        lambda dots=dots: np.asarray(np.ma.getdata(dots.get_array()), dtype=np.float64),
                        lambda v, dots=dots: dots.set_array(v),
                        [NEGATED, REVERSED],
                    )
                )
            elif len(point_colours(dots)) > 1:  # one RGBA row per point
                found.append(
                    (
                        f"{what}, colours",
                        lambda dots=dots: point_colours(dots),
                        lambda v, dots=dots: dots.set_facecolor(v),
                        [REVERSED],
                    )
                )
        for n, wire in enumerate(c for c in ax.collections if isinstance(c, Line3DCollection)):
            # a torus is symmetric under negation and reversal of its vertices: stretch one coordinate instead
            for c, coordinate in enumerate("xyz"):
                found.append((f"axes {a}, wireframe {n}, {coordinate}", *_segments_3d(wire, c), [SCALED]))
        for n, patch in enumerate(ax.patches):
            assert isinstance(patch, Rectangle), f"axes {a}: teach _arrays the patch {patch!r}"
            found.append(
                (
                    f"axes {a}, patch {n}",
                    lambda patch=patch: np.array(patch.get_bbox().bounds, dtype=np.float64),
                    lambda v, patch=patch: patch.set_bounds(*v),
                    [NEGATED, REVERSED, SHIFTED],
                )
            )
        for n, note in enumerate(t for t in ax.texts if isinstance(t, Annotation)):
            found.append(
                (
                    f"axes {a}, annotated point {n} ({note.get_text()!r})",
                    lambda note=note: np.array(note.xy, dtype=np.float64),
                    lambda v, note=note: setattr(note, "xy", tuple(v)),
                    [NEGATED, REVERSED, SHIFTED],
                )
            )
    return found


@pytest.mark.parametrize("name", WIDE)
def test_every_plotted_array_is_checked(name: str) -> None:
    """Negate each plotted array (a curve's y or x, each coordinate of a 3-D curve or scatter, an image, the y
    of scatter points, colour values, a span's bounds, an annotated point), reverse it, transpose an image, move
    a span or an annotated point by one, stretch a wireframe: each change must make the checker fail, and the
    restored figure must pass again. (A narrow layout holds its wide figure's arrays, bit for bit: see
    test_narrow_figure_holds_the_wide_figures_data.)"""
    fig = draw(name)
    check = CHECKS[name][1]
    kwargs = checked_kwargs(name)
    missed, mutated = [], 0
    for what, get, put, mutations in _arrays(fig):
        original = get()
        for how, mutation in mutations:
            changed = mutation(original)
            if changed.shape == original.shape and np.allclose(
                changed, original, rtol=1e-9, atol=1e-12, equal_nan=True
            ):
                continue  # (nearly) a no-op: the line at 0, a point reversed, a symmetric image transposed
            put(changed)
            try:
                check(fig, **kwargs)
            except AssertionError:
                mutated += 1
            else:
                missed.append(f"{what} {how}")
            finally:
                put(original)
    assert missed == [], f"{name}: the checker does not notice: {missed}"
    assert mutated >= 2
    check(fig, **kwargs)  # restored: passes again


@pytest.mark.parametrize("name", WIDE)
def test_the_chinese_dark_figure_plots_the_same_data(name: str) -> None:
    """The checkers read the English light figure; the page shows four variants. The Chinese dark one (both
    the language and the theme changed) must hold the same arrays, in the same order: every array
    ``_arrays`` finds, bit for bit."""
    shown, checked = _arrays(draw(name, "zh", "dark")), _arrays(draw(name))
    assert len(shown) == len(checked)
    for (what, get, _, _), (_, expected, _, _) in zip(shown, checked, strict=True):
        assert np.array_equal(get(), expected(), equal_nan=True), f"{name}, zh/dark: {what}"


@pytest.mark.parametrize("name", NARROW)
def test_narrow_figure_holds_the_wide_figures_data(name: str) -> None:
    """A phone shows a figure's narrow layout: its panels stacked or two a row, its legend below. It must hold the
    wide figure's arrays (which the mutation test and the Chinese dark variant hold to the checker), in the same
    order, bit for bit, in English light and in Chinese dark."""
    wide = name.removesuffix("-narrow")
    assert FIGURES[name].kwargs == {**FIGURES[wide].kwargs, "layout": "narrow"}
    for lang, theme in (("en", "light"), ("zh", "dark")):
        shown, checked = _arrays(draw(name, lang, theme)), _arrays(draw(wide))
        assert len(shown) == len(checked), name
        if lang == "en":  # what each array is (the artists' labels name some): the same
            assert [what for what, *_ in shown] == [what for what, *_ in checked], name
        for (what, get, _, _), (_, expected, _, _) in zip(shown, checked, strict=True):
            assert np.array_equal(get(), expected(), equal_nan=True), f"{name}, {lang}/{theme}: {what}"


def test_binary_figure_shows_the_columns_the_page_names() -> None:
    """docs/*/wavelength.md, "The binary counter, side by side": bits of 0 … 31 next to columns 0, 38, 78,
    116, 154 of a d = 512 table (wavelength closest to π × the bit's period). Read back from the curves."""
    assert FIGURES["binary-vs-sinusoid"].kwargs == {"n_bits": 5, "d_model": 512}
    fig = draw("binary-vs-sinusoid")
    w = freqs(512)
    shown = []
    for b, dots in enumerate(fig.axes[1].get_lines()[1::2]):
        x, y = xy(dots)
        fit = np.abs(np.sin(x[:, None] * w[None, :]) - (y - 2.6 * b)[:, None]).max(axis=0)
        shown.append(2 * int(fit.argmin()))
        assert fit.min() < 1e-12
    assert shown == [0, 38, 78, 116, 154]
    assert [round(float(wavelength(512)[j // 2]) / math.pi) for j in shown] == [2, 4, 8, 16, 32]  # π × period
