"""Chinese text: how a source line break renders next to Chinese, and the stray spaces a reader sees.

Markdown sources wrap long paragraphs over several lines, and the browser renders every line break as a space:
right between two Latin words, wrong in Chinese. CSS Text 3's segment-break rule would drop a break between two
East Asian wide characters, but Chrome and Edge do not implement it, and it keeps the break next to the
*ambiguous*-width punctuation Chinese uses (“ ” —— …). The house style (docs/en/contributing.md) is:

- nothing between two Chinese characters, and nothing next to full-width punctuation (，。：；、！？（）《》…),
  whatever is on its other side: Latin, a number, code or math;
- nothing inside quotation marks (after “, before ”); on a Chinese page, nothing next to “ ”, —— or … at all;
- one space between a Chinese character and a Latin word, a number, code or math.

This module is a Python-Markdown extension (``site_tools.finish.cjk`` under ``markdown_extensions`` in mkdocs.yml):
:class:`JoinLines` applies these rules to every line break of a page while it is rendered, so the engine shows,
indexes and (Material's search, with jieba) cuts into words the finished text, and numbers written with a
thousands space stay on one line. ``join_wide_lines`` does the same to a piece of HTML, ``join_wide_text`` to
Markdown prose (the chapter notebooks; a hand-written notebook's Markdown cells, which mkdocs-jupyter renders
without Python-Markdown, are written this way in the source: ``tests/test_chinese.py``). Code, scripts, styles and
math are left as they are, and inline tags (``<strong>``, ``<a>``) do not hide a break. ``stray_spaces`` measures
what a reader would still see on a built Chinese page: every rendered space next to full-width punctuation or
between two ideographs, whether it came from a line break or was typed.

No maintained Python-Markdown extension does this: ``markdown-cjk-spacing`` (0.2.2, 2019) and markdown-it's
``markdown-it-cjk-breaks`` only drop a break between two wide characters (the CSS rule above), and
``mdit-py-cjk-friendly`` is a markdown-it-py plugin, not a Python-Markdown one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from xml.etree.ElementTree import Element, tostring

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER

from site_tools.finish import dom

# --- what kind of character sits on each side of a space ------------------------------------------------------

IDEOGRAPH = "ideograph"  # a wide letter or number: 汉字, kana, Hangul, fullwidth Ａ１
PUNCT = "punct"  # full-width punctuation: ，。：；、！？（）《》【】, and the doubled —— ……
OPEN = "open"  # “ ‘
CLOSE = "close"  # ” ’
DASH = "dash"  # a single — or … (ambiguous width: English uses them too)
OBJECT = "object"  # code or math
LATIN = "latin"  # anything else that is visible: Latin letters, digits, ASCII punctuation

#: Stands for code or math (a ``<code>`` element, an arithmatex span, a Markdown code span) while text is joined.
OBJ = "\x00"


def char_kind(before: str, char: str, after: str = "") -> str:
    """The kind of ``char`` (one of the constants above); ``before``/``after`` are the characters next to it,
    which tell a Chinese double dash (——) or ellipsis (……) from a single one."""
    if char == OBJ:
        return OBJECT
    if char in "“‘":
        return OPEN
    if char in "”’":
        return CLOSE
    if char in "—…":
        return PUNCT if char in (before[-1:], after[:1]) else DASH
    if unicodedata.east_asian_width(char) in ("W", "F"):  # East Asian Wide or Fullwidth
        return IDEOGRAPH if unicodedata.category(char)[0] in "LN" else PUNCT
    return LATIN


def _break_becomes(left: str, right: str, chinese: bool) -> str | None:
    """``""`` if a line break between a ``left`` and a ``right`` kind of character must render as nothing,
    ``None`` if it stays (a break renders as the one space wanted between Latin words, or between Chinese
    and a Latin word, a number, code or math)."""
    kinds = {left, right}
    if kinds <= {IDEOGRAPH, PUNCT} or PUNCT in kinds:
        return ""
    if left == OPEN or right == CLOSE:
        return ""
    if kinds & {OPEN, CLOSE, DASH} and (chinese or IDEOGRAPH in kinds):
        return ""
    return None  # Latin, numbers, code, math next to Chinese or each other: the break is the one space wanted


_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTER = re.compile(r"[A-Za-z]")


def chinese_page(text: str) -> bool:
    """Whether a page's text (tags, code and math removed) is a Chinese page: at least one Han character for
    every five Latin letters. Built here, English pages have under one in twenty (the glossary's 中文 column,
    the sources' Chinese titles); Chinese chapters over one in three; the Chinese API pages, whose docstrings
    are English, about one in thirty."""
    han = len(_HAN.findall(text))
    return han > 0 and 5 * han >= len(_LETTER.findall(text))


def is_chinese(block: str, page: bool) -> bool:
    """Whether a block of text (a paragraph, list item, cell, heading) is Chinese: it has Han characters, and
    it is on a Chinese ``page`` or has more of them than Latin letters. A Chinese paragraph full of English
    quotations is Chinese; an English sentence quoting a Chinese title (“03 位置编码几何学”) is English."""
    han = len(_HAN.findall(block))
    return han > 0 and (page or han > len(_LETTER.findall(block)))


# --- joining line breaks --------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\x00(\d+)\x00")
# In Markdown, emphasis markers, the brackets and targets of links and HTML tags are transparent to a break
# ("位置\n**编码**" joins); an image is not text: an object, like code.
_HTML_MARKUP = r"<!--.*?-->|<[^<>]*>"
_MD_IMAGE = r"!\[[^\]]*\]\((?:[^()\s]|\([^()\s]*\))*\)"
_MD_MARKUP = _HTML_MARKUP + r"|\*{1,3}|~~|!?\[|\]\((?:[^()\s]|\([^()\s]*\))*\)|\]"
_MD_TOKEN = re.compile(rf"(?P<obj>\x00\d+\x00|{_MD_IMAGE})|(?P<mark>{_MD_MARKUP})", re.S)
_RUN = re.compile(r"[ \t\r]*\n[ \t\r\n]*")
# A Markdown line that starts a block of its own (a break before it is structure, not a wrapped line).
_MD_BLOCK_START = re.compile(r"[ \t]*(?:[-*+][ \t]|\d+[.)][ \t]|>|#|\||```|~~~|\$\$|!!!|\?\?\?|===|<|\x00|!\[)")
_MD_BLOCK_LINE = re.compile(
    r"[ \t]*(?:#|\||```|~~~|\$\$|!!!|\?\?\?|===|<|!\[)|.*(?:\x00|!\[[^\]]*\]\([^)]*\)|[ \t]{2})$"
)
# In HTML: elements left as they are and standing for one object (code, preformatted text, scripts, styles, math,
# images, embedded things); elements that start or end a block (a break next to one is between blocks, not inside
# a block's text). Every other element (<strong>, <a>, …) and every comment is transparent to a break.
OBJECT_ELEMENTS = frozenset(
    {"pre", "code", "script", "style", "textarea", "img", "svg", "input", "iframe", "video", "audio", "canvas", "math"}
)
BLOCK_ELEMENTS = frozenset(
    {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "div", "ul", "ol", "dl", "table",
     "thead", "tbody", "tr", "blockquote", "details", "summary", "figure", "figcaption", "section", "article", "br",
     "hr"}
)  # fmt: skip


def is_object(node: dom.Node) -> bool:
    """Whether an element is code, math (an arithmatex span or div, KaTeX's markup) or an embedded object."""
    return is_object_tag(node.tag or "", node.attributes.get("class") or "")


def is_object_tag(tag: str, names: str) -> bool:
    """Whether an element named ``tag``, of the classes ``names``, is code, math or an embedded object."""
    return tag in OBJECT_ELEMENTS or (tag in ("span", "div") and ("arithmatex" in names or "katex" in names))


@dataclass
class _Token:
    kind: str  # "text", "mark" (an inline tag: transparent), "block" (a block boundary), "obj" (code or math)
    text: str
    node: Any = None  # in a page's tree: the text node this text token is


def _md_tokens(text: str) -> list[_Token]:
    out, last = [], 0
    for m in _MD_TOKEN.finditer(text):
        out.append(_Token("text", text[last : m.start()]))
        out.append(_Token("obj" if m.group("obj") else "mark", m.group(0)))
        last = m.end()
    out.append(_Token("text", text[last:]))
    return out


def _tree_tokens(nodes: list[dom.Node], out: list[_Token]) -> list[_Token]:
    """The tokens of ``nodes`` and what they hold, in document order: each text node, and a token for each
    element's start and end (one for an object or an element without end tag)."""
    for child in nodes:
        if child.is_text_node:
            out.append(_Token("text", child.text_content or "", child))
        elif not child.is_element_node:
            continue  # a comment: transparent
        elif is_object(child):
            out.append(_Token("obj", ""))
        else:
            kind = "block" if child.tag in BLOCK_ELEMENTS else "mark"
            out.append(_Token(kind, ""))
            if child.tag not in dom.VOID:
                _tree_tokens(dom.children(child), out)
                out.append(_Token(kind, ""))
    return out


def _fragment_tokens(html: str) -> tuple[dom.Tree, list[_Token]]:
    tree = dom.parse_fragment(html)
    return tree, _tree_tokens(dom.fragment_nodes(tree), [])


def _neighbour(tokens: list[_Token], k: int, pos: int, step: int) -> str | None:
    """The kind of the first visible character from ``tokens[k].text[pos]`` on, going ``step`` (-1 left,
    +1 right) across markup and whitespace; ``None`` at the start or end of the text."""
    text = tokens[k].text[:pos] if step < 0 else tokens[k].text[pos:]
    while True:
        stripped = text.rstrip() if step < 0 else text.lstrip()
        if stripped:
            if step < 0:
                return char_kind(stripped[-2:-1], stripped[-1], "")
            return char_kind("", stripped[0], stripped[1:2])
        k += step
        if not 0 <= k < len(tokens) or tokens[k].kind == "block":
            return None  # a break next to a block's start or end is not inside its text
        if tokens[k].kind == "obj":
            return OBJECT
        text = tokens[k].text if tokens[k].kind == "text" else ""


def _blocks_chinese(tokens: list[_Token], page: bool) -> list[bool]:
    """For each token, whether the block it belongs to (between two block boundaries) is Chinese."""
    ids, texts = [], [[]]
    for tok in tokens:
        if tok.kind == "block":
            texts.append([])
        elif tok.kind == "text":
            texts[-1].append(tok.text)
        ids.append(len(texts) - 1)
    chinese = [is_chinese(" ".join(t), page) for t in texts]
    return [chinese[i] for i in ids]


def _text_only(text: str) -> str:
    return _PLACEHOLDER.sub(" ", re.sub(_HTML_MARKUP, " ", text, flags=re.S))


def _join(tokens: list[_Token], chinese: list[bool], markdown: bool, report: list[str] | None = None) -> None:
    """Rewrite every line break in the text tokens by the house rules (see the module's docstring), in place."""
    for k, tok in enumerate(tokens):
        if tok.kind != "text" or "\n" not in tok.text:
            continue

        def fix(m: re.Match[str], k: int = k) -> str:
            run = m.group(0)
            if markdown and not _md_soft_break(tokens, k, m):
                return run
            left = _neighbour(tokens, k, m.start(), -1)
            right = _neighbour(tokens, k, m.end(), +1)
            if left is None or right is None:
                return run
            new = _break_becomes(left, right, chinese[k])
            if new is None or new == run:
                return run
            if report is not None:
                whole = tokens[k].text
                report.append(whole[max(0, m.start() - 8) : m.start()] + "⏎" + whole[m.end() : m.end() + 8])
            return new

        tok.text = _RUN.sub(fix, tok.text)


def _md_soft_break(tokens: list[_Token], k: int, m: re.Match[str]) -> bool:
    """Whether a line break in Markdown is inside a paragraph: one newline, the line before it neither a
    heading, a table row, a fence nor a hard break, the line after it not the start of a block."""
    if m.group(0).count("\n") != 1:
        return False
    before = "".join(t.text for t in tokens[:k]) + tokens[k].text[: m.start()]
    after = tokens[k].text[m.end() :] + "".join(t.text for t in tokens[k + 1 :])
    line_before = before.rsplit("\n", 1)[-1] + m.group(0).split("\n", 1)[0]
    line_after = m.group(0).rsplit("\n", 1)[-1] + after.split("\n", 1)[0]
    return not (_MD_BLOCK_LINE.match(line_before) or _MD_BLOCK_START.match(line_after))


def _etree_tokens(parent: Element, stashed: Callable[[str], list[_Token]], out: list[_Token]) -> list[_Token]:
    """The tokens of what ``parent`` (a Python-Markdown tree's element) holds, in document order: each piece of
    its text and of its children's text and tails, and a token for each element's start and end (one for an
    object). Raw HTML that Python-Markdown keeps aside (a placeholder in the text) is read through ``stashed``, which
    gives its tokens."""

    def text(owner: Element, attr: str) -> None:
        value = getattr(owner, attr)
        if not value:
            return
        slot = _Slot(owner, attr, [])
        last = 0
        for m in _STASHED.finditer(value):
            piece = _Token("text", value[last : m.start()], slot)
            slot.tokens += [piece, _Token("mark", m.group(0))]  # the placeholder is written back as it is
            out.append(piece)
            out.extend(stashed(m.group(1)))  # what it stands for
            last = m.end()
        slot.tokens.append(_Token("text", value[last:], slot))
        out.append(slot.tokens[-1])

    text(parent, "text")
    for child in parent:
        if not isinstance(child.tag, str):  # a comment or processing instruction: transparent
            pass
        elif is_object_tag(child.tag, child.get("class") or ""):
            out.append(_Token("obj", ""))
        else:
            kind = "block" if child.tag in BLOCK_ELEMENTS else "mark"
            out.append(_Token(kind, ""))
            _etree_tokens(child, stashed, out)
            out.append(_Token(kind, ""))
        text(child, "tail")
    return out


@dataclass
class _Slot:
    """The text or the tail of an element of a Python-Markdown tree, as the tokens it was cut into."""

    owner: Element
    attr: str  # "text" or "tail"
    tokens: list[_Token]

    def write(self) -> None:
        old = getattr(self.owner, self.attr)
        new = "".join(_glue_numbers(t.text) if t.kind == "text" else t.text for t in self.tokens)
        if new != old:
            setattr(self.owner, self.attr, type(old)(new) if isinstance(old, str) else new)  # an AtomicString stays one


# Python-Markdown's placeholder for raw HTML it keeps aside until the page is written (markdown.util.HTML_PLACEHOLDER).
_STASHED = re.compile(re.escape(HTML_PLACEHOLDER).replace("%s", r"(\d+)"))


class JoinLines(Treeprocessor):
    """Joins the line breaks of a page's text by the house rules (see the module's docstring) and keeps every number
    written with a thousands space whole, while Python-Markdown renders the page: the engine then shows, indexes
    (search) and cuts into words (jieba) the finished text. Runs after the inline patterns (code spans, math, links
    and emphasis are elements by then) and ``attr_list``, before ``toc`` takes the headings' text."""

    def __init__(self, md: Markdown, lang: str | None) -> None:
        super().__init__(md)
        self.lang = lang or None

    def run(self, root: Element) -> None:
        stashed: dict[int, tuple[dom.Tree, list[_Token]]] = {}

        def read(index: str) -> list[_Token]:
            blocks = self.md.htmlStash.rawHtmlBlocks
            html = blocks[int(index)] if int(index) < len(blocks) else ""
            if not isinstance(html, str):  # an element kept aside (md_in_html)
                html = tostring(html, encoding="unicode")
            stashed[int(index)] = _fragment_tokens(html)
            return stashed[int(index)][1]

        tokens = _etree_tokens(root, read, [])
        _join(tokens, _blocks_chinese(tokens, _is_chinese_page(tokens, self.lang)), markdown=False)
        for slot in {id(t.node): t.node for t in tokens if isinstance(t.node, _Slot)}.values():
            slot.write()
        # Raw HTML kept aside (mkdocstrings' API entries, whose templates write Chinese words too) is written again
        # only where its text changed.
        for index, (tree, fragment) in stashed.items():
            changed = False
            for tok in fragment:
                if tok.node is not None and _glue_numbers(tok.text) != (tok.node.text_content or ""):
                    dom.set_text(tok.node, _glue_numbers(tok.text))
                    changed = True
            if changed:
                self.md.htmlStash.rawHtmlBlocks[index] = dom.write(tree)


class JoinLinesExtension(Extension):
    """The Python-Markdown extension (``markdown_extensions: [site_tools.finish.cjk]`` in mkdocs.yml):
    :class:`JoinLines`. Its one option, ``lang``, is the pages' language ("zh", "en"); by default each page's text tells
    it (:func:`chinese_page`)."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {"lang": ["", "the pages' language (zh, en); empty: told from each page's text"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802  (Python-Markdown's name)
        md.treeprocessors.register(JoinLines(md, self.getConfig("lang")), "pe_join_lines", 7.5)


def makeExtension(**kwargs: Any) -> JoinLinesExtension:  # noqa: N802  (Python-Markdown's name)
    """What Python-Markdown calls for ``site_tools.finish.cjk`` in an extension list."""
    return JoinLinesExtension(**kwargs)


def _is_chinese_page(tokens: list[_Token], lang: str | None) -> bool:
    if lang:
        return lang == "zh"
    return chinese_page(" ".join(t.text for t in tokens if t.kind == "text"))


def join_wide_lines(html: str, lang: str | None = None) -> str:
    """``html`` (a piece of a page) with every line break in its text rewritten by the house rules (see the module's
    docstring): nothing next to full-width punctuation or between Chinese characters, the one space (the break)
    between Chinese and a Latin word, a number, code or math. Code, scripts, styles and math are untouched.

    In a Chinese block (``is_chinese``) a break next to “ ” — … closes up whatever is on the other side; in an
    English one it stays a space ("the notebook “位置编码”⏎shows"). ``lang`` is the page's language ("zh",
    "en"); without it, ``chinese_page`` tells it from the text. The build does this while it renders a page
    (:class:`JoinLines`)."""
    tree, tokens = _fragment_tokens(html)
    _join(tokens, _blocks_chinese(tokens, _is_chinese_page(tokens, lang)), markdown=False)
    for tok in tokens:
        if tok.node is not None:
            dom.set_text(tok.node, tok.text)
    return dom.write(tree)


def page_lang(html: str) -> str:
    """ "zh" if the text of ``html`` (a piece of a page; code and math left out) is a ``chinese_page``, else "en"."""
    _tree, tokens = _fragment_tokens(html)
    return "zh" if _is_chinese_page(tokens, None) else "en"


def join_wide_text(text: str, lang: str | None = None) -> str:
    """The same for Markdown prose (a notebook's cells): only breaks inside a paragraph are rewritten, emphasis
    markers and link brackets are transparent, an image is an object, and the caller keeps code spans and
    math out of ``text`` as ``\\x00<n>\\x00`` placeholders (a line that starts or ends with one, or with an
    image, keeps its break: it may be display math). Paragraph by paragraph (between blank lines)."""
    page = lang == "zh" if lang else chinese_page(_text_only(text))
    parts = re.split(r"(\n[ \t]*\n)", text)
    out = []
    for n, part in enumerate(parts):
        if n % 2 == 0:
            tokens = _md_tokens(part)
            _join(tokens, [is_chinese(_text_only(part), page)] * len(tokens), markdown=True)
            part = "".join(t.text for t in tokens)
        out.append(part)
    return "".join(out)


def wide_line_breaks(html: str, lang: str | None = None) -> list[str]:
    """The line breaks in ``html``'s text (a piece of a page) that ``join_wide_lines`` would rewrite, each shown with
    a little context (⏎ marks the break); empty once the build has finished the page."""
    _tree, tokens = _fragment_tokens(html)
    found: list[str] = []
    _join(tokens, _blocks_chinese(tokens, _is_chinese_page(tokens, lang)), markdown=False, report=found)
    return found


# Thousands written with a space (60 611, 16 777 216): the space may not break the number over two lines.
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?![\d.,]\d)")
NARROW_NBSP = "\u202f"


def _glue_numbers(text: str) -> str:
    return _GROUPED.sub(lambda m: m.group(0).replace(" ", NARROW_NBSP), text)


def keep_numbers_whole(html: str) -> str:
    """``html`` (a piece of a page) with the space between digit groups (``60 611``) replaced by a narrow no-break
    space in its text outside code and math, so that a number is never split over two lines (the build does this
    while it renders a page: :class:`JoinLines`)."""
    tree, tokens = _fragment_tokens(html)
    for tok in tokens:
        if tok.node is not None:
            dom.set_text(tok.node, _glue_numbers(tok.text))
    return dom.write(tree)


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
    ``stack`` holds the open blocks (``[name, text…]``)."""
    for child in dom.children(node):
        if child.is_text_node:
            if stack:
                stack[-1].append(child.text_content or "")
            continue
        if not child.is_element_node:
            continue
        names = dom.classes(child)
        if "headerlink" in names or "md-content__button" in names:
            continue  # the ¶ permalink, the edit/download buttons: not text
        if child.tag in _ATOMIC or re.search(r"\b(arithmatex|katex)", " ".join(names)):
            if stack:
                stack[-1].append(OBJ)
            continue
        if child.tag in TEXT_BLOCKS or child.tag in _OTHER_BLOCKS:
            if stack:
                stack[-1].append(" ")  # a block boundary separates, it does not join
            if child.tag in dom.VOID:
                continue
            stack.append([child.tag])
            _blocks(child, stack, blocks)
            name, *parts = stack.pop()
            if name in TEXT_BLOCKS:
                blocks.append((name, "".join(parts)))
            if stack:
                stack[-1].append(" ")
        else:
            _blocks(child, stack, blocks)


def rendered_blocks(html: str) -> list[tuple[str, str]]:
    """(element, text) of every paragraph, list item, table cell, heading, summary inside the page's
    ``<article>`` as a browser lays it out: whitespace collapsed, code and math one ``OBJ`` each."""
    found: list[tuple[str, str]] = []
    for article in dom.parse(html).css("article"):
        if article.parent is not None and any(a.tag == "article" for a in _ancestors(article)):
            continue  # measured with the article around it
        _blocks(article, [["article"]], found)
    return [(name, _COLLAPSIBLE.sub(" ", text).strip(" ")) for name, text in found]


def _ancestors(node: dom.Node) -> list[dom.Node]:
    out, node = [], node.parent
    while node is not None:
        out.append(node)
        node = node.parent
    return out


def _stray(before: str, after: str, chinese: bool) -> bool:
    kinds = {char_kind(before[-2:-1], before[-1], ""), char_kind("", after[0], after[1:2])}
    return kinds == {IDEOGRAPH} or PUNCT in kinds or (chinese and bool(kinds & {OPEN, CLOSE, DASH}))


def stray_spaces_in(text: str, page: bool = True) -> Iterator[int]:
    """Positions of the spaces in a block's rendered ``text`` that Chinese wants gone: between two ideographs,
    next to full-width punctuation (，。：；、！？（）《》——……); in a Chinese block (``is_chinese``; ``page``:
    the block is on a Chinese page) also next to “ ” or a single — …, which are English in an English block
    ("it is — the column")."""
    chinese = is_chinese(text, page)
    for m in re.finditer(" ", text):
        i = m.start()
        if 0 < i < len(text) - 1 and _stray(text[:i], text[i + 1 :], chinese):
            yield i


def stray_spaces(html: str, lang: str | None = None) -> list[StraySpace]:
    """Every stray space in a built page's paragraphs, list items, table cells, headings and summaries.
    ``lang`` is the page's language; without it, ``chinese_page`` tells it from the blocks' text."""
    blocks = rendered_blocks(html)
    page = lang == "zh" if lang else chinese_page(" ".join(text.replace(OBJ, " ") for _, text in blocks))
    found = []
    for name, text in blocks:
        for i in stray_spaces_in(text, page):
            context = (text[max(0, i - 12) : i] + "␣" + text[i + 1 : i + 13]).replace(OBJ, "▯")
            found.append(StraySpace(name, context))
    return found


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
