"""Chinese text: the stray spaces a reader sees, and numbers kept whole.

The browser renders every source line break as a space: right between two Latin words, wrong in Chinese (CSS Text
3's segment-break rule would drop a break between two East Asian wide characters, but Chrome and Edge do not
implement it). So a Chinese source breaks a line only where a space belongs, and most Chinese paragraphs are one
line (docs/en/contributing.md, "Chinese style"). The house style for spaces is:

- nothing between two Chinese characters, and nothing next to full-width punctuation (，。：；、！？（）《》…),
  whatever is on its other side: Latin, a number, code or math;
- nothing inside quotation marks (after “, before ”); on a Chinese page, nothing next to “ ”, —— or … at all;
- one space between a Chinese character and a Latin word, a number, code or math.

:func:`stray_spaces` measures what a reader would see against it, on a page rendered from its source (``make check``:
``tests/test_chinese.py``) or built (``tests/test_chinese_built.py``): every rendered space next to full-width
punctuation or between two ideographs, whether it came from a line break or was typed. :func:`keep_numbers_whole`
is the finishing step that keeps a number written with a thousands space (60 611) on one line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from site_tools import dom

# --- what kind of character sits on each side of a space ------------------------------------------------------

IDEOGRAPH = "ideograph"  # a wide letter or number: 汉字, kana, Hangul, fullwidth Ａ１
PUNCT = "punct"  # full-width punctuation: ，。：；、！？（）《》【】, and the doubled —— ……
OPEN = "open"  # “ ‘
CLOSE = "close"  # ” ’
DASH = "dash"  # a single — or … (ambiguous width: English uses them too)
LATIN = "latin"  # anything else that is visible: Latin letters, digits, ASCII punctuation, code or math (OBJ)

#: Stands for code or math (a ``<code>`` element, an arithmatex span, a Markdown code span) while text is joined.
OBJ = "\x00"


def char_kind(before: str, char: str, after: str = "") -> str:
    """The kind of ``char`` (one of the constants above); ``before``/``after`` are the characters next to it,
    which tell a Chinese double dash (——) or ellipsis (……) from a single one."""
    if char in "“‘":
        return OPEN
    if char in "”’":
        return CLOSE
    if char in "—…":
        return PUNCT if char in (before[-1:], after[:1]) else DASH
    if unicodedata.east_asian_width(char) in ("W", "F"):  # East Asian Wide or Fullwidth
        return IDEOGRAPH if unicodedata.category(char)[0] in "LN" else PUNCT
    return LATIN


#: A Han character (CJK Unified Ideographs, Extension A, the compatibility ideographs): the site's one test of
#: "is this Chinese" (the tests import it).
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTER = re.compile(r"[A-Za-z]")


def chinese_page(text: str) -> bool:
    """Whether a page's text (tags, code and math removed) is a Chinese page: at least one Han character for
    every five Latin letters. Built here, English pages have under one in twenty (the glossary's 中文 column,
    the sources' Chinese titles); Chinese chapters over one in three; the Chinese API pages, whose docstrings
    are English, about one in thirty."""
    han = len(HAN.findall(text))
    return han > 0 and 5 * han >= len(_LETTER.findall(text))


def is_chinese(block: str, page: bool) -> bool:
    """Whether a block of text (a paragraph, list item, cell, heading) is Chinese: it has Han characters, and
    it is on a Chinese ``page`` or has more of them than Latin letters. A Chinese paragraph full of English
    quotations is Chinese; an English sentence quoting a Chinese title (“03 位置编码几何学”) is English."""
    han = len(HAN.findall(block))
    return han > 0 and (page or han > len(_LETTER.findall(block)))


# --- numbers kept whole ----------------------------------------------------------------------------------------

# Thousands written with a space (60 611, 16 777 216): the space may not break the number over two lines.
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?![\d.,]\d)")
NARROW_NBSP = "\u202f"


def keep_numbers_whole(root: dom.Node) -> None:
    """In the text under ``root`` (a page's body, before its math is typeset), replace the space between digit groups
    (``60 611``) by a narrow no-break space, outside code and math: a number is never split over two lines."""
    for node in list(root.traverse(include_text=True)):
        text = (node.text_content or "") if node.is_text_node else ""
        if _GROUPED.search(text) and not any(
            a.tag in _ATOMIC or "arithmatex" in dom.classes(a) for a in _ancestors(node)
        ):
            node.replace_with(_GROUPED.sub(lambda m: m.group(0).replace(" ", NARROW_NBSP), text))  # text, not markup


# --- measuring what a reader sees -----------------------------------------------------------------------------

#: The elements whose text is measured; the text of a nested one (a list inside a list item) is its own.
TEXT_BLOCKS = frozenset({"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "summary"})
_OTHER_BLOCKS = frozenset(
    {"div", "ul", "ol", "table", "thead", "tbody", "tfoot", "tr", "blockquote", "details", "figure",
     "figcaption", "section", "article", "dl", "hr", "br", "caption", "nav", "header", "footer", "form"}
)  # fmt: skip
_ATOMIC = frozenset({"code", "pre", "kbd", "samp", "script", "style", "svg", "math", "textarea", "img", "button"})
_COLLAPSIBLE = re.compile(r"[ \t\n\r\f]+")


@dataclass(frozen=True)
class StraySpace:
    """A rendered space a reader sees where Chinese wants none."""

    element: str  # "p", "li", "td", "h2", …
    context: str  # the text around it, the space shown as ␣ (code and math as ▯)

    def __str__(self) -> str:
        return f"<{self.element}> {self.context}"


def _blocks(node: dom.Node, stack: list[list[str]], blocks: list[tuple[str, str]]) -> None:
    """Add the rendered text of each text block under ``node`` to ``blocks`` (code and math as one ``OBJ`` each);
    ``stack`` holds the open blocks (``[name, text…]``), the article at the bottom."""
    for child in dom.children(node):
        if child.is_text_node:
            stack[-1].append(child.text_content or "")
            continue
        if not child.is_element_node:
            continue
        names = dom.classes(child)
        if "headerlink" in names or "md-content__button" in names:
            continue  # the ¶ permalink, the edit/download buttons: not text
        if child.tag in _ATOMIC or re.search(r"\b(arithmatex|katex)", " ".join(names)):
            stack[-1].append(OBJ)
            continue
        if child.tag in TEXT_BLOCKS or child.tag in _OTHER_BLOCKS:
            stack[-1].append(" ")  # a block boundary separates, it does not join
            if child.tag in dom.VOID:
                continue
            stack.append([child.tag])
            _blocks(child, stack, blocks)
            name, *parts = stack.pop()
            if name in TEXT_BLOCKS:
                blocks.append((name, "".join(parts)))
            stack[-1].append(" ")
        else:
            _blocks(child, stack, blocks)


def rendered_blocks(html: str) -> list[tuple[str, str]]:
    """(element, text) of every paragraph, list item, table cell, heading, summary inside the page's
    ``<article>`` as a browser lays it out: whitespace collapsed, code and math one ``OBJ`` each."""
    found: list[tuple[str, str]] = []
    for article in dom.parse(html).css("article"):
        if any(a.tag == "article" for a in _ancestors(article)):
            continue  # measured with the article around it
        _blocks(article, [["article"]], found)
    return [(name, _COLLAPSIBLE.sub(" ", text).strip(" ")) for name, text in found]


def _ancestors(node: dom.Node) -> Iterator[dom.Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _stray(before: str, after: str, chinese: bool) -> bool:
    kinds = {char_kind(before[-2:-1], before[-1], ""), char_kind("", after[0], after[1:2])}
    return kinds == {IDEOGRAPH} or PUNCT in kinds or (chinese and bool(kinds & {OPEN, CLOSE, DASH}))


def stray_spaces_in(text: str, page: bool = True) -> Iterator[int]:
    """Positions of the spaces in a block's rendered ``text`` that Chinese wants gone: between two ideographs,
    next to full-width punctuation (，。：；、！？（）《》——……); in a Chinese block (``is_chinese``; ``page``:
    the block is on a Chinese page) also next to “ ” or a single — …, which are English in an English block
    ("it is — the column")."""
    chinese = is_chinese(text, page)
    yield from (i for i in range(1, len(text) - 1) if text[i] == " " and _stray(text[:i], text[i + 1 :], chinese))


def stray_spaces(html: str, lang: str | None = None) -> list[StraySpace]:
    """Every stray space in a built page's paragraphs, list items, table cells, headings and summaries.
    ``lang`` is the page's language; without it, ``chinese_page`` tells it from the blocks' text."""
    blocks = rendered_blocks(html)
    page = lang == "zh" if lang else chinese_page(" ".join(text.replace(OBJ, " ") for _, text in blocks))
    return [
        StraySpace(name, (text[max(0, i - 12) : i] + "␣" + text[i + 1 : i + 13]).replace(OBJ, "▯"))
        for name, text in blocks
        for i in stray_spaces_in(text, page)
    ]


def main(argv: list[str] | None = None) -> int:
    """``python -m site_tools.finish.cjk [SITE_DIR]``: count the stray spaces on every built Chinese page."""
    import sys
    from pathlib import Path

    args = sys.argv[1:] if argv is None else argv
    site = Path(args[0] if args else "site") / "zh"
    total = 0
    for page in sorted(site.rglob("index.html")):
        found = stray_spaces(page.read_text(encoding="utf-8"), lang="zh")
        if found:
            print(f"{page.parent.relative_to(site).as_posix() or '.'}: {len(found)}")
            for s in found:
                print(f"    {s}")
        total += len(found)
    print(f"total: {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
