"""Figures of the encoding table itself: the heatmap, a few columns as waveforms, and why a sine needs its cosine."""

from __future__ import annotations

import math
from collections.abc import Sequence

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
    text,
    themed,
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

    Left, two hands on the unit circle at the angles ``theta`` and ``π − theta``: their tips are at the same
    height, the same sine (a dashed line), one rising and one falling. Right, both turned counter-clockwise by
    ``turn``: their sines differ (a dashed line at each tip's height). So the sine ``turn`` later is not a
    function of the sine now. Each panel draws the circle, then the two hands (from the centre to the tip), then
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
                ax.plot([0.0, math.cos(angle)], [0.0, math.sin(angle)], color=colour, linewidth=2.2)
            for angle, colour, name in zip(angles, CYCLE[:2], names, strict=True):
                x, y = math.cos(angle), math.sin(angle)
                ax.plot([-1.2, 1.2], [y, y], color=colour, linestyle="--", linewidth=0.9)
                ax.annotate(  # outside the circle, in the direction of the tip
                    f"{name}\nsin = {y:.2f}".replace("-", "−"),
                    (x, y),
                    textcoords="offset points",
                    xytext=(8 * x, 8 * y),
                    ha="left" if x > 0.2 else "right" if x < -0.2 else "center",
                    va="bottom" if y >= 0 else "top",
                    fontsize=9,
                    color=colour,
                )
            ax.set_aspect("equal")
            ax.set_xlim(-1.45, 1.45)
            ax.set_ylim(-1.45, 1.45)
            ax.set_title(title, fontsize=10)
            ax.set_xticks([])  # the labels give the heights; ticks would crowd them
            ax.set_yticks([])
            ax.set_xlabel("cos")
            ax.set_ylabel("sin")
    return fig
