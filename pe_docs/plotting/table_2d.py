"""The figure of the code page's 2-D table: its layout, and what its dot products see of two patches."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_int
from pe_docs.encoding_2d import sinusoidal_table_2d
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


def plot_table_2d(
    grid: int = 14,
    d_model: int = 768,
    patch: Sequence[int] = (4, 9),
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Two panels: ``sinusoidal_table_2d(grid, grid, d_model)`` itself, and the cosine similarity of one patch.

    Left: the table, one row per patch (row-major: grid row ``r``, column ``c`` is table row ``r · grid + c``),
    one column per dimension, colour scale −1 … 1. Right: the cosine similarity of every patch's row with the
    row of ``patch`` = ``(r, c)``, drawn on the ``grid × grid`` layout of the patches. The table is computed in
    float64, without a class token.

    Args:
        grid: Patches per side; an integer >= 2.
        d_model: Embedding width; a positive multiple of 4.
        patch: ``(row, column)`` of the reference patch, each in ``0 … grid − 1``.
        layout: ``"wide"`` (the panels side by side) or ``"narrow"`` (one above the other).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with four axes: the two panels and their colour bars.

    Raises:
        TypeError: ``grid``, ``d_model`` or an entry of ``patch`` is not an integer.
        ValueError: ``grid < 2``, ``d_model`` not a positive multiple of 4, ``patch`` not two indices inside the
            grid, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_table_2d(grid=4, d_model=16, patch=(1, 2))
        >>> len(fig.axes)
        4
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    grid = check_int("grid", grid, minimum=2)
    patch = check_indices("patch", patch, what="patch index", minimum=0, below=grid, below_text=f"grid={grid}")
    if len(patch) != 2:
        raise ValueError(f"patch must be (row, column), got {len(patch)} indices")
    table = sinusoidal_table_2d(grid, grid, d_model, dtype=torch.float64)
    row, column = patch
    unit = table / table.norm(dim=1, keepdim=True)
    similarity = (unit @ unit[row * grid + column]).reshape(grid, grid)
    with themed(lang, theme, layout):
        if wide:
            fig, (left, right) = new_figure(7.6, 3.9, ncols=2, gridspec_kw={"width_ratios": [1.25, 1]})
        else:
            fig, (left, right) = new_figure(NARROW_WIDTH, 6.8, nrows=2)
        im = left.imshow(table.numpy(), cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
        left.grid(False)
        q = table.shape[1] // 4
        left.set_xticks([0, q, 2 * q, 3 * q])
        left.set_xticklabels(["sin x", "cos x", "sin y", "cos y"], fontsize=8, ha="left")
        left.set_xlabel(
            text(lang, en="dimension (x: column index, y: row index)", zh="维度（x：列号，y：行号）"), wrap=not wide
        )
        left.set_ylabel(text(lang, en="patch r · grid + c", zh="图块 r · grid + c"))
        left.set_title(
            text(lang, en=f"The table, {grid}×{grid} patches", zh=f"编码表，{grid}×{grid} 个图块"), fontsize=10
        )
        fig.colorbar(im, ax=left, shrink=0.8)
        sim = right.imshow(similarity.numpy(), cmap="viridis", interpolation="nearest")
        right.grid(False)
        right.plot([column], [row], marker="+", color="white", markersize=10, markeredgewidth=2)
        right.set_xlabel(text(lang, en="column c", zh="列 c"))
        right.set_ylabel(text(lang, en="row r", zh="行 r"))
        right.set_title(
            text(lang, en=f"Cosine similarity to ({row}, {column})", zh=f"与 ({row}, {column}) 的余弦相似度"),
            fontsize=10,
        )
        fig.colorbar(sim, ax=right, shrink=0.8)
    return fig
