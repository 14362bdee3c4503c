"""The pages of the site and the checks across them: which pages each language has (:func:`files`,
:func:`chapters`, :func:`page_names`), the code blocks that must match between the two languages, comments aside
(:func:`code_units`, :func:`parity_problems_of`), each language's nav listing exactly the pages it has
(:func:`nav_places`, :func:`nav_problems_of`), and the assertions that cannot fail (:func:`weak_asserts`).

``python -m site_tools.pages`` prints, for every page, what the other language is missing or has differently.
"""

from __future__ import annotations

import difflib
import functools
import io
import re
import tokenize
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from site_tools import layout
from site_tools.layout import LANGS
from site_tools.pages import asserts
from site_tools.pages.model import Fence, read, rel


def fences(path: Path) -> list[Fence]:
    """All fenced code blocks of a Markdown file, in order (nested fences inside a fence are content)."""
    return list(read(path).fences)


def _comment_columns(code: str) -> dict[int, int]:
    """0-based line within Python ``code`` -> the column where its ``#`` comment starts (a ``#`` inside a string
    literal is not one); code that does not tokenize is read line by line (a ``#`` at the start or after a space)."""
    try:
        return {
            t.start[0] - 1: t.start[1]
            for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type == tokenize.COMMENT
        }
    except (tokenize.TokenError, IndentationError, SyntaxError):
        found = (re.search(r"(?:^|\s)(#.*)$", line) for line in code.split("\n"))
        return {n: m.start(1) for n, m in enumerate(found) if m}


def code_lines(code: str) -> list[tuple[int, str]]:
    """(0-based line within ``code``, the line without its ``#`` comment and trailing space) of every line that
    holds code: comments and blank lines dropped, a ``#`` inside a string literal kept.

    >>> code_lines("x = 1  # one\\n\\n# a note\\ns = '#' # two")
    [(0, 'x = 1'), (3, "s = '#'")]
    """
    columns = _comment_columns(code)
    cut = [(n, line[: columns.get(n)].rstrip()) for n, line in enumerate(code.split("\n"))]
    return [(n, text) for n, text in cut if text]


def comments(code: str) -> list[tuple[int, str]]:
    """(0-based line within Python ``code``, its ``#`` comment as written) of every line that has one: what a
    translation may change (:func:`code_lines` is the rest).

    >>> comments("x = 1  # one\\n\\n# a note\\ns = '#' # two")
    [(0, '# one'), (2, '# a note'), (3, '# two')]
    """
    lines = code.split("\n")
    return [(n, lines[n][column:].rstrip()) for n, column in sorted(_comment_columns(code).items())]


def files(lang: str | Path) -> dict[str, Path]:
    """The page files of one language (``"en"``, ``"zh"``, or a folder of pages), by their path relative to its
    folder (``docs/<lang>``): ``formula.md``."""
    base = layout.DOCS / lang if lang in LANGS else Path(lang)
    return {
        p.relative_to(base).as_posix(): p
        for p in sorted(base.rglob("*.md"))
        if ".ipynb_checkpoints" not in p.parts and p.is_file()  # JupyterLab's copies of a page it edited
    }


def chapters(lang: str) -> dict[str, Path]:
    """The chapters of one language (:attr:`Page.chapter`), by their path relative to ``docs/<lang>``."""
    return {name: path for name, path in files(lang).items() if read(path).chapter}


def page_names() -> list[str]:
    """Every page name (``formula.md``) that exists in at least one language."""
    return sorted(set().union(*(files(lang) for lang in LANGS)))


@dataclass(frozen=True)
class CodeUnit:
    """What parity compares of one block: a python fence or an expected output."""

    path: Path
    line: int  # 1-based line of the opening fence
    head: str  # the marker comments before it and the fence's info string, as compared
    lines: tuple[tuple[int, str], ...]  # (1-based file line, code as compared): comments and blank lines dropped

    @property
    def signature(self) -> str:
        code = "\n".join(text for _, text in self.lines)
        return f"{self.head}\n{code}"

    def where(self, line: int | None = None) -> str:
        """``docs/en/formula.md:125``."""
        return f"{rel(self.path)}:{self.line if line is None else line}"


def code_units(path: Path) -> list[CodeUnit]:
    """The blocks of a page that must match between languages, in order: python fences (comments stripped, with
    their marker comments and info string) and expected outputs (as written)."""
    units = []
    for f in read(path).compared:
        markers = " ".join(f.marker_comments)
        python = f.looks_like_python  # else an expected output, compared as written
        lines = code_lines(f.code) if python else list(enumerate(f.code.split("\n")))
        numbered = tuple((f.line + 1 + n, text) for n, text in lines)  # the code starts on the line after the fence
        units.append(CodeUnit(path, f.line, f"{markers}\n{f.info}" if python else markers, numbered))
    return units


def code_signature(path: Path) -> list[str]:
    """What must match between languages: python blocks (comments stripped), their markers, expected outputs."""
    return [unit.signature for unit in code_units(path)]


def weak_asserts(path: Path) -> list[str]:
    """Assertions in a page's executed code that cannot fail, check nothing or time the machine
    (``site_tools.pages.asserts``), tests of the page (a block and the blocks that continue it) that neither
    assert nor show an expected output, and, in a test with no expected output, each block that does more than
    define (``asserts.unchecked_work``) and asserts nothing of its own, as sentences naming the page and the line."""
    page = read(path)
    found = []
    shown = {f.head for f in page.fences if f.role == "expected-output"}
    for head, chain in page.chains().items():
        constants = asserts.constant_names("\n".join(f.code for f in chain))
        for f in chain:
            if f.runs:
                found += [
                    f"{path.name}:{f.line + n}: `{text}` {why}" for n, text, why in asserts.weak(f.code, constants)
                ]
        if head in shown:
            continue
        if not any(asserts.asserts_something(f.code) for f in chain):
            found.append(
                f"{path.name}:{head}: this block (and the blocks that continue it) asserts nothing and shows no "
                "expected output: assert what it computes, or add the output it prints"
            )
            continue
        for f in chain:
            if (work := asserts.unchecked_work(f.code)) is not None:
                found.append(
                    f"{path.name}:{f.line}: this block runs `{work}` but asserts nothing of its own, and no expected "
                    "output shows what it prints; the assertions of the blocks it continues or that continue it do "
                    "not check it: assert what it computes here"
                )
    return found


def parity_problems_of(name: str) -> list[str]:
    """What one language has of page ``name`` (``formula.md``) that the other lacks, as sentences; a block that
    differs is shown as a diff with the line of each side in its file."""
    have = {lang: files(lang).get(name) for lang in LANGS}
    missing = [lang for lang, path in have.items() if path is None]
    if missing:
        present = [lang for lang in LANGS if lang not in missing]
        return [f"{name}: exists in {present[0]} only; add docs/{missing[0]}/{name}"] if present else []
    a, b = (code_units(have[lang]) for lang in LANGS)  # type: ignore[arg-type]  # no None: returned above
    return code_differences(name, a, b)


def code_differences(name: str, en: list[CodeUnit], zh: list[CodeUnit]) -> list[str]:
    """The blocks of ``en`` and ``zh`` that differ, each as a sentence and a diff (``-`` en, ``+`` zh) whose lines
    name their file and line; blocks one language has and the other lacks, with their lines."""
    problems = []
    matcher = difflib.SequenceMatcher(None, [u.signature for u in en], [u.signature for u in zh], autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        for k, (x, y) in enumerate(zip(en[a0:a1], zh[b0:b1], strict=False), a0 + 1):
            problems.append(_block_diff(name, k, x, y))
        n = min(a1 - a0, b1 - b0)
        for units, other in ((en[a0 + n : a1], "zh"), (zh[b0 + n : b1], "en")):
            for u in units:
                first = u.lines[0][1].strip() if u.lines else "(empty)"
                problems.append(
                    f"{name}: the block at {u.where()} ({first!r}) has no counterpart in {other}; add it to "
                    f"docs/{other}/{name} at the same place, or remove it here"
                )
    if len(en) != len(zh):
        problems.append(f"{name}: {len(en)} code blocks in en, {len(zh)} in zh (markers included)")
    return problems


def _block_diff(name: str, k: int, en: CodeUnit, zh: CodeUnit) -> str:
    """Block ``k`` in two languages, as a sentence and the lines that differ (``-`` en, ``+`` zh), with their
    lines."""
    out = [
        f"{name}: code block {k} differs between en ({en.where()}) and zh ({zh.where()}) after removing comments; "
        f"make the code the same (only comments may be translated; make sync PAGE={name.removesuffix('.md')} rewrites "
        "the Chinese blocks from the English ones):"
    ]
    sides = (("-", en), ("+", zh))
    if en.head != zh.head:
        out += [f"  {sign} {u.where()}: {u.head.strip() or '(no marker, no info)'!r}" for sign, u in sides]
    a, b = [text for _, text in en.lines], [text for _, text in zh.lines]
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        for (sign, unit), (lo, hi) in zip(sides, ((a0, a1), (b0, b1)), strict=True):
            out += [f"  {sign} {unit.where(n)}: {text}" for n, text in unit.lines[lo:hi]]
            if lo == hi:
                after = unit.lines[lo - 1][0] if lo else unit.line
                out.append(f"  {sign} {unit.where(after)}: (nothing after this line)")
    return "\n".join(out)


def nav_places(config: Path) -> dict[str, tuple[str, ...]]:
    """Every page file under ``nav:`` in a config (``INHERIT`` merged, as MkDocs reads it), with the titles of the
    sections it sits in, outermost first (a page at the top level: ``()``): ``site_tools.layout.nav_pages``."""
    return dict(_nav_places(Path(config), Path(config).stat().st_mtime_ns))


@functools.lru_cache(maxsize=8)
def _nav_places(config: Path, _mtime: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(layout.nav_pages(layout.read_config_file(config).get("nav")))


def nav_problems_of(name: str, configs: Mapping[str, Path] | None = None) -> list[str]:
    """Whether page ``name`` (``formula.md``) is under ``nav:`` in each language's config exactly when that language
    has the page, as sentences naming the file to edit and, from the other language's nav, the section to put it
    in. (MkDocs only warns about a page missing from the nav; the strict build of ``make test`` fails on it.)"""
    configs = dict(layout.CONFIGS if configs is None else configs)
    places = {lang: nav_places(configs[lang]) for lang in LANGS}
    problems = []
    for lang in LANGS:
        config = rel(configs[lang])
        exists = name in files(lang)
        if exists and name not in places[lang]:
            titles = _top_sections(places[lang])
            where = f", in the section it belongs to ({', '.join(map(repr, titles))})" if titles else ""
            other = next((o for o in LANGS if o != lang and name in places[o]), None)
            if other is not None:
                sections = places[other][name]
                # the two navs list the same sections in the same order, with titles in their own language
                k = _top_sections(places[other]).index(sections[0]) if sections else len(titles)
                mine = titles[k] if k < len(titles) else ""
                where = (
                    f", in the section {mine!r} (where {rel(configs[other])} lists it, under {sections[-1]!r})"
                    if sections and mine
                    else f", where {rel(configs[other])} lists it" + (f" (under {sections[-1]!r})" if sections else "")
                )
            problems.append(f"{name}: docs/{lang}/{name} is not in the nav: add `- {name}` to nav: in {config}{where}")
        elif not exists and name in places[lang]:
            problems.append(f"{name}: {config} lists {name} under nav:, but docs/{lang}/{name} does not exist")
    if not problems and all(name in places[lang] for lang in LANGS):
        # both navs list it: in the same section (sections are in the same order, titled in each language) and
        # after the same page (of those both navs list: a page missing from one nav is its own problem), as the
        # footer's Previous/Next and the book follow the nav
        both = set.intersection(*(set(places[lang]) for lang in LANGS))
        first, *others = LANGS
        for other in others:
            if _place(places[other], name, both) != _place(places[first], name, both):
                problems.append(
                    f"{name}: the navs put it in different places: {rel(configs[first])} "
                    f"{_where(places[first], name, both)}, {rel(configs[other])} {_where(places[other], name, both)}; "
                    f"move it in {rel(configs[other])} to the place {rel(configs[first])} gives it"
                )
    return problems


def _siblings(places: dict[str, tuple[str, ...]], name: str, among: set[str]) -> list[str]:
    """The pages of ``among`` that a nav lists in the same (sub)section as page ``name``, in order."""
    return [n for n, s in places.items() if s == places[name] and n in among]


def _place(places: dict[str, tuple[str, ...]], name: str, among: set[str]) -> tuple[int, int, int]:
    """Where a nav lists page ``name``, comparable across languages: the index of its top-level section (-1 at the
    top level), its nesting depth, and its index among the pages of ``among`` in its (sub)section."""
    sections = places[name]
    top = _top_sections(places).index(sections[0]) if sections else -1
    return top, len(sections), _siblings(places, name, among).index(name)


def _where(places: dict[str, tuple[str, ...]], name: str, among: set[str]) -> str:
    """Where a nav lists page ``name``, in words: "under 'Use', after b.md"."""
    siblings = _siblings(places, name, among)
    k = siblings.index(name)
    under = f"under {places[name][-1]!r}" if places[name] else "at the top level"
    return under + (f", after {siblings[k - 1]}" if k else ", first")


def _top_sections(places: dict[str, tuple[str, ...]]) -> list[str]:
    """The titles of the top-level sections of a nav (:func:`nav_places`), in order."""
    return list(dict.fromkeys(s[0] for s in places.values() if s))


def parity_problems() -> list[str]:
    """Everything one language has that the other lacks, as sentences a contributor can act on."""
    return [p for name in page_names() for p in parity_problems_of(name)]


def main() -> int:
    problems = parity_problems()
    for lang in LANGS:
        print(f"{lang}: {len(files(lang))} pages")
    if not problems:
        print("en and zh have the same pages and the same code blocks.")
        return 0
    print("\n".join(problems))
    return 1
