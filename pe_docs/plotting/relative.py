"""Figures of the relative transform: the matrices ``T_k`` and the (sin, cos) pairs turning on circles."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import numpy as np
import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_d_model, check_int
from pe_docs.analysis.relative import relative_transform
from pe_docs.encoding import sinusoidal_table
from pe_docs.frequencies import inverse_frequencies
from pe_docs.plotting._style import (
    CYCLE,
    NARROW_WIDTH,
    Lang,
    Layout,
    Theme,
    check_indices,
    check_lang_theme,
    check_layout,
    new_figure,
    new_panels,
    text,
    themed,
    unit_circle,
)


def plot_transform_matrices(
    ks: Sequence[int] = (1, 5, 50),
    d_model: int = 16,
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Heatmaps of ``relative_transform(k, d_model)`` for each ``k``: 2×2 rotations on the diagonal.

    One panel per offset, sharing a colour bar from −1 to 1.

    Args:
        ks: Offsets ``k``, each an integer (negative offsets are allowed); at least one.
        d_model: Width of the encoding (the matrices are ``d_model × d_model``); a positive even integer.
        layout: ``"wide"`` (the panels in a row, the colour bar on the right) or ``"narrow"`` (two panels a row,
            the colour bar below).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes per entry of ``ks`` plus the colour bar.

    Raises:
        TypeError: ``d_model`` or an entry ``ks[n]`` is not an integer, or ``ks`` is not a sequence.
        ValueError: ``ks`` is empty, ``d_model`` not positive and even, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_transform_matrices(ks=(1, 2), d_model=4)
        >>> len(fig.axes)
        3
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    ks = check_indices("ks", ks, what="offset")
    with themed(lang, theme, layout):
        if wide:
            fig, grid = new_figure(2.5 * len(ks) + 0.8, 3.3, nrows=1, ncols=len(ks), squeeze=False)
            axes = list(grid[0])
        else:
            fig, axes = new_panels(NARROW_WIDTH, 2.1 * -(-len(ks) // 2) + 1.2, len(ks), 2)
        image = None
        for ax, k in zip(axes, ks, strict=True):
            image = ax.imshow(relative_transform(k, d).numpy(), cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
            ax.grid(False)
            ax.set_title(f"$T_{{{k}}}$")
            ax.set_xticks(range(0, d, 4))
            ax.set_yticks(range(0, d, 4))
            ax.set_xlabel(text(lang, en="column", zh="列"))
        for ax in axes[:1] if wide else axes[::2]:  # the first panel of each row
            ax.set_ylabel(text(lang, en="row", zh="行"))
        assert image is not None  # ks is not empty (check_indices)
        if wide:
            fig.colorbar(image, ax=axes, shrink=0.8)
        else:
            fig.colorbar(image, ax=axes, location="bottom", shrink=0.8, aspect=30)
        fig.suptitle(
            text(
                lang,
                en=f"Relative transforms, d_model = {d}: one 2×2 rotation per frequency",
                zh=f"相对变换矩阵（d_model = {d}）：每个频率一个 2×2 旋转块",
            ),
            fontsize=11,
            wrap=not wide,
        )
    return fig


def plot_rotating_pairs(
    d_model: int = 8,
    positions: int = 12,
    pairs: Sequence[int] = (0, 1, 2),
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Each (sin, cos) pair as the point (x, y) = (sin, cos) of the unit circle, for positions ``0 … positions - 1``.

    Pair ``i`` is drawn as start here's clock hands draw it: at ``(sin(p·w_i), cos(p·w_i))`` (column ``2i``
    across, column ``2i + 1`` up), starting at twelve o'clock, so moving one position turns it clockwise by the
    angle ``w_i``: the first pair runs round the circle, later pairs barely move.

    Args:
        d_model: Width of the encoding; a positive even integer.
        positions: Number of positions drawn (``0 … positions − 1``); an integer >= 2.
        pairs: Pair (frequency) indices ``i``, each an integer in ``0 … d_model/2 − 1``; at least one.
        layout: ``"wide"`` (the circles in a row) or ``"narrow"`` (two circles a row, larger labels).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes per entry of ``pairs``.

    Raises:
        TypeError: ``d_model``, ``positions`` or an entry ``pairs[n]`` is not an integer, or ``pairs`` is not
            a sequence.
        ValueError: ``pairs`` is empty or has an entry outside ``0 … d_model/2 − 1``, ``positions < 2``,
            ``d_model`` not positive and even, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_rotating_pairs(d_model=4, positions=5, pairs=(0, 1))
        >>> len(fig.axes)
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    n = check_int("positions", positions, minimum=2)
    pairs = check_indices(
        "pairs", pairs, what="pair index", minimum=0, below=d // 2, below_text=f"d_model / 2 = {d // 2}"
    )
    table = sinusoidal_table(n, d, dtype=torch.float64).numpy()
    w = inverse_frequencies(d).numpy()
    with themed(lang, theme, layout):
        if wide:
            fig, grid = new_figure(2.6 * len(pairs) + 0.6, 3.3, nrows=1, ncols=len(pairs), squeeze=False)
            axes = list(grid[0])
        else:
            fig, axes = new_panels(NARROW_WIDTH, 2.05 * -(-len(pairs) // 2) + 0.35, len(pairs), 2)
        colours = matplotlib.colormaps["viridis"](np.linspace(0, 1, n))
        for ax, i in zip(axes, pairs, strict=True):
            unit_circle(ax)
            xs, ys = table[:, 2 * i], table[:, 2 * i + 1]  # x = sin, y = cos
            ax.plot(xs, ys, color=CYCLE[1], linewidth=0.6, alpha=0.4)
            ax.scatter(xs, ys, c=colours, s=28, zorder=3)
            # a fast pair (pair 0 runs more than once round) has every position labelled, inside the circle next to its
            # point; a slow pair, whose points crowd near twelve o'clock, only its first and last: the last right of
            # its point, p = 0 left of it
            fast = w[i] > 0.5
            for p in range(n) if fast else (0, n - 1):
                x, y = xs[p], ys[p]
                if fast:
                    place, ha, va = (0.76 * x, 0.76 * y), "center", "center"
                else:
                    right = p > 0
                    place, ha, va = (x + (0.08 if right else -0.08), y), "left" if right else "right", "center"
                ax.annotate(
                    str(p) if fast else f"p={p}",
                    (x, y),
                    xytext=place,
                    ha=ha,
                    va=va,
                    fontsize=8 if wide else 9,
                )
            ax.set_aspect("equal")
            ax.set_xlim(-1.35, 1.35)
            ax.set_ylim(-1.35, 1.35)
            ax.set_xlabel(f"sin(p·w_{i})")
            ax.set_title(text(lang, en=f"pair {i}: w = {w[i]:.3g}", zh=f"第 {i} 对：w = {w[i]:.3g}"), fontsize=10)
        for ax in axes[:1] if wide else axes[::2]:  # the first panel of each row
            ax.set_ylabel("cos(p·w_i)")
        fig.suptitle(
            text(
                lang,
                en=f"Positions 0…{n - 1}: each pair turns by w_i per step",
                zh=f"位置 0…{n - 1}：每前进一步，第 i 对转过角度 w_i",
            ),
            fontsize=11,
            wrap=not wide,
        )
    return fig
