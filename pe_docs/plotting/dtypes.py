"""Figure: error of the table against float64 as position grows, one curve per dtype recipe."""

from __future__ import annotations

import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_d_model, check_int
from pe_docs.analysis.dtypes import RECIPES, log_spaced_positions, recipe_error, running_max
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
    wrapped,
)

# The "-cast" recipes are the float64 table cast to the dtype (pe_docs.analysis.exact_rows; PyTorch goes through
# float32 for bfloat16 and float16, so those are rounded twice), not
# the output of pe_docs.sinusoidal_table: its float32 table is built by the relative transform, with entries
# within 2.5e-7 of the true values but not equal to the once-rounded ones.
_LABELS = {
    "float32-phase": ("float32, phase in float32 (tutorials)", "float32，相位用 float32 算（常见教程）"),
    "float32-cast": ("float32, phase in float64 (rounded once)", "float32，相位在 float64 中计算（只舍入一次）"),
    "bfloat16-recomputed": ("bfloat16, recomputed in bfloat16", "bfloat16，在 bfloat16 中重算"),
    "float16-recomputed": ("float16, recomputed in float16", "float16，在 float16 中重算"),
    "bfloat16-cast": (
        "bfloat16, float64 table rounded once to float32, then to bfloat16",
        "bfloat16，float64 表只舍入一次成 float32，再转成 bfloat16",
    ),
    "float16-cast": (
        "float16, float64 table rounded once to float32, then to float16",
        "float16，float64 表只舍入一次成 float32，再转成 float16",
    ),
}


def plot_dtype_error(
    max_position: int = 10**6, d_model: int = 512, *, layout: Layout = "wide", lang: Lang = "en", theme: Theme = "light"
) -> Figure:
    """Largest error over positions ``<= p`` (log–log) for every recipe in ``pe_docs.analysis.dtypes.RECIPES``.

    Errors against the float64 table are evaluated at log-spaced positions
    (``pe_docs.analysis.dtypes.log_spaced_positions``, 60 per decade); where float16 phases overflow the curve
    ends (NaN), marked with a cross. The dashed curves are the float64 table cast to the dtype
    (``pe_docs.analysis.numerics.exact_rows`` cast). ``pe_docs.sinusoidal_table``'s own float32 table is built
    by the relative transform instead: its entries are within ``2.5e-7`` of the true values, not equal to the
    once-rounded ones plotted here. Errors below ``1e-9`` are drawn at ``1e-9``.

    Args:
        max_position: Largest position on the x axis; an integer >= 10.
        d_model: Width of the table; a positive even integer.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the legend in one column, its lines wrapped).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes holding one line per recipe.

    Raises:
        TypeError: ``max_position`` or ``d_model`` is not an integer.
        ValueError: ``max_position < 10``, ``d_model`` not positive and even, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> from pe_docs.analysis.dtypes import RECIPES
        >>> fig = plot_dtype_error(max_position=100, d_model=8)
        >>> len(fig.legends[0].get_texts()) == len(RECIPES)
        True
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    max_position = check_int("max_position", max_position, minimum=10)
    d_model = check_d_model(d_model)
    positions = log_spaced_positions(max_position, per_decade=60)
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 4.8) if wide else new_figure(NARROW_WIDTH, 5.6)
        for recipe in RECIPES:
            err = running_max(recipe_error(recipe, positions, d_model))
            label = text(lang, en=_LABELS[recipe][0], zh=_LABELS[recipe][1])
            style = "--" if recipe.endswith("-cast") else "-"
            (line,) = ax.plot(positions.numpy(), err.clamp_min(1e-9).numpy(), style, label=label, linewidth=1.6)
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
        br = "" if wide else "\n"
        ax.set_title(
            text(
                lang,
                en=f"Table error against float64, d_model = {d_model}{br or ' '}(× = NaN from here on)",
                zh=f"编码表相对 float64 的误差，d_model = {d_model}{br}（× 处起为 NaN）",
            ),
            fontsize=10,
        )
        # below the axes: the curves fill the upper left, where a legend inside would cover them
        legend = fig.legend(loc="outside lower center", fontsize=8, ncols=2 if wide else 1)
        if not wide:  # a phone's width: a long label on two lines
            for entry in legend.get_texts():
                entry.set_text(wrapped(entry.get_text(), 44))
    return fig
