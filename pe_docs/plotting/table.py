"""Figures of the encoding table itself: the heatmap, a few columns as waveforms, why a sine needs its cosine, and
why a step that keeps lengths must turn."""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib
import numpy as np
import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_d_model, check_int, check_real
from pe_docs.encoding import sinusoidal_table
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
    outward,
    text,
    themed,
    unit_circle,
)


def plot_heatmap(
    max_len: int = 100, d_model: int = 128, *, layout: Layout = "wide", lang: Lang = "en", theme: Theme = "light"
) -> Figure:
    """Heatmap of ``sinusoidal_table(max_len, d_model)``: positions down, dimensions across.

    The table is computed in float64; the colour scale runs from −1 (blue) to 1 (red).

    Args:
        max_len: Number of positions (rows); an integer >= 1.
        d_model: Width of the table (columns); a positive even integer.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the colour bar below, the title on two lines).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with two axes: the heatmap and its colour bar.

    Raises:
        TypeError: ``max_len`` or ``d_model`` is not an integer.
        ValueError: ``max_len < 1``, ``d_model`` not positive and even, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_heatmap(max_len=10, d_model=8)
        >>> len(fig.axes)
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    table = sinusoidal_table(max_len, d, dtype=torch.float64).numpy()
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 4.2) if wide else new_figure(NARROW_WIDTH, 4.0)
        im = ax.imshow(table, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
        ax.grid(False)
        ax.set_xlabel(text(lang, en="dimension  j", zh="列  j"))
        ax.set_ylabel(text(lang, en="position  pos", zh="位置  pos"))
        br = "" if wide else "\n"
        ax.set_title(
            text(
                lang,
                en=f"Sinusoidal encoding,{br or ' '}max_len = {max_len}, d_model = {d}",
                zh=f"正弦位置编码表，{br}max_len = {max_len}，d_model = {d}",
            )
        )
        if wide:
            fig.colorbar(im, ax=ax, shrink=0.9)
        else:
            fig.colorbar(im, ax=ax, location="bottom", aspect=30)
    return fig


def plot_waveforms(
    max_len: int = 100,
    d_model: int = 128,
    dims: Sequence[int] = (0, 10, 50, 100),
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Columns ``dims`` of the table plotted against position: low dimensions oscillate fastest.

    Even columns are sines, odd columns cosines; the legend says which.

    Args:
        max_len: Number of positions on the x axis; an integer >= 1.
        d_model: Width of the table; a positive even integer.
        dims: Column indices to draw, each an integer in ``0 … d_model − 1``; at least one.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the legend in two columns).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes holding one line per entry of ``dims``.

    Raises:
        TypeError: ``max_len``, ``d_model`` or an entry ``dims[n]`` is not an integer, or ``dims`` is not
            a sequence.
        ValueError: ``dims`` is empty or has an entry outside ``0 … d_model − 1``, ``max_len < 1``,
            ``d_model`` not positive and even, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_waveforms(max_len=20, d_model=8, dims=(0, 7))
        >>> len(fig.axes[0].get_lines())
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    dims = check_indices("dims", dims, what="column index", minimum=0, below=d, below_text=f"d_model={d}")
    table = sinusoidal_table(max_len, d, dtype=torch.float64)
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 3.4) if wide else new_figure(NARROW_WIDTH, 3.4)
        positions = torch.arange(max_len).numpy()
        for j in dims:
            kind = "sin" if j % 2 == 0 else "cos"
            ax.plot(positions, table[:, j].numpy(), label=f"j = {j} ({kind})", linewidth=1.6)
        ax.set_xlabel(text(lang, en="position  pos", zh="位置  pos"))
        ax.set_ylabel("PE[pos, j]")
        ax.set_ylim(-1.15, 1.15)
        fig.legend(loc="outside lower center", ncols=min(len(dims), 6 if wide else 2), fontsize=9)
        ax.set_title(text(lang, en="A few columns of the table", zh="编码表的几列"))
    return fig


def plot_sine_alone(
    theta: float = 0.6,
    turn: float = 1.4,
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Why a sine alone cannot be moved: two hands with the same sine, before and after the same turn.

    The hands are start here's: angle ``a`` clockwise from twelve o'clock, tip at ``(x, y) = (sin a, cos a)``.
    Left, two hands on the unit circle at the angles ``theta`` and ``π − theta``: their tips are the same distance
    across, the same sine (a dashed line), one sine growing and one shrinking. Right, both turned clockwise by ``turn``:
    their sines differ (a dashed line through each tip). So the sine ``turn`` later is not a function of the sine
    now. Each panel draws the circle, then the two hands (from the centre to the tip), then
    the dashed heights, in that order.

    Args:
        theta: The first hand's angle in radians; a real number with ``0 < theta < π/2``.
        turn: The angle both hands turn by, in radians; a real number with ``0 < turn < π``.
        layout: ``"wide"`` (the panels side by side) or ``"narrow"`` (one above the other).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with two axes: before and after the turn.

    Raises:
        TypeError: ``theta`` or ``turn`` is not a real number.
        ValueError: ``theta`` or ``turn`` is out of its range or not finite, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_sine_alone()
        >>> len(fig.axes)
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    theta = check_real("theta", theta, minimum=0.0, maximum=math.pi / 2, open_minimum=True)
    if theta == math.pi / 2:
        raise ValueError(f"theta must be < π/2, got {theta!r}: at π/2 the two hands are one")
    turn = check_real("turn", turn, minimum=0.0, maximum=math.pi, open_minimum=True)
    if turn == math.pi:
        raise ValueError(f"turn must be < π, got {turn!r}: a half turn keeps the two sines equal")
    circle = np.linspace(0, 2 * np.pi, 200)
    panels = [
        ((theta, math.pi - theta), text(lang, en="Same sine now", zh="现在：正弦相同"), ("θ", "π − θ")),
        (
            (theta + turn, math.pi - theta + turn),
            text(lang, en="Both turned by φ: different sines", zh="都转过 φ 后：正弦不同"),
            ("θ + φ", "π − θ + φ"),
        ),
    ]
    with themed(lang, theme, layout):
        if wide:
            fig, axes = new_figure(6.4, 3.3, ncols=2)
        else:
            fig, axes = new_figure(NARROW_WIDTH, 6.2, nrows=2)
        for ax, (angles, title, names) in zip(axes, panels, strict=True):
            ax.plot(np.cos(circle), np.sin(circle), color="0.5", linewidth=0.8)
            for angle, colour in zip(angles, CYCLE[:2], strict=True):
                ax.plot([0.0, math.sin(angle)], [0.0, math.cos(angle)], color=colour, linewidth=2.2)
            for angle, colour, name in zip(angles, CYCLE[:2], names, strict=True):
                x, y = math.sin(angle), math.cos(angle)
                ax.plot([x, x], [-1.2, 1.2], color=colour, linestyle="--", linewidth=0.9)
                ax.annotate(  # outside the circle, in the direction of the tip
                    f"{name}\nsin = {x:.2f}".replace("-", "−"),
                    (x, y),
                    textcoords="offset points",
                    xytext=(8 * x, 8 * y),
                    ha="left" if x > 0.2 else "right" if x < -0.2 else "center",
                    va="bottom" if y >= 0 else "top",
                    fontsize=9,
                    color=colour,
                )
            ax.set_aspect("equal")
            ax.set_xlim(-2.1, 2.1)  # wide enough for the labels beside the tips, inside the frame
            ax.set_ylim(-1.6, 1.6)
            ax.set_title(title, fontsize=10)
            ax.set_xticks([])  # the labels give the sines; ticks would crowd them
            ax.set_yticks([])
            ax.set_xlabel("sin")
            ax.set_ylabel("cos")
    return fig


def plot_step_walks(
    stretch: float = 1.08,
    turn: float = 0.3,
    steps: int = 20,
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Why one fixed step that keeps lengths is a turn: the walks of three 2×2 step matrices in the plane.

    Each panel starts at the table's position 0, ``(sin 0, cos 0) = (0, 1)``, and applies one fixed matrix
    ``M = s · [[cos turn, sin turn], [−sin turn, cos turn]]`` (the sine-first turn, start here §5) ``steps`` times,
    ``v_{p+1} = M v_p``, with ``s = stretch`` (the walk spirals out), ``s = 1 / stretch`` (it spirals in) and
    ``s = 1`` (it stays on the unit circle: the points are ``(sin p·turn, cos p·turn)``, a row of the table). Each
    point is drawn at ``(x, y) = (sin, cos)``, as the clock hands are (from twelve o'clock, clockwise), coloured by
    its position ``p``; the unit circle is drawn in every panel for scale.

    Args:
        stretch: How much the first walk's step stretches; a real number with ``1 < stretch <= 2``.
        turn: The angle each step turns by, in radians; a real number with ``0 < turn < π``.
        steps: Number of steps; an integer with ``2 <= steps <= 100``.
        layout: ``"wide"`` (the panels in a row) or ``"narrow"`` (two panels a row, larger labels).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with three axes: stretching, shrinking, turning only.

    Raises:
        TypeError: ``stretch`` or ``turn`` is not a real number, or ``steps`` not an integer.
        ValueError: an argument is out of its range or not finite, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_step_walks(stretch=1.1, steps=8)
        >>> len(fig.axes)
        3
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    stretch = check_real("stretch", stretch, minimum=1.0, maximum=2.0, open_minimum=True)
    turn = check_real("turn", turn, minimum=0.0, maximum=math.pi, open_minimum=True)
    if turn == math.pi:
        raise ValueError(f"turn must be < π, got {turn!r}: a half turn only flips the point")
    n = check_int("steps", steps, minimum=2)
    if n > 100:
        raise ValueError(f"steps must be <= 100, got {steps!r}")
    c, s = math.cos(turn), math.sin(turn)
    panels = [
        (stretch, text(lang, en=f"×{stretch:.2f} a step: runs away", zh=f"每步 ×{stretch:.2f}：越走越远")),
        (1 / stretch, text(lang, en=f"×{1 / stretch:.2f} a step: fades", zh=f"每步 ×{1 / stretch:.2f}：趋于 0")),
        (1.0, text(lang, en="turns only: stays on the circle", zh="只旋转：一直在圆上")),
    ]
    colours = matplotlib.colormaps["viridis"](np.linspace(0, 1, n + 1))
    with themed(lang, theme, layout):
        if wide:
            fig, axes = new_figure(8.4, 3.4, ncols=3)
        else:
            fig, axes = new_panels(NARROW_WIDTH, 4.6, 3, 2)
        for ax, (scale, title) in zip(axes, panels, strict=True):
            step = scale * np.array([[c, s], [-s, c]])  # sine first: (sin, cos) -> (sin, cos) turned
            walk = [np.array([0.0, 1.0])]  # position 0: (sin 0, cos 0)
            for _ in range(n):
                walk.append(step @ walk[-1])
            xs, ys = np.stack(walk).T  # x = sin, y = cos
            unit_circle(ax)
            ax.plot(xs, ys, color=CYCLE[1], linewidth=0.6, alpha=0.5)
            ax.scatter(xs, ys, c=colours, s=18 if wide else 14, zorder=3)
            for p in (0, n):  # a label stands outside its point, away from the centre
                x, y = np.array([xs[p], ys[p]]) / np.hypot(xs[p], ys[p])
                ha, va = outward(x, y)
                if p == n and np.hypot(xs[n] - xs[0], ys[n] - ys[0]) < 0.6:  # back near p = 0: beside it, left
                    x, y, ha, va = -1.0, 0.0, "right", "center"
                ax.annotate(
                    f"p={p}",
                    (xs[p], ys[p]),
                    textcoords="offset points",
                    xytext=(6 * x, 6 * y),
                    ha=ha,
                    va=va,
                    fontsize=8 if wide else 9,
                )
            reach = 1.8 * max(1.0, float(np.hypot(xs, ys).max()))  # room for the p= labels
            ax.set_aspect("equal")
            ax.set_xlim(-reach, reach)
            ax.set_ylim(-reach, reach)
            ax.set_title(title, fontsize=10)
            ax.set_xticks([])  # the unit circle gives the scale; tick labels would crowd the p= labels
            ax.set_yticks([])
    return fig
