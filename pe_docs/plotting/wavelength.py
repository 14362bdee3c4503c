"""Figures of the wavelength ladder: wavelengths and each scale's share, scales, the binary counter, similarity."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import torch
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from pe_docs._checks import check_base, check_d_model, check_int
from pe_docs.analysis.numerics import exact_rows
from pe_docs.analysis.similarity import binary_code, first_negative, first_rise, neighbour_similarity
from pe_docs.encoding import sinusoidal_table
from pe_docs.frequencies import wavelengths
from pe_docs.plotting._style import (
    NARROW_WIDTH,
    Lang,
    Layout,
    Theme,
    check_indices,
    check_lang_theme,
    check_layout,
    grouped,
    legend,
    new_figure,
    text,
    theme_colours,
    themed,
)

MAX_BITS = 12
"""Largest ``n_bits`` of ``plot_binary_vs_sinusoid`` (it draws ``2**n_bits`` positions)."""


def plot_wavelengths(
    d_model: int = 512,
    *,
    base: float = 10000.0,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Wavelength ``λ_i = 2π / w_i`` against the frequency index ``i`` on a log axis.

    The points lie on a straight line (a geometric progression) from ``2π`` to ``2π·base^((d−2)/d)``. The
    dashed line is ``2π·base``, the limit of the ladder that no column reaches: an upper limit for
    ``base > 1`` (the usual case), a lower limit for ``base < 1``. For ``base = 1`` every wavelength is
    ``2π`` and no line is drawn.

    Args:
        d_model: Width of the encoding (``d_model // 2`` wavelengths); a positive even integer.
        base: The constant of the encoding; finite and > 0.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the legend lower right).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes.

    Raises:
        TypeError: ``d_model`` is not an integer or ``base`` not a real number.
        ValueError: ``d_model`` not positive and even, ``base`` not finite and > 0, or a bad
            ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_wavelengths(16)
        >>> fig.axes[0].get_yscale()
        'log'
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    base = check_base(base)
    lam = wavelengths(d, base=base)
    i = torch.arange(d // 2).numpy()
    limit = 2 * math.pi * base
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 3.6) if wide else new_figure(NARROW_WIDTH, 3.6)
        ax.plot(i, lam.numpy(), ".", markersize=3, label=f"λ_i, d = {d}")
        for k, dy in ((0, 10), (d // 2 - 1, -16)) if d > 2 else ((0, 10),):
            value = lam[k].item()
            ax.plot([k], [value], "o", markersize=6, color=ax.lines[0].get_color())
            label = f"λ_{k} = {grouped(lang, value, 1 if k == 0 or value < 100 else 0)}"
            ax.annotate(
                label,
                xy=(k, value),
                xytext=(-40 if k else 6, dy),
                textcoords="offset points",
                fontsize=9,
                ha="right" if k else "left",
            )
        shown = [lam.min().item(), lam.max().item()]
        if base != 1:
            upper = base > 1
            ax.axhline(limit, linestyle="--", linewidth=1.0, color="0.5")
            limit_text = grouped(lang, limit) if limit >= 100 else f"{limit:.3g}"
            ax.annotate(
                text(
                    lang,
                    en=f"2π·base = {limit_text} ({'upper' if upper else 'lower'} limit, never reached)",
                    zh=f"2π·base = {limit_text}（{'上' if upper else '下'}界，取不到）",
                ),
                xy=(0, limit),
                xytext=(2, 4 if upper else -4),
                textcoords="offset points",
                fontsize=9,
                va="bottom" if upper else "top",
            )
            shown.append(limit)
        ax.set_yscale("log")
        ax.set_ylim(min(shown) / math.pi, max(shown) * 6)
        ax.set_xlabel(
            text(lang, en="frequency index  i  (columns 2i and 2i+1)", zh="频率序号  i（第 2i、2i+1 列）"),
            wrap=not wide,
        )
        ax.set_ylabel(text(lang, en="wavelength λ_i (positions)", zh="波长 λ_i（位置数）"))
        ax.set_title(text(lang, en="Wavelengths form a geometric ladder", zh="波长按等比数列增长"), wrap=not wide)
        ax.legend(loc="center right" if wide else "lower right", fontsize=9)
    return fig


def plot_scale_shares(
    d_model: int = 512,
    *,
    base: float = 10000.0,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """The ``d_model // 2`` wavelengths on a log axis, one tick each: the table's geometric ladder (top row) against
    the same number of frequencies spaced evenly from ``1`` down to ``1 / base`` (bottom row).

    Each tenfold range of wavelength from 10 up to ``base`` is shaded in turn and gives, under each row, how many
    ticks it holds: the geometric ladder gives every range the same count (64 for ``d_model = 512``), the even
    spacing piles its wavelengths below 100 (145, 14, 1).

    Args:
        d_model: Width of the encoding (``d_model // 2`` wavelengths per row); a positive even integer.
        base: The constant of the encoding; finite and > 10 (the ranges run from 10 to ``base``).
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: larger text).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes: two lines of ``"|"`` markers (geometric at y = 1, even at
        y = 0) and one text per range and row giving its count.

    Raises:
        TypeError: ``d_model`` is not an integer or ``base`` not a real number.
        ValueError: ``d_model`` not positive and even, ``base`` not finite and > 10, or a bad
            ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_scale_shares(512)
        >>> [t.get_text() for t in fig.axes[0].texts if t.get_text().isdigit()]
        ['64', '64', '64', '145', '14', '1']
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    base = check_base(base)
    if not base > 10:
        raise ValueError(f"base must be > 10 (the figure counts wavelengths per tenfold from 10 up), got {base}")
    rows = (
        (1.0, wavelengths(d, base=base), text(lang, en="geometric ladder (the paper)", zh="等比阶梯（论文的做法）")),
        (
            0.0,
            2 * math.pi / torch.linspace(1.0, 1.0 / base, d // 2, dtype=torch.float64),
            text(lang, en="frequencies evenly spaced", zh="频率等间隔（等差）"),
        ),
    )
    edges = [10.0**e for e in range(1, math.ceil(math.log10(base) - 1e-12) + 1)]
    edges[-1] = min(edges[-1], base)
    fg = theme_colours(theme)[0]
    size = 9 if wide else 10
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 2.8) if wide else new_figure(NARROW_WIDTH, 3.2)
        for n, (lo, hi) in enumerate(itertools.pairwise(edges)):
            ax.axvspan(lo, hi, color="0.5", alpha=0.14 if n % 2 == 0 else 0.06, linewidth=0)
        for y, lam, label in rows:
            ax.plot(lam.numpy(), [y] * len(lam), "|", markersize=16, markeredgewidth=0.8)
            ax.text(1.15, y + 0.3, label, fontsize=size, va="bottom")
            for lo, hi in itertools.pairwise(edges):
                count = int(((lam >= lo) & (lam < hi)).sum())
                ax.text(math.sqrt(lo * hi), y - 0.3, f"{count}", ha="center", va="top", fontsize=size, color=fg)
        ax.set_xscale("log")
        ax.set_xlim(1, base * 10)
        ax.set_ylim(-0.75, 1.75)
        ax.set_yticks([])
        ax.grid(False, axis="y")
        ax.set_xlabel(text(lang, en="wavelength (positions)", zh="波长（位置数）"))
        ax.set_title(
            text(
                lang,
                en=f"The {d // 2} wavelengths, d = {d}: how many fall in each tenfold range",
                zh=f"d = {d} 的 {d // 2} 个波长：每个数量级里各有多少个",
            ),
            fontsize=10 if wide else size,
            wrap=not wide,
        )
    return fig


def plot_scales(
    d_model: int = 512,
    *,
    short: int = 64,
    long: int = 60000,
    low_dims: Sequence[int] = (0, 16, 64),
    high_dims: Sequence[int] = (384, 448, 510),
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Two panels: low (fast) columns over ``short`` positions, high (slow) columns over ``long`` positions.

    Low dimensions change between neighbours; high dimensions barely move over ``short`` positions but tell
    positions thousands apart. The right panel draws every ``max(1, long // 1500)``-th position (float64 rows
    of ``pe_docs.analysis.numerics.exact_rows``); the legends give each column's wavelength (``base = 10000``).

    Args:
        d_model: Width of the encoding; a positive even integer.
        short: Number of positions of the left panel; an integer >= 2.
        long: Number of positions of the right panel; an integer >= 2.
        low_dims: Columns drawn on the left, each an integer in ``0 … d_model − 1``; at least one.
        high_dims: Columns drawn on the right, each an integer in ``0 … d_model − 1``; at least one.
        layout: ``"wide"`` (the panels side by side) or ``"narrow"`` (one above the other).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with two axes (left: low dimensions, right: high dimensions).

    Raises:
        TypeError: ``d_model``, ``short``, ``long`` or an entry of ``low_dims``/``high_dims`` is not an
            integer, or ``low_dims``/``high_dims`` is not a sequence.
        ValueError: ``low_dims`` or ``high_dims`` is empty or has an entry outside ``0 … d_model − 1``,
            ``short`` or ``long`` < 2, ``d_model`` not positive and even, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_scales(16, short=10, long=100, low_dims=(0,), high_dims=(14, 15))
        >>> [len(ax.get_lines()) for ax in fig.axes]
        [1, 2]
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    d = check_d_model(d_model)
    short = check_int("short", short, minimum=2)
    long = check_int("long", long, minimum=2)
    low_dims = check_indices("low_dims", low_dims, what="column index", minimum=0, below=d, below_text=f"d_model={d}")
    high_dims = check_indices(
        "high_dims", high_dims, what="column index", minimum=0, below=d, below_text=f"d_model={d}"
    )
    near = sinusoidal_table(short, d, dtype=torch.float64)
    stride = max(1, long // 1500)
    far_pos = torch.arange(0, long, stride)
    far = exact_rows(far_pos, d)
    lam = wavelengths(d)
    with themed(lang, theme, layout):
        fig, axes = new_figure(7.4, 3.4, ncols=2) if wide else new_figure(NARROW_WIDTH, 5.4, nrows=2)
        for ax, table, pos, dims in (
            (axes[0], near, torch.arange(short), low_dims),
            (axes[1], far, far_pos, high_dims),
        ):
            for j in dims:
                ax.plot(
                    pos.numpy(),
                    table[:, j].numpy(),
                    linewidth=1.4,
                    label=f"j = {j}, λ ≈ {grouped(lang, lam[j // 2].item(), 1 if lam[j // 2] < 100 else 0)}",
                )
            ax.set_ylim(-1.15, 2.1)
            ax.set_xlabel(text(lang, en="position  p", zh="位置  p"))
            ax.legend(loc="upper center", fontsize=8, ncols=1)
        axes[1].xaxis.set_major_locator(MaxNLocator(4))
        for ax in axes[:1] if wide else axes:
            ax.set_ylabel("PE[p, j]")
        axes[0].set_title(text(lang, en=f"High-frequency columns, p < {short}", zh=f"高频列，p < {short}"), fontsize=10)
        axes[1].set_title(
            text(lang, en=f"Low-frequency columns, p < {grouped(lang, long)}", zh=f"低频列，p < {grouped(lang, long)}"),
            fontsize=10,
        )
    return fig


def plot_binary_vs_sinusoid(
    n_bits: int = 5,
    d_model: int = 512,
    *,
    base: float = 10000.0,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Left: bits ``0 … n_bits−1`` of ``0 … 2^n_bits − 1`` as square waves (periods 2, 4, 8, …).

    Right: the sine columns whose wavelengths are closest to ``2π·2^b`` (b = 0 … n_bits − 1) on a log
    scale, drawn as smooth curves with dots at the integer positions; each is labelled with its column
    ``j`` and wavelength. With a small ``d_model`` several bits may share one column.

    Args:
        n_bits: Number of bits; an integer in ``1 … 12`` (the figure draws ``2**n_bits`` positions).
        d_model: Width of the encoding; a positive even integer.
        base: The constant of the encoding; finite and > 0.
        layout: ``"wide"`` (the panels side by side) or ``"narrow"`` (one above the other, larger labels).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with two axes sharing the y axis (left: bits, right: sines).

    Raises:
        TypeError: ``n_bits`` or ``d_model`` is not an integer, or ``base`` not a real number.
        ValueError: ``n_bits`` outside ``1 … 12``, ``d_model`` not positive and even, ``base`` not finite
            and > 0, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_binary_vs_sinusoid(n_bits=2, d_model=8)
        >>> len(fig.axes)
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    n_bits = check_int("n_bits", n_bits, minimum=1)
    if n_bits > MAX_BITS:
        raise ValueError(f"n_bits must be <= {MAX_BITS} (the figure draws 2**n_bits positions), got {n_bits}")
    d = check_d_model(d_model)
    base = check_base(base)
    n = 2**n_bits
    bits = binary_code(n, n_bits)
    lam = wavelengths(d, base=base)
    targets = 2 * math.pi * 2.0 ** torch.arange(n_bits, dtype=torch.float64)
    idx = [int(torch.argmin((lam.log() - t.log()).abs())) for t in targets]
    fine = torch.linspace(0, n - 1, 20 * n, dtype=torch.float64)
    w = 2 * math.pi / lam
    pad = max(0.5, n / 64)  # gap between the curves and their labels on the right
    with themed(lang, theme, layout):
        if wide:
            fig, axes = new_figure(7.4, 4.0, ncols=2, sharey=True)
        else:
            fig, axes = new_figure(NARROW_WIDTH, 5.8, nrows=2, sharey=True)
        for b in range(n_bits):
            off = 2.6 * b
            axes[0].step(range(n), (bits[:, b] * 2 - 1 + off).numpy(), where="post", linewidth=1.3)
            axes[0].text(n + pad, off, f"{2 ** (b + 1)}", va="center", fontsize=8 if wide else 9)
            i = idx[b]
            (line,) = axes[1].plot(fine.numpy(), (torch.sin(fine * w[i]) + off).numpy(), linewidth=1.3)
            p = torch.arange(n, dtype=torch.float64)
            axes[1].plot(p.numpy(), (torch.sin(p * w[i]) + off).numpy(), ".", markersize=3, color=line.get_color())
            axes[1].text(n + pad, off, f"j = {2 * i}\nλ ≈ {lam[i].item():.1f}", va="center", fontsize=7 if wide else 8)
        for ax in axes:
            ax.set_yticks([])
            ax.set_xlim(0, n + max(7, n // 4 - 1))
            ax.set_xlabel(text(lang, en="position  p", zh="位置  p"))
        axes[0].set_title(text(lang, en="binary bits (period)", zh="二进制位（周期）"), fontsize=10)
        axes[1].set_title(text(lang, en=f"sine columns, d = {d}", zh=f"正弦列，d = {d}"), fontsize=10)
    return fig


def plot_neighbour_similarity(
    d_models: Sequence[int] = (128, 512),
    max_k: int = 4000,
    *,
    base: float = 10000.0,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Cosine similarity of ``PE[p]`` and ``PE[p+k]`` against ``k`` (log axis), marking the first rise and the
    first negative value for each width.

    The similarity is the closed form of ``pe_docs.analysis.similarity.neighbour_similarity`` (the same for every
    ``p``); a triangle marks ``first_rise``, a dot
    ``first_negative``, when they occur within ``max_k``.

    Args:
        d_models: Widths, one curve each, each a positive even integer; at least one.
        max_k: Largest offset ``k``; an integer >= 2.
        base: The constant of the encoding; finite and > 0.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width: the legend below the axes).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes.

    Raises:
        TypeError: ``max_k`` or an entry ``d_models[n]`` is not an integer, ``d_models`` is not a sequence,
            or ``base`` not a real number.
        ValueError: ``d_models`` is empty or has an entry that is not positive and even, ``max_k < 2``,
            ``base`` not finite and > 0, or a bad ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_neighbour_similarity(d_models=(8,), max_k=50)
        >>> fig.axes[0].get_xscale()
        'log'
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    widths = check_indices("d_models", d_models, what="width")
    ds = [check_d_model(d, f"d_models[{n}]") for n, d in enumerate(widths)]
    max_k = check_int("max_k", max_k, minimum=2)
    base = check_base(base)
    k = torch.arange(1, max_k + 1).numpy()
    marker_edge = theme_colours(theme)[0]  # the scheme's foreground: markers stand out on the curves
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 3.6) if wide else new_figure(NARROW_WIDTH, 4.8)
        for d in ds:
            s = neighbour_similarity(d, max_k, base=base)
            (line,) = ax.plot(k, s[1:].numpy(), linewidth=1.6, label=f"d = {d}", zorder=2)
            r, neg = first_rise(s), first_negative(s)
            marks = (
                (r, "v", text(lang, en=f"d = {d}: rises after k = {r}", zh=f"d = {d}：k = {r} 之后回升")),
                (neg, "o", text(lang, en=f"d = {d}: first < 0 at k = {neg}", zh=f"d = {d}：k = {neg} 首次 < 0")),
            )
            for at, marker, label in marks:
                if at is not None:
                    ax.plot(
                        [at],
                        [s[at].item()],
                        marker,
                        color=line.get_color(),
                        markersize=9,
                        markeredgecolor=marker_edge,
                        markeredgewidth=1.4,
                        zorder=4,
                        label=label,
                    )
        ax.axhline(0, color="0.5", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_xlabel(text(lang, en="offset  k", zh="偏移  k"))
        ax.set_ylabel(text(lang, en="cos(PE[p], PE[p+k])", zh="余弦相似度"))
        ax.set_title(
            text(
                lang,
                en="Similarity of positions k apart (the same for every p)",
                zh="相距 k 的两个位置有多像（与 p 无关）",
            ),
            wrap=not wide,
        )
        legend(fig, ax, wide=wide, loc="upper right")
    return fig
