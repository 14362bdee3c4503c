"""Every page of both languages in a real browser (Debian's Chromium, headless, loopback only).

The site is served under a sub-path, as on GitHub Pages (see conftest.py). Math typeset (no raw TeX), every
image loaded, no console errors, zero requests off the site; search per language; the language switcher keeps
the page; light/dark figure variants, each opening itself in the lightbox; the 404 page; phone width.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urljoin

import pytest

from site_tools import pages
from site_tools.browser import PHONE, browser

pytestmark = pytest.mark.browser


def all_paths() -> list[str]:
    out = []
    for lang in pages.LANGS:
        prefix = "" if lang == "en" else f"{lang}/"
        for name in pages.pages(lang):
            stem = name.rsplit(".", 1)[0]
            out.append(prefix + ("" if stem == "index" else f"{stem}/"))
    return out


@pytest.fixture(scope="module")
def base(site_base: str) -> str:
    assert site_base.endswith("/pe-docs-test/")  # served under a sub-path, not at the server's root
    return site_base


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    with browser() as b:
        yield b


RAW_TEX_JS = """() => {
  // the page body and the navigation/table of contents (headings with TeX would show raw there)
  const parts = [...document.querySelectorAll('article, .md-sidebar')].map(e => e.cloneNode(true));
  parts.forEach(p => p.querySelectorAll('pre, code, script, style, .katex, .highlight').forEach(e => e.remove()));
  const text = parts.map(p => p.textContent).join(' ');
  const marks = ['\\\\(', '\\\\[', '$$', '\\\\frac', '\\\\sin', '\\\\cos', '_{', '^{'];
  return marks.filter(m => text.includes(m));
}"""

STATS_JS = """() => ({
  katex: document.querySelectorAll('article .katex').length,
  untypeset: [...document.querySelectorAll('article .arithmatex')].filter(e => !e.querySelector('.katex')).length,
  images: [...document.querySelectorAll('article img')].map(i => [i.getAttribute('src'), i.complete, i.naturalWidth]),
  font: getComputedStyle(document.body).fontFamily,
})"""


@pytest.mark.parametrize("path", all_paths(), ids=lambda p: p or "home")
def test_page_in_browser(base: str, chromium: object, path: str) -> None:
    ctx = chromium.new_context()  # type: ignore[attr-defined]
    page = ctx.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.goto(base + path, wait_until="networkidle")
    page.wait_for_timeout(200)
    stats = page.evaluate(STATS_JS)
    raw = page.evaluate(RAW_TEX_JS)
    ctx.close()

    offsite = [u for u in requests if not u.startswith(base) and not u.startswith(("data:", "blob:"))]
    assert not offsite, f"requests off the site: {offsite}"
    assert not errors, errors
    assert not raw, f"raw TeX visible: {raw}"
    assert stats["untypeset"] == 0
    broken = [src for src, complete, width in stats["images"] if not (complete and width > 0)]
    assert not broken, f"images not loaded: {broken}"
    page_name = path.removeprefix("zh/").strip("/") or "index"
    if page_name in {"formula", "walkthrough"}:
        assert stats["katex"] > 0, "expected typeset math on this page"


def _search(chromium: object, url: str, query: str) -> list[str]:
    ctx = chromium.new_context()  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.goto(url, wait_until="networkidle")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # Material searches on keyup; filling Chinese text sends none
    page.wait_for_selector(".md-search-result__item a", timeout=10_000)
    hrefs = page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")
    ctx.close()
    return hrefs


@pytest.mark.parametrize(
    ("path", "query", "expect"),
    [
        ("", "permutation", "index"),
        ("formula/", "wavelengths", "formula"),
        ("zh/", "位置编码", "index"),
        ("zh/formula/", "置换等变性", "index"),  # a word that appears only in a Chinese body paragraph
        ("zh/formula/", "缓冲区", "formula"),
    ],
)
def test_search_stays_in_its_language(base: str, chromium: object, path: str, query: str, expect: str) -> None:
    hrefs = _search(chromium, base + path, query)
    assert hrefs
    lang_zh = path.startswith("zh/")
    for href in hrefs:
        assert href.startswith(base)
        assert ("/zh/" in href) == lang_zh, f"{query!r} from {path or 'home'} returned {href}"
    wanted = base + ("zh/" if lang_zh else "") + ("" if expect == "index" else f"{expect}/")
    assert any(h.split("#")[0].split("?")[0] == wanted for h in hrefs), hrefs


@pytest.mark.parametrize(("start", "lang", "target"), [("formula/", "zh", "zh/formula/"), ("zh/api/", "en", "api/")])
def test_language_switcher_keeps_the_page(base: str, chromium: object, start: str, lang: str, target: str) -> None:
    ctx = chromium.new_context()  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.goto(base + start, wait_until="networkidle")
    page.hover(".md-header__option .md-select")
    page.click(f"a.md-select__link[hreflang={lang}]")
    page.wait_for_load_state("networkidle")
    assert page.url == base + target
    ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_figures_follow_colour_scheme(base: str, chromium: object, scheme: str) -> None:
    ctx = chromium.new_context(color_scheme=scheme)  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.goto(base + "zh/formula/", wait_until="networkidle")
    shown = page.eval_on_selector_all(
        "article img[src*='figures/']", "els => els.filter(e => e.offsetWidth > 0).map(e => e.getAttribute('src'))"
    )
    ctx.close()
    assert shown and all(src.endswith(f"#only-{scheme}") for src in shown), shown


def _watch(page: object, base: str) -> tuple[list[str], list[str]]:
    """Collect, on ``page``, requests that leave the site and console errors (failed loads included)."""
    offsite: list[str] = []
    errors: list[str] = []
    page.on(  # type: ignore[attr-defined]
        "request",
        lambda r: offsite.append(r.url) if not r.url.startswith((base, "data:", "blob:")) else None,
    )
    page.on(  # type: ignore[attr-defined]
        "console", lambda m: errors.append(f"{m.text} ({m.location.get('url')})") if m.type == "error" else None
    )
    page.on("pageerror", lambda e: errors.append(str(e)))  # type: ignore[attr-defined]
    return offsite, errors


@pytest.mark.parametrize("missing", ["no/such/page/", "zh/no/such/page/", "formula/gone.png"])
def test_missing_address_gets_a_styled_404_in_both_languages(base: str, chromium: object, missing: str) -> None:
    """A static host answers every missing address with the root 404.html: it must load its assets under the
    sub-path (absolute paths from site_url) and send readers to either language's home."""
    ctx = chromium.new_context()  # type: ignore[attr-defined]
    page = ctx.new_page()
    offsite, errors = _watch(page, base)
    failed: list[str] = []
    page.on(
        "response",
        lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 and r.url != base + missing else None,
    )
    response = page.goto(base + missing, wait_until="networkidle")
    assert response.status == 404
    styled = page.evaluate(
        """() => ({
          header: getComputedStyle(document.querySelector('.md-header')).position,
          sheets: [...document.styleSheets].filter(s => s.href && s.cssRules.length > 0).map(s => s.href),
          h1: document.querySelector('article h1').textContent,
        })"""
    )
    homes = dict(page.eval_on_selector_all(".pe-404-homes a", "els => els.map(e => [e.hreflang, e.href])"))
    assert styled["header"] == "sticky", styled  # Material's stylesheet applied
    assert any("/assets/stylesheets/main." in href for href in styled["sheets"]), styled
    assert "404" in styled["h1"] and "页面未找到" in styled["h1"]
    assert homes == {"en": base, "zh": base + "zh/"}
    # Chrome logs the page's own 404 status as "Failed to load resource"; nothing else may fail
    errors = [e for e in errors if not e.endswith(f"({base + missing})")]
    assert not failed and not offsite and not errors, (failed, offsite, errors)
    for lang, href in homes.items():
        assert page.goto(href, wait_until="networkidle").status == 200
        assert page.evaluate("document.documentElement.lang") == lang
    ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_figure_opens_large_in_its_own_colour_scheme(base: str, chromium: object, scheme: str) -> None:
    """GLightbox (served by the site) opens the clicked figure; the light and dark variants are separate galleries,
    so in each scheme the lightbox holds only that scheme's figures."""
    ctx = chromium.new_context(color_scheme=scheme)  # type: ignore[attr-defined]
    page = ctx.new_page()
    offsite, errors = _watch(page, base)
    page.goto(base + "zh/formula/", wait_until="networkidle")
    figures = page.locator(f"article a.glightbox img[src$='#only-{scheme}']")
    shown = [src for src in figures.evaluate_all("els => els.map(e => e.getAttribute('src'))")]
    assert shown, "no figure of this scheme on the page"
    figures.first.click()
    opened = page.locator(".glightbox-container .gslide.current img")
    opened.wait_for(state="visible", timeout=10_000)
    page.wait_for_function("() => document.querySelector('.glightbox-container .gslide.current img').naturalWidth > 0")
    src = opened.get_attribute("src")
    backgrounds = page.evaluate(
        """() => [getComputedStyle(document.querySelector('.gslide.current img')).backgroundColor,
                  getComputedStyle(document.body).backgroundColor]"""
    )
    gallery = page.evaluate("() => lightbox.elements.map(e => e.href)")
    page.keyboard.press("Escape")
    ctx.close()
    assert src == urljoin(base + "zh/formula/", shown[0])  # the clicked variant, not its twin
    assert backgrounds[0] == backgrounds[1], backgrounds  # dark figures (light ink) are not shown on white
    assert len(gallery) == len(shown) and all(href.endswith(f"#only-{scheme}") for href in gallery), gallery
    assert not offsite and not errors, (offsite, errors)


PHONE_JS = """() => {
  // Visible content must stay within the screen, or sit in something that scrolls (code, tables, math) or
  // clips on purpose (KaTeX's stretchy glyphs); <html> hides horizontal overflow, so it would just be cut off.
  const article = document.querySelector('article');
  const inBox = e => { for (let a = e.parentElement; a && a !== article; a = a.parentElement)
      if (getComputedStyle(a).overflowX !== 'visible') return true; return false; };
  const cut = [];
  for (const e of article.querySelectorAll('*')) {
    if (e.closest('.katex-mathml')) continue;  // MathML for screen readers, visually hidden by KaTeX
    const r = e.getBoundingClientRect();
    if (r.width && r.height && (r.right > innerWidth + 0.5 || r.left < -0.5) && !inBox(e))
      cut.push(`${e.tagName.toLowerCase()}.${e.className}: ${(e.textContent || '').trim().slice(0, 50)}`);
  }
  // notebook pages: the first cell spans the text column (JupyterLab's boxes must not step aside for the buttons)
  const cell = document.querySelector('.jp-Cell');
  return {scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, width: innerWidth,
          cut: cut.slice(0, 5), cell: cell ? cell.getBoundingClientRect().width / article.clientWidth : 1};
}"""


@pytest.mark.parametrize("path", all_paths(), ids=lambda p: p or "home")
def test_page_fits_a_phone(base: str, chromium: object, path: str) -> None:
    ctx = chromium.new_context(viewport=PHONE)  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.goto(base + path, wait_until="networkidle")
    page.wait_for_timeout(200)
    layout = page.evaluate(PHONE_JS)
    ctx.close()
    assert layout["scroll"] <= layout["width"] and layout["body"] <= layout["width"], layout
    assert not layout["cut"], layout
    assert layout["cell"] > 0.85, layout
