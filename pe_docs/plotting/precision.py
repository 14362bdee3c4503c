"""Figures of floating-point accuracy: frequency errors in ulps, and table error against position."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_d_model, check_float_dtype, check_int
from pe_docs.analysis.dtypes import log_spaced_positions
from pe_docs.analysis.numerics import exact_rows, reference_frequencies, row_errors, ulp_error
from pe_docs.frequencies import FrequencyMethod, inverse_frequencies
from pe_docs.plotting._style import (
    NARROW_WIDTH,
    Lang,
    Layout,
    Theme,
    check_lang_theme,
    check_layout,
    legend,
    new_figure,
    text,
    themed,
)


def plot_frequency_ulps(
    d_model: int = 512,
    *,
    dtypes: Sequence[torch.dtype] = (torch.float32, torch.float64),
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Error of each frequency ``w_i`` in ulps, ``pow`` against ``log`` (reference: mpmath, 60 digits).

    One panel per dtype; each panel shows both methods of ``pe_docs.inverse_frequencies`` and gives
    their largest error in the legend.

    Args:
        d_model: Width of the encoding (``d_model // 2`` frequencies); a positive even integer.
        dtypes: Floating-point dtypes to compute the frequencies in, one panel each; at least one.
        layout: ``"wide"`` (the panels side by side) or ``"narrow"`` (one above the other).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes per entry of ``dtypes`` (sharing the y axis).

    Raises:
        TypeError: ``d_model`` is not an integer, ``dtypes`` is not a sequence, or an entry ``dtypes[n]``
            is not a floating-point ``torch.dtype``.
        ValueError: ``d_model`` not positive and even, ``dtypes`` is empty, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_frequency_ulps(16, dtypes=(torch.float32,))
        >>> len(fig.axes)
        1
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    if isinstance(dtypes, torch.dtype) or not isinstance(dtypes, Sequence):
        raise TypeError(f"dtypes must be a sequence of torch dtypes, got {dtypes!r}")
    dtypes = [check_float_dtype(dt, f"dtypes[{n}]") for n, dt in enumerate(dtypes)]
    if not dtypes:
        raise ValueError("dtypes must contain at least one dtype, got an empty sequence")
    ref = reference_frequencies(d)
    i = torch.arange(d // 2).numpy()
    with themed(lang, theme, layout):
        if wide:
            fig, grid = new_figure(7.4, 3.4, ncols=len(dtypes), sharey=True, squeeze=False)
        else:
            fig, grid = new_figure(NARROW_WIDTH, 2.5 * len(dtypes), nrows=len(dtypes), sharey=True, squeeze=False)
        axes = list(grid.flat)
        markers: tuple[tuple[FrequencyMethod, str], ...] = (("log", "."), ("pow", "x"))
        for ax, dtype in zip(axes, dtypes, strict=True):
            for method, marker in markers:
                err = ulp_error(inverse_frequencies(d, method=method, dtype=dtype), ref)
                label = f"{method}: max {err.max().item():.1f} ulp"
                ax.plot(i, err.numpy(), marker, markersize=3, label=label)
            ax.set_title(f"{str(dtype).removeprefix('torch.')}, d = {d}", fontsize=10)
            ax.set_xlabel(text(lang, en="frequency index  i", zh="频率序号  i"))
            ax.legend(loc="upper left", fontsize=8)
        for ax in axes[:1] if wide else axes:
            ax.set_ylabel(text(lang, en="error of w_i (ulps)", zh="w_i 的误差（ulp）"))
    return fig


def plot_log_trick_error(
    d_model: int = 512,
    max_position: int = 10**6,
    per_decade: int = 27,
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Largest error of a table row against position, on log–log axes.

    Three curves: float32 rows built with ``pow`` and with ``log`` frequencies (phase ``p·w`` in float32),
    and the float64 table rounded once to float32 (phase in float64). The last is
    ``pe_docs.analysis.numerics.exact_rows`` cast, not the output of ``pe_docs.sinusoidal_table``, whose float32
    table is built by the relative transform and is within ``2.5e-7`` of the true values. Errors are
    measured against the float64 rows at ``pe_docs.analysis.dtypes.log_spaced_positions``; errors below ``1e-9``
    are drawn at ``1e-9``.

    Args:
        d_model: Width of the table; a positive even integer.
        max_position: Largest position on the x axis; an integer >= 10.
        per_decade: Number of log-spaced positions per decade; an integer >= 1.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the legend below the axes).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes holding the three curves.

    Raises:
        TypeError: ``d_model``, ``max_position`` or ``per_decade`` is not an integer.
        ValueError: ``d_model`` not positive and even, ``max_position < 10``, ``per_decade < 1``, or a bad
            ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_log_trick_error(16, max_position=1000, per_decade=3)
        >>> len(fig.axes[0].get_lines())
        3
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    max_position = check_int("max_position", max_position, minimum=10)
    per_decade = check_int("per_decade", per_decade, minimum=1)
    pos = log_spaced_positions(max_position, per_decade=per_decade)
    exact = exact_rows(pos, d)
    cast_err = (exact.float().double() - exact).abs().amax(dim=1)
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 3.6) if wide else new_figure(NARROW_WIDTH, 4.4)
        styles: tuple[tuple[FrequencyMethod, str], ...] = (("pow", "-"), ("log", "--"))
        for method, style in styles:
            err = row_errors(pos, d, method=method)
            ax.plot(
                pos.numpy(),
                err.clamp_min(1e-9).numpy(),
                style,
                linewidth=1.5,
                label=text(
                    lang,
                    en=f"float32, {method} frequencies, phase in float32",
                    zh=f"float32，{method} 频率，相位在 float32 中计算",
                ),
            )
        ax.plot(
            pos.numpy(),
            cast_err.clamp_min(1e-9).numpy(),
            linewidth=1.5,
            label=text(
                lang, en="float32, phase in float64 (rounded once)", zh="float32，相位在 float64 中计算（只舍入一次）"
            ),
        )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(text(lang, en="position  p", zh="位置  p"))
        ax.set_ylabel(text(lang, en="max |error| of row p", zh="第 p 行最大绝对误差"))
        ax.set_title(
            text(lang, en=f"Table error against position, d = {d}", zh=f"编码表误差随位置的变化，d = {d}"),
            wrap=not wide,
        )
        legend(fig, ax, wide=wide, loc="upper left")
    return fig
