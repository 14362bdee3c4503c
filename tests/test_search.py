"""Search leads to the explanation: a concept's name, typed into the site's own search box, finds a page that
explains it before the API reference.

The queries run in a real (headless) browser against the site the session builds (conftest.py), through
Material's search box, in each language's own index. Results are grouped by page, as Material shows them; the
first three pages must include one that explains the term (its chapter, the glossary, Start here or Code to
copy), and the first result must not be an API page. A few terms whose chapter bears their name must find that
chapter itself in the first three. The per-page weights behind this (``search.boost`` in the pages' front
matter) are checked on the built indexes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_tools import ROOT
from site_tools.browser import browser

pytestmark = pytest.mark.browser

LEARNER = {"glossary", "start-here", "code"}
ROPE = {"relative", "limitations", "relative-schemes"} | LEARNER

# (language, query, pages that explain it)
EXPLAINED = [
    ("en", "rotary", ROPE),
    ("en", "RoPE", ROPE),
    ("en", "ulp", {"log-trick", "glossary"}),
    ("en", "ALiBi", {"limitations"} | LEARNER),
    ("en", "relative position", {"relative", "relative-schemes", "glossary"}),
    ("en", "binary counter", {"wavelength", "start-here", "glossary"}),
    ("en", "T5 bucket", {"relative-schemes"} | LEARNER),
    ("zh", "旋转位置编码", ROPE),
    ("zh", "RoPE", ROPE),
    ("zh", "相对位置", {"relative", "relative-schemes", "glossary"}),
    ("zh", "末位单位", {"log-trick", "glossary"}),
    ("zh", "ALiBi", {"limitations"} | LEARNER),
    ("zh", "置换等变", {"index", "start-here", "glossary"}),
]

# terms in the title of the chapter that explains them: that chapter itself is among the first three pages
TITLED = [
    ("en", "wavelength", "wavelength"),
    ("en", "log trick", "log-trick"),
    ("zh", "波长", "wavelength"),
    ("zh", "线性相对变换", "relative"),
    ("zh", "对数技巧", "log-trick"),
]

RESULT_PAGES_JS = """() => [...document.querySelectorAll('li.md-search-result__item')]
  .map(li => li.querySelector('a')).filter(Boolean).map(a => a.href)"""


_OPEN: dict[str, object] = {}  # language root -> a page with its search index loaded, reused by every query


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    with browser() as b:
        yield b
        for page in _OPEN.values():
            page.context.close()  # type: ignore[attr-defined]
        _OPEN.clear()


def search_pages(chromium: object, base: str, lang: str, query: str) -> list[str]:
    """The pages Material's search box lists for ``query``, in order (``index`` for the home page).

    One page per language is opened and its index loaded once; each query empties the box (the result list
    empties with it), then types the query and reads the list Material draws for it."""
    root = base + ("zh/" if lang == "zh" else "")
    if root not in _OPEN:
        ctx = chromium.new_context()  # type: ignore[attr-defined]
        _OPEN[root] = ctx.new_page()
        _OPEN[root].goto(root, wait_until="networkidle")  # type: ignore[attr-defined]
    page = _OPEN[root]
    box = page.locator("input.md-search__input")  # type: ignore[attr-defined]
    box.click()
    box.fill("")
    box.press("End")  # Material searches on keyup; filling Chinese text sends none
    page.wait_for_function("() => !document.querySelector('.md-search-result__item')")  # type: ignore[attr-defined]
    box.fill(query)
    box.press("End")
    page.wait_for_selector(".md-search-result__item a", timeout=10_000)  # type: ignore[attr-defined]
    hrefs = page.evaluate(RESULT_PAGES_JS)  # type: ignore[attr-defined]
    pages: list[str] = []
    for href in hrefs:
        assert href.startswith(root), f"{query!r} in {lang} listed {href}, outside {root}"
        name = href.split("#")[0].split("?")[0][len(root) :].strip("/") or "index"
        if name not in pages:
            pages.append(name)
    return pages


@pytest.mark.parametrize(("lang", "query", "explaining"), EXPLAINED, ids=lambda v: v if isinstance(v, str) else "")
def test_a_concept_finds_its_explanation_first(
    site_base: str, chromium: object, lang: str, query: str, explaining: set[str]
) -> None:
    pages = search_pages(chromium, site_base, lang, query)
    assert set(pages[:3]) & explaining, f"{query!r} ({lang}): first pages {pages[:5]}, none explains it"
    assert not pages[0].startswith("api"), f"{query!r} ({lang}): the API reference comes first: {pages[:5]}"


@pytest.mark.parametrize(("lang", "query", "chapter"), TITLED, ids=lambda v: v if isinstance(v, str) else "")
def test_a_chapter_title_finds_the_chapter(
    site_base: str, chromium: object, lang: str, query: str, chapter: str
) -> None:
    pages = search_pages(chromium, site_base, lang, query)
    assert chapter in pages[:3], f"{query!r} ({lang}): first pages {pages[:5]}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_weights_in_the_search_index(site_dir: Path, lang: str) -> None:
    """The glossary ranks up; the API reference and the sources (which name every term they correct) rank down."""
    index = json.loads((site_dir / ("zh" if lang == "zh" else "") / "search" / "search_index.json").read_text("utf-8"))
    boost: dict[str, set[float]] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#")[0].strip("/") or "index"
        boost.setdefault(page, set()).add(doc.get("boost", 1.0))
    api = [page for page in boost if page.startswith("api")]
    assert sorted(api) == sorted(path.stem for path in (ROOT / "docs" / "en").glob("api*.md"))
    for page in api:
        assert boost[page] == {0.1}, (page, boost[page])
    assert boost["sources"] == {0.5}
    assert boost["glossary"] == {2}
    assert boost["start-here"] == boost["code"] == boost["relative"] == {1.0}
