"""Figures of the relative-schemes page: T5's buckets, and what RoPE context extension does to the wavelengths."""

from __future__ import annotations

import math

import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_base, check_d_model, check_int, check_real
from pe_docs.analysis import (
    ntk_aware_frequencies,
    position_interpolation_frequencies,
    yarn_boundaries,
    yarn_frequencies,
)
from pe_docs.bias import t5_relative_bucket
from pe_docs.frequencies import inverse_frequencies
from pe_docs.plotting._style import (
    NARROW_WIDTH,
    Lang,
    Layout,
    Theme,
    check_lang_theme,
    check_layout,
    grouped,
    legend,
    new_figure,
    text,
    themed,
)


def plot_t5_buckets(
    max_offset: int = 160,
    *,
    num_buckets: int = 32,
    max_distance: int = 128,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """T5's bucket of each offset ``j − i`` in ``[−max_offset, max_offset]``, encoder and decoder.

    Two step lines from ``pe_docs.t5_relative_bucket``: bidirectional (the encoder) and causal (the decoder,
    every key after the query in bucket 0). Dashed lines mark ``±max_distance`` when it lies in the range.

    Args:
        max_offset: Largest ``|j − i|`` drawn; an integer >= 1.
        num_buckets: T5's ``relative_attention_num_buckets``; an even integer >= 4.
        max_distance: T5's ``relative_attention_max_distance``; see ``pe_docs.t5_relative_bucket``.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the legend below the axes).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes holding two step lines (bidirectional first), then the
        two vertical marks at ``−max_distance`` and ``max_distance`` if ``max_offset >= max_distance``.

    Raises:
        TypeError: an argument is not an integer.
        ValueError: an argument is out of range (see ``pe_docs.t5_relative_bucket``), or a bad
            ``layout``/``lang``/``theme``.

    Examples:
        >>> len(plot_t5_buckets(40).axes[0].get_lines()), len(plot_t5_buckets(130).axes[0].get_lines())
        (2, 4)
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    max_offset = check_int("max_offset", max_offset, minimum=1)
    offsets = torch.arange(-max_offset, max_offset + 1)
    both = t5_relative_bucket(offsets, bidirectional=True, num_buckets=num_buckets, max_distance=max_distance)
    causal = t5_relative_bucket(offsets, bidirectional=False, num_buckets=num_buckets, max_distance=max_distance)
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 3.8) if wide else new_figure(NARROW_WIDTH, 3.8)
        ax.step(
            offsets.numpy(),
            both.numpy(),
            where="mid",
            linewidth=1.6,
            label=text(lang, en="bidirectional (encoder)", zh="双向（编码器）"),
        )
        ax.step(
            offsets.numpy(),
            causal.numpy(),
            where="mid",
            linewidth=1.6,
            label=text(lang, en="causal (decoder)", zh="因果（解码器）"),
        )
        for x in (-max_distance, max_distance):
            if abs(x) <= max_offset:
                ax.axvline(x, linestyle="--", linewidth=1.0, color="0.5")
        ax.set_xlabel(text(lang, en="offset  j − i  (key minus query)", zh="偏移  j − i（键减查询）"))
        ax.set_ylabel(text(lang, en="bucket", zh="桶编号"))
        br = "" if wide else "\n"
        ax.set_title(
            text(
                lang,
                en=f"T5 buckets: {num_buckets} buckets,{br or ' '}max_distance = {max_distance}",
                zh=f"T5 的分桶：{num_buckets} 个桶，{br}max_distance = {max_distance}",
            )
        )
        legend(fig, ax, wide=wide, loc="center right", fontsize=9, ncols=2)
    return fig


def plot_context_extension(
    head_dim: int = 128,
    *,
    factor: float = 8.0,
    original_len: int = 4096,
    base: float = 10000.0,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Wavelength of each RoPE pair before and after context extension, on a log axis.

    Four ladders, each ``2π / w_i`` against the pair index ``i``: the original one
    (``pe_docs.inverse_frequencies(head_dim)``), position interpolation, the NTK-aware base change and YaRN
    (``pe_docs.analysis.position_interpolation_frequencies``, ``ntk_aware_frequencies``, ``yarn_frequencies``).
    Dashed lines mark the trained length ``L`` and the extended length ``s·L``; the shaded band is YaRN's ramp
    (``pe_docs.analysis.yarn_boundaries``).

    Args:
        head_dim: The rotated (head) dimension; a positive even integer >= 4.
        factor: The extension factor ``s``; a real number >= 1.
        original_len: The trained context length ``L``; an integer >= 1.
        base: RoPE's base; finite and > 1.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the legend below the axes).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes holding four lines (original, PI, NTK-aware, YaRN),
        then the two horizontal reference lines.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_context_extension(16, factor=4.0, original_len=64)
        >>> len(fig.axes[0].get_lines())
        6
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(head_dim, "head_dim")
    s = check_real("factor", factor, minimum=1.0)
    length = check_int("original_len", original_len, minimum=1)
    base = check_base(base)
    low, high = yarn_boundaries(d, length, base=base)
    ladders = [
        (text(lang, en="original", zh="原始"), inverse_frequencies(d, base=base), "-"),
        (
            text(lang, en=f"position interpolation (÷{s:g})", zh=f"位置插值（÷{s:g}）"),
            position_interpolation_frequencies(d, s, base=base),
            "--",
        ),
        (text(lang, en="NTK-aware base change", zh="NTK-aware 换底"), ntk_aware_frequencies(d, s, base=base), "-."),
        (
            text(lang, en="YaRN (NTK-by-parts)", zh="YaRN（NTK-by-parts）"),
            yarn_frequencies(d, s, length, base=base),
            ":",
        ),
    ]
    i = torch.arange(d // 2).numpy()
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 4.2) if wide else new_figure(NARROW_WIDTH, 4.8)
        ax.axvspan(low, high, color="0.5", alpha=0.15, linewidth=0)
        for label, w, style in ladders:
            ax.plot(i, (2 * math.pi / w).numpy(), style, linewidth=1.8, label=label)
        ax.axhline(length, linestyle="--", linewidth=1.0, color="0.5")
        ax.axhline(s * length, linestyle=":", linewidth=1.0, color="0.5")
        ax.annotate(
            text(lang, en=f"trained length L = {grouped(lang, length)}", zh=f"训练长度 L = {grouped(lang, length)}"),
            xy=(0, length),
            xytext=(2, 3),
            textcoords="offset points",
            fontsize=9,
            va="bottom",
        )
        extended = text(
            lang,
            en=f"extended length s·L = {grouped(lang, s * length)}",
            zh=f"扩展后长度 s·L = {grouped(lang, s * length)}",
        )
        ax.annotate(extended, xy=(0, s * length), xytext=(2, 3), textcoords="offset points", fontsize=9, va="bottom")
        ax.annotate(
            text(lang, en="YaRN's ramp", zh="YaRN 的过渡段"),
            xy=((low + high) / 2, 2 * math.pi),
            xytext=(0, 2),
            textcoords="offset points",
            fontsize=9,
            ha="center",
            va="bottom",
        )
        ax.set_yscale("log")
        ax.set_xlabel(
            text(lang, en=f"RoPE pair  i  (head dimension d = {d})", zh=f"RoPE 维度对  i（头维度 d = {d}）"),
            wrap=not wide,
        )
        ax.set_ylabel(text(lang, en="wavelength 2π / w_i (positions)", zh="波长 2π / w_i（位置数）"))
        ax.set_title(
            text(
                lang,
                en=f"Extending the context by s = {s:g}: the wavelengths",
                zh=f"上下文扩展 s = {s:g}：各方法下的波长",
            ),
            wrap=not wide,
        )
        legend(fig, ax, wide=wide, loc="lower right", fontsize=8.5)
    return fig
