"""Figures of the geometry and spectrum of the encoding: the curve of rows, its principal components, the
similarity matrix, measured frequencies and the share of each frequency band in the similarity."""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib
import numpy as np
import torch
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine

from pe_docs._checks import check_base, check_d_model, check_int
from pe_docs.analysis.geometry import band_contributions, principal_components
from pe_docs.analysis.similarity import first_rise, neighbour_similarity
from pe_docs.analysis.spectrum import measured_frequencies, peak_frequencies
from pe_docs.encoding import sinusoidal_table
from pe_docs.frequencies import inverse_frequencies, wavelengths
from pe_docs.plotting._style import (
    _PANE,
    CYCLE,
    NARROW_WIDTH,
    Lang,
    Layout,
    Theme,
    check_indices,
    check_lang_theme,
    check_layout,
    grouped,
    legend,
    new_figure,
    text,
    themed,
)


def _style_3d(ax: object, theme: Theme) -> None:
    """Transparent panes with a faint edge, so the 3-D axes read on light and dark pages."""
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):  # type: ignore[attr-defined]  # a 3-D Axes: mpl_toolkits is untyped
        axis.set_pane_color(matplotlib.colors.to_rgba(_PANE[theme], 0.35))
        axis.pane.set_edgecolor(matplotlib.rcParams["grid.color"])


def plot_encoding_curve(
    d_model: int = 512,
    positions: int = 600,
    pairs: Sequence[int] = (76, 128),
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """The curve of rows seen through two (sin, cos) pairs ``a`` (fast) and ``b`` (slow).

    Left: columns ``2a``, ``2a+1`` and ``2b`` of rows ``0 … positions − 1`` in 3-D. Pair ``a`` runs round its
    unit circle while ``sin(p·w_b)`` rises and falls back, so the curve winds round a cylinder of radius 1 and
    height 2 and turns back: it is bounded, not a helix. Right: the same two pairs as two angles
    ``(p·w_a, p·w_b)`` drawn on a doughnut (the standard picture of a product of two circles, a torus), with
    pair ``a`` round the tube and pair ``b`` round the hole. Points are coloured by position.

    Args:
        d_model: Width of the encoding; a positive even integer.
        positions: Number of rows drawn; an integer >= 2.
        pairs: Two pair indices ``(a, b)``, each an integer in ``0 … d_model/2 − 1``.
        layout: ``"wide"`` (the panels side by side) or ``"narrow"`` (one above the other, larger labels).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with two 3-D axes (left: three columns, right: the torus).

    Raises:
        TypeError: ``d_model``, ``positions`` or an entry of ``pairs`` is not an integer, or ``pairs`` is not a
            sequence.
        ValueError: ``pairs`` does not hold exactly two entries in ``0 … d_model/2 − 1``, ``positions`` < 2,
            ``d_model`` not positive and even, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_encoding_curve(16, 50, (0, 5))
        >>> len(fig.axes)
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    n = check_int("positions", positions, minimum=2)
    chosen = check_indices(
        "pairs", pairs, what="pair index", minimum=0, below=d // 2, below_text=f"d_model / 2 = {d // 2}"
    )
    if len(chosen) != 2:
        raise ValueError(f"pairs must hold exactly two pair indices (a, b), got {len(chosen)}")
    a, b = chosen
    table = sinusoidal_table(n, d, dtype=torch.float64).numpy()
    lam = wavelengths(d).numpy()
    w = inverse_frequencies(d).numpy()
    p = np.arange(n)
    colours = matplotlib.colormaps["viridis"](np.linspace(0, 1, n))
    with themed(lang, theme, layout):
        if wide:
            fig, axes = new_figure(7.6, 4.0, ncols=2, subplot_kw={"projection": "3d"})
        else:
            fig, axes = new_figure(NARROW_WIDTH, 6.2, nrows=2, subplot_kw={"projection": "3d"})
            engine = fig.get_layout_engine()
            assert isinstance(engine, ConstrainedLayoutEngine)  # new_figure's layout="constrained"
            engine.set(hspace=0.06)  # the 3-D axes' labels reach past their box
        small_text = 8 if wide else 9  # the axis labels and their ticks
        left, right = axes
        x, y, z = table[:, 2 * a], table[:, 2 * a + 1], table[:, 2 * b]
        left.plot(x, y, z, color=CYCLE[0], linewidth=0.7, alpha=0.6)
        left.scatter(x, y, z, c=colours, s=4, depthshade=False)
        left.set_xlabel(f"sin(p·w_{a})", fontsize=small_text)
        left.set_ylabel(f"cos(p·w_{a})", fontsize=small_text)
        left.set_zlabel(f"sin(p·w_{b})", fontsize=small_text)
        left.set_zlim(-1.05, 1.05)
        for setter in (left.set_xticks, left.set_yticks, left.set_zticks):
            setter([-1, 0, 1])
        left.set_title(
            text(
                lang,
                en=f"columns {2 * a}, {2 * a + 1}, {2 * b}: bounded, turns back",
                zh=f"第 {2 * a}、{2 * a + 1}、{2 * b} 列：有界，会折返",
            ),
            fontsize=9,
        )
        # torus: pair b goes round the hole (radius R), pair a round the tube (radius r)
        big, small = 2.0, 0.75
        ta, tb = p * w[a], p * w[b]
        u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 40), np.linspace(0, 2 * np.pi, 20))
        right.plot_wireframe(
            (big + small * np.cos(v)) * np.cos(u),
            (big + small * np.cos(v)) * np.sin(u),
            small * np.sin(v),
            color=matplotlib.rcParams["grid.color"],
            linewidth=0.3,
            alpha=0.6,
        )
        tx = (big + small * np.cos(ta)) * np.cos(tb)
        ty = (big + small * np.cos(ta)) * np.sin(tb)
        tz = small * np.sin(ta)
        right.plot(tx, ty, tz, color=CYCLE[1], linewidth=0.9)
        right.scatter(tx[[0, -1]], ty[[0, -1]], tz[[0, -1]], c=colours[[0, -1]], s=30, depthshade=False)
        right.set_xlim(-2.4, 2.4)
        right.set_ylim(-2.4, 2.4)
        right.set_zlim(-1.2, 1.2)
        right.set_box_aspect((4.8, 4.8, 2.4))
        right.set_axis_off()
        right.set_title(
            text(
                lang,
                en=f"pairs {a} (λ ≈ {lam[a]:.0f}) and {b} (λ ≈ {lam[b]:.0f}) on a torus",
                zh=f"第 {a} 对（λ ≈ {lam[a]:.0f}）与第 {b} 对（λ ≈ {lam[b]:.0f}）在环面上",
            ),
            fontsize=9,
        )
        _style_3d(left, theme)
        left.tick_params(labelsize=small_text)
        left.view_init(elev=18, azim=-60)
        right.view_init(elev=35, azim=-60)
        fig.suptitle(
            text(
                lang,
                en=f"Rows 0…{n - 1} of a d = {d} table, coloured by position",
                zh=f"d = {d} 编码表的第 0…{n - 1} 行，颜色表示位置",
            ),
            fontsize=11,
            wrap=not wide,
        )
    return fig


def plot_principal_components(
    d_model: int = 512,
    lengths: Sequence[int] = (100, 1000),
    n_shown: int = 30,
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Left: rows ``0 … L − 1`` (``L = lengths[-1]``) projected on their first two principal components.
    Right: the share of the variance each of the first ``n_shown`` components explains, one curve per length.

    The coordinates and shares are those of ``pe_docs.analysis.principal_components`` on the float64 table.

    Args:
        d_model: Width of the encoding; a positive even integer.
        lengths: Numbers of positions, one curve each on the right, each an integer >= 3; at least one. The
            last is projected on the left.
        n_shown: Number of components drawn on the right; an integer >= 2 (fewer if ``min(L, d)`` is
            smaller).
        layout: ``"wide"`` (the panels side by side) or ``"narrow"`` (one above the other).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with two axes (left: projection, right: explained variance).

    Raises:
        TypeError: ``d_model``, ``n_shown`` or an entry of ``lengths`` is not an integer, or ``lengths`` is not
            a sequence.
        ValueError: ``lengths`` is empty or has an entry < 3, ``n_shown`` < 2, ``d_model`` not positive and
            even, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_principal_components(16, (20, 50), 5)
        >>> len(fig.axes[1].get_lines())
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    ls = check_indices("lengths", lengths, what="length", minimum=3)
    n_shown = check_int("n_shown", n_shown, minimum=2)
    results = {n: principal_components(sinusoidal_table(n, d, dtype=torch.float64), 2) for n in ls}
    last = ls[-1]
    coords = results[last].coordinates.numpy()
    with themed(lang, theme, layout):
        fig, (left, right) = new_figure(7.6, 3.6, ncols=2) if wide else new_figure(NARROW_WIDTH, 6.4, nrows=2)
        left.plot(coords[:, 0], coords[:, 1], color=CYCLE[0], linewidth=0.6, alpha=0.5)
        points = left.scatter(coords[:, 0], coords[:, 1], c=np.arange(last), cmap="viridis", s=5, zorder=3)
        fig.colorbar(points, ax=left, shrink=0.85, label=text(lang, en="position  p", zh="位置  p"))
        shares = results[last].explained.numpy()
        left.set_xlabel(
            text(lang, en=f"PC 1 ({shares[0]:.0%} of the variance)", zh=f"第 1 主成分（方差的 {shares[0]:.0%}）")
        )
        left.set_ylabel(text(lang, en=f"PC 2 ({shares[1]:.0%})", zh=f"第 2 主成分（{shares[1]:.0%}）"))
        left.set_aspect("equal", adjustable="datalim")
        left.set_title(
            text(lang, en=f"L = {last}, d = {d}: first two components", zh=f"L = {last}，d = {d}：前两个主成分"),
            fontsize=10,
        )
        for n in ls:
            share = results[n].explained.numpy()[:n_shown]
            right.plot(
                np.arange(1, len(share) + 1),
                100 * share,
                ".-",
                markersize=4,
                linewidth=1.2,
                label=text(
                    lang,
                    en=f"L = {n}: first 3 hold {share[:3].sum():.0%}",
                    zh=f"L = {n}：前 3 个占 {share[:3].sum():.0%}",
                ),
            )
        right.set_ylim(bottom=0)
        right.set_xlabel(text(lang, en="component", zh="主成分序号"))
        right.set_ylabel(text(lang, en="share of variance (%)", zh="方差占比（%）"))
        right.set_title(text(lang, en="Variance per component", zh="每个主成分解释的方差"), fontsize=10)
        right.legend(loc="upper right", fontsize=8)
    return fig


def plot_similarity_matrix(
    d_models: Sequence[int] = (64, 512),
    positions: int = 256,
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Cosine similarity ``PE[i]·PE[j] / (d/2)`` of rows ``0 … positions − 1`` as an image, one per width.

    Every diagonal ``j − i = k`` is constant (the matrix is Toeplitz): its value is the closed form
    ``s(k)`` of ``pe_docs.analysis.neighbour_similarity``. Computed from the float64 table.

    Args:
        d_models: Widths, one image each, each a positive even integer; at least one.
        positions: Number of rows (and columns) of each matrix; an integer >= 2.
        layout: ``"wide"`` (the images side by side) or ``"narrow"`` (one above the other).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one image axes per width and a shared colour bar.

    Raises:
        TypeError: ``positions`` or an entry of ``d_models`` is not an integer, or ``d_models`` is not a
            sequence.
        ValueError: ``d_models`` is empty or has an entry that is not positive and even, ``positions`` < 2, or
            a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_similarity_matrix((8,), 10)
        >>> fig.axes[0].get_images()[0].get_array().shape
        (10, 10)
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    widths = check_indices("d_models", d_models, what="width")
    ds = [check_d_model(d, f"d_models[{n}]") for n, d in enumerate(widths)]
    n = check_int("positions", positions, minimum=2)
    with themed(lang, theme, layout):
        if wide:
            fig, grid = new_figure(3.3 * len(ds) + 0.9, 3.6, ncols=len(ds), squeeze=False)
        else:
            fig, grid = new_figure(NARROW_WIDTH, 2.8 * len(ds) + 0.5, nrows=len(ds), squeeze=False)
        axes = list(grid.flat)
        image = None
        for ax, d in zip(axes, ds, strict=True):
            table = sinusoidal_table(n, d, dtype=torch.float64)
            cosine = (table @ table.T / (d / 2)).numpy()
            image = ax.imshow(cosine, cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
            ax.grid(False)
            rise = first_rise(neighbour_similarity(d, n - 1))
            note = (
                text(lang, en=f", first rise after k = {rise}", zh=f"，k = {rise} 之后首次回升")
                if rise is not None
                else ""
            )
            ax.set_title(f"d = {d}{note}", fontsize=10)
            ax.set_xlabel(text(lang, en="position  j", zh="位置  j"))
        for ax in axes[:1] if wide else axes:
            ax.set_ylabel(text(lang, en="position  i", zh="位置  i"))
        assert image is not None  # d_models is not empty (check_indices)
        fig.colorbar(image, ax=axes, shrink=0.85 if wide else 0.6)
        fig.suptitle(
            text(lang, en="cos(PE[i], PE[j]) depends on j − i only", zh="cos(PE[i], PE[j]) 只取决于 j − i"),
            fontsize=11,
            wrap=not wide,
        )
    return fig


def plot_measured_frequencies(
    d_model: int = 512,
    n_positions: int = 1000,
    *,
    base: float = 10000.0,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Frequency of each sine column: theory ``w_i / 2π`` against two measurements, on a log axis.

    * "bare FFT": ``argmax`` of ``|FFT|`` of the first ``n_positions`` rows, no window, no interpolation
      (``pe_docs.analysis.peak_frequencies(..., window=False, refine=False, pad=1, min_cycles=0)``) — multiples of
      ``1/n_positions`` only, and exactly ``1/n_positions`` for every column slower than that;
    * "enough positions": ``pe_docs.analysis.measured_frequencies`` (every column sampled over at least 8 wavelengths,
      Hann window, interpolation).

    The shaded region holds the columns whose wavelength exceeds ``n_positions``: less than one cycle in the
    window, which no spectrum of ``n_positions`` samples can resolve.

    Args:
        d_model: Width of the encoding; a positive even integer.
        n_positions: Length of the bare FFT's window; an integer >= 4.
        base: The constant of the encoding; finite and >= 1 (a smaller base puts columns above half a cycle
            per position, which integer positions alias).
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the legend below the axes).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with two axes sharing ``i``: the frequencies (three lines, in order:
        theory, bare FFT, measurement with enough positions, then a dotted line at ``1/n_positions``) and below
        them the relative errors of the two measurements (two lines, in the same order).

    Raises:
        TypeError: ``d_model`` or ``n_positions`` is not an integer, ``base`` not a real number.
        ValueError: ``d_model`` not positive and even, ``n_positions`` < 4, ``base`` not finite or < 1, or a
            bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_measured_frequencies(16, 100)
        >>> [len(ax.get_lines()) for ax in fig.axes]
        [4, 2]
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    n = check_int("n_positions", n_positions, minimum=4)
    base = check_base(base)
    if base < 1:
        raise ValueError(f"base must be >= 1 (columns above half a cycle per position alias), got {base!r}")
    theory = (inverse_frequencies(d, base=base) / (2 * math.pi)).numpy()
    sines = sinusoidal_table(n, d, base=base, dtype=torch.float64)[:, 0::2]
    bare = peak_frequencies(sines, window=False, refine=False, pad=1, min_cycles=0).numpy()
    good = measured_frequencies(d, base=base).numpy()
    i = np.arange(d // 2)
    unresolved = np.nonzero(1 / theory > n)[0]
    with themed(lang, theme, layout):
        fig, (ax, err) = new_figure(7.0 if wide else NARROW_WIDTH, 5.4, nrows=2, sharex=True, height_ratios=(3, 2))
        ax.plot(
            i,
            theory,
            "-",
            color="0.5",
            linewidth=2.5,
            alpha=0.7,
            label=text(lang, en="theory  w_i / 2π", zh="理论值  w_i / 2π"),
        )
        ax.plot(
            i,
            bare,
            ".",
            color=CYCLE[1],
            markersize=4,
            label=text(
                lang, en=f"bare FFT of {n} positions (no window, argmax)", zh=f"{n} 个位置直接做 FFT（无窗，取 argmax）"
            ),
        )
        ax.plot(
            i,
            good,
            "x",
            color=CYCLE[0],
            markersize=3,
            label=text(
                lang, en="≥ 8 wavelengths per column, Hann window, interpolated", zh="每列至少 8 个波长，Hann 窗，插值"
            ),
        )
        err.plot(i, np.abs(bare - theory) / theory, ".", color=CYCLE[1], markersize=4)
        err.plot(i, np.abs(good - theory) / theory, "x", color=CYCLE[0], markersize=3)
        if unresolved.size:
            for axis in (ax, err):
                axis.axvspan(unresolved[0] - 0.5, d // 2 - 0.5, color=CYCLE[3], alpha=0.12, linewidth=0)
            ax.annotate(
                text(
                    lang,
                    en=f"λ > {n}: {unresolved.size} columns\nless than one cycle in {n} positions",
                    zh=f"λ > {n}：{unresolved.size} 列\n{n} 个位置内不足一个周期",
                ),
                xy=(unresolved[0], theory[-1]),
                xytext=(6, 6) if wide else (-6, 6),  # narrow: left of the band, where the axes are empty
                textcoords="offset points",
                fontsize=8,
                ha="left" if wide else "right",
            )
        ax.axhline(1 / n, color=CYCLE[1], linewidth=0.8, linestyle=":")
        ax.set_yscale("log")
        err.set_yscale("log")
        ax.set_ylabel(text(lang, en="cycles per position", zh="每个位置的周数"))
        err.set_ylabel(text(lang, en="relative error", zh="相对误差"))
        err.set_xlabel(text(lang, en="frequency index  i  (sine column 2i)", zh="频率序号  i（正弦列 2i）"))
        br = " " if wide else "\n"
        ax.set_title(
            text(lang, en=f"Measured against theoretical{br}frequency, d = {d}", zh=f"实测频率与理论频率（d = {d}）"),
            fontsize=10,
        )
        legend(fig, ax, wide=wide, loc="lower left")
    return fig


def plot_band_contributions(
    d_model: int = 512,
    max_k: int = 20000,
    n_bands: int = 3,
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Cosine similarity ``s(k)`` of positions ``k`` apart and the share of each frequency band in it.

    The bands are those of ``pe_docs.analysis.band_contributions`` (contiguous groups of pairs, fastest first); their
    curves add up to ``s(k)`` (``pe_docs.analysis.neighbour_similarity``), drawn on top. Log axis for ``k``.

    Args:
        d_model: Width of the encoding; a positive even integer.
        max_k: Largest offset; an integer >= 2.
        n_bands: Number of bands; an integer in ``1 … d_model/2``.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the legend below the axes).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes: one line per band, then the total, then the zero line.

    Raises:
        TypeError: ``d_model``, ``max_k`` or ``n_bands`` is not an integer.
        ValueError: ``d_model`` not positive and even, ``max_k`` < 2, ``n_bands`` outside ``1 … d_model/2``,
            or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_band_contributions(16, 100, 2)
        >>> len(fig.axes[0].get_lines())
        4
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    max_k = check_int("max_k", max_k, minimum=2)
    bands = band_contributions(d, max_k, n_bands=check_int("n_bands", n_bands, minimum=1))
    total = neighbour_similarity(d, max_k)
    lam = wavelengths(d).numpy()
    k = np.arange(1, max_k + 1)
    if n_bands == 3:
        names = [
            text(lang, en=name_en, zh=name_zh)
            for name_en, name_zh in (("high", "高频"), ("middle", "中频"), ("low", "低频"))
        ]
    else:
        names = [text(lang, en=f"band {b + 1}", zh=f"第 {b + 1} 段") for b in range(n_bands)]
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 3.8) if wide else new_figure(NARROW_WIDTH, 4.6)
        for b in range(n_bands):
            lo, hi = bands.edges[b], bands.edges[b + 1]
            ax.plot(
                k,
                bands.values[b, 1:].numpy(),
                linewidth=0.9,
                color=CYCLE[b % len(CYCLE)],
                label=text(
                    lang,
                    en=f"{names[b]}: pairs {lo}–{hi - 1}, λ {grouped(lang, lam[lo])}–{grouped(lang, lam[hi - 1])}",
                    zh=f"{names[b]}：第 {lo}–{hi - 1} 对，λ {grouped(lang, lam[lo])}–{grouped(lang, lam[hi - 1])}",
                ),
            )
        ax.plot(
            k,
            total[1:].numpy(),
            color=matplotlib.rcParams["text.color"],
            linewidth=1.2,
            label=text(lang, en="sum = s(k)", zh="总和 = s(k)"),
        )
        ax.axhline(0, color="0.5", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_xlabel(text(lang, en="offset  k", zh="偏移  k"))
        ax.set_ylabel(text(lang, en="term of cos(PE[p], PE[p+k])", zh="对余弦相似度的贡献"))
        ax.set_title(
            text(
                lang,
                en=f"Who carries the similarity of positions k apart (d = {d})",
                zh=f"相距 k 的两个位置的相似度由谁贡献（d = {d}）",
            ),
            fontsize=10,
            wrap=not wide,
        )
        legend(fig, ax, wide=wide, loc="upper right")
    return fig
