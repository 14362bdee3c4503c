"""Figure of why rows never repeat: pair 0 turns by one radian per position and never comes back exactly."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from pe_docs._checks import check_int
from pe_docs.analysis.uniqueness import closest_returns
from pe_docs.plotting._style import (
    CYCLE,
    NARROW_WIDTH,
    Lang,
    Layout,
    Theme,
    check_lang_theme,
    check_layout,
    grouped,
    new_figure,
    text,
    themed,
    unit_circle,
)

_FLOAT32_SPACING = 2.0**-24  # spacing of float32 numbers in [0.5, 1)
_FLOAT32_EXACT = 2**24  # the last integer up to which float32 holds every integer


def plot_closest_returns(
    positions: int = 45,
    max_offset: int = 2**24,
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Pair 0 of the first positions on the unit circle, and how close it ever comes back to where it started.

    Left: pair 0 of positions ``0 … positions − 1`` at ``(x, y) = (sin p, cos p)`` (``w_0 = 1``: one radian per
    position; the site's clock-hand picture, angle ``p`` clockwise from twelve o'clock), coloured by position;
    the positions after which pair 0 comes back closer to its start than after any smaller offset
    (``pe_docs.analysis.closest_returns``) are labelled, next to position 0. Right: for each of those record offsets
    ``n`` up to ``max_offset``, the distance ``2·|sin(n/2)|`` between pair 0 of two rows ``n`` apart, on log-log
    axes, with the spacing of float32 numbers in ``[0.5, 1)`` (``2⁻²⁴``) and the position ``2²⁴`` from which
    float32 no longer holds every integer.

    Args:
        positions: Number of positions drawn on the circle (``0 … positions − 1``); an integer from 2 to 1000.
        max_offset: Largest record offset shown on the right; an integer from 2 to ``10**15``.
        layout: ``"wide"`` (the panels side by side) or ``"narrow"`` (one above the other, the legend below).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with two axes.

    Raises:
        TypeError: ``positions`` or ``max_offset`` is not an integer.
        ValueError: ``positions`` is outside ``2 … 1000``, ``max_offset`` outside ``2 … 10**15``, or a bad
            ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_closest_returns(positions=20, max_offset=1000)
        >>> len(fig.axes)
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    n = check_int("positions", positions, minimum=2)
    if n > 1000:
        raise ValueError(f"positions must be <= 1000, got {n}")
    top = check_int("max_offset", max_offset, minimum=2)
    if top > 10**15:
        raise ValueError(f"max_offset must be <= 10**15, got {top}")
    records = closest_returns(top)
    p = np.arange(n, dtype=np.float64)
    with themed(lang, theme, layout):
        if wide:
            fig, (left, right) = new_figure(8.2, 4.1, ncols=2, width_ratios=(1, 1.35))
        else:
            fig, (left, right) = new_figure(NARROW_WIDTH, 7.4, nrows=2)
        unit_circle(left)
        colours = matplotlib.colormaps["viridis"](np.linspace(0, 1, n))
        left.scatter(np.sin(p), np.cos(p), c=colours, s=22, zorder=3)
        shown = [0] + [r.offset for r in records if 1 < r.offset < n]
        # the records sit near twelve o'clock with p = 0, left and right of it: their labels stand in a row above
        # the circle, left to right in the order of their points, so that no two links cross (p = 0 inside the
        # circle, below its point), each linked to its point
        rank = {q: j for j, q in enumerate(sorted(shown[1:], key=math.sin))}
        for q in shown:
            place = (0.0, 0.5) if q == 0 else (0.62 * rank[q] - 0.31 * (len(rank) - 1), 1.45)
            left.annotate(
                f"p={q}",
                (np.sin(q), np.cos(q)),
                xytext=place,
                fontsize=8 if wide else 9,
                ha="center",
                va="center",
                arrowprops={"arrowstyle": "-", "linewidth": 0.5, "color": CYCLE[1]},
            )
        left.set_aspect("equal")
        left.set_xlim(-1.3, 1.3)
        left.set_ylim(-1.3, 1.65)
        left.set_xlabel("sin p")
        left.set_ylabel("cos p")
        left.set_title(
            text(
                lang,
                en=f"pair 0, p = 0…{n - 1}: 1 radian per step, clockwise",
                zh=f"位置 0…{n - 1} 的第 0 对：每步顺时针转 1 弧度",
            ),
            fontsize=10,
            wrap=not wide,
        )

        offsets = np.array([r.offset for r in records], dtype=np.float64)
        chords = np.array([r.chord for r in records], dtype=np.float64)
        right.plot(
            offsets,
            chords,
            "o-",
            color=CYCLE[3],
            markersize=4,
            label=text(lang, en="closest return so far (pair 0)", zh="第 0 对迄今最接近起点的一次"),
        )
        right.axhline(
            _FLOAT32_SPACING,
            color=CYCLE[2],
            linestyle="--",
            linewidth=1,
            label=text(lang, en="float32 spacing in [0.5, 1): 2⁻²⁴", zh="[0.5, 1) 内 float32 的间距：2⁻²⁴"),
        )
        right.axvline(
            _FLOAT32_EXACT,
            color=CYCLE[4],
            linestyle=":",
            linewidth=1,
            label=text(
                lang,
                en=f"2²⁴ = {grouped(lang, _FLOAT32_EXACT)}: float32 positions stop being exact",
                zh=f"2²⁴ = {grouped(lang, _FLOAT32_EXACT)}：float32 无法再精确表示位置",
            ),
        )
        right.set_xscale("log")
        right.set_yscale("log")
        right.set_xlabel(text(lang, en="offset n (positions)", zh="偏移 n（位置数）"))
        right.set_ylabel(text(lang, en="distance of pair 0: 2|sin(n/2)|", zh="第 0 对的距离：2|sin(n/2)|"))
        right.set_title(
            text(lang, en="closer than every smaller offset, never 0", zh="比所有更小的偏移都更近，但永远不是 0"),
            fontsize=10,
        )
        right.set_ylim(1e-8, 4)
        # below the axes: inside, the legend would cover the first returns
        fig.legend(fontsize=8, loc="outside lower center", ncols=2 if wide else 1)
        fig.suptitle(
            text(
                lang,
                en="Pair 0 never returns to where it started, but comes ever closer",
                zh="第 0 对永远回不到起点，但可以越来越近",
            ),
            fontsize=11,
            wrap=not wide,
        )
    return fig
