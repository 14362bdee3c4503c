"""Figures of the wavelength ladder: wavelengths, scales, the binary counter, neighbour similarity."""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from pe_docs._checks import check_d_model, check_int
from pe_docs.encoding import sinusoidal_table
from pe_docs.frequencies import wavelengths
from pe_docs.numerics import exact_rows
from pe_docs.plotting._style import Lang, Theme, check_lang_theme, new_figure, text, themed
from pe_docs.similarity import binary_code, first_negative, first_rise, neighbour_similarity


def plot_wavelengths(
    d_model: int = 512,
    *,
    base: float = 10000.0,
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Wavelength ``λ_i = 2π / w_i`` against the frequency index ``i`` on a log axis.

    The points lie on a straight line (a geometric progression) from ``2π`` to ``2π·base^((d−2)/d)``; the
    dashed line is ``2π·base``, which no column reaches.
    """
    lang, theme = check_lang_theme(lang, theme)
    d = check_d_model(d_model)
    lam = wavelengths(d, base=base)
    i = torch.arange(d // 2).numpy()
    limit = 2 * math.pi * base
    with themed(lang, theme):
        fig, ax = new_figure(7.0, 3.6)
        ax.plot(i, lam.numpy(), ".", markersize=3, label=f"λ_i, d = {d}")
        for k, dy in ((0, 10), (d // 2 - 1, -16)):
            ax.plot([k], [lam[k].item()], "o", markersize=6, color=ax.lines[0].get_color())
            ax.annotate(f"λ_{k} = {lam[k].item():,.1f}" if k == 0 else f"λ_{k} = {lam[k].item():,.0f}",
                        xy=(k, lam[k].item()), xytext=(-40 if k else 6, dy), textcoords="offset points",
                        fontsize=9, ha="right" if k else "left")
        ax.axhline(limit, linestyle="--", linewidth=1.0, color="0.5")
        ax.annotate(
            text(lang, en=f"2π·base = {limit:,.0f} (never reached)", zh=f"2π·base = {limit:,.0f}（取不到）"),
            xy=(0, limit), xytext=(2, 4), textcoords="offset points", fontsize=9,
        )
        ax.set_yscale("log")
        ax.set_ylim(2, limit * 6)
        ax.set_xlabel(text(lang, en="frequency index  i  (columns 2i and 2i+1)",
                           zh="频率序号  i（第 2i、2i+1 列）"))
        ax.set_ylabel(text(lang, en="wavelength λ_i (positions)", zh="波长 λ_i（位置数）"))
        ax.set_title(text(lang, en="Wavelengths form a geometric ladder", zh="波长构成一架等比的梯子"))
        ax.legend(loc="center right", fontsize=9)
    return fig


def plot_scales(
    d_model: int = 512,
    *,
    short: int = 64,
    long: int = 60000,
    low_dims: Sequence[int] = (0, 16, 64),
    high_dims: Sequence[int] = (384, 448, 510),
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Two panels: low (fast) columns over ``short`` positions, high (slow) columns over ``long`` positions.

    Low dimensions change between neighbours; high dimensions barely move over ``short`` positions but tell
    positions thousands apart.
    """
    lang, theme = check_lang_theme(lang, theme)
    d = check_d_model(d_model)
    short = check_int("short", short, minimum=2)
    long = check_int("long", long, minimum=2)
    for j in (*low_dims, *high_dims):
        check_int("dims[...]", j, minimum=0)
        if j >= d:
            raise ValueError(f"dims must be < d_model={d}, got {j}")
    near = sinusoidal_table(short, d, dtype=torch.float64)
    stride = max(1, long // 1500)
    far_pos = torch.arange(0, long, stride)
    far = exact_rows(far_pos, d)
    lam = wavelengths(d)
    with themed(lang, theme):
        fig, axes = new_figure(7.4, 3.4, ncols=2)
        for ax, table, pos, dims in ((axes[0], near, torch.arange(short), low_dims),
                                     (axes[1], far, far_pos, high_dims)):
            for j in dims:
                ax.plot(pos.numpy(), table[:, j].numpy(), linewidth=1.4,
                        label=f"j = {j}, λ ≈ {lam[j // 2].item():,.0f}")
            ax.set_ylim(-1.15, 2.1)
            ax.set_xlabel(text(lang, en="position  p", zh="位置  p"))
            ax.legend(loc="upper center", fontsize=8, ncols=1)
        axes[1].xaxis.set_major_locator(MaxNLocator(4))
        axes[0].set_ylabel("PE[p, j]")
        axes[0].set_title(text(lang, en=f"Low dimensions, p < {short}", zh=f"低维，p < {short}"), fontsize=10)
        axes[1].set_title(text(lang, en=f"High dimensions, p < {long:,}", zh=f"高维，p < {long:,}"),
                          fontsize=10)
    return fig


def plot_binary_vs_sinusoid(
    n_bits: int = 5,
    d_model: int = 512,
    *,
    base: float = 10000.0,
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Left: bits ``0 … n_bits−1`` of ``0 … 2^n_bits − 1`` as square waves (periods 2, 4, 8, …).

    Right: the sine columns whose wavelengths are closest to ``2π·2^b`` (b = 0 … n_bits − 1), drawn as
    smooth curves with dots at the integer positions.
    """
    lang, theme = check_lang_theme(lang, theme)
    n_bits = check_int("n_bits", n_bits, minimum=1)
    d = check_d_model(d_model)
    n = 2**n_bits
    bits = binary_code(n, n_bits)
    lam = wavelengths(d, base=base)
    targets = 2 * math.pi * 2.0 ** torch.arange(n_bits, dtype=torch.float64)
    idx = [int(torch.argmin((lam.log() - t.log()).abs())) for t in targets]
    fine = torch.linspace(0, n - 1, 20 * n, dtype=torch.float64)
    w = 2 * math.pi / lam
    with themed(lang, theme):
        fig, axes = new_figure(7.4, 4.0, ncols=2, sharey=True)
        for b in range(n_bits):
            off = 2.6 * b
            axes[0].step(range(n), (bits[:, b] * 2 - 1 + off).numpy(), where="post", linewidth=1.3)
            axes[0].text(n + 0.5, off, f"{2 ** (b + 1)}", va="center", fontsize=8)
            i = idx[b]
            line, = axes[1].plot(fine.numpy(), (torch.sin(fine * w[i]) + off).numpy(), linewidth=1.3)
            p = torch.arange(n, dtype=torch.float64)
            axes[1].plot(p.numpy(), (torch.sin(p * w[i]) + off).numpy(), ".", markersize=3,
                         color=line.get_color())
            axes[1].text(n + 0.5, off, f"j = {2 * i}\nλ ≈ {lam[i].item():.1f}", va="center", fontsize=7)
        for ax in axes:
            ax.set_yticks([])
            ax.set_xlim(0, n + 7)
            ax.set_xlabel(text(lang, en="position  p", zh="位置  p"))
        axes[0].set_title(text(lang, en="binary bits (period)", zh="二进制位（周期）"), fontsize=10)
        axes[1].set_title(text(lang, en=f"sine columns, d = {d}", zh=f"正弦列，d = {d}"), fontsize=10)
    return fig


def plot_neighbour_similarity(
    d_models: Sequence[int] = (128, 512),
    max_k: int = 4000,
    *,
    base: float = 10000.0,
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Cosine similarity of ``PE[p]`` and ``PE[p+k]`` against ``k`` (log axis), marking the first rise and the
    first negative value for each width."""
    lang, theme = check_lang_theme(lang, theme)
    ds = [check_d_model(d, "d_models[...]") for d in d_models]
    max_k = check_int("max_k", max_k, minimum=2)
    k = torch.arange(1, max_k + 1).numpy()
    with themed(lang, theme):
        fig, ax = new_figure(7.0, 3.6)
        for d in ds:
            s = neighbour_similarity(d, max_k, base=base)
            (line,) = ax.plot(k, s[1:].numpy(), linewidth=1.6, label=f"d = {d}")
            r, neg = first_rise(s), first_negative(s)
            if r is not None:
                ax.plot([r], [s[r].item()], "v", color=line.get_color(), markersize=8, markeredgecolor="0.5",
                        label=text(lang, en=f"d = {d}: rises after k = {r}", zh=f"d = {d}：k = {r} 之后回升"))
            if neg is not None:
                ax.plot([neg], [s[neg].item()], "o", color=line.get_color(), markersize=7,
                        markeredgecolor="0.5",
                        label=text(lang, en=f"d = {d}: first < 0 at k = {neg}",
                                   zh=f"d = {d}：k = {neg} 首次 < 0"))
        ax.axhline(0, color="0.5", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_xlabel(text(lang, en="offset  k", zh="偏移  k"))
        ax.set_ylabel(text(lang, en="cos(PE[p], PE[p+k])", zh="余弦相似度"))
        ax.set_title(text(lang, en="Similarity of positions k apart (the same for every p)",
                          zh="相距 k 的两个位置有多像（与 p 无关）"))
        ax.legend(loc="upper right", fontsize=8)
    return fig
