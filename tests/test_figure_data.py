"""Every figure plots the data it claims: the arrays inside each drawn Figure against independent references.

For every figure registered in ``site_tools.figures.FIGURES``, the registered ``pe_docs.plotting`` function is
called with the registered arguments, and what it put on the axes (line x/y data, image arrays, scatter
offsets, marker positions, the numbers in labels) is compared with values computed here from the documented
closed forms, in float64 with NumPy (``PE[p, 2i] = sin(p·w_i)``, ``PE[p, 2i+1] = cos(p·w_i)``,
``w_i = 10000^(-2i/d)``; ``s(k) = (2/d)·Σ cos(k·w_i)``; singular values by LAPACK; ulps with mpmath) — not
with the helpers the plotting code calls. Where a figure shows how a library function behaves (the
frequencies of ``inverse_frequencies`` in float32 and float64, the tutorial rows in low precision), that
function is called, and everything around it (phases, reference rows, errors, running maxima, ulps) is
recomputed here. The log-spaced positions of the two precision figures are ``pe_docs.dtypes.
log_spaced_positions`` (unit-tested in tests/test_dtypes.py); here they are checked to run from 1 to the
last position.

``CHECKS`` has one checker per registered figure (a new figure without one fails
``test_every_registered_figure_has_a_data_check``), and ``test_every_plotted_array_is_checked`` negates and
reverses each plotted array in turn (and transposes each image) and requires the checker to notice.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import mpmath
import numpy as np
import pytest
import torch
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D

from pe_docs import inverse_frequencies, plotting
from pe_docs.dtypes import log_spaced_positions
from site_tools.figures import FIGURES

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
    assert ax.get_yscale() == "log"


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
            assert line.get_label() == f"j = {j}, λ ≈ {lam[j // 2]:,.0f}"


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
    """Positions and (label, error of each row) of each recipe, in the order of ``pe_docs.dtypes.RECIPES``."""
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


def check_position_scores(fig: Figure, *, max_len: int, d_model: int, seed: int) -> None:
    plain_ax, projected_ax = fig.axes[:2]
    offset = np.arange(max_len)[None, :] - np.arange(max_len)[:, None]  # j - i: column j, row i
    plain = np.cos(offset[:, :, None] * freqs(d_model)).sum(axis=-1) / math.sqrt(d_model)
    g = torch.Generator().manual_seed(seed)  # documented: W_Q then W_K, N(0, 1/d), float64
    w_q = torch.randn(d_model, d_model, generator=g, dtype=torch.float64).numpy() / math.sqrt(d_model)
    w_k = torch.randn(d_model, d_model, generator=g, dtype=torch.float64).numpy() / math.sqrt(d_model)
    t = table(max_len, d_model)
    projected = (t @ w_q) @ (t @ w_k).T / math.sqrt(d_model)  # row i = query, column j = key
    assert np.abs(projected - projected.T).max() > 0.1  # so a transposed panel cannot pass
    for ax, expected in ((plain_ax, plain), (projected_ax, projected)):
        assert "query" in ax.get_ylabel() and "key" in ax.get_xlabel()
        close(pixels(ax), expected, atol=1e-12, what=ax.get_title())
        m = np.abs(expected).max()
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


def check_rotating_pairs(fig: Figure, *, d_model: int, positions: int, pairs: Sequence[int]) -> None:
    p = np.arange(positions)
    assert len(fig.axes) == len(pairs)
    for ax, i in zip(fig.axes, pairs, strict=True):
        w = freqs(d_model)[i]
        circle, path = ax.get_lines()
        x, y = xy(circle)
        theta = np.linspace(0, 2 * np.pi, len(x))
        close(np.stack((x, y)), np.stack((np.cos(theta), np.sin(theta))), atol=1e-12, what="unit circle")
        expected = np.stack((np.cos(p * w), np.sin(p * w)), axis=-1)  # (cos, sin): x = cos, y = sin
        close(np.stack(xy(path), axis=-1), expected, atol=1e-12, what=f"path of pair {i}")
        (dots,) = (c for c in ax.collections if isinstance(c, PathCollection))
        close(np.ma.getdata(dots.get_offsets()), expected, atol=1e-12, what=f"points of pair {i}")
        for note in ax.texts:
            q = int(note.get_text().removeprefix("p="))
            close(note.xy, expected[q], atol=1e-12, what=note.get_text())
        assert ax.get_title() == f"pair {i}: w = {w:.3g}" and ax.get_xlabel() == f"cos(p·w_{i})"


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
        expected = [t5_bucket(int(o), bidirectional=bidirectional, num_buckets=num_buckets,
                              max_distance=max_distance) for o in offsets]
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


def check_context_extension(fig: Figure, *, d_head: int, scale: float, original_len: int, base: float) -> None:
    ax = fig.axes[0]
    lines = data_lines(ax)
    expected = extended_wavelengths(d_head, scale, original_len, base)
    assert len(lines) == len(expected)
    for line, (name, lam) in zip(lines, expected.items(), strict=True):
        x, y = xy(line)
        same_ints(x, np.arange(d_head // 2), f"pairs of {name}")
        close(y, lam, rtol=1e-12, atol=0, what=name)
    marks = [line for line in ax.get_lines() if line not in lines]
    assert [list(xy(m)[1]) for m in marks] == [[original_len] * 2, [scale * original_len] * 2]
    assert all(list(xy(m)[0]) == [0, 1] for m in marks)
    assert ax.get_yscale() == "log"


# name -> (the pe_docs.plotting function registered for it, its checker)
CHECKS: dict[str, tuple[str, Callable[..., None]]] = {
    "heatmap": ("plot_heatmap", check_heatmap),
    "waveforms": ("plot_waveforms", check_waveforms),
    "wavelengths": ("plot_wavelengths", check_wavelengths),
    "scales": ("plot_scales", check_scales),
    "binary-vs-sinusoid": ("plot_binary_vs_sinusoid", check_binary_vs_sinusoid),
    "neighbour-similarity": ("plot_neighbour_similarity", check_neighbour_similarity),
    "frequency-ulps": ("plot_frequency_ulps", check_frequency_ulps),
    "log-trick-error": ("plot_log_trick_error", check_log_trick_error),
    "dtype-error": ("plot_dtype_error", check_dtype_error),
    "singular-values": ("plot_singular_values", check_singular_values),
    "position-scores": ("plot_position_scores", check_position_scores),
    "transform-matrices": ("plot_transform_matrices", check_transform_matrices),
    "rotating-pairs": ("plot_rotating_pairs", check_rotating_pairs),
    "t5-buckets": ("plot_t5_buckets", check_t5_buckets),
    "context-extension": ("plot_context_extension", check_context_extension),
}


@cache
def draw(name: str) -> Figure:
    """The registered figure, drawn once per session (the mutation test restores what it changes)."""
    spec = FIGURES[name]
    return getattr(plotting, spec.function)(**spec.kwargs, lang="en", theme="light")


def test_every_registered_figure_has_a_data_check() -> None:
    assert set(CHECKS) == set(FIGURES), "add a checker to CHECKS for each new figure (and drop removed ones)"
    for name, (function, _) in CHECKS.items():
        assert FIGURES[name].function == function, name


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_plots_the_data_it_claims(name: str) -> None:
    CHECKS[name][1](draw(name), **FIGURES[name].kwargs)


# ---------------------------------------------------------------------------------------------------------
# The checkers check: every plotted array, negated or reversed, makes its figure's checker fail


Mutation = tuple[str, Callable[[np.ndarray], np.ndarray]]
NEGATED: Mutation = ("negated", np.negative)
REVERSED: Mutation = ("reversed", lambda v: v[::-1])
TRANSPOSED: Mutation = ("transposed", lambda v: v.T)


def _flip_y(v: np.ndarray) -> np.ndarray:
    """Scatter offsets (n, 2): negate the y column."""
    v = v.copy()
    v[:, 1] *= -1
    return v


def _arrays(fig: Figure) -> list[tuple[str, Callable[[], np.ndarray], Callable[[np.ndarray], None], list[Mutation]]]:
    """(description, get, set, mutations) for every plotted array: each line's y and x data, each image, each
    scatter's offsets."""
    found: list[tuple[str, Callable[[], np.ndarray], Callable[[np.ndarray], None], list[Mutation]]] = []
    for a, ax in enumerate(fig.axes):
        for n, line in enumerate(ax.get_lines()):
            what = f"axes {a}, line {n} ({line.get_label()})"
            found.append((f"{what}, y", lambda line=line: np.asarray(line.get_ydata(), dtype=np.float64),
                          lambda v, line=line: line.set_ydata(v), [NEGATED, REVERSED]))
            found.append((f"{what}, x", lambda line=line: np.asarray(line.get_xdata(), dtype=np.float64),
                          lambda v, line=line: line.set_xdata(v), [NEGATED, REVERSED]))
        for n, image in enumerate(ax.get_images()):
            found.append((f"axes {a}, image {n}",
                          lambda image=image: np.asarray(np.ma.getdata(image.get_array()), dtype=np.float64),
                          lambda v, image=image: image.set_data(v), [NEGATED, REVERSED, TRANSPOSED]))
        for n, dots in enumerate(c for c in ax.collections if isinstance(c, PathCollection)):
            found.append((f"axes {a}, scatter {n}", lambda dots=dots: np.array(np.ma.getdata(dots.get_offsets())),
                          lambda v, dots=dots: dots.set_offsets(v), [("y negated", _flip_y), REVERSED]))
    return found


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_plotted_array_is_checked(name: str) -> None:
    """Negate each plotted array (a curve's y or x, an image, the y of scatter points), reverse it, transpose
    an image: each change must make the checker fail, and the restored figure must pass again."""
    fig = draw(name)
    check = CHECKS[name][1]
    kwargs = FIGURES[name].kwargs
    missed, mutated = [], 0
    for what, get, put, mutations in _arrays(fig):
        original = get()
        for how, mutation in mutations:
            changed = mutation(original)
            if changed.shape == original.shape and np.allclose(changed, original, rtol=1e-9, atol=1e-12,
                                                               equal_nan=True):
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
