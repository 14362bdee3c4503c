"""The built site: strict build, one search index per language, segmented Chinese, nothing loaded off-site."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from site_tools import pages

pytestmark = pytest.mark.site
CJK = re.compile(r"[\u4e00-\u9fff]")


def page_urls(lang: str) -> set[str]:
    """Directory URLs (as in the search index) of the source pages of one language."""
    urls = set()
    for name in pages.pages(lang):
        stem = name.rsplit(".", 1)[0]
        urls.add("" if stem == "index" else f"{stem}/")
    return urls


def load_index(site_dir: Path, lang: str) -> dict:
    path = site_dir / ("search/search_index.json" if lang == "en" else f"{lang}/search/search_index.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_page_built_in_both_languages(site_dir: Path) -> None:
    for lang in pages.LANGS:
        prefix = site_dir if lang == "en" else site_dir / lang
        for url in page_urls(lang):
            assert (prefix / url / "index.html").is_file(), f"{lang}: {url} not built"


@pytest.mark.parametrize("lang", pages.LANGS)
def test_search_index_holds_only_its_language(site_dir: Path, lang: str) -> None:
    index = load_index(site_dir, lang)
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert locations == page_urls(lang)
    assert not any(loc.startswith(("zh/", "../")) for loc in locations)
    titles = [doc["title"] for doc in index["docs"] if "#" not in doc["location"]]
    with_cjk = [t for t in titles if CJK.search(t)]
    if lang == "zh":
        assert len(with_cjk) >= len(titles) - 1, titles  # every zh page title is Chinese (the API page too)
    else:
        assert not with_cjk, with_cjk


def test_chinese_index_is_segmented(site_dir: Path) -> None:
    index = load_index(site_dir, "zh")
    separator = index["config"]["separator"]
    assert "\\u200b" in separator or "\u200b" in separator
    text = " ".join(doc["text"] for doc in index["docs"])
    assert text.count("\u200b") > 100, "jieba did not segment the Chinese pages (is jieba installed?)"
    # the user dictionary keeps the central term whole
    assert re.search(r"(^|[\u200b\s])位置编码([\u200b\s]|$)", text)
    en = " ".join(doc["text"] for doc in load_index(site_dir, "en")["docs"])
    assert "permutation" in en and "置换等变性" not in en


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for attr in ("src", "href", "data", "poster", "srcset"):
            value = a.get(attr)
            if value is None:
                continue
            # <a href> navigates, it does not load; everything else here is fetched by the browser
            if tag == "a":
                continue
            if tag == "link" and (a.get("rel") or "") in {"canonical", "alternate"}:
                continue
            self.refs.append((tag, attr, value))


def test_nothing_loads_from_off_site(site_dir: Path) -> None:
    offsite = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.I)
    bad = []
    html_files = list(site_dir.rglob("*.html"))
    assert len(html_files) >= 2 * len(page_urls("en"))
    for path in html_files:
        parser = _Refs()
        parser.feed(path.read_text(encoding="utf-8"))
        for tag, attr, value in parser.refs:
            if offsite.match(value) or value.startswith(("http:", "https:")):
                bad.append(f"{path.relative_to(site_dir)}: <{tag} {attr}={value}>")
    for css in site_dir.rglob("*.css"):
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", css.read_text(encoding="utf-8")):
            if offsite.match(url):
                bad.append(f"{css.relative_to(site_dir)}: url({url})")
        if "@import" in css.read_text(encoding="utf-8") and "fonts.googleapis" in css.read_text(encoding="utf-8"):
            bad.append(f"{css.relative_to(site_dir)}: Google Fonts import")
    assert not bad, "\n".join(bad[:20])


def test_math_assets_are_self_hosted(site_dir: Path) -> None:
    for rel in ("assets/katex/katex.min.js", "assets/katex/katex.min.css", "assets/katex/contrib/auto-render.min.js"):
        assert (site_dir / rel).is_file() and (site_dir / "zh" / rel).is_file()
    css = (site_dir / "assets/katex/katex.min.css").read_text(encoding="utf-8")
    for font in re.findall(r"url\((fonts/[^)]+\.woff2)\)", css):
        assert (site_dir / "assets/katex" / font).is_file(), font


def test_notebook_rendered_with_download(site_dir: Path) -> None:
    for prefix in (site_dir, site_dir / "zh"):
        html = (prefix / "walkthrough/index.html").read_text(encoding="utf-8")
        assert "walkthrough.ipynb" in html and "download" in html
        assert (prefix / "walkthrough/walkthrough.ipynb").is_file()
        # executed at build time: the printed check of the last cell is in the page
        assert "matches pe_docs.sinusoidal_table" in html
        assert "Traceback" not in html


def test_figures_are_generated_per_language(site_dir: Path) -> None:
    from site_tools.figures import FIGURES

    for name in FIGURES:
        en = (site_dir / f"figures/{name}.light.svg").read_bytes()
        zh = (site_dir / f"zh/figures/{name}.light.svg").read_bytes()
        assert en.startswith(b"<?xml") and zh.startswith(b"<?xml")
        assert en != zh, f"{name}: the Chinese figure should have Chinese labels"


def test_build_time_is_reported(built_site: dict[str, object]) -> None:
    timings = built_site["timings"]
    assert set(timings) == {"en", "zh"}  # type: ignore[arg-type]
    print(f"\nsite build: {built_site['seconds']:.1f} s ({timings})")


def test_no_line_break_between_chinese_characters(site_dir: Path) -> None:
    """Wrapped lines of the Chinese sources would render as spaces in Chrome/Edge; the build removes them."""
    from site_tools import cjk

    found = {}
    for name in pages.pages("zh"):
        stem = name.rsplit(".", 1)[0]
        html = (site_dir / "zh" / ("" if stem == "index" else stem) / "index.html").read_text(encoding="utf-8")
        article = html.split('<article class="md-content__inner', 1)[1].split("</article>", 1)[0]
        if cjk.wide_line_breaks(article):
            found[name] = cjk.wide_line_breaks(article)[:3]
    assert found == {}, found
