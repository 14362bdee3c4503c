"""Figures for the limitations page: singular values of the table, and PE-only attention scores."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import torch
from matplotlib.figure import Figure

from pe_docs._checks import check_d_model, check_int
from pe_docs.analysis.attention_bias import position_scores
from pe_docs.analysis.capacity import singular_values
from pe_docs.analysis.relative import relative_transform
from pe_docs.analysis.rope import rope_rotate
from pe_docs.encoding import sinusoidal_table
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


@functools.lru_cache(maxsize=16)
def _normalised_singular_values(length: int, d_model: int) -> np.ndarray:
    """``σ_k / σ_1`` of the float64 table (read-only array). Cached: the site draws this figure four times
    (two languages × two colour schemes) and the SVD of the longest table dominates its cost."""
    s = singular_values(sinusoidal_table(length, d_model, dtype=torch.float64))
    out = (s / s[0]).numpy()
    out.flags.writeable = False
    return out


def plot_singular_values(
    lengths: Sequence[int] = (64, 512, 2048),
    d_model: int = 512,
    *,
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Normalised singular values ``σ_k / σ_1`` of ``sinusoidal_table(L, d_model)`` for several ``L``.

    One curve per table length, on a log axis clipped at ``1e-12`` (float64 round-off).

    Args:
        lengths: Table lengths ``L`` (numbers of positions), each an integer >= 2; at least one.
        d_model: Width of the tables; a positive even integer.
        layout: ``"wide"`` or ``"narrow"`` (a phone's width).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one axes holding one line per entry of ``lengths``.

    Raises:
        TypeError: ``d_model`` or an entry ``lengths[n]`` is not an integer, or ``lengths`` is not a
            sequence.
        ValueError: ``lengths`` is empty or has an entry < 2, ``d_model`` not positive and even, or a bad
            ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_singular_values(lengths=(8, 16), d_model=8)
        >>> len(fig.axes[0].get_lines())
        2
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    lengths = check_indices("lengths", lengths, what="table length", minimum=2)
    d_model = check_d_model(d_model)
    with themed(lang, theme, layout):
        fig, ax = new_figure(7.0, 3.8) if wide else new_figure(NARROW_WIDTH, 3.4)
        for length in lengths:
            ratios = _normalised_singular_values(length, d_model)
            ax.plot(
                np.arange(1, ratios.size + 1),
                ratios.copy(),
                label=f"L = {length}",
                linewidth=1.6,
            )
        ax.set_yscale("log")
        ax.set_ylim(1e-12, 2)
        ax.set_xlabel(text(lang, en="index k of the singular value", zh="奇异值序号 k"))
        ax.set_ylabel("σ_k / σ_1")
        ax.set_title(
            text(
                lang,
                en=f"Singular values of the table, d_model = {d_model}",
                zh=f"编码表的奇异值，d_model = {d_model}",
            ),
            wrap=not wide,
        )
        ax.legend(fontsize=9)
    return fig


_PANELS = ("plain", "projected", "ahead", "rope")  # what plot_position_scores draws, in this order


def plot_position_scores(
    max_len: int = 64,
    d_model: int = 64,
    *,
    seed: int = 0,
    panels: Sequence[str] = ("plain", "projected"),
    ahead: int = 7,
    names: tuple[str, str] = ("i", "j"),
    layout: Layout = "wide",
    lang: Lang = "en",
    theme: Theme = "light",
) -> Figure:
    """Heatmaps of attention scores that depend on position alone, query position down, key position across.

    The panels, drawn in this order whichever order ``panels`` lists them in:

    - ``"plain"``: ``PE_i · PE_j``, a function of ``j − i``;
    - ``"projected"``: ``(PE_i W_Q) · (PE_j W_K)`` with random ``W``, which is not;
    - ``"ahead"``: ``PE_iᵀ A PE_j`` with ``A = T_kᵀ`` (``k = ahead``), that is ``PE_{i+k} · PE_j``: the head that
      looks ``k`` positions ahead;
    - ``"rope"``: RoPE's ``(Rot_i q) · (Rot_j k)`` for one token at every position (a function of ``j − i`` again, but
      not of ``|j − i|`` alone).

    Scores are those of ``pe_docs.analysis.attention_bias.position_scores`` (divided by ``√d_model``) for the
    float64 table; ``A = T_kᵀ`` is ``pe_docs.analysis.relative_transform(ahead, d_model)`` transposed.
    ``W_Q`` and ``W_K`` are Gaussian with variance ``1 / d_model``, drawn from a generator seeded with ``seed``,
    so the figure is deterministic. The RoPE panel draws a token embedding ``x ~ N(0, 1)`` from the same
    generator after them, projects it, ``q = x W_Q`` and ``k = x W_K``, and turns ``q`` to position ``i`` and
    ``k`` to ``j`` with ``pe_docs.analysis.rope_rotate`` (neighbouring pairs, base 10000), divided by
    ``√d_model``. Each panel has its own symmetric colour scale.

    Args:
        max_len: Number of positions (rows and columns of each heatmap); an integer >= 1.
        d_model: Width of the table; a positive even integer.
        seed: Seed of the random projections; an integer >= 0.
        panels: The panels to draw, at least one, each at most once: some of ``"plain"``, ``"projected"``,
            ``"ahead"`` and ``"rope"``.
        ahead: The offset ``k`` of the ``"ahead"`` panel; an integer >= 1.
        names: What the labels call the query's and the key's position, as the page names them
            (RoPE's pages say ``("m", "n")``); two non-empty strings.
        layout: ``"wide"`` (the heatmaps side by side) or ``"narrow"`` (one above the other).
        lang: Language of the labels, ``"en"`` or ``"zh"``.
        theme: Colour scheme, ``"light"`` or ``"dark"``.

    Returns:
        A ``matplotlib.figure.Figure`` with one heatmap's axes per panel, then their colour bars.

    Raises:
        TypeError: ``max_len``, ``d_model``, ``seed`` or ``ahead`` is not an integer, or ``panels`` or ``names``
            is not a sequence of strings.
        ValueError: ``max_len < 1``, ``d_model`` not positive and even, ``seed < 0``, ``ahead < 1``, a panel
            not one of these four or listed twice, no panel, ``names`` not two non-empty strings, or a bad
            ``layout``/``lang``/``theme``.

    Examples:
        >>> fig = plot_position_scores(max_len=8, d_model=8)
        >>> len(fig.axes)
        4
    """
    lang, theme = check_lang_theme(lang, theme)
    wide = check_layout(layout) == "wide"
    max_len = check_int("max_len", max_len, minimum=1)
    d_model = check_d_model(d_model)
    seed = check_int("seed", seed, minimum=0)
    ahead = check_int("ahead", ahead, minimum=1)
    if isinstance(panels, str) or not all(isinstance(p, str) for p in panels):
        raise TypeError(f"panels must be a sequence of panel names, got {panels!r}")
    unknown = [p for p in panels if p not in _PANELS]
    if unknown or not panels or len(set(panels)) != len(panels):
        raise ValueError(f"panels must name each of {_PANELS} at most once, and at least one, got {tuple(panels)!r}")
    if not isinstance(names, tuple) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"names must be a tuple of two strings, got {names!r}")
    if len(names) != 2 or not all(names):
        raise ValueError(f"names must be two non-empty strings, got {names!r}")
    a, b = names
    table = sinusoidal_table(max_len, d_model, dtype=torch.float64)
    g = torch.Generator().manual_seed(seed)
    w_q = torch.randn(d_model, d_model, generator=g, dtype=torch.float64) / d_model**0.5
    w_k = torch.randn(d_model, d_model, generator=g, dtype=torch.float64) / d_model**0.5
    drawn: list[tuple[torch.Tensor, str]] = []
    if "plain" in panels:
        drawn.append((position_scores(table)[0], f"PE_{a} · PE_{b} / √d"))
    if "projected" in panels:
        title = f"(PE_{a} W_Q) · (PE_{b} W_K) / √d\n" + text(lang, en="random W", zh="随机 W")
        drawn.append((position_scores(table, w_q, w_k)[0], title))
    if "ahead" in panels:
        look = relative_transform(ahead, d_model, dtype=torch.float64).T  # A = T_k^T: PE_i A = PE_{i+k}
        title = f"PE_{a}ᵀ A PE_{b} / √d, A = T_{ahead}ᵀ\n" + text(
            lang, en=f"looks {ahead} ahead", zh=f"往后看 {ahead} 个位置"
        )
        drawn.append((position_scores(table, look, torch.eye(d_model, dtype=torch.float64))[0], title))
    if "rope" in panels:
        x = torch.randn(d_model, generator=g, dtype=torch.float64)  # one token, at every position
        positions = torch.arange(max_len)
        q = rope_rotate((x @ w_q).expand(max_len, d_model), positions, pairing="interleaved")
        k = rope_rotate((x @ w_k).expand(max_len, d_model), positions, pairing="interleaved")
        title = text(
            lang,
            en=f"RoPE: (Rot_{a} q) · (Rot_{b} k) / √d\none token, same W",
            zh=f"RoPE：(Rot_{a} q) · (Rot_{b} k) / √d\n同一个词元，同样的 W",
        )
        drawn.append(((q @ k.T) / d_model**0.5, title))
    n = len(drawn)
    with themed(lang, theme, layout):
        if wide:
            width, height = {1: (4.4, 3.7), 2: (7.6, 3.7), 3: (9.6, 3.3)}.get(n, (12.4, 3.3))
            fig, axes = new_figure(width, height, ncols=n, squeeze=False)
        else:
            fig, axes = new_figure(NARROW_WIDTH, 3.1 * n, nrows=n, squeeze=False)
        for ax, (scores, title) in zip(axes.flat, drawn, strict=True):
            m = float(scores.abs().max())
            im = ax.imshow(scores.numpy(), cmap="RdBu_r", vmin=-m, vmax=m, interpolation="nearest")
            ax.grid(False)
            ax.set_title(title, fontsize=10)
            ax.set_xlabel(text(lang, en=f"key position {b}", zh=f"键位置 {b}"))
            ax.set_ylabel(text(lang, en=f"query position {a}", zh=f"查询位置 {a}"))
            fig.colorbar(im, ax=ax, shrink=0.8)
    return fig
