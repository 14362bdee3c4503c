"""Reading the pages as data: one model of a page, used by every check, by the notebooks and by ``make check``.

:func:`read` (a file) and :func:`parse` (Markdown text) give a :class:`Page`:

- ``meta``: the front matter (YAML between ``---`` lines at the very top, as MkDocs reads it);
- ``fences``: every fenced code block, with the pytest-codeblocks markers that apply to it and what
  pytest-codeblocks does with it (:attr:`Fence.role`, :attr:`Fence.runs`);
- ``prose_lines``: the lines a reader reads as text (outside code and front matter), for the number and the
  Chinese checks;
- ``figures`` and ``headings``;
- ``items``: the page as a tree — prose, python code, expected output, figures, admonitions / collapsible blocks
  / content tabs — which ``site_tools.build.notebooks`` turns into a notebook;
- :meth:`Page.problems`: every place where the tests would not run what the page shows (a python fence that is
  not collected, a skip mark, code that runs but is hidden in a comment, …), with its line.

How a page is read. The structure comes from markdown-it-py (CommonMark, pinned in requirements.txt) with the
front-matter and dollar-math plugins of mdit-py-plugins, and one block rule of this module for the blocks that the
site's Python-Markdown extensions add: admonitions (``!!! type "Title"``), collapsible blocks (``??? type "Title"``;
open: ``???+``) and content tabs (``=== "Title"``). Their body is every following line that is blank or indented
four more columns (Python-Markdown's rule); mdit-py-plugins' own admonition plugin is not used because it ends a
block at two blank lines, which a python block inside an admonition may contain (formula.md has one).

What runs is decided by pytest-codeblocks, which reads lines, not Markdown: a marker comment
(``<!--pytest-codeblocks:cont-->``, ``<!--pytest-codeblocks:expected-output-->``, ``<!--pytest.mark.skip-->``, …)
applies to the next fence that starts with backticks, whatever lies between; ``~~~`` fences are not seen; a fence
inside an HTML comment runs. The model assigns each fence its role from the marker comments that markdown-it
finds, and checks that assignment against pytest-codeblocks' own reading of the same text
(``pytest_codeblocks.main.extract_from_buffer``) every time a page is read: where the two differ,
:meth:`Page.problems` says so, naming the line. So the model agrees with what actually runs, or the tests fail.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from site_tools import ROOT

TAB = 4  # Python-Markdown's indentation unit (admonitions, collapsible blocks, content tabs)

# pytest-codeblocks' marker comments (pytest_codeblocks/main.py: matched against the stripped line).
_CODEBLOCKS_MARKER = re.compile(r"<!--[-\s]*pytest-codeblocks:(.*)-->")
_PYTEST_MARK = re.compile(r"<!--[-\s]*(pytest\.mark\..*)-->")


def codeblocks_keyword(text: str) -> str | None:
    """The keyword of a pytest-codeblocks marker (``cont``, ``expected-output``, …) as this reader and
    pytest-codeblocks read ``<!--pytest-codeblocks:…-->``, or ``None`` when ``text`` is not one."""
    m = _CODEBLOCKS_MARKER.match(text.strip())
    return m.group(1).strip("- ") if m else None


# A box: an admonition, a collapsible block, a content tab (pymdownx.details / pymdownx.tabbed syntax).
_BOX = re.compile(
    r"^(?P<marker>!!!|\?\?\?\+?)[ \t]*(?P<type>[\w-]+)(?P<classes>(?:[ \t]+[\w-]+)*)(?:[ \t]+\"(?P<title>.*)\")?[ \t]*$"
    r"|^(?P<tab>===[+!]{0,2})[ \t]+\"(?P<tab_title>.*)\"[ \t]*$"
)
_PICTURE_TAG = re.compile(r"</?picture\b[^>]*>|<source\b[^>]*>")  # the wrapper of a figure with a narrow layout
_IMG_TAG = re.compile(r"<img\b", re.I)
_FIGURE_SRC = re.compile(r"^(?:\./)?figures/(?P<name>[\w.-]+?)\.(?P<theme>light|dark)\.svg(?:#only-(?:light|dark))?$")


# --- what a page is made of --------------------------------------------------------------------------------------


# Fence syntaxes pytest-codeblocks runs as shell commands (tests/harness/block_cache.py fails them unrun).
SHELLS = ("sh", "bash", "zsh")


@dataclass(frozen=True)
class Fence:
    """One fenced code block of a page, as markdown-it reads it, with what pytest-codeblocks does with it."""

    path: Path | None
    line: int  # 1-based line of the opening fence
    end: int  # 1-based line of the closing fence (the last line of its container if it is not closed)
    tick: str  # the fence characters as written: ``` or ~~~ (3 or more)
    info: str  # the info string, stripped
    code: str  # the content, container and fence indentation removed, without the final newline
    marker_comments: tuple[str, ...] = ()  # the comments before it that pytest-codeblocks reads, as written
    role: str = "shown"  # "block", "cont", "expected-output" (pytest-codeblocks' reading), or "shown" (not read)
    head: int = 0  # for "cont" and "expected-output": the line of the block it belongs to; else its own line
    syntax: str = ""  # the info string of that block (what pytest-codeblocks executes it as)
    pytest_marks: tuple[str, ...] = ()  # the pytest marks those comments give that block (pytest.mark.skip, …)
    hidden_by: str = ""  # "blockquote" or "list": pytest-codeblocks cannot see it (the line starts with > or -)

    @property
    def skipped(self) -> bool:
        """Its block carries a mark that skips it, may skip it or expects it to fail."""
        return any(re.match(r"pytest\.mark\.(?:skip|skipif|xfail)\b|importorskip", m) for m in self.pytest_marks)

    @property
    def runs(self) -> bool:
        """Whether pytest-codeblocks executes its code as Python (alone, or continuing the block before it)."""
        return self.role in ("block", "cont") and self.syntax == "python" and not self.skipped

    @property
    def looks_like_python(self) -> bool:
        """Python in any spelling (py, python3, python title=…, ~~~python)."""
        lang = (self.info.split() or [""])[0]
        return lang.lstrip("{.").rstrip("}") in {"py", "python", "python3", "pycon"}


_HEADING_ATTRS = re.compile(r"\s*\{:?\s*([#.][^}]*)\}\s*$")  # a heading's attribute list: {#id}, {: #id .class}


@dataclass(frozen=True)
class Heading:
    level: int
    title: str  # the heading's Markdown, as written (closing #s and attribute lists not removed)
    line: int

    @property
    def text(self) -> str:
        """The title without its attribute list (``## Exercises {#exercises}`` → ``Exercises``)."""
        return _HEADING_ATTRS.sub("", self.title)

    @property
    def id(self) -> str | None:
        """The id the heading sets itself (``{#exercises}`` → ``exercises``), or None: then the id is made from the
        title, and changes with its wording and language."""
        m = _HEADING_ATTRS.search(self.title)
        return next((word[1:] for word in m.group(1).split() if word.startswith("#")), None) if m else None


@dataclass(frozen=True)
class FigureRef:
    """An image of a build-time figure: ``![alt](figures/<name>.<theme>.svg#only-<theme>)``."""

    name: str
    theme: str
    alt: str
    line: int


# The page as a tree (what a notebook shows). Lines are relative to their container (its indentation removed).


@dataclass
class Prose:
    """Markdown text, as written (relative to its container)."""

    lines: list[str]
    line: int = 0


@dataclass
class Verbatim:
    """A fence that does not run (``text``, ``console``, …): kept as Markdown, untouched."""

    lines: list[str]
    line: int = 0


@dataclass
class Code:
    """A python block that runs: a code cell. ``cont``: the page continues the previous block with it."""

    code: str
    cont: bool
    line: int = 0


@dataclass
class Expected:
    """The expected output of the python block before it."""

    text: str
    line: int = 0


@dataclass
class Figure:
    """A registered build-time figure (both themes): a code cell that draws it."""

    name: str
    alt: str
    line: int = 0


@dataclass
class Box:
    """An admonition (``kind="admonition"``), a collapsible block (``"details"``; ``open`` for ``???+``) or a
    content tab (``"tab"``), and what it contains."""

    kind: str
    type: str
    title: str | None
    items: list[Item]
    line: int = 0
    open: bool = False


Item = Prose | Verbatim | Code | Expected | Figure | Box


def walk(items: list[Item]) -> Iterator[Item]:
    """Every item, depth first, in page order."""
    for item in items:
        yield item
        if isinstance(item, Box):
            yield from walk(item.items)


@dataclass(frozen=True)
class Page:
    """A page read once (see the module docstring)."""

    path: Path | None
    text: str
    meta: Mapping[str, Any]
    fences: tuple[Fence, ...]
    headings: tuple[Heading, ...]
    figures: tuple[FigureRef, ...]
    items: tuple[Item, ...]
    code_lines: frozenset[int]  # 1-based lines inside fences, indented code blocks and the front matter
    front_matter_lines: int  # how many lines the front matter takes (0: none)
    indented_code: tuple[int, ...]  # 1-based first lines of indented code blocks
    marker_problems: tuple[str, ...] = field(default=())  # marker comments that apply to nothing, or cannot apply
    images: int = 0  # images it shows (Markdown images, <img> in its HTML)
    front_matter_problem: tuple[int, str] | None = None  # (line, why) when the lines between the --- are no mapping

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @functools.cached_property
    def codeblocks_differences(self) -> tuple[str, ...]:
        """Where pytest-codeblocks reads the page differently from the roles given to its fences, and the marker
        comments that apply to nothing (``"<line>: …"``); computed when first asked for (it runs pytest-codeblocks'
        reader on the page)."""
        if self.marker_problems and self.marker_problems[-1].startswith("1: pytest-codeblocks:skipfile"):
            return self.marker_problems
        return self.marker_problems + tuple(_compare_with_pytest_codeblocks(list(self.fences), self.text))

    @property
    def body(self) -> str:
        """The Markdown after the front matter, as MkDocs renders it (leading blank lines dropped)."""
        return "\n".join(self.lines[self.front_matter_lines :]).lstrip("\n")

    @property
    def title(self) -> str | None:
        """``title`` in the front matter, else the first level-1 heading (as MkDocs takes it), else None."""
        if self.meta.get("title"):
            return str(self.meta["title"])
        return next((h.title for h in self.headings if h.level == 1), None)

    def under(self, heading: Heading) -> list[str]:
        """The lines below ``heading``, up to the next heading of any level or the end of the page."""
        after = [h.line for h in self.headings if h.line > heading.line]
        return self.lines[heading.line : after[0] - 1 if after else None]

    def prose_lines(self) -> Iterator[tuple[int, str]]:
        """(1-based line, text) of every line outside code and front matter, as written."""
        return ((n, line) for n, line in enumerate(self.lines, 1) if n not in self.code_lines)

    @property
    def chapter(self) -> bool:
        """Whether the page is a chapter: a python block runs on it and its front matter does not say
        ``notebook: false`` (it has a notebook, ``site_tools.build.notebooks``; its blocks' torch is named)."""
        return self.meta.get("notebook") is not False and bool(self.running)

    @property
    def running(self) -> list[Fence]:
        """The fences whose code pytest-codeblocks runs as Python, in page order."""
        return [f for f in self.fences if f.runs]

    @property
    def compared(self) -> list[Fence]:
        """The fences that must match between languages, in page order: python fences (in any spelling) and
        expected outputs (what :func:`code_units` compares and ``make sync`` copies)."""
        return [f for f in self.fences if f.looks_like_python or f.role == "expected-output"]

    def chains(self) -> dict[int, list[Fence]]:
        """The fences of each test pytest-codeblocks makes of the page's python, keyed by the line of its first fence:
        a block and the blocks that continue it (marked ones too)."""
        out: dict[int, list[Fence]] = {}
        for f in self.fences:
            if f.role in ("block", "cont") and f.syntax == "python":
                out.setdefault(f.head, []).append(f)
        return out

    def blocks(self) -> list[tuple[int, str]]:
        """(line, code) of each test pytest-codeblocks makes of the page's python (:meth:`chains`, joined)."""
        return [(line, "\n".join(f.code for f in chain)) for line, chain in self.chains().items()]

    def problems(self) -> list[str]:
        """Every place where the tests would not run what the page shows, one sentence each, with its line."""
        where = f"{rel(self.path)}:" if self.path else "line "
        out = [f"{where}{p}" for p in self.codeblocks_differences]
        if self.front_matter_problem:
            line, why = self.front_matter_problem
            out.append(
                f"{where}{line}: {why}; MkDocs then reads it as the page's text and drops what it sets "
                "(checked_against, quoted, notebook): fix the YAML"
            )
        heads = {f.line: f for f in self.fences if f.role == "block"}
        for f in self.fences:
            at = f"{where}{f.line}: "
            if f.skipped:
                out.append(f"{at}marked {', '.join(f.pytest_marks)}: no block is skipped (the tests would not run it)")
            elif f.looks_like_python and f.hidden_by:
                out.append(f"{at}python block in a {f.hidden_by}: pytest-codeblocks does not see it; take it out")
            elif f.looks_like_python and (f.role == "shown" or (f.role == "block" and f.syntax != "python")):
                out.append(f"{at}'{f.tick}{f.info}' is not collected; use a bare ```python")
            elif f.role == "cont" and f.looks_like_python and f.runs and f.info.strip() != "python":
                out.append(
                    f"{at}'{f.tick}{f.info}' runs only because its marker joins it to the block before; use a bare "
                    "```python, as every block does"
                )
            elif f.looks_like_python and not f.runs:
                head = heads.get(f.head)
                what = f"'{head.tick}{head.info}'" if head else "a block that does not run"
                out.append(f"{at}python block never runs: its marker joins it to {what} at line {f.head}")
            elif f.role == "block" and f.syntax in SHELLS:
                out.append(
                    f"{at}```{f.syntax} blocks would run as shell commands, so the tests fail them without running "
                    "them; show commands as ```console"
                )
            opening = self.lines[f.line - 1]
            if (spaces := len(opening) - len(opening.lstrip(" "))) % TAB and not f.hidden_by:
                out.append(
                    f"{at}fence indented {spaces} spaces: a box's body is indented {TAB} spaces more than its "
                    f"`???` or `!!!` line, so at {spaces} this block renders outside the box it follows (a solution "
                    f"shows under its exercise); indent it {spaces - spaces % TAB + TAB} spaces, or "
                    f"{spaces - spaces % TAB} if it is not in a box"
                )
            if f.role == "expected-output" and heads.get(f.head) is not None and not heads[f.head].runs:
                out.append(f"{at}expected output of a block that does not run (line {f.head})")
        for n in self.indented_code:
            out.append(
                f"{where}{n}: an indented code block (4 spaces outside an admonition, tab or list): fence it with "
                "``` or indent it less"
            )
        return out


# --- reading ------------------------------------------------------------------------------------------------------


def _box_rule(state: Any, start: int, end: int, silent: bool) -> bool:
    """markdown-it block rule for ``!!!``, ``???``, ``???+`` and ``===`` blocks, with Python-Markdown's extent."""
    if state.sCount[start] - state.blkIndent >= TAB:
        return False  # an indented code block
    first = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    m = _BOX.match(first)
    if m is None:
        return False
    if silent:
        return True
    indent = state.sCount[start] + TAB  # the body's column
    last = line = start + 1
    while line < end and (state.isEmpty(line) or state.sCount[line] >= indent):
        if not state.isEmpty(line):
            last = line + 1  # blank lines after the body are not part of it
        line += 1
    if m.group("tab"):
        kind, type_, title, opened = "tab", "tab", m.group("tab_title"), False
    else:
        marker = m.group("marker")
        kind = "admonition" if marker == "!!!" else "details"
        type_, opened = m.group("type").lower(), marker == "???+"
        title = type_.capitalize() if m.group("title") is None else m.group("title")  # the title Material shows
    old = (state.parentType, state.lineMax, state.blkIndent)
    state.parentType, state.lineMax, state.blkIndent = "box", last, indent
    token = state.push("box_open", "div", 1)
    token.map = [start, last]
    token.block = True
    token.meta = {"kind": kind, "type": type_, "title": title, "open": opened, "indent": indent}
    state.md.block.tokenize(state, start + 1, last)
    token = state.push("box_close", "div", -1)
    token.block = True
    state.parentType, state.lineMax, state.blkIndent = old
    state.line = last
    return True


@functools.cache
def _markdown() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = MarkdownIt("commonmark", {"html": True}).use(front_matter_plugin).enable("table")
    # $…$ and $$…$$ as pymdownx.arithmatex reads them (no space inside the dollars, no blank line in a block), so
    # that a line of TeX is never taken for Markdown (a "=" under a formula for a heading, a "- x" for a list)
    md.use(
        dollarmath_plugin,
        allow_labels=False,
        allow_space=False,
        allow_digits=False,
        allow_blank_lines=False,
        double_inline=True,
    )
    md.block.ruler.before("fence", "box", _box_rule, {"alt": ["paragraph", "reference", "blockquote", "list"]})
    return md


def _dedent(line: str, columns: int) -> str:
    """``line`` without up to ``columns`` columns of leading whitespace (a tab counts to the next multiple of 4)."""
    col = i = 0
    while i < len(line) and col < columns and line[i] in " \t":
        col = col + 1 if line[i] == " " else (col // TAB + 1) * TAB
        i += 1
    return line[i:]


def _front_matter(tokens: list[Any]) -> tuple[dict[str, Any], int, tuple[int, str] | None]:
    """(meta, number of lines it takes, (line, what is wrong with it) or None) — YAML that is not a mapping is no
    front matter, as for MkDocs: those lines are the page's text then, and the third item says why."""
    import yaml

    if not tokens or tokens[0].type != "front_matter":
        return {}, 0, None
    try:
        meta = yaml.safe_load(tokens[0].content)
    except yaml.YAMLError as error:
        where = getattr(error, "problem_mark", None)
        line = where.line + 2 if where is not None else 1  # the mark counts from the line after ---
        why = " ".join(str(getattr(error, "problem", None) or error).split())
        return {}, 0, (line, f"the front matter is not valid YAML ({why})")
    if isinstance(meta, dict):
        return meta, tokens[0].map[1], None
    return {}, 0, (1, "the front matter is not a YAML mapping (`key: value` lines)")


@functools.lru_cache(maxsize=256)
def parse(text: str, path: Path | None = None) -> Page:
    """A page's Markdown (front matter included), read once (see the module docstring)."""
    from markdown_it.tree import SyntaxTreeNode

    tokens = _markdown().parse(text)
    lines = text.split("\n")
    meta, fm_end, fm_problem = _front_matter(tokens)
    code_lines = set(range(1, fm_end + 1))
    fences, reading = _fences(tokens, lines, path)
    by_line = {f.line: f for f in fences}
    headings: list[Heading] = []
    figures: list[FigureRef] = []
    indented: list[int] = []
    images = 0
    for i, tok in enumerate(tokens):
        if tok.type == "html_block":
            images += len(_IMG_TAG.findall(tok.content))
        for child in tok.children or []:
            images += child.type == "image" or (child.type == "html_inline" and bool(_IMG_TAG.match(child.content)))
        if tok.type in ("fence", "code_block") and tok.map:
            code_lines.update(range(tok.map[0] + 1, tok.map[1] + 1))
            if tok.type == "code_block":
                indented.append(tok.map[0] + 1)
        elif tok.type == "heading_open":
            headings.append(Heading(int(tok.tag[1]), tokens[i + 1].content, tok.map[0] + 1))
        elif tok.type == "inline" and tok.map and tokens[i - 1].type == "paragraph_open":
            figures += _figure_lines(tok)
    items = _items(SyntaxTreeNode(tokens), lines, fm_end, len(lines), 0, by_line)
    return Page(
        path=path,
        text=text,
        meta=meta,
        fences=tuple(fences),
        headings=tuple(headings),
        figures=tuple(figures),
        items=tuple(items),
        code_lines=frozenset(n for n in code_lines if n <= len(lines)),
        front_matter_lines=fm_end,
        indented_code=tuple(indented),
        marker_problems=tuple(reading),
        images=images,
        front_matter_problem=fm_problem,
    )


def read(path: Path) -> Page:
    """The page at ``path`` (a Markdown file)."""
    return parse(Path(path).read_text(encoding="utf-8"), Path(path))


def _figure_lines(inline: Any) -> list[FigureRef]:
    """The lines of a paragraph that hold nothing but one figure image — alone, or as the image of a ``<picture>``
    that offers another layout on narrow screens (``<picture><source media=… srcset=…>![…](…)</picture>``)."""
    groups: list[list[Any]] = [[]]  # the tokens of each line
    for child in inline.children or []:
        if child.type in ("softbreak", "hardbreak"):
            groups.append([])
        else:
            groups[-1].append(child)
    out = []
    for line, group in enumerate(groups, inline.map[0] + 1):
        shown = [
            t
            for t in group
            if not (t.type == "text" and not t.content.strip())
            and not (t.type == "html_inline" and _PICTURE_TAG.fullmatch(t.content.strip()))
        ]
        m = _FIGURE_SRC.match(shown[0].attrGet("src") or "") if len(shown) == 1 and shown[0].type == "image" else None
        if m:
            out.append(FigureRef(m.group("name"), m.group("theme"), shown[0].content, line))
    return out


def _fences(tokens: list[Any], lines: list[str], path: Path | None) -> tuple[list[Fence], list[str]]:
    """The page's fences with their roles (pytest-codeblocks' rules applied to markdown-it's reading), and where
    pytest-codeblocks' own reading differs."""
    fences: list[Fence] = []
    reading: list[str] = []
    markers: list[str] = []  # comments since the last fence pytest-codeblocks sees
    marks: list[str] = []  # pytest marks waiting for the next block
    cont = expect = False
    heads: list[Fence] = []
    containers: list[str] = []
    for tok in tokens:
        if tok.type in ("blockquote_open", "list_item_open"):
            containers.append("blockquote" if tok.type == "blockquote_open" else "list")
        elif tok.type in ("blockquote_close", "list_item_close"):
            containers.pop()
        elif tok.type == "html_block" and tok.map:
            first = lines[tok.map[0]].strip()
            if (keyword := codeblocks_keyword(first)) is not None:
                markers.append(f"pytest-codeblocks:{keyword}")
                if keyword == "cont":
                    cont = True
                    if not heads:
                        reading.append(f"{tok.map[0] + 1}: a cont marker before any code block")
                elif keyword.startswith("expected-output"):
                    expect = True
                elif keyword == "skip" or keyword.startswith("skipif"):
                    marks.append(f"pytest.mark.{keyword}")
                elif keyword.startswith("importorskip"):
                    marks.append(keyword)
                elif keyword in ("expect-exception", "expect-error"):
                    marks.append("pytest.mark.xfail")
                elif keyword != "skipfile":
                    reading.append(f"{tok.map[0] + 1}: unknown pytest-codeblocks marker {keyword!r}")
            elif m := _PYTEST_MARK.match(first):
                markers.append(m.group(1))
                marks.append(m.group(1))
        elif tok.type == "fence" and tok.map:
            line = tok.map[0] + 1
            fence = Fence(
                path=path,
                line=line,
                end=tok.map[1],
                tick=tok.markup,
                info=tok.info.strip(),
                code=tok.content[:-1] if tok.content.endswith("\n") else tok.content,
            )
            seen = tok.markup.startswith("`") and lines[tok.map[0]].lstrip().startswith("```")
            if not seen:
                hidden = containers[-1] if containers and tok.markup.startswith("`") else ""
                fences.append(replace(fence, hidden_by=hidden, head=line))
                continue
            if (cont or expect) and heads:
                head, role = heads[-1], "cont" if cont else "expected-output"
                fence = replace(fence, role=role, head=head.line, syntax=head.syntax, pytest_marks=head.pytest_marks)
            else:
                fence = replace(fence, role="block", head=line, syntax=fence.info, pytest_marks=tuple(marks))
                heads.append(fence)
                marks = []
            fences.append(replace(fence, marker_comments=tuple(markers)))
            markers = []
            cont = expect = False
    if markers:
        reading.append(f"{len(lines)}: marker {markers[-1]!r} at the end of the page applies to no code block")
    if lines and lines[0].strip() == "<!--pytest-codeblocks:skipfile-->":
        reading.append("1: pytest-codeblocks:skipfile: no block of this page runs in the tests")
        return [replace(f, role="shown", syntax="", pytest_marks=()) for f in fences], reading
    return fences, reading


def _squash(code: str) -> str:
    """Code without blank lines and trailing whitespace (pytest-codeblocks drops blank lines in indented fences)."""
    return "\n".join(line.rstrip() for line in code.splitlines() if line.strip())


def _compare_with_pytest_codeblocks(fences: list[Fence], text: str) -> list[str]:
    """Where pytest-codeblocks' reading of ``text`` differs from the roles given to ``fences``."""
    from pytest_codeblocks.main import extract_from_buffer

    try:
        theirs = extract_from_buffer(io.StringIO(text))
    except RuntimeError as exc:
        return [f"1: pytest-codeblocks cannot read the page: {exc}"]
    ours: dict[int, dict[str, Any]] = {}
    for f in fences:
        if f.role == "block":
            ours[f.line] = {"syntax": f.info, "code": [f.code], "expected": None, "marks": list(f.pytest_marks)}
        elif f.role == "cont":
            ours[f.head]["code"].append(f.code)
        elif f.role == "expected-output":
            ours[f.head]["expected"] = _squash(f.code)
    out = []
    for block in theirs:
        mine = ours.get(block.lineno)
        what = f"```{(block.syntax or '').strip()}"
        if mine is None:
            out.append(
                f"{block.lineno}: pytest-codeblocks reads a {what} block here that the page does not show as one "
                "(inside an HTML comment, an indented code block or a ~~~ fence?)"
            )
            continue
        differences = []
        if (block.syntax or "").strip() != mine["syntax"]:
            differences.append(f"language {block.syntax!r} / {mine['syntax']!r}")
        if _squash(block.code) != _squash("\n".join(mine["code"])):
            differences.append("code")
        expected = None if block.expected_output is None else _squash(block.expected_output)
        if expected != mine["expected"]:
            differences.append("expected output")
        if list(block.marks) != mine["marks"]:
            differences.append(f"marks {block.marks} / {mine['marks']}")
        if differences:
            out.append(f"{block.lineno}: pytest-codeblocks reads this block differently: {', '.join(differences)}")
    for line in sorted(set(ours) - {block.lineno for block in theirs}):
        out.append(f"{line}: pytest-codeblocks does not read this block (the page shows a fence it does not see)")
    return out


def _items(node: Any, lines: list[str], start: int, end: int, indent: int, fences: dict[int, Fence]) -> list[Item]:
    """The items of a container: ``node``'s blocks, in the 0-based lines [start, end), indented ``indent`` columns."""
    specials = [(s, e, item) for s, e, item in _specials(node, lines, fences) if s >= start]
    items: list[Item] = []
    cursor = start

    def prose(a: int, b: int) -> None:
        chunk = [_dedent(line, indent) for line in lines[a:b]]
        if any(line.strip() for line in chunk):
            items.append(Prose(chunk, a + 1))

    for s, e, item in specials:
        if s > cursor:
            prose(cursor, s)
        if item is not None and not (
            isinstance(item, Figure) and items and isinstance(items[-1], Figure) and items[-1].name == item.name
        ):
            items.append(item)
        cursor = max(cursor, e)
    if end > cursor:
        prose(cursor, end)
    return items


def _specials(node: Any, lines: list[str], fences: dict[int, Fence]) -> Iterator[tuple[int, int, Item | None]]:
    """What a notebook does not show as plain Markdown, in page order: python blocks, expected outputs, other
    fences, figure lines, boxes (with their own items), and the marker comments (dropped)."""
    for child in node.children:
        kind = child.type
        if kind == "fence" and child.map:
            s, e = child.map
            fence = fences.get(s + 1)
            if fence is not None and fence.runs:
                yield s, e, Code(fence.code, fence.role == "cont", fence.line)
            elif fence is not None and fence.role == "expected-output":
                yield s, e, Expected(fence.code, fence.line)
            else:
                indent = len(lines[s]) - len(lines[s].lstrip())
                yield s, e, Verbatim([_dedent(line, indent) for line in lines[s:e]], s + 1)
        elif kind == "html_block" and child.map:
            first = lines[child.map[0]].strip()
            if _CODEBLOCKS_MARKER.match(first) or _PYTEST_MARK.match(first):
                yield child.map[0], child.map[1], None
        elif kind == "box" and child.map:
            s, e = child.nester_tokens.opening.map
            meta = child.nester_tokens.opening.meta
            inner = _items(child, lines, s + 1, e, meta["indent"], fences)
            yield s, e, Box(meta["kind"], meta["type"], meta["title"], inner, s + 1, meta["open"])
        elif kind == "paragraph" and child.children and child.children[0].type == "inline":
            for ref in _figure_lines(child.children[0].token):
                yield ref.line - 1, ref.line, Figure(ref.name, ref.alt, ref.line)
        elif kind in ("blockquote", "code_block", "front_matter"):
            continue  # prose as written (a blockquote's fences are not collected: see Page.problems)
        elif child.children:
            yield from _specials(child, lines, fences)


def rel(path: Path | None) -> str:
    """A file as a contributor names it in messages: relative to the repository (``docs/en/formula.md``)."""
    if path is None:
        return "<text>"
    resolved = Path(path).resolve()
    return resolved.relative_to(ROOT).as_posix() if resolved.is_relative_to(ROOT) else Path(path).as_posix()
