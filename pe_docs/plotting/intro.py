"""The start page's figure: each (sin, cos) pair of a row read as a clock hand's tip, (x, y) = (sin, cos)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_base, check_d_model, check_int, check_real
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
    text,
    themed,
)

# Pairs a clock can show legibly (one hand each, of decreasing length).
MAX_HANDS = 5


def _frequency_label(w: float) -> str:
    """``1``, ``1/10``, ``1/100`` … for the decimal frequencies of ``d_model = 8``; ``0.0316`` otherwise."""
    inverse = 1 / w
    if w < 1 and abs(inverse - round(inverse)) < 1e-9 * inverse:
        return f"1/{round(inverse)}"
    return f"{w:.3g}"


def plot_clock_hands(
    positions: Sequence[int] = (0, 1, 2, 10, 100, 1000),
    d_model: int = 8,
    *,
    base: float = 10000.0,
    ncols: int | None = None,
    text_size: float | None = None,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """One clock face per position; pair ``i`` of the position's row is a hand.

    The hand of pair ``i`` starts at twelve o'clock and turns clockwise, as a clock's hands do, by ``w_i`` radians
    per position, so at position ``p`` its tip points at ``(sin(p·w_i), cos(p·w_i))``: the pair's two columns of
    row ``p`` in the table's order (``PE[p, 2i]``, the sine, is the tip's x; ``PE[p, 2i+1]``, the cosine, its y).
    Hand ``i`` is drawn with length ``1 − 0.15·i``,
    so its tip is at that length times the pair. With ``d_model = 8`` and the paper's base the frequencies
    are ``1, 1/10, 1/100, 1/1000``: each hand turns ten times slower than the one before.

    Args:
        positions: Positions to draw, one clock each; integers >= 0, at least one.
        d_model: Width of the encoding; a positive even integer with at most 10 columns (5 hands).
        base: The constant of the encoding; finite and > 0.
        ncols: Clocks per row of the figure; an integer >= 1, or ``None`` for the layout's (3 wide, 2 narrow).
            With 2 or fewer, the legend has two columns; otherwise one row.
        text_size: Font size of the legend, in points (the titles are one point larger); a number in
            ``[6, 20]``, or ``None`` for the layout's (9 wide, 10 narrow).
        layout: ``"wide"`` (clocks 2.2 inches wide) or ``"narrow"`` (a phone's width: clocks 1.7 inches wide, two
            a row, larger text).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes per position (clock faces in rows of ``ncols``; unused
        cells are removed). In each axes the first line is the unit circle (the face), then one line per
        hand from the centre to its tip, then one dot per hand at the tip.

    Raises:
        TypeError: ``positions`` is not a sequence, an entry of it, ``d_model`` or ``ncols`` is not an
            integer, or ``base`` or ``text_size`` is not a real number.
        ValueError: ``positions`` is empty or has a negative entry, ``d_model`` is odd, < 2 or > 10,
            ``ncols`` < 1, ``base`` is not finite and > 0, ``text_size`` is outside ``[6, 20]``, or a bad
            ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_clock_hands((0, 5), d_model=4)
        >>> len(fig.axes)
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    ps = check_indices("positions", positions, what="position", minimum=0)
    d = check_d_model(d_model)
    if d // 2 > MAX_HANDS:
        raise ValueError(f"d_model must be <= {2 * MAX_HANDS} (one hand per pair, {MAX_HANDS} at most), got {d}")
    base = check_base(base)
    ncols = min(check_int("ncols", (3 if wide else 2) if ncols is None else ncols, minimum=1), len(ps))
    size = check_real(
        "text_size", (9.0 if wide else 10.0) if text_size is None else text_size, minimum=6.0, maximum=20.0
    )
    cell = 2.2 if wide else (NARROW_WIDTH - 0.4) / 2  # the width of a clock, in inches
    nrows = math.ceil(len(ps) / ncols)
    legend_cols = d // 2 if ncols >= 3 else min(2, d // 2)
    legend_rows = math.ceil((d // 2) / legend_cols)
    rows = sinusoidal_table(max(ps) + 1, d, base=base, dtype=torch.float64)[ps].numpy()
    w = inverse_frequencies(d, base=base).tolist()
    lengths = 1 - 0.15 * np.arange(d // 2)
    face = np.linspace(0, 2 * np.pi, 200)
    with themed(lang, theme, layout):
        height = (cell + 0.05) * nrows + (0.3 + 0.2 * legend_rows) * size / 9
        fig, axes = new_figure(cell * ncols + 0.4, height, nrows=nrows, ncols=ncols, squeeze=False)
        for n, ax in enumerate(axes.flat):
            if n >= len(ps):
                ax.remove()
                continue
            p, row = ps[n], rows[n]
            ax.plot(np.cos(face), np.sin(face), color=CYCLE[0], linewidth=0.8, alpha=0.45)
            tips = []
            for i in range(d // 2):
                tip = lengths[i] * row[2 * i], lengths[i] * row[2 * i + 1]  # x = sin, y = cos
                label = f"w = {_frequency_label(w[i])}" if n == 0 else f"_hand {i}"
                ax.plot([0.0, tip[0]], [0.0, tip[1]], color=CYCLE[1 + i], linewidth=2.6 - 0.3 * i, label=label)
                tips.append(tip)
            for i, tip in enumerate(tips):
                ax.plot([tip[0]], [tip[1]], "o", color=CYCLE[1 + i], markersize=3.5)
            ax.set_aspect("equal")
            ax.set_xlim(-1.15, 1.15)
            ax.set_ylim(-1.15, 1.15)
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
            for spine in ax.spines.values():
                spine.set_visible(False)
            ax.set_title(text(lang, en=f"position {p}", zh=f"位置 {p}"), fontsize=size + 1)
        fig.legend(
            loc="outside lower center",
            ncols=legend_cols,
            fontsize=size,
            title=text(lang, en="hand i turns w_i radians per position", zh="第 i 根指针每个位置转 w_i 弧度"),
            title_fontsize=size,
        )
    return fig
