"""The built Chinese pages read without stray spaces.

A reader sees a space wherever the HTML has one — from a source line break, or typed.
Chinese wants none between two Chinese characters and none next to full-width punctuation (，。：；、！？（）
《》“”——…), whatever is on its other side; it wants one between Chinese and a Latin word, a number, code or
math. These tests measure what the session's strict build (``site_dir`` in conftest.py) put on every Chinese
page: every paragraph, list item, table cell, heading and summary, as a browser lays it out
(``site_tools.finish.cjk.rendered_blocks``). ``python -m site_tools.finish.cjk [site]`` prints the same per page.
"""

from __future__ import annotations

import html as html_module
import json
import re
from pathlib import Path

import pytest

from site_tools import pages
from site_tools.finish import cjk

pytestmark = pytest.mark.site  # measures the session's build

ZH_PAGES = sorted(pages.files("zh"))


def built(site_dir: Path, name: str) -> str:
    stem = name.rsplit(".", 1)[0]
    return (site_dir / "zh" / ("" if stem == "index" else stem) / "index.html").read_text(encoding="utf-8")


def article(html: str) -> str:
    return html.split('<article class="md-content__inner', 1)[1].split("</article>", 1)[0]


@pytest.mark.parametrize("name", ZH_PAGES)
def test_no_stray_spaces_on_the_built_page(site_dir: Path, name: str) -> None:
    found = cjk.stray_spaces(built(site_dir, name), lang="zh")
    if found:
        pytest.fail(
            f"zh/{name}: {len(found)} stray spaces (␣), code and math shown as ▯:\n" + "\n".join(map(str, found)),
            pytrace=False,
        )


def test_the_measure_reads_every_kind_of_text_block(site_dir: Path) -> None:
    """The stray-space count is over real text: every page has Chinese text blocks, and the site as a whole has
    Chinese paragraphs, list items, table cells, headings and summaries (collapsible boxes) by the hundred."""
    kinds: dict[str, int] = {}
    for name in ZH_PAGES:
        blocks = [(k, text) for k, text in cjk.rendered_blocks(built(site_dir, name)) if cjk.is_chinese(text, True)]
        assert len(blocks) >= 2, f"zh/{name}: no Chinese text measured"
        for kind, _ in blocks:
            kinds[re.sub(r"h[1-6]", "h", kind)] = kinds.get(re.sub(r"h[1-6]", "h", kind), 0) + 1
    assert {"p", "li", "td", "th", "h", "summary"} <= set(kinds), kinds
    assert kinds["p"] >= 300 and kinds["li"] >= 100 and kinds["td"] >= 30 and kinds["h"] >= 100, kinds


def _collapsed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_search_indexes_the_text_the_reader_sees(site_dir: Path) -> None:
    """The Chinese sources break lines only where a space belongs, so Material's search plugin indexes the text the
    reader sees, cut into words by jieba itself: every Chinese paragraph, list
    item and heading of every built page (without code or math) is in the page's entries of the Chinese index as the
    reader sees it (the index's word breaks, U+200B, and markup removed)."""
    index: dict[str, str] = {}
    for doc in json.loads((site_dir / "zh" / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]:
        text = re.sub(r"<[^>]+>", " ", f"{doc['title']} {doc['text']}").replace("\u200b", "")
        page = doc["location"].split("#")[0]
        index[page] = index.get(page, "") + " " + _collapsed(html_module.unescape(text))
    missing, measured = [], 0
    for name in ZH_PAGES:
        stem = name.rsplit(".", 1)[0]
        url = "" if stem == "index" else f"{stem}/"
        for kind, text in cjk.rendered_blocks(built(site_dir, name)):
            if re.fullmatch(r"p|li|h[1-6]", kind) and cjk.OBJ not in text and cjk.is_chinese(text, True):
                measured += 1
                if _collapsed(text) not in index.get(url, ""):
                    missing.append(f"zh/{url}: <{kind}> {text[:80]}")
    assert measured > 400 and missing == [], "\n".join(missing)
