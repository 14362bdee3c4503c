"""Build-time figures: every figure a page shows is drawn here from a named function in ``pe_docs``.

A page refers to a figure as ``figures/<name>.<theme>.svg`` (``theme`` is ``light`` or ``dark``); the mkdocs
hook renders each registered figure for the page's language into a cache and adds it to the build. A figure
is redrawn only when its content key changes (the ``pe_docs`` sources, this file, the arguments, the
language/theme and the matplotlib version), and drawing is deterministic, so two builds of one commit give
byte-identical files. A glyph missing from the fonts is an error, not a warning.
"""

from __future__ import annotations

import hashlib
import html
import io
import math
import re
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_tools import ROOT, cache

if TYPE_CHECKING:
    from pe_docs.plotting._style import Theme

PACKAGE_DIR = ROOT / "pe_docs"
# pe_docs.plotting.THEMES (test_figures), whose import costs a build torch and matplotlib
THEMES: tuple[Theme, ...] = ("light", "dark")


@dataclass(frozen=True)
class FigureSpec:
    """A figure: the ``pe_docs.plotting`` function that draws it and the arguments it is drawn with."""

    function: str  # name of a function in pe_docs.plotting
    kwargs: dict[str, Any] = field(default_factory=dict)


# name -> spec. The name is the file name a page uses: figures/<name>.<light|dark>.svg
FIGURES: dict[str, FigureSpec] = {
    "clock-hands": FigureSpec("plot_clock_hands", {"positions": (0, 1, 2, 10, 100, 1000), "d_model": 8}),
    "heatmap": FigureSpec("plot_heatmap", {"max_len": 100, "d_model": 128}),
    "waveforms": FigureSpec("plot_waveforms", {"max_len": 100, "d_model": 128, "dims": (0, 10, 50, 100)}),
    "sine-alone": FigureSpec("plot_sine_alone", {"theta": math.pi / 6, "turn": math.pi / 3}),  # 30°, 60°: the page's
    "step-walks": FigureSpec("plot_step_walks", {"stretch": 1.08, "turn": 0.3, "steps": 20}),
    "wavelengths": FigureSpec("plot_wavelengths", {"d_model": 512}),
    "scale-shares": FigureSpec("plot_scale_shares", {"d_model": 512}),
    "scales": FigureSpec(
        "plot_scales",
        {"d_model": 512, "short": 64, "long": 60000, "low_dims": (0, 16, 64), "high_dims": (384, 448, 510)},
    ),
    "binary-vs-sinusoid": FigureSpec("plot_binary_vs_sinusoid", {"n_bits": 5, "d_model": 512}),
    "neighbour-similarity": FigureSpec("plot_neighbour_similarity", {"d_models": (128, 512), "max_k": 4000}),
    "frequency-ulps": FigureSpec("plot_frequency_ulps", {"d_model": 768}),
    "log-trick-error": FigureSpec("plot_log_trick_error", {"d_model": 512, "max_position": 10**6}),
    "dtype-error": FigureSpec("plot_dtype_error", {"max_position": 10**6, "d_model": 512}),
    "singular-values": FigureSpec("plot_singular_values", {"lengths": (64, 512, 2048), "d_model": 512}),
    "position-scores": FigureSpec("plot_position_scores", {"max_len": 64, "d_model": 64, "seed": 0}),
    "ahead-scores": FigureSpec(
        "plot_position_scores",
        {
            "max_len": 64,
            "d_model": 64,
            "seed": 0,
            "panels": ("plain", "projected", "ahead"),
            "ahead": 16,
            "names": ("m", "n"),
        },
    ),
    "rope-scores": FigureSpec(
        "plot_position_scores",
        {"max_len": 64, "d_model": 64, "seed": 0, "panels": ("projected", "rope"), "names": ("m", "n")},
    ),
    "transform-matrices": FigureSpec("plot_transform_matrices", {"ks": (1, 5, 50), "d_model": 16}),
    "rotating-pairs": FigureSpec("plot_rotating_pairs", {"d_model": 8, "positions": 12, "pairs": (0, 1, 2)}),
    "geometry-curve": FigureSpec("plot_encoding_curve", {"d_model": 512, "positions": 600, "pairs": (76, 128)}),
    "geometry-pca": FigureSpec("plot_principal_components", {"d_model": 512, "lengths": (100, 1000), "n_shown": 30}),
    "geometry-similarity": FigureSpec("plot_similarity_matrix", {"d_models": (64, 512), "positions": 256}),
    "geometry-frequencies": FigureSpec("plot_measured_frequencies", {"d_model": 512, "n_positions": 1000}),
    "geometry-bands": FigureSpec("plot_band_contributions", {"d_model": 512, "max_k": 20000, "n_bands": 3}),
    "closest-returns": FigureSpec("plot_closest_returns", {"positions": 45, "max_offset": 2**24}),
    "t5-buckets": FigureSpec("plot_t5_buckets", {"max_offset": 160, "num_buckets": 32, "max_distance": 128}),
    "context-extension": FigureSpec(
        "plot_context_extension", {"head_dim": 128, "factor": 8.0, "original_len": 4096, "base": 10000.0}
    ),
    "variant-tables": FigureSpec("plot_variant_tables", {"max_len": 100, "d_model": 64}),
    "table-2d": FigureSpec("plot_table_2d", {"grid": 14, "d_model": 768, "patch": (4, 9)}),
}
# Every figure again for a phone's width, drawn by the same function with layout="narrow" (panels stacked or two a
# row, legends below, NARROW_WIDTH wide): a page shows `<name>-narrow` below 600 px, in a <picture> around the
# figure, `<source media="(max-width: 37.5em)" srcset="../figures/<name>-narrow.<theme>.svg">` (start here's clocks).
# Drawn 7 to 9 inches wide, the wide figures' text would be 4 to 8 px tall on a 390 px phone; tests/test_browser.py
# measures every figure's smallest text as a page shows it, on a phone and on a desktop.
FIGURES.update(
    {f"{name}-narrow": FigureSpec(spec.function, {**spec.kwargs, "layout": "narrow"}) for name, spec in FIGURES.items()}
)


def source_digest() -> str:
    """Hash of everything a figure's pixels (and a notebook's outputs) depend on besides their own source:
    the ``pe_docs`` sources, this registry, the matplotlib/NumPy/torch versions and the CJK font file."""
    import matplotlib
    import numpy
    import torch

    from pe_docs.plotting._style import find_cjk_font

    h = hashlib.sha256()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        h.update(path.relative_to(ROOT).as_posix().encode())
        h.update(path.read_bytes())
    h.update(Path(__file__).read_bytes())
    for version in (matplotlib.__version__, numpy.__version__, torch.__version__, str(find_cjk_font())):
        h.update(version.encode())
    return h.hexdigest()


def render_svg(name: str, lang: str, theme: str) -> bytes:
    """Draw one figure and return its SVG bytes (no dates or random ids in the file).

    The figure's numbers are computed on one torch thread: a reduction split over threads (an SVD, a PCA) rounds
    differently with their number, and the bytes must not depend on the process that draws them (``make serve``
    and ``make site`` use every core, the tests one thread per process; they share the cache)."""
    import matplotlib
    import torch

    from pe_docs import plotting

    spec = FIGURES[name]
    function: Callable[..., Any] = getattr(plotting, spec.function)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with warnings.catch_warnings():
            # A missing glyph draws a box; that must fail the build.
            warnings.filterwarnings("error", message=r".*Glyph .* missing from.*")
            fig = function(**spec.kwargs, lang=lang, theme=theme)
            buf = io.BytesIO()
            with matplotlib.rc_context({"svg.hashsalt": f"pe-docs-{name}", "svg.fonttype": "path"}):
                fig.savefig(buf, format="svg", metadata={"Date": None})
    finally:
        torch.set_num_threads(threads)
    return buf.getvalue()


# matplotlib draws a figure's text as paths ("svg.fonttype": "path"): a comment holding the text, then a group
# scaled by the font size over matplotlib's TextToPath.FONT_SCALE (100), in the SVG's units (points).
_TEXT = re.compile(r'<!-- (.*?) -->\s*<g\b[^>]*?\stransform="[^"]*?\bscale\(([-+\d.e]+) [-+\d.e]+\)"', re.S)
_VIEW_BOX = re.compile(r'<svg\b[^>]*?\sviewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"', re.S)
#: The smallest text a figure may show, in CSS pixels, as a page shows it: on a 390 px phone (the narrow layout)
#: and on a desktop (the wide one). tests/test_browser.py measures every figure of every page in both.
MIN_TEXT_PX = 9.0


def smallest_text(svg: bytes) -> tuple[float, str]:
    """The smallest text a figure's SVG holds, as a fraction of the SVG's width (its font size over the width of
    its view box), and the text: on a page that shows the figure ``w`` pixels wide, it is ``w`` times that tall
    (a font size: its capital letters are about 0.7 of it).

    Raises:
        ValueError: the SVG holds no text or has no view box.
    """
    from matplotlib.textpath import TextToPath

    text = svg.decode("utf-8")
    view = _VIEW_BOX.search(text)
    sizes = [(abs(float(scale)) * TextToPath.FONT_SCALE, label) for label, scale in _TEXT.findall(text)]
    if view is None or not sizes:
        raise ValueError(f"not a matplotlib SVG with text: view box {view is not None}, {len(sizes)} texts")
    size, label = min(sizes)
    return size / float(view.group(1)), html.unescape(label)


def recolour(svg: bytes, source: Theme, target: Theme) -> bytes:
    """The SVG of a figure drawn for colour scheme ``source``, turned into the one for ``target``: the only
    colours that depend on the scheme (``pe_docs.plotting._style.theme_colours``) are exchanged. Drawing is
    the slow part of a build, so each figure is drawn once per language; ``tests/test_figures.py`` checks, for
    every registered figure and language, that this gives the figure drawn for ``target`` (up to the ids
    matplotlib derives from colours).

    Raises:
        ValueError: the SVG already holds one of ``target``'s colours (the exchange would be ambiguous).
    """
    from pe_docs.plotting._style import theme_colours

    text = svg.decode("utf-8")
    pairs = list(zip(theme_colours(source), theme_colours(target), strict=True))
    clash = [new for old, new in pairs if new != old and new in text]
    if clash:
        raise ValueError(f"the {source} SVG already uses {target} colours {clash}; cannot recolour it")
    for old, new in pairs:
        text = text.replace(old, new)
    return text.encode("utf-8")


def ensure_figures(lang: str, names: Iterable[str] | None = None) -> dict[str, Path]:
    """Render (or reuse from the cache) every registered figure for ``lang``: drawn for the first scheme of
    ``THEMES``, recoloured for the others (see ``recolour``).

    Returns a mapping from the site path (``figures/<name>.<theme>.svg``) to the cached file.
    """
    digest = source_digest()
    out: dict[str, Path] = {}
    for name in names if names is not None else FIGURES:
        drawn: bytes | None = None
        spec = FIGURES[name]
        for theme in THEMES:
            what = repr((name, spec.function, sorted(spec.kwargs.items()), lang, theme))
            key = hashlib.sha256(digest.encode() + what.encode()).hexdigest()[:20]
            path = cache.folder("figures") / lang / f"{name}.{theme}.{key}.svg"
            if not path.exists():
                if drawn is None:
                    drawn = render_svg(name, lang, THEMES[0])
                for stale in path.parent.glob(f"{name}.{theme}.*.svg"):
                    stale.unlink(missing_ok=True)
                cache.write(path, drawn if theme == THEMES[0] else recolour(drawn, THEMES[0], theme))
            out[f"figures/{name}.{theme}.svg"] = path
    return out
