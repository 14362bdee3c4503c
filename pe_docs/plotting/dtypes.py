"""Figure: error of the table against float64 as position grows, one curve per dtype recipe."""

from __future__ import annotations

import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_int
from pe_docs.dtypes import RECIPES, log_spaced_positions, recipe_error, running_max
from pe_docs.plotting._style import Lang, Theme, check_lang_theme, new_figure, text, themed

_LABELS = {
    "float32-phase": ("float32, phase in float32 (tutorials)", "float32，相位用 float32 算（常见教程）"),
    "float32-exact": ("float32, exact phase (pe_docs)", "float32，精确相位（pe_docs）"),
    "bfloat16-recomputed": ("bfloat16, recomputed in bfloat16", "bfloat16，在 bfloat16 中重算"),
    "float16-recomputed": ("float16, recomputed in float16", "float16，在 float16 中重算"),
    "bfloat16-cast": ("bfloat16, cast from an exact table", "bfloat16，由精确表转换"),
    "float16-cast": ("float16, cast from an exact table", "float16，由精确表转换"),
}


def plot_dtype_error(
    max_position: int = 10**6, d_model: int = 512, *, lang: Lang = "en", theme: Theme = "light"
) -> Figure:
    """Largest error over positions ``<= p`` (log–log) for every recipe in :data:`pe_docs.dtypes.RECIPES`.

    Errors are evaluated at log-spaced positions; where float16 phases overflow the curve ends (NaN),
    marked with a cross.
    """
    lang, theme = check_lang_theme(lang, theme)
    max_position = check_int("max_position", max_position, minimum=10)
    positions = log_spaced_positions(max_position, per_decade=60)
    with themed(lang, theme):
        fig, ax = new_figure(7.0, 4.2)
        for recipe in RECIPES:
            err = running_max(recipe_error(recipe, positions, d_model))
            label = text(lang, en=_LABELS[recipe][0], zh=_LABELS[recipe][1])
            style = "--" if recipe.endswith("-cast") or recipe == "float32-exact" else "-"
            (line,) = ax.plot(
                positions.numpy(), err.clamp_min(1e-9).numpy(), style, label=label, linewidth=1.6
            )
            nan = torch.isnan(err)
            if nan.any():
                first = int(torch.nonzero(nan)[0])
                ax.plot(positions[first].item(), 2.0, "x", color=line.get_color(), markersize=9, mew=2)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(1e-9, 10)
        ax.set_xlim(1, max_position)
        ax.set_xlabel(text(lang, en="position p", zh="位置 p"))
        ax.set_ylabel(text(lang, en="max |error| over positions ≤ p", zh="位置 ≤ p 的最大绝对误差"))
        ax.set_title(
            text(
                lang,
                en=f"Table error against float64, d_model = {d_model} (× = NaN from here on)",
                zh=f"编码表相对 float64 的误差，d_model = {d_model}（× 处起为 NaN）",
            )
        )
        ax.legend(fontsize=8, loc="upper left", ncols=2)
    return fig
