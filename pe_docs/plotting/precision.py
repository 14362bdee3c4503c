"""Figures of floating-point accuracy: frequency errors in ulps, and table error against position."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_d_model, check_int
from pe_docs.frequencies import inverse_frequencies
from pe_docs.numerics import exact_rows, reference_frequencies, row_errors, ulp_error
from pe_docs.plotting._style import Lang, Theme, check_lang_theme, new_figure, text, themed


def plot_frequency_ulps(
    d_model: int = 512,
    *,
    dtypes: Sequence[torch.dtype] = (torch.float32, torch.float64),
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Error of each frequency ``w_i`` in ulps, ``pow`` against ``log`` (reference: mpmath, 60 digits)."""
    lang, theme = check_lang_theme(lang, theme)
    d = check_d_model(d_model)
    ref = reference_frequencies(d)
    i = torch.arange(d // 2).numpy()
    with themed(lang, theme):
        fig, axes = new_figure(7.4, 3.4, ncols=len(dtypes), sharey=True)
        axes = list(axes) if len(dtypes) > 1 else [axes]
        for ax, dtype in zip(axes, dtypes, strict=True):
            for method, marker in (("log", "."), ("pow", "x")):
                err = ulp_error(inverse_frequencies(d, method=method, dtype=dtype), ref)
                label = f"{method}: max {err.max().item():.1f} ulp"
                ax.plot(i, err.numpy(), marker, markersize=3, label=label)
            ax.set_title(f"{str(dtype).removeprefix('torch.')}, d = {d}", fontsize=10)
            ax.set_xlabel(text(lang, en="frequency index  i", zh="频率序号  i"))
            ax.legend(loc="upper left", fontsize=8)
        axes[0].set_ylabel(text(lang, en="error of w_i (ulps)", zh="w_i 的误差（ulp）"))
    return fig


def plot_log_trick_error(
    d_model: int = 512,
    max_position: int = 10**6,
    n_points: int = 160,
    *,
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Largest error of a table row against position: float32 tables built with ``pow`` and with ``log``
    frequencies (phase ``p·w`` in float32), and the exact table cast to float32 (phase in float64)."""
    lang, theme = check_lang_theme(lang, theme)
    d = check_d_model(d_model)
    max_position = check_int("max_position", max_position, minimum=10)
    n_points = check_int("n_points", n_points, minimum=2)
    pos = torch.unique(torch.logspace(0, torch.log10(torch.tensor(float(max_position))).item(), n_points,
                                      dtype=torch.float64).round().to(torch.int64))
    exact = exact_rows(pos, d)
    cast_err = (exact.float().double() - exact).abs().amax(dim=1)
    with themed(lang, theme):
        fig, ax = new_figure(7.0, 3.6)
        for method, style in (("pow", "-"), ("log", "--")):
            err = row_errors(pos, d, method=method)
            ax.plot(pos.numpy(), err.clamp_min(1e-9).numpy(), style, linewidth=1.5,
                    label=text(lang, en=f"float32, {method} frequencies, phase in float32",
                               zh=f"float32，{method} 频率，相位在 float32 中计算"))
        ax.plot(pos.numpy(), cast_err.clamp_min(1e-9).numpy(), linewidth=1.5,
                label=text(lang, en="float32, phase in float64 (sinusoidal_table)",
                           zh="float32，相位在 float64 中计算（sinusoidal_table）"))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(text(lang, en="position  p", zh="位置  p"))
        ax.set_ylabel(text(lang, en="max |error| of row p", zh="第 p 行最大绝对误差"))
        ax.set_title(text(lang, en=f"Table error against position, d = {d}",
                          zh=f"编码表误差随位置的变化，d = {d}"))
        ax.legend(loc="upper left", fontsize=8)
    return fig
