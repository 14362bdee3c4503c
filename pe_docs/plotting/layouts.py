"""Figure for the variants page: one table in two column layouts, and what another spacing changes."""

from __future__ import annotations

import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_d_model, check_int
from pe_docs.encoding import sinusoidal_table
from pe_docs.plotting._style import (
    NARROW_WIDTH,
    Lang,
    Layout,
    Theme,
    check_lang_theme,
    check_layout,
    new_figure,
    text,
    themed,
)
from pe_docs.variants import tensor2tensor_table


def plot_variant_tables(
    max_len: int = 100, d_model: int = 64, *, layout: Layout = "wide", lang: Lang = "en", theme: Theme = "light"
) -> Figure:
    """Three heatmaps: the paper's table interleaved, the same numbers as ``[sin | cos]``, and the spacing gap.

    Positions run down and columns across, all in float64. The first panel is ``sinusoidal_table`` in the
    paper's interleaved layout, the second the same table in the ``[sin | cos]`` layout (the same numbers, the
    columns permuted), both on the colour scale −1 … 1. The third is tensor2tensor's ``[sin | cos]`` table
    (``pe_docs.variants.tensor2tensor_table``: spacing ``w_i = 10000^(−i/(d/2 − 1))``) minus the second panel, on a
    scale symmetric about 0 that reaches the largest difference: zero in row 0, growing with the position.

    Args:
        max_len: Number of positions (rows); an integer >= 2.
        d_model: Width of the tables (columns); a positive even integer >= 4 (tensor2tensor's spacing
            divides by ``d_model / 2 − 1``).
        layout: ``"wide"`` (the panels side by side) or ``"narrow"`` (one above the other).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with five axes: the three heatmaps, in the order above, then the colour
        bar of the two tables and the colour bar of the difference.

    Raises:
        TypeError: ``max_len`` or ``d_model`` is not an integer.
        ValueError: ``max_len < 2``, ``d_model`` not positive and even or below 4, or a bad
            ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_variant_tables(max_len=10, d_model=8)
        >>> len(fig.axes)
        5
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    max_len = check_int("max_len", max_len, minimum=2)
    d = check_d_model(d_model)
    if d < 4:
        raise ValueError(f"d_model must be >= 4 (tensor2tensor's spacing divides by d_model/2 - 1), got {d}")
    interleaved = sinusoidal_table(max_len, d, dtype=torch.float64)
    concat = sinusoidal_table(max_len, d, layout="concat", dtype=torch.float64)
    gap = tensor2tensor_table(max_len, d, dtype=torch.float64) - concat
    largest = float(gap.abs().max())
    with themed(lang, theme, layout):
        fig, axes = new_figure(9.0, 3.9, ncols=3) if wide else new_figure(NARROW_WIDTH, 7.2, nrows=3)
        panels = (
            (interleaved, text(lang, en="paper, interleaved", zh="论文的表，交错布局"), 1.0),
            (
                concat,
                text(
                    lang,
                    en="paper, [sin | cos]\n(same numbers, columns permuted)",
                    zh="论文的表，[sin | cos]\n（同样的数，列序不同）",
                ),
                1.0,
            ),
            (
                gap,
                text(
                    lang,
                    en="tensor2tensor spacing − paper\n(both [sin | cos])",
                    zh="tensor2tensor 间隔 − 论文\n（都是 [sin | cos]）",
                ),
                largest,
            ),
        )
        images = []
        for ax, (values, title, limit) in zip(axes, panels, strict=True):
            images.append(
                ax.imshow(
                    values.numpy(), cmap="RdBu_r", vmin=-limit, vmax=limit, aspect="auto", interpolation="nearest"
                )
            )
            ax.grid(False)
            ax.set_title(title, fontsize=10)
            ax.set_xlabel(text(lang, en="column", zh="列"))
        for ax in axes[:1] if wide else axes:
            ax.set_ylabel(text(lang, en="position", zh="位置"))
        fig.colorbar(images[0], ax=list(axes[:2]), shrink=0.85)
        fig.colorbar(images[2], ax=axes[2], shrink=0.85)
    return fig
