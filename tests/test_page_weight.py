"""What a page costs a reader's phone: the measurement, and the build steps that keep pages light.

``tests/test_browser.py`` holds every page of the built site to ``PAGE_BUDGET`` (its first view on a phone, in each
colour scheme, as a static host that gzips text sends it). Here: the measurement counts what a page really downloads,
as it arrives (a synthetic page with a known size for each of its requests, text gzipped by the test server as by
GitHub Pages), so a page that grows past the budget fails; figures are lazy, sized and named
(``site_tools.finish.assets.figure_links``, a step of the finishing pass, on a page's tree).
"""

from __future__ import annotations

import gzip
import random
import string
from pathlib import Path

import pytest

from site_tools import dom, layout
from site_tools.browser import PAGE_BUDGET, first_view, gzipped, serve_site, shared_browser
from site_tools.finish import assets

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}">{pad}</svg>'


def _svg(path: Path, size: int, w: float = 300, h: float = 150) -> None:
    """An SVG of ``size`` bytes that gzip cannot shrink much (random letters in a comment)."""
    head = SVG.format(w=w, h=h, pad="")
    pad = "".join(random.Random(size).choices(string.ascii_letters + string.digits, k=size - len(head) - 7))
    path.write_text(SVG.format(w=w, h=h, pad="<!--" + pad + "-->"), encoding="utf-8")
    assert path.stat().st_size == size


@pytest.mark.browser
def test_first_view_counts_every_request_and_nothing_more(tmp_path: Path) -> None:
    """Every request until the network is idle after load (one started by a timer after load, one by a worker),
    as it arrives: text gzipped, as a static host sends it (other files as they are); not a lazy image far below the
    fold, nor one hidden with display:none."""
    (tmp_path / "figures").mkdir()
    _svg(tmp_path / "figures/top.svg", 20_000)
    _svg(tmp_path / "figures/far.svg", 30_000)
    _svg(tmp_path / "figures/hidden.svg", 40_000)
    (tmp_path / "late.json").write_text('{"x": "' + "y" * 5_000 + '"}', encoding="utf-8")
    (tmp_path / "worker.js").write_text("fetch('worker.json');\n", encoding="utf-8")
    (tmp_path / "worker.json").write_text("[" + "1," * 3_000 + "1]", encoding="utf-8")
    (tmp_path / "data.bin").write_bytes(bytes(random.Random(0).randrange(256) for _ in range(7_000)))
    (tmp_path / "index.html").write_text(
        """<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>
        <img src="figures/top.svg" alt="top">
        <img src="figures/hidden.svg" alt="hidden" loading="lazy" style="display:none">
        <div style="height: 20000px"></div>
        <img src="figures/far.svg" alt="far" loading="lazy" width="400" height="200">
        <script>
          addEventListener('load', () => setTimeout(() => fetch('late.json'), 150));
          fetch('data.bin').then(r => r.arrayBuffer());
          new Worker('worker.js');
        </script></body></html>""",
        encoding="utf-8",
    )
    files = {"": "index.html", "figures/top.svg": "figures/top.svg", "late.json": "late.json"}
    files |= {"worker.js": "worker.js", "worker.json": "worker.json"}
    expected = {url: len(gzipped((tmp_path / name).read_bytes())) for url, name in files.items()}
    expected["data.bin"] = 7_000  # not text: sent as it is
    assert expected["worker.json"] < (tmp_path / "worker.json").stat().st_size / 10  # gzipped indeed
    assert gzip.decompress(gzipped(b"x")) == b"x"
    with serve_site(tmp_path) as base, first_view(shared_browser(), base, site=base) as view:
        downloads = {url.removeprefix(base): size for url, size in view.downloads() if not url.endswith("favicon.ico")}
        assert downloads == expected
        assert view.weight() == sum(expected.values()) + sum(
            size for url, size in view.downloads() if url.endswith("favicon.ico")
        )


@pytest.mark.browser
def test_a_page_past_the_budget_is_over_it(tmp_path: Path) -> None:
    """The per-page budget check in test_browser.py sees a page that grows: one more large figure near the top."""
    (tmp_path / "figures").mkdir()
    _svg(tmp_path / "figures/big.svg", 2 * PAGE_BUDGET)  # random letters: gzip takes off less than half
    (tmp_path / "index.html").write_text(
        '<!doctype html><html><body><img src="figures/big.svg" alt="a big figure" loading="lazy"></body></html>',
        encoding="utf-8",
    )
    with serve_site(tmp_path) as base, first_view(shared_browser(), base, site=base) as view:
        assert view.weight() > PAGE_BUDGET


def _figure_links(html: str, site_dir: Path, lang: str) -> str:
    tree = dom.parse_fragment(html)
    assets.figure_links(tree, "formula/", site_dir, lang=lang)
    return dom.write(tree)


def test_figures_are_lazy_sized_and_their_links_named(tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    _svg(tmp_path / "figures/heatmap.light.svg", 1_000, w=504, h=302.4)
    page = (
        '<p><a class="glightbox" data-type="image" href="../figures/heatmap.light.svg#only-light">'
        '<img alt="Heatmap &amp; more" src="../figures/heatmap.light.svg#only-light"></a>'
        '<img alt="not a figure" src="../assets/logo.png"></p>'
    )
    out = _figure_links(page, tmp_path, lang="zh")
    assert 'aria-label="Heatmap &amp; more（查看大图）"' in out
    # 504 pt × 302.4 pt is 672 × 403.2 CSS pixels
    assert (
        '<img alt="Heatmap &amp; more" src="../figures/heatmap.light.svg#only-light" loading="lazy" decoding="async"'
        ' width="672" height="403">' in out
    )
    assert '<img alt="not a figure" src="../assets/logo.png">' in out
    assert _figure_links(out, tmp_path, lang="zh") == out  # done once
    en = _figure_links(page, tmp_path, lang="en")
    assert 'aria-label="Heatmap &amp; more (view larger)"' in en


def test_a_figure_with_a_narrow_layout_keeps_its_picture_in_the_lightbox_link(tmp_path: Path) -> None:
    """mkdocs-glightbox puts its link inside the <picture>, where the image would ignore the picture's sources (the
    phone's narrow layout): the link goes around the picture, named as any figure's."""
    (tmp_path / "figures").mkdir()
    _svg(tmp_path / "figures/heatmap.light.svg", 1_000, w=504, h=302.4)
    source = '<source media="(max-width: 37.5em)" srcset="../figures/heatmap-narrow.light.svg">'
    page = (
        f'<p><picture>{source}<a class="glightbox" data-type="image" href="../figures/heatmap.light.svg#only-light">'
        '<img alt="Heatmap" src="../figures/heatmap.light.svg#only-light"></a></picture></p>'
    )
    out = _figure_links(page, tmp_path, lang="en")
    assert out == (
        '<p><a class="glightbox" data-type="image" href="../figures/heatmap.light.svg#only-light"'
        f' aria-label="Heatmap (view larger)"><picture>{source}<img alt="Heatmap"'
        ' src="../figures/heatmap.light.svg#only-light" loading="lazy" decoding="async" width="672" height="403">'
        "</picture></a></p>"
    )
    assert _figure_links(out, tmp_path, lang="en") == out  # done once


def test_svg_size_in_pixels(tmp_path: Path) -> None:
    _svg(tmp_path / "a.svg", 500, w=460.8, h=345.6)
    assert assets.svg_size(tmp_path / "a.svg") == (614, 461)
    assert assets.svg_size(tmp_path / "missing.svg") is None


@pytest.mark.site
def test_only_pages_with_figures_load_the_lightbox(site_dir: Path) -> None:
    with_figures, without = 0, 0
    for html in site_dir.rglob("index.html"):
        text = html.read_text(encoding="utf-8")
        figures = 'class="glightbox"' in text
        assert ("glightbox.min.js" in text) == figures, html
        assert ("glightbox.min.css" in text) == figures, html
        with_figures += figures
        without += not figures
    assert with_figures and without


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_contributing_states_the_budget_the_tests_hold_pages_to(lang: str) -> None:
    """The Contributing page quotes the phone budget and width (its front matter names them as quoted): they are
    the values the browser tests use."""
    from site_tools.browser import PHONE

    text = (layout.DOCS / lang / "contributing.md").read_text(encoding="utf-8")
    assert f"at most {PAGE_BUDGET // 1000} KB" in text or f"不超过 {PAGE_BUDGET // 1000} KB" in text
    assert f"{PHONE['width']} px" in text
