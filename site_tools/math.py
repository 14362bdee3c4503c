"""Math typeset at build time: every formula of a page rendered by KaTeX on node into the page's HTML.

Readers get KaTeX's HTML (for the eye) and its MathML (for screen readers) in the page itself, and KaTeX's
stylesheet and fonts; no script typesets anything in their browser, so math shows with JavaScript off.

The formulas are found the way KaTeX's auto-render extension found them in the browser when the site shipped it,
so the output is the same: in the text of ``<body>`` outside ``script noscript style textarea pre code option``
elements and outside elements of the classes ``highlight md-search md-header``, between the delimiters
``$$ … $$`` and ``\\[ … \\]`` (display) and ``\\( … \\)`` and ``$ … $`` (inline). Markdown pages carry
arithmatex's ``\\( \\)`` and ``\\[ \\]``; notebook cells carry ``$`` and ``$$``. :func:`split_at_delimiters` is
auto-render's ``splitAtDelimiters`` (katex ``contrib/auto-render/splitAtDelimiters.ts``), and each formula
becomes ``<span>`` + KaTeX's markup + ``</span>``, as auto-render's ``katex.render(math, span)`` made it. One
difference: the browser set-up also skipped ``md-nav``, so a heading with math showed raw TeX in the navigation and
the table of contents; here that math is typeset too.

One node process per build (:class:`Katex`, ``site_tools/katex_render.js``) receives each page's formulas in one
message. A formula KaTeX cannot parse raises :class:`MathError` naming the page; KaTeX's strict-mode warnings
(input it renders but LaTeX would reject, such as Chinese characters in math mode) are returned with the page, and
the hook logs them as warnings, which fail a strict build.

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
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).with_name("katex_render.js")

# (left, right, display), in auto-render's order of preference at one position ($$ before $).
DELIMITERS: tuple[tuple[str, str, bool], ...] = (
    ("$$", "$$", True),
    ("\\[", "\\]", True),
    ("\\(", "\\)", False),
    ("$", "$", False),
)
IGNORED_TAGS = frozenset({"script", "noscript", "style", "textarea", "pre", "code", "option"})
IGNORED_CLASSES = ("highlight", "md-search", "md-header")
# Elements without an end tag (they never hold text).
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
)
_AMS = re.compile(r"^\\begin\{")
# An arithmatex element still holding its TeX (nothing inside but text) after rendering.
_UNTYPESET = re.compile(r'<(span|div) class="arithmatex">([^<]*)</\1>')
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


def split_at_delimiters(text: str, delimiters: tuple[tuple[str, str, bool], ...] = DELIMITERS) -> list[Piece]:
    """Split ``text`` into text and formulas exactly as KaTeX auto-render's ``splitAtDelimiters`` does.

    >>> [(p.text, p.math) for p in split_at_delimiters(r"a \\(x^2\\) and $$y$$, $5")]
    [('a ', False), ('x^2', True), (' and ', False), ('y', True), (', ', False), ('$5', False)]
    """
    pieces: list[Piece] = []
    left_pattern = re.compile("|".join(re.escape(left) for left, _, _ in delimiters))
    while True:
        found = left_pattern.search(text)
        if not found:
            break
        if found.start() > 0:
            pieces.append(Piece(text[: found.start()]))
            text = text[found.start() :]
        left, right, display = next(d for d in delimiters if text.startswith(d[0]))
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
    """A stretch of text between two tags in the HTML source, holding at least one formula."""

    start: int  # offsets in the HTML source
    end: int
    pieces: list[Piece] = field(default_factory=list)


@dataclass
class _Link:
    """An open ``<a>``: where its start tag ends, whether it holds text other than math, its formulas."""

    tag_end: int
    named: bool  # it has a name of its own already (aria-label, aria-labelledby, title)
    text: bool = False
    formulas: list[str] = field(default_factory=list)


class _TextRuns(HTMLParser):
    """The text of ``<body>`` outside ignored elements, as runs of source between tags (like DOM text nodes)."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self.source = source
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self.stack: list[tuple[str, bool]] = []  # open elements and whether math is ignored inside
        self.in_body = False
        self.run_start: int | None = None
        self.runs: list[Run] = []
        self.links: list[_Link] = []  # open <a> elements
        self.math_links: list[tuple[int, str]] = []  # (offset of the '>' of <a …>, its formulas) of math-only links

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def _ignored(self) -> bool:
        return not self.in_body or (bool(self.stack) and self.stack[-1][1])

    def _text(self) -> None:
        if self.run_start is None:
            self.run_start = self._offset()

    def _boundary(self) -> None:
        """A tag, comment or declaration starts here: the current run of text (if any) ends."""
        if self.run_start is None:
            return
        start, end = self.run_start, self._offset()
        self.run_start = None
        self._add_run(start, end)

    def _add_run(self, start: int, end: int) -> None:
        text = html.unescape(self.source[start:end])
        if self._ignored():
            if self.links and text.strip():
                self.links[-1].text = True
            return
        pieces = split_at_delimiters(text)
        if self.links:
            self.links[-1].text |= any(not p.math and p.text.strip() for p in pieces)
            self.links[-1].formulas += [p.text for p in pieces if p.math]
        if any(p.math for p in pieces):
            self.runs.append(Run(start, end, pieces))

    handle_data = handle_entityref = handle_charref = lambda self, *_: self._text()  # type: ignore[assignment]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._boundary()
        if tag == "body":
            self.in_body = True
        if tag in _VOID:
            return
        classes = " " + (dict(attrs).get("class") or "") + " "
        ignored = tag in IGNORED_TAGS or any(f" {c} " in classes for c in IGNORED_CLASSES)
        self.stack.append((tag, ignored or (bool(self.stack) and self.stack[-1][1])))
        if tag == "a":
            end = self._offset() + len(self.get_starttag_text() or "")
            named = any(k in ("aria-label", "aria-labelledby", "title") for k, _ in attrs)
            self.links.append(_Link(end - 1, named=named))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._boundary()

    def handle_endtag(self, tag: str) -> None:
        self._boundary()
        if tag == "a" and self.links:
            link = self.links.pop()
            if link.formulas and not link.text and not link.named:
                self.math_links.append((link.tag_end, " ".join(link.formulas)))
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if tag == "body":
            self.in_body = False

    def handle_comment(self, data: str) -> None:
        self._boundary()

    handle_decl = handle_pi = unknown_decl = handle_comment  # type: ignore[assignment]

    def close(self) -> None:
        super().close()
        if self.run_start is not None:  # text up to the end of the document
            start, self.run_start = self.run_start, None
            self._add_run(start, len(self.source))


def find_math(page_html: str) -> list[Run]:
    """The runs of text in ``page_html`` that hold formulas, in document order."""
    return _parse(page_html).runs


def _parse(page_html: str) -> _TextRuns:
    parser = _TextRuns(page_html)
    parser.feed(page_html)
    parser.close()
    return parser


def node_path() -> str:
    path = shutil.which("node") or shutil.which("nodejs")
    if not path:
        raise FileNotFoundError("node not found: math is typeset at build time by KaTeX on Node.js; install nodejs")
    return path


class Katex:
    """One node process running KaTeX (``site_tools/katex_render.js``), started on first use; one message per
    page. Close it at the end of the build (the process also ends when this one does: its input closes)."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None

    def render(self, formulas: list[tuple[str, bool]]) -> list[dict[str, object]]:
        """KaTeX's result for each ``(tex, display)``: ``{"html", "warnings"}`` or ``{"error"}``."""
        if not formulas:
            return []
        if self._process is None or self._process.poll() is not None:
            if not (ROOT / "node_modules" / "katex" / "package.json").is_file():
                raise FileNotFoundError("KaTeX not found in node_modules; run `make setup` (it runs `npm ci`)")
            self._process = subprocess.Popen(
                [node_path(), str(SCRIPT)],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
            )
        assert self._process.stdin is not None and self._process.stdout is not None
        message = json.dumps([{"tex": tex, "display": display} for tex, display in formulas], ensure_ascii=False)
        self._process.stdin.write(message + "\n")
        self._process.stdin.flush()
        answer = self._process.stdout.readline()
        if not answer:
            code = self._process.wait()
            raise RuntimeError(f"KaTeX's node process ended (exit status {code}) while rendering math")
        results = json.loads(answer)
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


def render_page(page_html: str, katex: Katex, *, where: str, lang: str = "en") -> tuple[str, list[str]]:
    """``page_html`` with every formula typeset, and KaTeX's warnings (each naming ``where``, the page).

    Raises:
        MathError: a formula KaTeX cannot parse.
    """
    parsed = _parse(page_html)
    runs = parsed.runs
    formulas = [(p.text, p.display) for run in runs for p in run.pieces if p.math]
    results = iter(katex.render(formulas))
    label = FORMULA_LABEL.get(lang, FORMULA_LABEL["en"])
    warnings: list[str] = []
    # A link whose only text is math gets its formula's TeX as a title, which names it where the MathML inside does
    # not (axe-core, some screen readers); a title, not an aria-label, so the name does not hide the visible text
    # (WCAG 2.5.3) and screen readers that read MathML still read it.
    names = {at: f' title="{html.escape(tex, quote=True)}"' for at, tex in parsed.math_links}
    out, last = [], 0
    for run in runs:
        for at in sorted(a for a in names if last <= a < run.start):
            out.append(page_html[last:at] + names.pop(at))
            last = at
        out.append(page_html[last : run.start])
        for piece in run.pieces:
            if not piece.math:
                out.append(html.escape(piece.text, quote=False))
                continue
            result = next(results)
            if "error" in result:
                raise MathError(f"{where}: KaTeX cannot parse the formula {piece.raw!r}: {result['error']}")
            warnings += [f"{where}: formula {piece.raw!r}: {w}" for w in result["warnings"]]  # type: ignore[union-attr]
            markup = str(result["html"])
            out.append("<span>" + (_focusable(markup, label) if piece.display else markup) + "</span>")
        last = run.end
    for at in sorted(names):
        out.append(page_html[last:at] + names[at])
        last = at
    out.append(page_html[last:])
    rendered = "".join(out)
    for m in _UNTYPESET.finditer(rendered):  # arithmatex marked it as math, auto-render's rules found no formula
        raise MathError(
            f"{where}: the formula {html.unescape(m.group(2)).strip()!r} was not typeset (unbalanced braces?)"
        )
    return rendered, warnings
