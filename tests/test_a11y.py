"""Accessibility of the built pages that can be read from their HTML (``tests/test_browser.py`` runs axe-core on every
page in both colour schemes, and drives the keyboard).

- Every image has a text alternative; every figure's says what it shows in the page's language (Chinese characters
  on a Chinese page, none on an English one), in more than a word or two, the same for its light and dark variants,
  and not its file name.
- Every lightbox link around a figure has a name: the figure's alternative text and "view larger" in the page's
  language.
- Every display formula is a region named in the page's language that the keyboard can reach (tabindex 0) and
  carries MathML for screen readers.
"""

from __future__ import annotations

from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

from site_tools.finish.assets import VIEW_LARGER
from site_tools.finish.cjk import HAN
from site_tools.finish.formulas import FORMULA_LABEL

pytestmark = pytest.mark.site


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"img", "a", "span", "math"}:
            self.found.append((tag, {k: v or "" for k, v in attrs}))


def _pages(site_dir: Path) -> dict[str, list[tuple[str, dict[str, str]]]]:
    out = {}
    for html in sorted(site_dir.rglob("index.html")):
        rel = html.parent.relative_to(site_dir).as_posix()
        parser = _Elements()
        parser.feed(html.read_text(encoding="utf-8"))
        out["" if rel == "." else rel + "/"] = parser.found
    return out


@pytest.fixture(scope="module")
def pages(site_dir: Path) -> dict[str, list[tuple[str, dict[str, str]]]]:
    return _pages(site_dir)


def _lang(path: str) -> str:
    return "zh" if path.startswith("zh/") else "en"


def test_every_figure_has_a_text_alternative_in_its_language(pages: dict) -> None:
    problems = []
    alts: dict[tuple[str, str], set[str]] = defaultdict(set)  # (language, figure) -> its alternative texts
    for path, elements in pages.items():
        lang = _lang(path)
        for tag, attrs in elements:
            if tag != "img":
                continue
            alt, src = attrs.get("alt", "").strip(), attrs.get("src", "")
            if not alt:
                problems.append(f"{path}: {src[:60]} has no alt text")
                continue
            if "figures/" not in src:
                continue
            figure = src.split("figures/", 1)[1].split(".", 1)[0]
            alts[(lang, figure)].add(alt)
            words = len(HAN.findall(alt)) if lang == "zh" else len(alt.split())
            if lang == "zh" and words < 6:
                problems.append(f"{path}: {figure}: alt {alt!r} is not a Chinese description")
            if lang == "en" and (words < 4 or HAN.search(alt)):
                problems.append(f"{path}: {figure}: alt {alt!r} is not an English description")
            if alt.lower().replace(" ", "-") == figure or alt.lower().endswith((".svg", ".png")):
                problems.append(f"{path}: {figure}: alt {alt!r} is a file name")
    for (lang, figure), texts in alts.items():
        if len(texts) > 1:
            problems.append(f"{lang}: figure {figure} has different alt texts on its pages/variants: {sorted(texts)}")
    assert alts, "no figures found"
    assert not problems, "\n".join(problems)


def test_every_lightbox_link_is_named(pages: dict) -> None:
    problems, named = [], 0
    for path, elements in pages.items():
        for i, (tag, attrs) in enumerate(elements):
            if tag != "a" or "glightbox" not in attrs.get("class", "").split():
                continue
            img = elements[i + 1] if i + 1 < len(elements) else ("", {})
            want = VIEW_LARGER[_lang(path)].format(alt=img[1].get("alt", "").strip())
            if img[0] != "img" or attrs.get("aria-label") != want:
                problems.append(f"{path}: {attrs.get('href')}: aria-label {attrs.get('aria-label')!r}, want {want!r}")
            named += 1
    assert named, "no lightbox links found"
    assert not problems, "\n".join(problems[:20])


def test_display_formulas_are_named_focusable_regions_with_mathml(pages: dict) -> None:
    problems, displays = [], 0
    for path, elements in pages.items():
        label = FORMULA_LABEL[_lang(path)]
        katex = sum(1 for tag, a in elements if tag == "span" and a.get("class") == "katex")
        mathml = sum(1 for tag, _ in elements if tag == "math")
        if katex != mathml:
            problems.append(f"{path}: {katex} formulas, {mathml} with MathML")
        for tag, attrs in elements:
            if tag == "span" and attrs.get("class") == "katex-display":
                displays += 1
                if (attrs.get("tabindex"), attrs.get("role"), attrs.get("aria-label")) != ("0", "region", label):
                    problems.append(f"{path}: a display formula is not a focusable region named {label!r}: {attrs}")
    assert displays, "no display formulas found"
    assert not problems, "\n".join(problems[:20])


def test_the_dark_scheme_is_checked_against_every_colour_rule() -> None:
    """tests/test_browser.py checks a page's dark scheme against ``AXE_COLOUR_RULES`` only (the document is the
    same in both schemes): that list is every rule of the WCAG tags that axe-core itself files under colour, so an
    axe-core upgrade that adds one fails here until the list takes it."""
    import json
    import subprocess

    from site_tools.browser import AXE_COLOUR_RULES, AXE_JS, AXE_TAGS

    script = (
        f"const axe = require({json.dumps(str(AXE_JS.parent))});"
        f"console.log(JSON.stringify(axe.getRules({json.dumps(list(AXE_TAGS))})"
        ".filter(r => r.tags.includes('cat.color')).map(r => r.ruleId)))"
    )
    listed = json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout)
    assert sorted(listed) == sorted(AXE_COLOUR_RULES)
