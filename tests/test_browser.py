"""Every page of both languages in a real browser (Debian's Chromium, headless, loopback only).

Math typeset (no raw TeX), every image loaded, no console errors, zero requests off the site; search per
language; the language switcher keeps the page; light/dark figure variants.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from site_tools import pages
from site_tools.browser import browser, serve_site

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
def base(site_dir: Path) -> Iterator[str]:
    with serve_site(site_dir) as url:
        yield url


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
