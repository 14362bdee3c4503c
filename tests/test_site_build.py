"""The built site: strict build, one search index per language, segmented Chinese, nothing loaded off-site."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from site_tools import pages
from site_tools.finish.cjk import HAN

pytestmark = pytest.mark.site


def page_urls(lang: str) -> set[str]:
    """Directory URLs (as in the search index) of the source pages of one language."""
    urls = set()
    for name in pages.files(lang):
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
    with_cjk = [t for t in titles if HAN.search(t)]
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
    assert "permutation" in en and "循环神经网络" not in en


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
    # math is typeset at build time (site_tools/finish/formulas.py): KaTeX's stylesheet and fonts are served, no script
    for rel in ("assets/katex/katex.min.css",):
        assert (site_dir / rel).is_file() and (site_dir / "zh" / rel).is_file()
    assert not list(site_dir.rglob("katex*.js")) and not list(site_dir.rglob("auto-render*.js"))
    css = (site_dir / "assets/katex/katex.min.css").read_text(encoding="utf-8")
    for font in re.findall(r"url\((fonts/[^)]+\.woff2)\)", css):
        assert (site_dir / "assets/katex" / font).is_file(), font


def test_notebook_rendered_with_download(site_dir: Path) -> None:
    for prefix in (site_dir, site_dir / "zh"):
        html = (prefix / "walkthrough/index.html").read_text(encoding="utf-8")
        assert "walkthrough.ipynb" in html and "download" in html
        assert (prefix / "notebooks/walkthrough.ipynb").is_file()
        # what the last block prints, checked by the tests, is in the page
        assert "matches pe_docs.sinusoidal_table" in html
        assert "Traceback" not in html


def test_figures_are_generated_per_language(site_dir: Path) -> None:
    from site_tools.build.figures import FIGURES

    for name in FIGURES:
        en = (site_dir / f"figures/{name}.light.svg").read_bytes()
        zh = (site_dir / f"zh/figures/{name}.light.svg").read_bytes()
        assert en.startswith(b"<?xml") and zh.startswith(b"<?xml")
        assert en != zh, f"{name}: the Chinese figure should have Chinese labels"


def test_build_time_is_reported(built_site: dict[str, object]) -> None:
    timings = built_site["timings"]
    assert set(timings) == {"en", "zh"}  # type: ignore[arg-type]
    print(f"\nsite build: {built_site['seconds']:.1f} s ({timings})")


# --- publishing: addresses, head links, reader conveniences, page weight ------------------------------------------

REPOSITORY = "https://github.com/pe-docs/pe-docs"
# One HTML file; what a page costs a phone in all (its first view, every request) is held to PAGE_BUDGET in
# tests/test_browser.py. Math is typeset at build time (KaTeX's HTML and MathML are in the page: ~1.5 KB a formula),
# so the page with the most formulas (relative, 219) is about 550 KB (50 KB gzipped, as GitHub Pages serves it).
MAX_PAGE_BYTES = 650_000


def lang_base(site_base: str, lang: str) -> str:
    return site_base if lang == "en" else f"{site_base}{lang}/"


def page_html(site_dir: Path, lang: str, url: str) -> str:
    prefix = site_dir if lang == "en" else site_dir / lang
    return (prefix / url / "index.html").read_text(encoding="utf-8")


class _HeadLinks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict[str, str | None]] = []
        self.in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "head":
            self.in_head = True
        elif tag == "link" and self.in_head:
            self.links.append(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self.in_head = False


@pytest.mark.parametrize("lang", pages.LANGS)
def test_head_names_the_canonical_address_and_each_language_s_home(site_dir: Path, site_base: str, lang: str) -> None:
    """Material's own head links: the page's canonical address, and each language's home (``extra.alternate``),
    whose ``sitemap.xml`` Material's script fetches (each page's twin is named in the sitemap)."""
    from urllib.parse import urljoin

    for url in sorted(page_urls(lang)):
        parser = _HeadLinks()
        parser.feed(page_html(site_dir, lang, url))
        canonical = [link["href"] for link in parser.links if link.get("rel") == "canonical"]
        assert canonical == [lang_base(site_base, lang) + url], (lang, url)
        homes = [
            (link["hreflang"], urljoin(canonical[0], link["href"])) for link in parser.links if link.get("hreflang")
        ]
        assert sorted(homes) == sorted((other, lang_base(site_base, other)) for other in pages.LANGS), (lang, url)
        for _, home in homes:
            root = site_dir / home.removeprefix(site_base)
            assert (root / "sitemap.xml").is_file(), home


@pytest.mark.parametrize("lang", pages.LANGS)
def test_sitemap_lists_every_page_at_its_public_address_with_its_twins(
    site_dir: Path, site_base: str, lang: str
) -> None:
    """Each page at its public address, with its twin in each language (``hreflang``, absolute, and ``x-default``:
    English), as search engines read alternates from a sitemap; the gzipped copy says the same."""
    import gzip
    import xml.etree.ElementTree as ET

    path = (site_dir if lang == "en" else site_dir / lang) / "sitemap.xml"
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ET.parse(path).getroot()
    locs = [loc.text for loc in root.findall("s:url/s:loc", ns)]
    assert sorted(locs) == sorted(lang_base(site_base, lang) + url for url in page_urls(lang))
    for entry in root.findall("s:url", ns):
        url = entry.findtext("s:loc", namespaces=ns).removeprefix(lang_base(site_base, lang))
        twins = [(link.get("rel"), link.get("hreflang"), link.get("href")) for link in entry.findall("x:link", ns)]
        assert sorted(twins) == sorted(
            [("alternate", other, lang_base(site_base, other) + url) for other in pages.LANGS]
            + [("alternate", "x-default", site_base + url)]
        ), (lang, url)
    assert gzip.decompress(path.with_name("sitemap.xml.gz").read_bytes()) == path.read_bytes()


def test_404_page_loads_its_assets_under_the_sub_path(site_dir: Path, site_base: str) -> None:
    from urllib.parse import urlsplit

    root = urlsplit(site_base).path  # /pe-docs-test/
    parser = _Refs()
    html = (site_dir / "404.html").read_text(encoding="utf-8")
    parser.feed(html)
    local = [value for tag, attr, value in parser.refs if not value.startswith(("data:", "#"))]
    assert local and all(value.startswith(root) for value in local), [v for v in local if not v.startswith(root)]
    assert f'href="{root}"' in html and f'href="{root}zh/"' in html and "页面未找到" in html


def _action_links(html: str) -> dict[str, str]:
    """The page's "Edit this page" (rel=edit) and "View source" (the raw file) buttons."""
    buttons = re.findall(r'<a href="([^"]+)" title="[^"]*" class="md-content__button md-icon"( rel="edit")?', html)
    return {("edit" if rel else "view"): href for href, rel in buttons}


@pytest.mark.parametrize("lang", pages.LANGS)
def test_every_page_links_its_own_source_file(site_dir: Path, lang: str) -> None:
    for name in pages.files(lang):
        stem = name.rsplit(".", 1)[0]
        html = page_html(site_dir, lang, "" if stem == "index" else f"{stem}/")
        assert _action_links(html) == {
            "edit": f"{REPOSITORY}/edit/main/docs/{lang}/{name}",
            "view": f"{REPOSITORY}/raw/main/docs/{lang}/{name}",
        }, name
        assert 'data-md-component="source"' not in html  # no repository widget (it would call api.github.com)


@pytest.mark.parametrize(
    ("lang", "url", "source"),
    [("en", "formula/", "formula.md"), ("zh", "formula/", "formula.md"), ("zh", "walkthrough/", "walkthrough.md")],
)
def test_edit_and_view_source_urls(site_dir: Path, lang: str, url: str, source: str) -> None:
    links = _action_links(page_html(site_dir, lang, url))
    assert links["edit"] == f"https://github.com/pe-docs/pe-docs/edit/main/docs/{lang}/{source}"
    assert links["view"] == f"https://github.com/pe-docs/pe-docs/raw/main/docs/{lang}/{source}"


@pytest.mark.parametrize("lang", pages.LANGS)
def test_last_update_is_the_git_date_in_the_page_language(site_dir: Path, lang: str) -> None:
    import datetime as dt
    import subprocess

    from babel.dates import format_date

    root = Path(__file__).resolve().parent.parent
    title = {"en": "Last update", "zh": "最后更新"}[lang]
    for name in pages.files(lang):
        stem = name.rsplit(".", 1)[0]
        html = page_html(site_dir, lang, "" if stem == "index" else f"{stem}/")
        shown = re.findall(r'git-revision-date-localized-plugin-date" title="[^"]*">([^<]+)</span>', html)
        stamp = subprocess.run(
            ["git", "log", "-1", "--format=%at", "--", f"docs/{lang}/{name}"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if stamp:
            days = [dt.datetime.fromtimestamp(int(stamp), dt.UTC).date()]
        else:  # not committed yet: the plugin shows the build date
            today = dt.datetime.now(dt.UTC).date()
            days = [today, today - dt.timedelta(days=1)]
        assert len(shown) == 1 and shown[0] in {format_date(d, format="long", locale=lang) for d in days}, (name, shown)
        assert f'title="{title}"' in html


def test_pages_stay_light(site_dir: Path) -> None:
    sizes = sorted(
        ((p.stat().st_size, p.relative_to(site_dir).as_posix()) for p in site_dir.rglob("*.html")), reverse=True
    )
    print("\nlargest pages:", ", ".join(f"{rel} {size / 1000:.0f} KB" for size, rel in sizes[:4]))
    assert [rel for size, rel in sizes if size > MAX_PAGE_BYTES] == []


def test_no_source_maps_are_shipped(site_dir: Path) -> None:
    assert list(site_dir.rglob("*.map")) == []
    with_comment = [
        p.relative_to(site_dir).as_posix()
        for p in [*site_dir.rglob("*.js"), *site_dir.rglob("*.css")]
        if "sourceMappingURL=" in p.read_text(encoding="utf-8", errors="replace")[-300:]
    ]
    assert with_comment == []


def test_figures_open_in_a_self_hosted_lightbox(site_dir: Path) -> None:
    for prefix in ("", "zh/"):
        for rel in ("assets/javascripts/glightbox.min.js", "assets/stylesheets/glightbox.min.css"):
            assert (site_dir / prefix / rel).is_file()
        html = (site_dir / prefix / "formula/index.html").read_text(encoding="utf-8")
        anchors = re.findall(r'<a class="glightbox"[^>]*href="([^"]+)"[^>]*data-gallery="(\w+)"', html)
        assert anchors
        for href, gallery in anchors:  # each variant in its own scheme's gallery
            assert href.endswith(f"#only-{gallery}"), (href, gallery)
