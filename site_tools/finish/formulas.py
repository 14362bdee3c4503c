"""Math typeset at build time: every formula of a page rendered by KaTeX on node into the page's HTML.

Readers get KaTeX's HTML (for the eye) and its MathML (for screen readers) in the page itself, and KaTeX's
stylesheet and fonts; no script typesets anything in their browser, so math shows with JavaScript off.

The formulas are found the way KaTeX's auto-render extension found them in the browser when the site shipped it, so
the output is the same: in the text of ``<body>`` outside ``script noscript style textarea pre code option``
elements and outside elements of the classes ``highlight md-search md-header``, between the delimiters ``$$ … $$``
and ``\\[ … \\]`` (display) and ``\\( … \\)`` and ``$ … $`` (inline). Markdown pages carry arithmatex's ``\\( \\)``
and ``\\[ \\]``; ``$`` and ``$$`` are auto-render's delimiters too, and stay one. :func:`split_at_delimiters` is
auto-render's ``splitAtDelimiters`` (katex ``contrib/auto-render/splitAtDelimiters.ts``), and each formula becomes
``<span>`` + KaTeX's markup + ``</span>``, as auto-render's ``katex.render(math, span)`` made it. One difference:
the browser set-up also skipped ``md-nav``, so a heading with math showed raw TeX in the navigation and the table of
contents; here that math is typeset too.

:func:`typeset` works on the page's tree (``site_tools.finish`` parses each built page once); one node process per
build (:class:`Katex`, ``site_tools/finish/katex_render.js``) receives each page's formulas in one message. A formula
KaTeX cannot parse raises :class:`MathError` naming the page; KaTeX's strict-mode warnings (input it renders but LaTeX
would reject, such as Chinese characters in math mode) are returned with the page, and fail a strict build.

Wide display formulas scroll sideways (``overflow-x: auto`` in ``extra.css``); each display formula is a
focusable region named in the page's language, so a keyboard can reach and scroll it.
``overrides/assets/javascripts/scrollers.js`` keeps it focusable only while it actually overflows.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from site_tools import ROOT, dom

SCRIPT = Path(__file__).with_name("katex_render.js")

# (left, right, display), in auto-render's order of preference at one position ($$ before $).
DELIMITERS = (("$$", "$$", True), ("\\[", "\\]", True), ("\\(", "\\)", False), ("$", "$", False))
_LEFT = re.compile("|".join(re.escape(left) for left, _, _ in DELIMITERS))
IGNORED_TAGS = frozenset({"script", "noscript", "style", "textarea", "pre", "code", "option"})
IGNORED_CLASSES = ("highlight", "md-search", "md-header")
_AMS = re.compile(r"^\\begin\{")
# The name of a display formula's scrolling region, per page language.
FORMULA_LABEL = {"en": "Formula", "zh": "公式"}


class MathError(ValueError):
    """A formula KaTeX cannot parse (the message names the page, the formula and KaTeX's reason)."""


def _find_end_of_math(delimiter: str, text: str, start: int) -> int:
    index, braces = start, 0
    while index < len(text):
        char = text[index]
        if braces <= 0 and text.startswith(delimiter, index):
            return index
        if char == "\\":
            index += 1
        elif char == "{":
            braces += 1
        elif char == "}":
            braces -= 1
        index += 1
    return -1


@dataclass(frozen=True)
class Piece:
    """Text, or a formula (``tex`` as KaTeX gets it, ``raw`` with its delimiters, ``display`` or inline)."""

    text: str
    math: bool = False
    raw: str = ""
    display: bool = False


def split_at_delimiters(text: str) -> list[Piece]:
    """Split ``text`` into text and formulas exactly as KaTeX auto-render's ``splitAtDelimiters`` does.

    >>> [(p.text, p.math) for p in split_at_delimiters(r"a \\(x^2\\) and $$y$$, $5")]
    [('a ', False), ('x^2', True), (' and ', False), ('y', True), (', ', False), ('$5', False)]
    """
    pieces: list[Piece] = []
    while found := _LEFT.search(text):
        if found.start() > 0:
            pieces.append(Piece(text[: found.start()]))
            text = text[found.start() :]
        left, right, display = next(d for d in DELIMITERS if text.startswith(d[0]))
        end = _find_end_of_math(right, text, len(left))
        if end == -1:
            break
        raw = text[: end + len(right)]
        tex = raw if _AMS.match(raw) else text[len(left) : end]
        pieces.append(Piece(tex, math=True, raw=raw, display=display))
        text = text[end + len(right) :]
    if text:
        pieces.append(Piece(text))
    return pieces


@dataclass
class Run:
    """A text node of a page holding at least one formula, and its pieces."""

    node: dom.Node
    pieces: list[Piece] = field(default_factory=list)


@dataclass
class _Link:
    """An ``<a>``: whether it holds text other than math, its formulas."""

    node: dom.Node
    text: bool = False
    formulas: list[str] = field(default_factory=list)


def _ignored(node: dom.Node) -> bool:
    return node.tag in IGNORED_TAGS or any(c in IGNORED_CLASSES for c in dom.classes(node))


def _find(node: dom.Node, ignored: bool, links: list[_Link], runs: list[Run], math_links: list[_Link]) -> None:
    """The formulas in the text under ``node`` (into ``runs``), and the links whose only text is math."""
    for child in dom.children(node):
        if child.is_text_node:
            text = child.text_content or ""
            if ignored:
                if links and text.strip():
                    links[-1].text = True
                continue
            pieces = split_at_delimiters(text)
            if links:
                links[-1].text |= any(not p.math and p.text.strip() for p in pieces)
                links[-1].formulas += [p.text for p in pieces if p.math]
            if any(p.math for p in pieces):
                runs.append(Run(child, pieces))
        elif child.is_element_node and child.tag not in dom.VOID:
            if child.tag == "a":
                links.append(_Link(child))
            _find(child, ignored or _ignored(child), links, runs, math_links)
            if child.tag == "a":
                link = links.pop()
                named = any(k in child.attributes for k in ("aria-label", "aria-labelledby", "title"))  # its own name
                if link.formulas and not link.text and not named:
                    math_links.append(link)


def find_math(tree: dom.Tree, math_links: list[_Link] | None = None) -> list[Run]:
    """The text nodes of a page's ``<body>`` that hold formulas, in document order; the links whose only text is
    math into ``math_links``."""
    runs: list[Run] = []
    if tree.body is not None:
        _find(tree.body, _ignored(tree.body), [], runs, [] if math_links is None else math_links)
    return runs


class Rendered(TypedDict, total=False):
    """KaTeX's answer for one formula (``katex_render.js``): ``html`` and ``warnings``, or ``error`` alone."""

    html: str
    warnings: list[str]
    error: str


class Katex:
    """One node process running KaTeX (``site_tools/finish/katex_render.js``), started on first use; one message per
    page. Close it at the end of the build (the process also ends when this one does: its input closes)."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None

    def render(self, formulas: list[tuple[str, bool]]) -> list[Rendered]:
        """KaTeX's result for each ``(tex, display)``: ``{"html", "warnings"}`` or ``{"error"}``."""
        if not formulas:
            return []
        if self._process is None or self._process.poll() is not None:
            if not (ROOT / "node_modules" / "katex" / "package.json").is_file():
                raise FileNotFoundError("KaTeX not found in node_modules; run `make setup` (it runs `npm ci`)")
            node = shutil.which("node") or shutil.which("nodejs")
            if not node:
                raise FileNotFoundError(
                    "node not found: math is typeset at build time by KaTeX on Node.js; install nodejs"
                )
            self._process = subprocess.Popen(  # text mode: an encoding is given
                [node, str(SCRIPT)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, encoding="utf-8"
            )
        assert self._process.stdin is not None and self._process.stdout is not None
        message = json.dumps([{"tex": tex, "display": display} for tex, display in formulas], ensure_ascii=False)
        self._process.stdin.write(message + "\n")
        self._process.stdin.flush()
        answer = self._process.stdout.readline()
        if not answer:
            code = self._process.wait()
            raise RuntimeError(f"KaTeX's node process ended (exit status {code}) while rendering math")
        results: list[Rendered] = json.loads(answer)
        if len(results) != len(formulas):
            raise RuntimeError(f"KaTeX returned {len(results)} results for {len(formulas)} formulas")
        return results

    def close(self) -> None:
        if self._process is not None:
            if self._process.stdin:
                self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None


def _focusable(markup: str, label: str) -> str:
    """KaTeX's display markup with its scrolling box (``span.katex-display``) made a named, focusable region."""
    opening = '<span class="katex-display">'
    if not markup.startswith(opening):
        raise RuntimeError(f"unexpected KaTeX display markup: {markup[:80]!r}")
    name = html.escape(label, quote=True)
    return f'<span class="katex-display" tabindex="0" role="region" aria-label="{name}">' + markup[len(opening) :]


def typeset(tree: dom.Tree, katex: Katex, *, where: str, lang: str = "en") -> list[str]:
    """Typeset every formula of a page's tree in place; return KaTeX's warnings (each naming ``where``, the page).

    Raises:
        MathError: a formula KaTeX cannot parse, or one marked as math that no delimiters enclose.
    """
    math_links: list[_Link] = []
    runs = find_math(tree, math_links)
    formulas = [(p.text, p.display) for run in runs for p in run.pieces if p.math]
    results = iter(katex.render(formulas))
    label = FORMULA_LABEL.get(lang, FORMULA_LABEL["en"])
    warnings: list[str] = []
    # A link whose only text is math gets its formula's TeX as a title, which names it where the MathML inside does
    # not (axe-core, some screen readers); a title, not an aria-label, so the name does not hide the visible text
    # (WCAG 2.5.3) and screen readers that read MathML still read it.
    for link in math_links:
        link.node.attrs["title"] = " ".join(link.formulas)
    for run in runs:
        for piece in run.pieces:
            if not piece.math:
                run.node.insert_before(piece.text)
                continue
            result = next(results)
            if "error" in result:
                raise MathError(f"{where}: KaTeX cannot parse the formula {piece.raw!r}: {result['error']}")
            warnings += [f"{where}: formula {piece.raw!r}: {w}" for w in result["warnings"]]
            markup = str(result["html"])
            span = dom.element(tree, "span", _focusable(markup, label) if piece.display else markup)
            run.node.insert_before(span, move=True)
        run.node.decompose()
    for node in tree.css("span.arithmatex, div.arithmatex"):  # arithmatex marked it as math, no formula was found
        if not any(child.is_element_node for child in dom.children(node)):
            tex = (node.text() or "").strip()
            raise MathError(f"{where}: the formula {tex!r} was not typeset (unbalanced braces?)")
    return warnings


def render_page(page_html: str, katex: Katex, *, where: str, lang: str = "en") -> tuple[str, list[str]]:
    """``page_html`` (a page, or a piece of one) with every formula typeset, and KaTeX's warnings (:func:`typeset`,
    which the build runs on the page's tree).

    Raises:
        MathError: a formula KaTeX cannot parse.
    """
    tree = dom.parse(page_html)
    warnings = typeset(tree, katex, where=where, lang=lang)
    return dom.write(tree), warnings
