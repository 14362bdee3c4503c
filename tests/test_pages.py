"""The page model (site_tools/pages/) and the checks of the pages as source: every python fence runs, as
pytest-codeblocks reads it, and both languages carry the same code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs.utils.meta import get_data
from pytest_codeblocks.main import extract_from_file

from site_tools import layout, pages
from site_tools.build.figures import FIGURES

MD_PAGES = [p for lang in pages.LANGS for p in pages.files(lang).values() if p.suffix == ".md"]


def _id(p: Path) -> str:
    return p.relative_to(layout.DOCS).as_posix()


def _squash(code: str) -> str:
    """Code without blank lines (pytest-codeblocks drops blank lines inside indented fences)."""
    return "\n".join(line for line in code.splitlines() if line.strip())


# --- the pages -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", MD_PAGES, ids=_id)
def test_page_runs_what_it_shows(path: Path) -> None:
    """Every python fence runs, nothing runs that is not shown, no skip marks, no shell blocks, pytest-codeblocks
    reads the page as the model does (``Page.problems``)."""
    problems = pages.read(path).problems()
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.parametrize("path", MD_PAGES, ids=_id)
def test_model_agrees_with_pytest_codeblocks_and_mkdocs(path: Path) -> None:
    """The blocks the model says run are the tests pytest-codeblocks collects (lines and code), and the front
    matter is what MkDocs reads."""
    page = pages.read(path)
    collected = [(b.lineno, _squash(b.code)) for b in extract_from_file(path) if b.syntax == "python"]
    assert [(line, _squash(code)) for line, code in page.blocks()] == collected
    body, meta = get_data(path.read_text(encoding="utf-8"))
    assert dict(page.meta) == meta and page.body == body


@pytest.mark.parametrize("path", MD_PAGES, ids=_id)
def test_links_name_pages_and_anchors_that_exist(path: Path) -> None:
    """What the strict build refuses (a link to a missing page or anchor), found from the sources in a second, so
    that ``make check`` finds it too (``pages.link_problems``)."""
    problems = pages.link_problems(path)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_link_problems_name_the_line_the_link_and_the_anchors(tmp_path: Path) -> None:
    """A missing anchor (a Chinese heading's is its own text, not the English one), a missing page, a link to another
    page's section by an id made from its title; links the build does not check from the sources (another site, a
    figure, an API page's anchors) left alone."""
    docs = tmp_path / "zh"
    docs.mkdir()
    (docs / "a.md").write_text("# 甲\n\n## 练习\n\n正文。\n", encoding="utf-8")
    (docs / "api.md").write_text("# API\n\n::: pe_docs.sinusoidal_table\n", encoding="utf-8")
    (docs / "b.md").write_text(
        "# 乙\n\n见[练习](a.md#exercises)。\n\n见[别处](c.md)、[本页](#乙)、[练习](a.md#练习)、[近似](a.md#练)。\n\n"
        "[外站](https://example.org/x.md#y)、[图](figures/x.light.svg)、[API](api.md#pe_docs.sinusoidal_table)。\n\n"
        "[站点地址](../a/#练习)。\n",
        encoding="utf-8",
    )
    problems = pages.link_problems(docs / "b.md")
    assert len(problems) == 5, problems
    # contributor 49: the built site's address of a page works on the site, not in the page's notebook
    assert problems[4].endswith(
        ":9: the link '../a/#练习' is the built site's address of a.md: link the page itself, a.md#练习, which the "
        "strict build checks and which works in the page's notebook too"
    )
    assert problems[0].endswith(
        ":3: the link 'a.md#exercises': " + pages.rel(docs / "a.md") + " has no anchor"
        " 'exercises' (the anchors it has: 甲, 练习)"
    ), problems[0]
    assert ":5: the link 'c.md' names 'c.md', which is not a page in " in problems[1], problems[1]
    # CONTRIBUTING's rule: another page's section is linked by an id its heading sets, not one made from its title
    assert problems[2].endswith(
        ":5: the link 'a.md#练习': #练习 is made from a heading's title in " + pages.rel(docs / "a.md") + ", so it "
        "changes with the wording and differs between the languages; give the heading an id in both languages "
        "(## Its title {#short-id}) and link to a.md#short-id"
    ), problems[2]
    assert problems[3].endswith(
        ":5: the link 'a.md#练': " + pages.rel(docs / "a.md") + " has no anchor '练'"
        " (did you mean '练习'? the anchors it has: 甲, 练习)"
    ), problems[3]  # a near miss is named first
    (docs / "e.md").write_text('# 戊\n\n## 练习 {#exercises}\n\n正文。\n\n<div id="live"></div>\n', encoding="utf-8")
    (docs / "f.md").write_text("# 己\n\n见[练习](e.md#exercises)、[图](e.md#live)、[本页](#己)。\n", encoding="utf-8")
    assert pages.link_problems(docs / "f.md") == []  # ids the source sets, and this page's own headings
    # contributor 50: two headings with the same {#id}, where a link reaches only the first
    (docs / "d.md").write_text("# 丁\n\n## 一 {#same}\n\n正文。\n\n## 二 {#same}\n\n正文。\n", encoding="utf-8")
    assert pages.link_problems(docs / "d.md") == [
        f"{pages.rel(docs / 'd.md')}:7: the id 'same' is given 2 times (lines 3, 7): a link to #same reaches only the "
        "first; give each its own id"
    ]


@pytest.mark.parametrize("name", pages.page_names())
def test_both_languages_have_the_page_and_the_same_code(name: str) -> None:
    problems = pages.parity_problems_of(name)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


NAV_NAMES = sorted(set(pages.page_names()) | {n for c in layout.CONFIGS.values() for n in pages.nav_places(c)})


@pytest.mark.parametrize("name", NAV_NAMES)
def test_every_page_is_in_both_navs(name: str) -> None:
    """A page is listed under ``nav:`` in the config of each language that has it (MkDocs only warns about one
    that is not; the strict build stops), and the nav lists no page that does not exist."""
    problems = pages.nav_problems_of(name)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_nav_problems_name_the_file_to_edit_and_the_section(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for lang in pages.LANGS:
        (tmp_path / "docs" / lang).mkdir(parents=True)
        for name in ("index.md", "a.md", "b.md"):
            (tmp_path / "docs" / lang / name).write_text("# x\n", encoding="utf-8")
    en, zh = tmp_path / "mkdocs.yml", tmp_path / "mkdocs.zh.yml"
    en.write_text("nav:\n  - index.md\n  - Use:\n      - a.md\n      - b.md\n  - Reference:\n      - c.md\n")
    zh.write_text("INHERIT: mkdocs.yml\nnav:\n  - index.md\n  - 使用:\n      - a.md\n  - 参考:\n      - c.md\n")
    monkeypatch.setattr(layout, "DOCS", tmp_path / "docs")
    configs = {"en": en, "zh": zh}
    assert pages.nav_problems_of("a.md", configs) == []
    (problem,) = pages.nav_problems_of("b.md", configs)
    assert problem == (
        f"b.md: docs/zh/b.md is not in the nav: add `- b.md` to nav: in {zh}, in the section '使用' (where {en} "
        "lists it, under 'Use')"
    )
    assert pages.nav_problems_of("c.md", configs) == [
        f"c.md: {en} lists c.md under nav:, but docs/en/c.md does not exist",
        f"c.md: {zh} lists c.md under nav:, but docs/zh/c.md does not exist",
    ]
    (tmp_path / "docs" / "en" / "d.md").write_text("# d\n", encoding="utf-8")
    assert pages.nav_problems_of("d.md", configs) == [
        f"d.md: docs/en/d.md is not in the nav: add `- d.md` to nav: in {en}, in the section it belongs to ('Use', "
        "'Reference')"
    ]
    # in both navs, but in another section, or in another place in its section: make check names both places
    head = "INHERIT: mkdocs.yml\nnav:\n  - index.md\n"
    zh.write_text(head + "  - 使用:\n      - a.md\n  - 参考:\n      - c.md\n      - b.md\n")
    (problem,) = pages.nav_problems_of("b.md", configs)
    assert problem == (
        f"b.md: the navs put it in different places: {en} under 'Use', after a.md, {zh} under '参考', after c.md; "
        f"move it in {zh} to the place {en} gives it"
    )
    zh.write_text(head + "  - 使用:\n      - b.md\n      - a.md\n  - 参考:\n      - c.md\n")
    (problem,) = pages.nav_problems_of("a.md", configs)
    assert f"{en} under 'Use', first, {zh} under '使用', after b.md" in problem
    (problem,) = pages.nav_problems_of("b.md", configs)
    assert f"{en} under 'Use', after a.md, {zh} under '使用', first" in problem
    # a page missing from one nav is its own problem, not the next page's
    zh.write_text(head + "  - 使用:\n      - b.md\n  - 参考:\n      - c.md\n")
    assert pages.nav_problems_of("b.md", configs) == []
    assert "docs/zh/a.md is not in the nav" in pages.nav_problems_of("a.md", configs)[0]


@pytest.mark.parametrize("path", MD_PAGES, ids=_id)
def test_every_figure_shows_in_both_schemes_and_on_a_phone(path: Path) -> None:
    """A figure a page shows in one colour scheme only leaves the other scheme's readers an empty space, and one
    without its ``<source>`` for phones shows the wide drawing there, its text a few pixels tall: each figure line
    ``![…](figures/NAME.light.svg#only-light)`` needs its ``.dark`` twin, and each sits in a ``<picture>`` whose
    ``<source media="(max-width: 37.5em)" srcset="../figures/NAME-narrow.THEME.svg">`` gives the phone layout; and
    NAME must be a figure the build draws (``FIGURES``). (The suite's browser tests and notebooks find these later,
    without the file and line; this check is in ``make check``.)"""
    page = pages.read(path)
    lines = page.text.split("\n")
    themes: dict[str, list[tuple[str, int]]] = {}
    problems = []
    for ref in page.figures:
        if ref.name not in FIGURES:  # the notebooks fail on it too, later and without the line
            problems.append(
                f"{_id(path)}:{ref.line}: figure {ref.name} is not registered: add it to FIGURES in "
                "site_tools/build/figures.py (the pe_docs.plotting function that draws it, and its arguments)"
            )
            continue
        themes.setdefault(ref.name, []).append((ref.theme, ref.line))
        source = f'<source media="(max-width: 37.5em)" srcset="../figures/{ref.name}-narrow.{ref.theme}.svg">'
        if f"{ref.name}-narrow" in FIGURES and source not in lines[ref.line - 1]:
            problems.append(
                f"{_id(path)}:{ref.line}: figure {ref.name} ({ref.theme}) has no phone layout: write it as "
                f"<picture>{source}![…](figures/{ref.name}.{ref.theme}.svg#only-{ref.theme})</picture>"
            )
    for name, shown in themes.items():
        (theme, line), *_ = shown
        for other in {"light", "dark"} - {s for s, _ in shown}:
            problems.append(
                f"{_id(path)}:{line}: figure {name} is shown in the {theme} scheme only: add a line with "
                f"figures/{name}.{other}.svg#only-{other} after it"
            )
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_every_figure_is_used_and_every_reference_registered() -> None:
    used = {(ref.name, ref.theme) for path in MD_PAGES for ref in pages.read(path).figures}
    # a <picture>'s other layouts (start here's clocks for phones): <source ... srcset="../figures/<name>.<theme>.svg">
    srcset = re.compile(r'<source [^>]*srcset="(?:\.\./)?figures/(?P<name>[\w.-]+?)\.(?P<theme>light|dark)\.svg"')
    used |= {(m["name"], m["theme"]) for path in MD_PAGES for m in srcset.finditer(path.read_text(encoding="utf-8"))}
    assert {name for name, _ in used} <= set(FIGURES), sorted({n for n, _ in used} - set(FIGURES))
    expected = {(n, t) for n in FIGURES for t in ("light", "dark")}
    assert used == expected, f"unused figure variants: {sorted(expected - used)}"


# --- the marker cases pytest-codeblocks documents (its README), and the ones around them -------------------------

CASES = {
    "plain": "Lorem\n\n```python\na = 1\n```\n",
    "skip": "Lorem ipsum\n\n<!--pytest.mark.skip-->\n\n```python\nfoo + bar  # not working\n```\n\ndolor sit amet.\n",
    "skip, no blank line": "<!--pytest.mark.skip-->\n```python\nfoo + bar\n```\n",
    "skipif": (
        '<!--pytest.mark.skipif(sys.version_info <= (3, 7), reason="Need at least Python 3.8")-->\n\n'
        "```python\na = 1\n```\n"
    ),
    "deprecated skip": "<!--pytest-codeblocks:skip-->\n\n```python\na = 1\n```\n",
    "importorskip": "<!--pytest-codeblocks:importorskip(sympy)-->\n\n```python\nimport sympy\n```\n",
    "xfail": "The following gives an error:\n\n<!--pytest.mark.xfail-->\n\n```python\n1 / 0\n```\n",
    "cont": (
        "Lorem ipsum\n\n```python\na = 1\n```\n\ndolor sit amet\n\n<!--pytest-codeblocks:cont-->\n\n"
        "```python\n# this would otherwise fail since `a` is not defined\na + 1\n```\n"
    ),
    "cont across prose": "```python\na = 1\n```\n\n<!--pytest-codeblocks:cont-->\n\nText.\n\n```python\na + 1\n```\n",
    "hidden in a comment": (
        "Lorem ipsum\n\n<!--\n```python\na = 1\n```\n-->\n\ndolor sit amet\n\n<!--pytest-codeblocks:cont-->\n\n"
        "```python\na + 1\n```\n"
    ),
    "expected output": (
        "This\n\n```python\nprint(1 + 3)\n```\n\ngives\n\n<!--pytest-codeblocks:expected-output-->\n\n```\n4\n```\n"
    ),
    "expected output, whitespace": (
        "```python\nprint(1, 2)\n```\n\n<!--pytest-codeblocks:expected-output-ignore-whitespace-->\n```\n12\n```\n"
    ),
    "cont after a text block": "```text\nnot code\n```\n\n<!--pytest-codeblocks:cont-->\n```python\na = 1\n```\n",
    "marker passes over ~~~": "<!--pytest-codeblocks:cont-->\n```python\na = 1\n```\n",
    "tilde fence": "```python\na = 1\n```\n\n<!--pytest.mark.skip-->\n~~~python\nb = 2\n~~~\n\n```python\nc = 3\n```\n",
    "in an admonition": '!!! note "N"\n    ```python\n    def f():\n\n\n        return 1\n    ```\n\n    Text.\n',
    "in a blockquote": "> ```python\n> a = 1\n> ```\n",
    "indented code": "Text.\n\n    ```python\n    a = 1\n    ```\n",
    "title attribute": '```python title="x.py"\na = 1\n```\n\n```py\nb = 2\n```\n',
    "skipfile": "<!--pytest-codeblocks:skipfile-->\n\n```python\na = 1\n```\n",
    "py continuing a block": "```python\na = 1\n```\n\n<!--pytest-codeblocks:cont-->\n```py\nassert a == 1\n```\n",
    "solution indented two spaces": '??? success "Solution"\n  ```python\n  a = 1\n  ```\n',
    "front matter not YAML": "---\nchecked_against: [diffusers]\n320: x: y\n---\n# T\n\n```python\na = 1\n```\n",
}


def _theirs(text: str, tmp_path: Path) -> tuple[list[tuple[int, str, list[str]]], str | None]:
    """pytest-codeblocks' reading: (line, code, marks) of each python block, or its error."""
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    try:
        blocks = extract_from_file(page)
    except RuntimeError as exc:
        return [], str(exc)
    return [(b.lineno, _squash(b.code), list(b.marks)) for b in blocks if b.syntax == "python"], None


def test_headings_give_their_text_id_and_lines() -> None:
    """The page model's headings: the title without its attribute list, the id it sets (None when the id is made
    from the title), and the lines under each up to the next heading of any level."""
    page = pages.parse("# Page\n\nintro\n\n## Exercises {#exercises}\n\none\ntwo\n\n### Hint {: #hint .x}\n\nlast\n")
    top, exercises, hint = page.headings
    assert [h.text for h in page.headings] == ["Page", "Exercises", "Hint"]
    assert [h.id for h in page.headings] == [None, "exercises", "hint"]
    assert page.under(top) == ["", "intro", ""]
    assert page.under(exercises) == ["", "one", "two", ""]
    assert page.under(hint) == ["", "last", ""]


@pytest.mark.filterwarnings("ignore::DeprecationWarning:pytest_codeblocks.main")
@pytest.mark.parametrize("case", CASES)
def test_runs_as_pytest_codeblocks_runs(case: str, tmp_path: Path) -> None:
    """For every marker case: the model says a python fence runs exactly when pytest-codeblocks runs its code
    (in a block without skip, skipif, xfail or importorskip), and the notebook has exactly those code cells;
    where it cannot agree (code in a comment, a cont marker that starts the page), it reports a problem."""
    text = CASES[case]
    page = pages.parse(text)
    theirs, error = _theirs(text, tmp_path)
    executed = [code for _, code, marks in theirs if not any("skip" in m or "xfail" in m for m in marks)]
    for fence in page.fences:
        if fence.looks_like_python:
            runs_there = any(_squash(fence.code) and _squash(fence.code) in code for code in executed)
            assert fence.runs == runs_there or page.codeblocks_differences, (case, fence.line)
    agree = [(line, _squash(code)) for line, code in page.blocks()] == [(line, code) for line, code, _ in theirs]
    assert agree or page.codeblocks_differences or error, case
    cells = [item.code for item in pages.walk(list(page.items)) if isinstance(item, pages.Code)]
    assert cells == [f.code for f in page.running]


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("plain", []),
        ("cont", []),
        ("cont across prose", []),
        ("expected output", []),
        ("expected output, whitespace", []),
        ("in an admonition", []),
        ("marker passes over ~~~", ["a cont marker before any code block"]),
        ("skip", ["marked pytest.mark.skip: no block is skipped"]),
        ("skip, no blank line", ["marked pytest.mark.skip"]),
        ("skipif", ["marked pytest.mark.skipif("]),
        ("deprecated skip", ["marked pytest.mark.skip"]),
        ("importorskip", ["marked importorskip(sympy)"]),
        ("xfail", ["marked pytest.mark.xfail"]),
        ("hidden in a comment", ["pytest-codeblocks reads a ```python block here that the page does not show"]),
        ("cont after a text block", ["python block never runs: its marker joins it to '```text' at line 1"]),
        ("tilde fence", ["'~~~python' is not collected"]),
        ("in a blockquote", ["python block in a blockquote: pytest-codeblocks does not see it"]),
        ("indented code", ["an indented code block", "pytest-codeblocks reads a ```python block here"]),
        ("title attribute", ["'```python title=\"x.py\"' is not collected", "'```py' is not collected"]),
        ("skipfile", ["skipfile: no block of this page runs"]),
        ("py continuing a block", ["'```py' runs only because its marker joins it to the block before"]),  # contrib. 48
        ("solution indented two spaces", ["fence indented 2 spaces: a box's body is indented 4 spaces more"]),  # 49
        ("front matter not YAML", ["line 3: the front matter is not valid YAML (mapping values are not allowed"]),  # 49
    ],
)
def test_problems_name_the_line(case: str, expected: list[str]) -> None:
    problems = pages.parse(CASES[case]).problems()
    assert len(problems) >= len(expected), problems
    for part in expected:
        assert any(part in p and p.startswith("line ") for p in problems), (part, problems)
    if not expected:
        assert problems == []


def test_skip_marker_then_blank_line_is_not_a_code_cell() -> None:
    """The issue's case: skip marker, blank line, fence — the tests skip it, so the notebook does not run it."""
    page = pages.parse(CASES["skip"])
    (fence,) = page.fences
    assert fence.pytest_marks == ("pytest.mark.skip",) and fence.skipped and not fence.runs
    assert not page.chapter
    assert [type(item).__name__ for item in page.items] == ["Prose", "Verbatim", "Prose"]


def test_roles_markers_and_lines() -> None:
    page = pages.parse(CASES["cont"] + "\n<!--pytest-codeblocks:expected-output-->\n```text\n2\n```\n")
    first, second, output = page.fences
    assert (first.role, first.line, first.head, first.marker_comments) == ("block", 3, 3, ())
    assert (second.role, second.head, second.marker_comments) == ("cont", 3, ("pytest-codeblocks:cont",))
    assert (output.role, output.head, output.code) == ("expected-output", 3, "2")
    assert page.blocks() == [(3, "a = 1\n# this would otherwise fail since `a` is not defined\na + 1")]


def test_admonition_keeps_blank_lines_as_python_markdown_does() -> None:
    """A python block with two blank lines inside an admonition stays in it (mdit-py-plugins' admonition plugin
    would end the admonition there); a content tab and a collapsible block nest the same way."""
    page = pages.parse(CASES["in an admonition"] + '\n=== "Tab"\n\n    ??? tip\n        Deep.\n')
    (fence,) = page.fences
    assert fence.code == "def f():\n\n\n    return 1" and fence.runs
    box, tab = page.items
    assert (box.kind, box.type, box.title) == ("admonition", "note", "N")
    assert [type(i).__name__ for i in box.items] == ["Code", "Prose"]
    assert (tab.kind, tab.title) == ("tab", "Tab")
    (inner,) = tab.items
    assert (inner.kind, inner.type, inner.title, inner.open) == ("details", "tip", "Tip", False)
    assert page.indented_code == ()


def test_prose_lines_exclude_code_and_front_matter() -> None:
    text = '---\ntitle: T\nquoted:\n  "1.5": x\n---\n# H\n\n```python\nx = 15\n```\n\n    indented 99\n\nEnd 1.5.\n'
    page = pages.parse(text)
    assert [n for n, _ in page.prose_lines()] == [6, 7, 11, 13, 14, 15]
    assert page.meta == {"title": "T", "quoted": {"1.5": "x"}} and page.title == "T"
    assert page.indented_code == (12,)


def test_figures_only_where_a_line_shows_nothing_else() -> None:
    text = (
        "<!--\n![Alt](figures/heatmap.light.svg#only-light)\n-->\n\n"  # in a comment: not shown
        "Text ![x](figures/waveforms.light.svg#only-light) inline.\n\n"  # inline in a sentence: not a figure line
        "Before.\n![Heat map](figures/heatmap.light.svg#only-light)\n![Heat map](figures/heatmap.dark.svg#only-dark)\n"
    )
    page = pages.parse(text)
    assert [(f.name, f.theme, f.alt, f.line) for f in page.figures] == [
        ("heatmap", "light", "Heat map", 8),
        ("heatmap", "dark", "Heat map", 9),
    ]
    assert [type(i).__name__ for i in page.items] == ["Prose", "Figure"]
    # the image of a <picture> that offers a narrow layout is still the figure line (start here's clocks)
    source = '<picture><source media="(max-width: 37.5em)" srcset="../figures/heatmap-narrow.{}.svg">'
    text = "".join(
        f"{source.format(t)}![Heat map](figures/heatmap.{t}.svg#only-{t})</picture>\n" for t in ("light", "dark")
    )
    page = pages.parse(text)
    assert [(f.name, f.theme, f.line) for f in page.figures] == [("heatmap", "light", 1), ("heatmap", "dark", 2)]
    assert [type(i).__name__ for i in page.items] == ["Figure"]
    assert pages.parse("<span>x</span>![Heat map](figures/heatmap.light.svg#only-light)\n").figures == ()


def test_front_matter_as_mkdocs_reads_it() -> None:
    for text in (
        "---\ntitle: A\n---\n# B\n",
        "---\ntitle: A\n...\n# B\n",
        "---\n- a list\n---\n# B\n",  # not a mapping: no front matter for MkDocs
        "# No front matter\n\n---\n\nA rule.\n",
        "---\n\n---\n# Empty\n",
    ):
        page = pages.parse(text)
        body, meta = get_data(text)
        assert (dict(page.meta), page.body) == (meta, body), text


def test_parity_reports_what_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The contributor's check names the missing page, and shows a differing block as a diff whose lines name
    their file and line in both languages; a block one language lacks is named with its line."""
    for lang in pages.LANGS:
        (tmp_path / lang).mkdir()
    (tmp_path / "en" / "a.md").write_text("# A\n\n```python\nx = 1  # one\ny = 3\n```\n", encoding="utf-8")
    (tmp_path / "zh" / "a.md").write_text(
        "# 甲\n\n说明。\n\n```python\n# 注释\nx = 2  # 二\ny = 3\n```\n", encoding="utf-8"
    )
    (tmp_path / "en" / "b.md").write_text("# B\n", encoding="utf-8")
    (tmp_path / "en" / "c.md").write_text("# C\n\n```python\ny = 1  # c\n```\n", encoding="utf-8")
    (tmp_path / "zh" / "c.md").write_text("# 丙\n\n```python\n# 注释\ny = 1  # 丙\n\n```\n", encoding="utf-8")
    (tmp_path / "en" / "d.md").write_text("# D\n\n```python\nz = 1\n```\n\n```python\nw = 2\n```\n", encoding="utf-8")
    (tmp_path / "zh" / "d.md").write_text("# 丁\n\n```python\nz = 1\n```\n", encoding="utf-8")
    monkeypatch.setattr(layout, "DOCS", tmp_path)
    problems = pages.parity_problems()
    en, zh = (tmp_path / lang / "a.md" for lang in pages.LANGS)
    assert (
        f"a.md: code block 1 differs between en ({en}:3) and zh ({zh}:5) after removing comments; make the code "
        f"the same (only comments may be translated; make sync PAGE=a rewrites the Chinese blocks from the English "
        f"ones):\n  - {en}:4: x = 1\n  + {zh}:7: x = 2"
    ) in problems
    assert "b.md: exists in en only; add docs/zh/b.md" in problems
    assert not any(p.startswith("c.md") for p in problems)
    d = tmp_path / "en" / "d.md"
    assert (
        f"d.md: the block at {d}:7 ('w = 2') has no counterpart in zh; add it to docs/zh/d.md at the same place, "
        "or remove it here" in problems
    )
    assert "d.md: 2 code blocks in en, 1 in zh (markers included)" in problems


def test_fence_parser_flags_silent_skips(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        '```py\na = 1\n```\n\n```python title="x.py"\nb = 2\n```\n\n~~~python\nc = 3\n~~~\n\n```python\nd = 4\n```\n',
        encoding="utf-8",
    )
    fs = pages.fences(page)
    assert [f.looks_like_python for f in fs] == [True, True, True, True]
    assert [f.runs for f in fs] == [False, False, False, True]


def test_one_page_selection_takes_every_test_of_the_page_and_no_other() -> None:
    """``--page`` (``make check``): a test is the page's when a parameter names the page's file, in any form the
    tests use (a path, ``formula.md``, ``en/formula.md``, a tuple holding one)."""
    from harness.page_selection import mentions as _mentions

    names = {"formula.md"}
    docs = layout.DOCS
    for value in (
        docs / "en" / "formula.md",
        "formula.md",
        "zh/formula.md",
        ("en", "formula.md"),
        [docs / "zh/formula.md"],
    ):
        assert _mentions(value, names), value
    for value in (docs / "en" / "wavelength.md", "formula/", "formula", ("en", "log-trick.md"), 3, None, "heatmap"):
        assert not _mentions(value, names), value


def _details(text: str) -> tuple[int, int]:
    """How many ``<details>`` a Markdown text opens and closes, outside code (fences and inline code)."""
    text = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    return len(re.findall(r"<details\b", text)), text.count("</details>")


@pytest.mark.parametrize("name", sorted(pages.page_names()))
def test_collapsed_blocks_are_closed_in_every_page(name: str) -> None:
    """A ``<details>`` left open folds everything after it into that box (an exercise hid the next one); and the
    two languages fold the same things. Parametrised by page, so that ``make check PAGE=…`` runs it too."""
    paths = {lang: layout.DOCS / lang / name for lang in pages.LANGS}
    counts = {lang: _details(f.read_text(encoding="utf-8")) for lang, f in paths.items() if f.is_file()}
    unclosed = [f"{lang}/{name}" for lang, (opened, closed) in counts.items() if opened != closed]
    assert not unclosed, f"<details> opened and not closed in: {unclosed}"
    assert len(set(counts.values())) <= 1, f"{name}: the two languages fold different things: {counts}"
