"""Every page of both languages in a real browser (Debian's Chromium, headless, loopback only).

The site is served under a sub-path, as on GitHub Pages (see conftest.py). Each page is opened once per colour
scheme, on a phone (390 × 844, ``site_tools.browser.first_view``: a fresh context, so an empty cache), and every
per-page check runs on that one view (``test_page``):

- what its first view downloads (every request until the network is idle after the load event, as a static host
  that gzips text sends it) is at most ``PAGE_BUDGET`` bytes, the language's search index (which Material fetches
  on load) and both languages' sitemaps (which Material's language selector fetches) included, and neither a KaTeX
  script nor a figure of the other colour scheme is among it;
- no serious or critical axe-core violation of the WCAG 2.0 / 2.1 level A and AA rules (in the dark scheme, of
  those that depend on colours: the rest cannot change with the scheme);
- no console error, no request off the site;
- math typeset at build time (no raw TeX, every arithmatex element holds KaTeX's markup);
- every figure of the scheme loads (lazy ones when asked), and only the scheme's figures are shown, in their narrow
  layout, whose smallest text is at least ``MIN_TEXT_PX`` tall as the page shows it (and on a desktop, in a test of
  its own, the wide layout's);
- nothing is cut off at phone width; what scrolls sideways shows it (a shadow at the edge beyond which more is
  hidden, none on a box that fits), and no code name in a table cell is broken inside a word.

Then, once each: search per language, the language switcher keeps the page, math with JavaScript off, wide
formulas and tables reached and scrolled by keyboard, figures opening in
the lightbox in their own colour scheme, the 404 page, and the measurement itself on a synthetic page.

Every wait is on a condition (the load event, then no request in flight for ``QUIET_MS``; a selector; a function
in the page), never a fixed sleep: a loaded machine makes the tests slower, not wrong. One Chromium per process
(``shared_browser``), one context per page view.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urljoin

import pytest

from site_tools import pages
from site_tools.browser import (
    AXE_COLOUR_RULES,
    DESKTOP,
    PAGE_BUDGET,
    SERIOUS,
    first_view,
    load_all_images,
    shared_browser,
)
from site_tools.build import figures

pytestmark = pytest.mark.browser


def all_paths() -> list[str]:
    out = []
    for lang in pages.LANGS:
        prefix = "" if lang == "en" else f"{lang}/"
        for name in pages.files(lang):
            stem = name.rsplit(".", 1)[0]
            out.append(prefix + ("" if stem == "index" else f"{stem}/"))
    return out


@pytest.fixture(scope="module")
def base(site_base: str) -> str:
    assert site_base.endswith("/pe-docs-test/")  # served under a sub-path, not at the server's root
    return site_base


@pytest.fixture(scope="module")
def chromium() -> object:
    return shared_browser()


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
  mathml: document.querySelectorAll('article .katex .katex-mathml math').length,
  untypeset: [...document.querySelectorAll('article .arithmatex')].filter(e => !e.querySelector('.katex')).length,
  figures: [...document.querySelectorAll('article img[src*="figures/"]')].filter(i => i.offsetParent !== null)
    .map(i => [i.getAttribute('src'), i.complete, i.naturalWidth]),
  images: [...document.querySelectorAll('article img')].filter(i => i.offsetParent !== null)
    .map(i => [i.getAttribute('src'), i.complete, i.naturalWidth]),
  font: getComputedStyle(document.body).fontFamily,
})"""

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
  return {scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, width: innerWidth,
          cut: cut.slice(0, 5)};
}"""


# Every figure the page shows: the file shown (a <picture>'s source if one matches the screen), its width on the page,
# and the sources whose media match (at most one may).
SHOWN_FIGURES_JS = """() => [...document.querySelectorAll('article img[src*="figures/"]')]
  .filter(i => i.offsetParent !== null)
  .map(i => ({src: i.currentSrc || i.src, width: i.getBoundingClientRect().width,
              matching: [...(i.closest('picture') || document.createElement('picture')).querySelectorAll('source')]
                        .filter(s => matchMedia(s.media).matches).map(s => s.srcset)}))"""


def _small_figure_text(shown: list[dict], base: str, site_dir: Path) -> list[str]:
    """The figures among ``shown`` (SHOWN_FIGURES_JS) whose smallest text, as shown, is under ``MIN_TEXT_PX``."""
    small = []
    for figure in shown:
        rel = figure["src"].removeprefix(base).split("#", 1)[0]
        fraction, label = figures.smallest_text((site_dir / rel).read_bytes())
        if fraction * figure["width"] < figures.MIN_TEXT_PX:
            px = fraction * figure["width"]
            small.append(f"{rel}, shown {figure['width']:.0f} px wide: {label!r} is {px:.1f} px tall")
    return small


# What may scroll sideways (extra.css's scroll cue): Material's code blocks, display math, tables. A box scrolls if
# its overflow lets it and its content is wider (a pixel will do). EDGES_JS: which of a box's two edge shadows (left,
# right) show.
SCROLLING = "article pre > code, article .katex-display, article .md-typeset__scrollwrap"
EDGES_JS = """e => [...getComputedStyle(e).boxShadow.matchAll(/rgba?\\(([^)]*)\\)/g)]
  .map(m => { const c = m[1].split(',').map(Number); return c.length < 4 || c[3] > 0; })"""
CUES_JS = f"""() => [...document.querySelectorAll('{SCROLLING}')].filter(e => e.clientWidth > 0)
  .map(e => ({{box: e.tagName.toLowerCase() + '.' + e.className,
              wide: /auto|scroll/.test(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth,
              edges: ({EDGES_JS})(e)}}))"""
# Resolves once a box's scroll position has stayed the same over three frames (a smooth scroll has stopped).
SETTLED_JS = """e => new Promise(done => {
  let last = NaN, same = 0;
  const tick = () => { same = e.scrollLeft === last ? same + 1 : 0; last = e.scrollLeft;
                       if (same >= 3) done(); else requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})"""
# Code in a table cell that a line breaks inside a name (no space or hyphen to break at; Chinese, which breaks
# between any two characters, is not a name).
BROKEN_CODE_JS = """() => [...document.querySelectorAll('article :is(td, th) code')]
  .filter(c => !/[\\s\\-\\u3000-\\u9fff\\uff00-\\uffef]/.test(c.textContent) && c.getClientRects().length > 1)
  .map(c => c.textContent)"""


def _describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])} elements): {v['help']}")
        lines += [f"    {n['target']}: {n['html'][:120]}" for n in v["nodes"][:5]]
    return "\n".join(lines)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", all_paths(), ids=lambda p: p or "home")
def test_page(base: str, chromium: object, site_dir: Path, path: str, scheme: str) -> None:
    other = "dark" if scheme == "light" else "light"
    with first_view(chromium, base + path, site=base, scheme=scheme, settle=False) as view:
        page = view.page
        view.wait_until_rendered()
        # every WCAG A/AA rule in the light scheme; in the dark one (same document, other colours) the colour rules
        rules = None if scheme == "light" else AXE_COLOUR_RULES
        violations = [v for v in view.axe(rules=rules) if v["impact"] in SERIOUS]  # while the network settles
        view.wait_until_idle()
        downloads = view.downloads()
        weight = sum(size for _, size in downloads)
        stats = page.evaluate(STATS_JS)
        raw = page.evaluate(RAW_TEX_JS)
        layout = page.evaluate(PHONE_JS)
        cues = page.evaluate(CUES_JS)
        split_names = page.evaluate(BROKEN_CODE_JS)
        load_all_images(page)  # after the first view was counted
        loaded = page.evaluate(STATS_JS)
        shown = page.evaluate(SHOWN_FIGURES_JS)

    largest = ", ".join(f"{url.removeprefix(base)} {size}" for url, size in sorted(downloads, key=lambda d: -d[1])[:6])
    where = f"{path or 'home'} ({scheme})"
    assert weight <= PAGE_BUDGET, f"first view of {where}: {weight} bytes > {PAGE_BUDGET}; largest: {largest}"
    fetched = [url.removeprefix(base) for url, _ in downloads]
    index = ("zh/" if path.startswith("zh/") else "") + "search/search_index.json"
    assert index in fetched, f"the search index is not in the first view: {fetched}"  # so the budget counts it
    assert {"sitemap.xml", "zh/sitemap.xml"} <= set(fetched), fetched  # Material's selector's, found (no errors)
    assert not [u for u in fetched if "katex" in u and u.endswith(".js")], "math is typeset at build time"
    assert not [u for u in fetched if "figures/" in u and f".{other}.svg" in u], f"{other} figures fetched: {fetched}"
    assert not violations, f"axe-core on {path or 'home'} ({scheme}):\n" + _describe(violations)
    assert not view.offsite, f"requests off the site: {view.offsite}"
    assert not view.errors, view.errors
    assert not raw, f"raw TeX visible: {raw}"
    assert stats["untypeset"] == 0 and stats["mathml"] == stats["katex"], stats
    if path.removeprefix("zh/").strip("/") in {"formula", "walkthrough"}:
        assert stats["katex"] > 0, "expected typeset math on this page"
    broken = [src for src, complete, width in loaded["images"] if not (complete and width > 0)]
    assert not broken, f"images not loaded: {broken}"
    assert all(src.endswith(f"#only-{scheme}") for src, _, _ in loaded["figures"]), loaded["figures"]
    assert all(f["src"].endswith(f"-narrow.{scheme}.svg") for f in shown), [f["src"] for f in shown]
    small = _small_figure_text(shown, base, site_dir)
    assert not small, f"figure text under {figures.MIN_TEXT_PX} px on a phone:\n" + "\n".join(small)
    assert layout["scroll"] <= layout["width"] and layout["body"] <= layout["width"], layout
    assert not layout["cut"], layout
    # at the start of a box that scrolls sideways, a shadow at its right edge only; none on a box that fits
    assert all(c["edges"] == [False, True] for c in cues if c["wide"]), [c for c in cues if c["wide"]]
    assert not any(True in c["edges"] for c in cues if not c["wide"]), [c for c in cues if not c["wide"]]
    assert not split_names, f"code names broken inside a word in table cells: {split_names}"


def figure_paths() -> list[str]:
    """The pages that show a figure, in both languages."""
    out = []
    for lang in pages.LANGS:
        prefix = "" if lang == "en" else f"{lang}/"
        for name, source in pages.files(lang).items():
            if source.suffix == ".md" and pages.read(source).figures:
                out.append(prefix + name.removesuffix(".md") + "/")
    return out


@pytest.mark.parametrize("path", figure_paths())
def test_figure_text_is_legible_on_a_desktop(base: str, chromium: object, site_dir: Path, path: str) -> None:
    """On a desktop every figure shows its wide layout (no <picture> source matches), its smallest text at least
    ``MIN_TEXT_PX`` tall as the page shows it. The figures' sizes come from their width and height attributes
    (site_tools/finish/assets.py), so the images need not load; one scheme (the other's figures are the same size)."""
    ctx = chromium.new_context(viewport=DESKTOP)  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.goto(base + path, wait_until="domcontentloaded")
    shown = page.evaluate(SHOWN_FIGURES_JS)
    ctx.close()
    assert shown, f"no figure shown on {path}"
    assert not [f for f in shown if f["matching"]], shown  # the wide layout
    small = _small_figure_text(shown, base, site_dir)
    assert not small, f"figure text under {figures.MIN_TEXT_PX} px on a desktop:\n" + "\n".join(small)


def _search(chromium: object, base: str, path: str, query: str) -> list[str]:
    """Search from ``path`` as a reader does (click the box, type)."""
    with first_view(chromium, base + path, site=base, viewport=DESKTOP) as view:
        page = view.page
        box = page.locator("input.md-search__input")
        box.click()
        box.fill(query)
        box.press("End")  # Material searches on keyup; filling Chinese text sends none
        page.wait_for_selector(".md-search-result__item a", timeout=20_000)
        hrefs = page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")
        assert not view.errors and not view.offsite, (view.errors, view.offsite)
    return hrefs


@pytest.mark.parametrize(
    ("path", "query", "expect"),
    [
        ("", "permutation", "index"),
        ("formula/", "wavelengths", "formula"),
        ("zh/", "位置编码", "glossary"),  # the term's own entry (the glossary is boosted)
        ("zh/formula/", "循环神经网络", "index"),  # a word that appears only in a Chinese body paragraph
        ("zh/formula/", "缓冲区", "formula"),
    ],
)
def test_search_stays_in_its_language(base: str, chromium: object, path: str, query: str, expect: str) -> None:
    hrefs = _search(chromium, base, path, query)
    assert hrefs
    lang_zh = path.startswith("zh/")
    for href in hrefs:
        assert href.startswith(base)
        assert ("/zh/" in href) == lang_zh, f"{query!r} from {path or 'home'} returned {href}"
    wanted = base + ("zh/" if lang_zh else "") + ("" if expect == "index" else f"{expect}/")
    assert any(h.split("#")[0].split("?")[0] == wanted for h in hrefs), hrefs


def test_search_opened_from_the_phone_header_and_the_keyboard(base: str, chromium: object) -> None:
    """On a phone, search opens from the header's button; on a desktop, from the keyboard shortcut."""
    with first_view(chromium, base + "zh/formula/", site=base) as view:
        view.page.click("label.md-header__button[for=__search]")
        view.page.locator("input.md-search__input").fill("缓冲区")
        view.page.locator("input.md-search__input").press("End")
        view.page.wait_for_selector(".md-search-result__item a", timeout=20_000)
    with first_view(chromium, base + "formula/", site=base, viewport=DESKTOP) as view:
        view.page.keyboard.press("/")
        view.page.keyboard.type("wavelengths")
        view.page.wait_for_selector(".md-search-result__item a", timeout=20_000)
        assert not view.errors and not view.offsite, (view.errors, view.offsite)


@pytest.mark.parametrize(("start", "lang", "target"), [("formula/", "zh", "zh/formula/"), ("zh/api/", "en", "api/")])
def test_language_switcher_keeps_the_page(base: str, chromium: object, start: str, lang: str, target: str) -> None:
    with first_view(chromium, base + start, site=base, viewport=DESKTOP) as view:
        view.page.hover(".md-header__option .md-select")
        with view.page.expect_navigation(url=base + target, wait_until="load"):
            view.page.click(f"a.md-select__link[hreflang={lang}]")
        assert view.page.url == base + target


@pytest.mark.parametrize("path", ["formula/", "zh/formula/", "walkthrough/", "zh/walkthrough/"])
def test_math_shows_without_javascript(base: str, chromium: object, path: str) -> None:
    """KaTeX's markup is in the page: with JavaScript off the math is there, laid out by KaTeX's stylesheet and
    fonts, with its MathML for screen readers; no script is fetched at all."""
    with first_view(chromium, base + path, site=base, java_script_enabled=False) as view:
        stats = view.page.evaluate(STATS_JS)
        raw = view.page.evaluate(RAW_TEX_JS)
        shown = view.page.evaluate(
            """() => [...document.querySelectorAll('article .katex-html')].filter(e => e.getBoundingClientRect().width
                     > 0).length"""
        )
        fonts = view.page.evaluate("() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")
        scripts = [r.url for r in view.requests if r.resource_type == "script"]
    assert stats["katex"] > 0 and stats["mathml"] == stats["katex"] == shown, (stats, shown)
    assert not raw, f"raw TeX visible: {raw}"
    assert any(f.startswith("KaTeX_") for f in fonts), fonts
    assert not scripts, scripts


# A page and what scrolls sideways on it at phone width: display formulas, tables and code blocks that are wider
# than the screen (the code blocks on a phone's touch screen, where Material leaves them to scrollers.js).
SCROLLERS = {
    "relative-schemes/": ".katex-display",  # Shaw et al.'s three equations, Transformer-XL's four-term score
    "zh/relative-schemes/": ".katex-display",
    "zh/variants/": ".md-typeset__scrollwrap",
    "code/": "pre > code",
    "zh/code/": "pre > code",
}


@pytest.mark.parametrize("path", sorted(SCROLLERS))
def test_wide_formulas_tables_and_code_scroll_by_keyboard(base: str, chromium: object, path: str) -> None:
    """Whatever scrolls sideways is a tab stop, a region named in the page's language, and the arrow keys scroll
    it; a formula, table or code block that fits is no tab stop."""
    name = {
        "katex-display": {"en": "Formula", "zh": "公式"},
        "md-typeset__scrollwrap": {"en": "Table", "zh": "表格"},
        "pre > code": {"en": "Code", "zh": "代码"},
    }
    lang = "zh" if path.startswith("zh/") else "en"
    with first_view(chromium, base + path, site=base) as view:
        view.wait_until_rendered()
        page = view.page
        # what the reader sees: a box inside a closed <details> is no tab stop and is sized when it opens
        boxes = page.eval_on_selector_all(
            f"article {SCROLLERS[path]}",
            """els => els.filter(e => e.checkVisibility())
                         .map(e => ({wide: e.scrollWidth > e.clientWidth + 1, tabindex: e.getAttribute('tabindex'),
                                     role: e.getAttribute('role'), label: e.getAttribute('aria-label')}))""",
        )
        wide = [b for b in boxes if b["wide"]]
        assert wide, f"nothing on {path} is wider than a phone: pick another page for this test"
        label = name[SCROLLERS[path].lstrip(".")][lang]
        assert all(b == {"wide": True, "tabindex": "0", "role": "region", "label": label} for b in wide), wide
        assert all(b["tabindex"] is None and b["role"] is None for b in boxes if not b["wide"]), boxes
        # Tab from the start of the page reaches the first wide box; the arrow keys scroll it.
        first = page.locator(f"article {SCROLLERS[path]}[tabindex='0']").first
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        for _ in range(200):
            page.keyboard.press("Tab")
            if first.evaluate("e => e === document.activeElement"):
                break
        else:
            pytest.fail(f"Tab never reached the first wide box on {path}")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("e => e.scrollLeft > 0", arg=first.element_handle())
        # the scroll cue follows: a shadow at both edges halfway, only at the left one at the end (set once the
        # arrow keys' smooth scroll has stopped, not reached by them: two presses may reach the end of a box a little
        # wider than the phone)
        first.evaluate(SETTLED_JS)
        frame = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
        first.evaluate("e => { e.scrollLeft = (e.scrollWidth - e.clientWidth) / 2; }")
        page.evaluate(frame)
        middle = first.evaluate(EDGES_JS)
        first.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        page.evaluate(frame)
        end = first.evaluate(EDGES_JS)
        assert (middle, end) == ([True, True], [True, False]), (middle, end)
        assert not view.errors, view.errors


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
    response = page.goto(base + missing, wait_until="load")
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
        assert page.goto(href, wait_until="load").status == 200
        assert page.evaluate("document.documentElement.lang") == lang
    ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_figure_opens_large_in_its_own_colour_scheme(base: str, chromium: object, scheme: str) -> None:
    """GLightbox (served by the site) opens the clicked figure; the light and dark variants are separate galleries,
    so in each scheme the lightbox holds only that scheme's figures."""
    ctx = chromium.new_context(color_scheme=scheme)  # type: ignore[attr-defined]
    page = ctx.new_page()
    offsite, errors = _watch(page, base)
    page.goto(base + "zh/formula/", wait_until="load")
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
