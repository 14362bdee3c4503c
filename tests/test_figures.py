"""Build-time figures: deterministic bytes, content-hash cache, missing glyphs fail, both languages."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from pe_docs import plotting
from pe_docs.plotting import _style
from site_tools import cache
from site_tools.build import figures


def built(site_dir: Path, name: str, lang: str, theme: str) -> bytes:
    """The figure file the test run's build wrote (drawn in the build's own process, or taken from the cache)."""
    return (site_dir / ("" if lang == "en" else lang) / "figures" / f"{name}.{theme}.svg").read_bytes()


@pytest.mark.site
@pytest.mark.parametrize("name", sorted(figures.FIGURES))
def test_every_registered_figure_renders_deterministically(name: str, site_dir: Path) -> None:
    """Drawn here, the figure has the bytes the build's process drew (or the cache holds: keyed by content, it must
    be the same). Every figure of both languages is also compared between two builds (test_reproducible.py)."""
    first = figures.render_svg(name, "zh", "light")
    assert first == built(site_dir, name, "zh", "light")
    assert b"<svg" in first and b"<dc:date>" not in first


def _ids_in_order(svg: bytes) -> str:
    """The SVG with every id (and reference to it) renamed by order of first appearance: matplotlib derives
    some ids from a hash of the style, colours included, so recoloured and redrawn files differ only there."""
    text = svg.decode("utf-8")
    ids: dict[str, str] = {}
    for found in re.findall(r'id="([^"]+)"', text):
        ids.setdefault(found, f"id{len(ids)}")
    if not ids:
        return text
    pattern = re.compile(r'(?<=["#(])(' + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r')(?=["),])')
    return pattern.sub(lambda m: ids[m.group(1)], text)


@pytest.mark.site
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", sorted(figures.FIGURES))
def test_recoloured_figure_is_the_figure_drawn_for_that_scheme(name: str, lang: str, site_dir: Path) -> None:
    """The build draws each figure once per language and recolours it for the other scheme; that must give
    what drawing with ``theme="dark"`` gives (a figure with another scheme-dependent colour fails here). The light
    figure is the build's (drawn in its process: byte-identical to drawing it here, see above)."""
    light, dark = built(site_dir, name, lang, "light"), figures.render_svg(name, lang, "dark")
    recoloured = figures.recolour(light, "light", "dark")
    assert recoloured != light
    assert recoloured == built(site_dir, name, lang, "dark")  # what the build installed as the dark figure
    assert _ids_in_order(recoloured) == _ids_in_order(dark)
    assert _ids_in_order(figures.recolour(dark, "dark", "light")) == _ids_in_order(light)


def test_the_build_draws_every_scheme_the_library_knows() -> None:
    assert figures.THEMES == plotting.THEMES  # spelled out in the build, which does not import the library


def test_recolour_refuses_an_ambiguous_svg() -> None:
    dark_fg = _style.theme_colours("dark")[0]
    with pytest.raises(ValueError, match="already uses dark colours"):
        figures.recolour(f'<svg><path style="fill: {dark_fg}"/></svg>'.encode(), "light", "dark")


def test_labels_follow_the_language() -> None:
    fig = plotting.plot_heatmap(lang="zh")
    assert "位置" in fig.axes[0].get_ylabel()
    fig = plotting.plot_heatmap(lang="en")
    assert fig.axes[0].get_ylabel().startswith("position")


def test_theme_changes_colours() -> None:
    assert figures.render_svg("waveforms", "en", "light") != figures.render_svg("waveforms", "en", "dark")


def test_bad_lang_or_theme() -> None:
    with pytest.raises(ValueError, match="lang must be one of.*'fr'"):
        plotting.plot_heatmap(lang="fr")
    with pytest.raises(ValueError, match="theme must be one of.*'sepia'"):
        plotting.plot_waveforms(theme="sepia")
    with pytest.raises(ValueError, match="dims must be < d_model=128, got 200"):
        plotting.plot_waveforms(dims=(0, 200))


def test_cache_reuses_unchanged_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    calls: list[str] = []
    real = figures.render_svg

    def counting(name: str, lang: str, theme: str) -> bytes:
        calls.append(name)
        return real(name, lang, theme)

    monkeypatch.setattr(figures, "render_svg", counting)
    first = figures.ensure_figures("en", ["heatmap"])
    assert len(calls) == 1  # drawn once (light), recoloured for dark
    assert set(first) == {"figures/heatmap.light.svg", "figures/heatmap.dark.svg"}
    second = figures.ensure_figures("en", ["heatmap"])
    assert len(calls) == 1 and first == second  # nothing redrawn
    # a change of the arguments changes the key and redraws
    monkeypatch.setitem(figures.FIGURES, "heatmap", figures.FigureSpec("plot_heatmap", {"max_len": 50, "d_model": 64}))
    third = figures.ensure_figures("en", ["heatmap"])
    assert len(calls) == 2 and third != first
    assert len(list((tmp_path / "figures" / "en").glob("heatmap.light.*.svg"))) == 1  # the stale file is removed


def test_missing_glyph_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def plot_boxes(*, lang: str, theme: str) -> Figure:
        with _style.themed("en", theme):  # English fonts only, Chinese text: matplotlib draws boxes
            fig, ax = _style.new_figure()
            ax.set_title("位置编码")
        return fig

    monkeypatch.setattr(plotting, "plot_boxes", plot_boxes, raising=False)
    monkeypatch.setitem(figures.FIGURES, "boxes", figures.FigureSpec("plot_boxes"))
    with pytest.raises(UserWarning, match="Glyph .* missing"):
        figures.render_svg("boxes", "zh", "light")


def test_chinese_figure_has_no_missing_glyph() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figures.render_svg("heatmap", "zh", "light")


def test_figures_are_byte_identical_across_processes() -> None:
    """Two builds of one commit give identical files: draw in a fresh interpreter and compare."""
    import subprocess
    import sys

    code = (
        "import sys; from site_tools.build.figures import render_svg; "
        "sys.stdout.buffer.write(render_svg('heatmap', 'zh', 'light'))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=figures.ROOT, capture_output=True, check=True).stdout
    assert out == figures.render_svg("heatmap", "zh", "light")


def test_figures_do_not_depend_on_the_drawing_process_threads() -> None:
    """``make serve`` draws with every core, the tests with one thread per process, and both share the cache: the
    PCA figure (an SVD, whose last bits change with the thread count) has the same bytes either way, and the
    caller's thread count is left as it was."""
    import torch

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        many = figures.render_svg("geometry-pca", "en", "light")
        assert torch.get_num_threads() == 2
        torch.set_num_threads(1)
        assert figures.render_svg("geometry-pca", "en", "light") == many
    finally:
        torch.set_num_threads(before)
