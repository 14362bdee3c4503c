"""Figures of the encoding table itself: the heatmap and a few columns as waveforms."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_d_model, check_int
from pe_docs.encoding import sinusoidal_table
from pe_docs.plotting._style import (
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
