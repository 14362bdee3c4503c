"""Figures of the encoding table itself: the heatmap and a few columns as waveforms."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_int
from pe_docs.encoding import sinusoidal_table
from pe_docs.plotting._style import Lang, Theme, check_lang_theme, new_figure, text, themed


def plot_heatmap(
    max_len: int = 100, d_model: int = 128, *, lang: Lang = "en", theme: Theme = "light"
) -> Figure:
    """Heatmap of ``sinusoidal_table(max_len, d_model)``: positions down, dimensions across."""
    lang, theme = check_lang_theme(lang, theme)
    table = sinusoidal_table(max_len, d_model, dtype=torch.float64).numpy()
    with themed(lang, theme):
        fig, ax = new_figure(7.0, 4.2)
        im = ax.imshow(table, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
        ax.grid(False)
        ax.set_xlabel(text(lang, en="dimension  j", zh="维度  j"))
        ax.set_ylabel(text(lang, en="position  pos", zh="位置  pos"))
        ax.set_title(
            text(
                lang,
                en=f"Sinusoidal encoding, max_len = {max_len}, d_model = {d_model}",
                zh=f"正弦位置编码表，max_len = {max_len}，d_model = {d_model}",
            )
        )
        fig.colorbar(im, ax=ax, shrink=0.9)
    return fig


def plot_waveforms(
    max_len: int = 100,
    d_model: int = 128,
    dims: Sequence[int] = (0, 10, 50, 100),
    *,
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Columns ``dims`` of the table plotted against position: low dimensions oscillate fastest."""
    lang, theme = check_lang_theme(lang, theme)
    table = sinusoidal_table(max_len, d_model, dtype=torch.float64)
    for j in dims:
        check_int("dims[...]", j, minimum=0)
        if j >= d_model:
            raise ValueError(f"dims must be < d_model={d_model}, got {j}")
    with themed(lang, theme):
        fig, ax = new_figure(7.0, 3.4)
        positions = torch.arange(max_len).numpy()
        for j in dims:
            kind = "sin" if j % 2 == 0 else "cos"
            ax.plot(positions, table[:, j].numpy(), label=f"j = {j} ({kind})", linewidth=1.6)
        ax.set_xlabel(text(lang, en="position  pos", zh="位置  pos"))
        ax.set_ylabel("PE[pos, j]")
        ax.set_ylim(-1.15, 1.15)
        fig.legend(loc="outside lower center", ncols=len(dims), fontsize=9)
        ax.set_title(text(lang, en="A few columns of the table", zh="编码表的几列"))
    return fig
