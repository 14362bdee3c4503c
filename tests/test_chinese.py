"""The Chinese pages read as Chinese: no spaces from wrapped lines, no italics, curly quotes, one term per idea."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_tools import cjk, numbers, pages

ZH_PAGES = [p for p in pages.pages("zh").values() if p.suffix == ".md"]
CJK = "[\u3400-\u4dbf\u4e00-\u9fff]"

# One term per idea (the field's usual Chinese terms); the left-hand spellings are not used on the site.
AVOID = {
    "相对位置变换": "线性相对变换（简称相对变换）",
    "笔记": "Notebook",
    "令牌": "词元（token）",
    "缓存区": "缓冲区（buffer）",
    "询问向量": "查询（query）",
    "关键字向量": "键（key）",
}


def _id(p: Path) -> str:
    return p.name


def test_numbers_with_a_thousands_space_never_break() -> None:
    html = '<p>base 82 685, 0.973 100 and 2 048<svg viewBox="0 0 512 512"></svg></p><code>60 611</code>'
    assert cjk.keep_numbers_whole(html) == (
        '<p>base 82\u202f685, 0.973 100 and 2\u202f048<svg viewBox="0 0 512 512"></svg></p><code>60 611</code>'
    )


def test_line_breaks_between_chinese_characters_are_removed() -> None:
    code = "<pre><code>中文\n中文</code></pre>"
    html = "<p>位置编码的\n  波长，\n最长为 60 611。\nEnglish\nwords</p>" + code
    assert cjk.join_wide_lines(html) == "<p>位置编码的波长，最长为 60 611。\nEnglish\nwords</p>" + code
    math = '<span class="arithmatex">\\(\\text{中}\n\\text{文}\\)</span>'
    assert cjk.join_wide_lines(math) == math
    assert cjk.wide_line_breaks(cjk.join_wide_lines(html)) == []
    assert len(cjk.wide_line_breaks(html)) == 2
    # inline tags do not hide a break; a code span next to one keeps its space (Chinese and code, spaced)
    tagged = "<p>位置\n<strong>编码</strong>\n的波长，用\n<code>x</code>\n计算</p>"
    assert cjk.join_wide_lines(tagged) == "<p>位置<strong>编码</strong>的波长，用\n<code>x</code>\n计算</p>"
    assert len(cjk.wide_line_breaks(tagged)) == 2 and cjk.wide_line_breaks(cjk.join_wide_lines(tagged)) == []


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_no_italics_on_chinese_text(path: Path) -> None:
    """Chinese has no italic forms (browsers slant the glyphs); emphasis is bold."""
    found = []
    for n, line in numbers.prose_lines(path.read_text(encoding="utf-8")):
        line = re.sub(r"\*\*[^*]+\*\*|__[^_]+__", "", line)
        for m in re.finditer(r"(?<![*\w\\])\*(?![*\s])([^*]+?)\*(?!\*)|(?<![_\w\\])_(?![_\s])([^_]+?)_(?![_\w])", line):
            if re.search(CJK, m.group(0)):
                found.append(f"line {n}: {m.group(0)}")
    assert found == [], f"{path.name}: use **bold** for emphasis in Chinese:\n" + "\n".join(found)


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_chinese_quotes_are_curly(path: Path) -> None:
    found = []
    for n, line in numbers.prose_lines(path.read_text(encoding="utf-8")):
        line = re.sub(r"^\s*(?:!!!|\?\?\?\+?|===)[^\"]*(?:\"[^\"]*\")?", "", line)  # titles: quoted by syntax
        line = re.sub(r"\]\{[^}]*\}|=\"[^\"]*\"", "", line)  # attribute lists and HTML attributes
        for m in re.finditer(r"\"[^\"]*\"", line):
            if re.search(CJK, m.group(0)):
                found.append(f"line {n}: {m.group(0)}")
        if line.count('"') % 2:
            found.append(f"line {n}: unpaired straight quote")
    assert found == [], f"{path.name}: use “ ” around Chinese text:\n" + "\n".join(found)


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_one_term_per_idea(path: Path) -> None:
    text = "\n".join(line for _, line in numbers.prose_lines(path.read_text(encoding="utf-8")))
    found = [f"{bad} -> {good}" for bad, good in AVOID.items() if bad in text]
    if re.search(r"\bulp\b", text) and "末位单位" not in text:
        found.append("ulp is introduced as 末位单位（ulp）")
    assert found == [], f"{path.name}:\n" + "\n".join(found)
