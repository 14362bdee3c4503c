"""Every chapter as a notebook (site_tools/build/notebooks.py): generated from the page, with the page's code, in the
page's language, linked from the built page, and running top to bottom on a fresh kernel in an empty folder.

The execution test runs every chapter notebook of both languages, one kernel each, as part of `make test` and of
`make check PAGE=<slug>` (``site_tools.build.kernels``): the kernels see ``pe_docs`` (a folder holding only a link to
this checkout's package, first on their path, as an installed package would be) and nothing else of the repository;
their working directory is an empty temporary folder; the English notebooks run on MKL's generic code path (the one
AMD CPUs take, ``MKL_CBWR=COMPATIBLE``) and the Chinese ones on its AVX2 path, so every page's asserts are checked
on the code paths other x86 CPUs take. They start in the background as soon as the tests are collected
(``tests/conftest.py``), two at a time with one torch thread each, and a run that passed is reused until the
notebook, the library or the harness changes (a content cache).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import nbformat
import pytest
from markdown_it import MarkdownIt
from mkdocs.config import load_config
from pytest_codeblocks.main import extract_from_file

from site_tools import layout, pages
from site_tools.build import engine, figures, kernels, notebooks
from site_tools.finish.cjk import HAN

CHAPTERS = [(lang, name) for lang in pages.LANGS for name in pages.chapters(lang)]


def _id(chapter: tuple[str, str]) -> str:
    return f"{chapter[0]}/{chapter[1]}"


@pytest.fixture(scope="module")
def sites() -> dict[str, notebooks.Site]:
    """The real configs of both languages, as the build reads them (``engine.load``: Chinese at ``…/zh/``)."""
    return {lang: notebooks.site_of(lang) for lang in pages.LANGS}


def generated(chapter: tuple[str, str], sites: dict[str, notebooks.Site]) -> nbformat.NotebookNode:
    lang, name = chapter
    text = (layout.DOCS / lang / name).read_text(encoding="utf-8")
    return nbformat.reads(notebooks.notebook_text(text, name, sites[lang]), as_version=4)


def page_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    """The code cells that come from the page (not the figure cells the notebook adds, nor the test's check)."""
    added = {"figure", "check"}
    return [c for c in nb.cells if c.cell_type == "code" and not added & set(c.metadata.get("pe_docs", {}))]


def chains(nb: nbformat.NotebookNode) -> list[list[nbformat.NotebookNode]]:
    """Page code cells grouped as pytest-codeblocks runs them: a block and the blocks that continue it."""
    out: list[list[nbformat.NotebookNode]] = []
    for cell in page_cells(nb):
        if cell.metadata.get("pe_docs", {}).get("cont") and out:
            out[-1].append(cell)
        else:
            out.append([cell])
    return out


def prose(markdown: str) -> str:
    """A Markdown cell without its code, math and link targets: the words a reader reads."""
    text = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    text = re.sub(r"(`+).+?\1|\$\$.+?\$\$|\$[^$\n]+\$", " ", text, flags=re.S)
    return re.sub(r"\]\([^)]*\)", "]", text)


def cell_lines(nb: nbformat.NotebookNode, path: Path) -> dict[int, int]:
    """{cell index: page line} for the code cells of a chapter notebook (page blocks and figure cells)."""
    page = pages.read(path)
    running = iter(f.line for f in page.running)
    figure_lines = iter(f.line for f in page.figures if f.theme == "light")
    out = {}
    for index, cell in enumerate(nb.cells):
        meta = cell.metadata.get("pe_docs", {}) if cell.cell_type == "code" else {"markdown": True}
        if "figure" in meta:
            out[index] = next(figure_lines, 0)
        elif not {"markdown", "check"} & set(meta):  # a page block, one that continues another ("cont") too
            out[index] = next(running, 0)
    return out


# --- (1) every chapter notebook runs on a fresh kernel in an empty folder ---------------------------------


@pytest.mark.notebook
@pytest.mark.parametrize("chapter", CHAPTERS, ids=_id)
def test_notebook_runs_top_to_bottom(
    chapter: tuple[str, str], notebook_result: Callable[..., Any], record_property: Callable[..., None]
) -> None:
    """No cell raises, nothing is written to stderr, the page's expected outputs are printed, and the kernel
    used the checkout's pe_docs from an empty folder with no repository path."""
    result = notebook_result(chapter)
    if result.get("cached"):
        record_property("pe_docs_reused", "notebook")
    path = layout.DOCS / chapter[0] / chapter[1]
    where = f"docs/{_id(chapter)}"
    if not result["ok"]:
        nb = kernels.executed(result) if result.get("notebook") else None
        line = cell_lines(nb, path).get(result.get("cell")) if nb is not None else None
        mkl = result.get("mkl") or "the default"
        at = f"at the cell of page line {line}" if line else "before a page block ran" if nb is None else "in a cell"
        raise AssertionError(
            f"{where}: the notebook failed {at} (MKL_CBWR={mkl}: "
            f"{kernels.MKL_NAMES.get(mkl, 'this CPU')}):\n{result['error'][-6000:]}"
        )
    nb = kernels.executed(result)
    assert result["mkl"] == kernels.MKL_PATHS[chapter[0]]

    def stdout(cell: nbformat.NotebookNode) -> str:
        return "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")

    stderr = [
        o.text
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "stream" and o.name == "stderr" and re.search(r"Warning|Error|Traceback", o.text)
    ]
    assert not stderr, f"{where} wrote warnings or errors:\n" + "\n".join(stderr)

    # The expected outputs of the page (pytest-codeblocks' reading) are what the notebook's cells print.
    blocks = [b for b in extract_from_file(path) if b.syntax == "python"]
    runs = chains(nb)
    assert len(runs) == len(blocks)
    for block, run in zip(blocks, runs, strict=True):
        if block.expected_output is not None:
            printed, expected = "".join(stdout(c) for c in run), block.expected_output
            if block.expected_output_ignore_whitespace:
                printed, expected = re.sub(r"\s+", "", printed), re.sub(r"\s+", "", expected)
            assert printed == expected, f"{where} line {block.lineno}"

    facts = result["facts"]
    assert facts["pe_docs_is_this_checkout"], facts["pe_docs"]
    assert facts["cwd_was_empty_folder"]
    assert facts["repository_on_path"] == [], f"repository on the kernel's path: {facts['repository_on_path']}"
    assert all(c.outputs for c in nb.cells if c.metadata.get("pe_docs", {}).get("figure")), "a figure is missing"
    assert all(
        any("image/png" in o.get("data", {}) for o in c.outputs)
        for c in nb.cells
        if c.metadata.get("pe_docs", {}).get("figure")
    ), "a figure cell shows no image"
    # the run is of this notebook, as generated now (not a stale one)
    ran = [c.source for c in nb.cells if c.cell_type == "code" and not c.metadata.get("pe_docs", {}).get("check")]
    sites = {lang: notebooks.site_of(lang) for lang in pages.LANGS}
    assert ran == [c.source for c in generated(chapter, sites).cells if c.cell_type == "code"]


# --- (2) same code as the page, prose in the page's language ------------------------------------------


def test_every_chapter_has_a_notebook_and_only_chapters() -> None:
    """Chapters are derived from the pages: python blocks and no ``notebook: false``."""
    for lang in pages.LANGS:
        names = set(pages.chapters(lang))
        assert {"formula.md", "wavelength.md", "log-trick.md", "relative.md", "limitations.md", "variants.md"} <= names
        assert not names & {"index.md", "api.md", "contributing.md"}
    assert {n for lang, n in CHAPTERS if lang == "en"} == {n for lang, n in CHAPTERS if lang == "zh"}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=_id)
def test_notebook_has_the_page_code_in_order(chapter: tuple[str, str], sites: dict[str, notebooks.Site]) -> None:
    nb = generated(chapter, sites)
    nbformat.validate(nb)
    path = layout.DOCS / chapter[0] / chapter[1]
    page = pages.read(path)
    page_code = [f.code.strip("\n") for f in page.running]
    assert [c.source for c in page_cells(nb)] == page_code
    # and as pytest-codeblocks reads the page (a block with its continuations is one test)
    blocks = [b.code for b in extract_from_file(path) if b.syntax == "python"]

    def squash(code: str) -> str:
        return "\n".join(line for line in code.splitlines() if line.strip())

    assert [squash("\n".join(c.source for c in run)) for run in chains(nb)] == [squash(b) for b in blocks]
    # every figure of the page is drawn by a cell calling its registered function with its arguments
    on_page = list(dict.fromkeys(f.name for f in page.figures if f.theme == "light"))
    drawn = [c for c in nb.cells if "figure" in c.metadata.get("pe_docs", {})]
    assert [c.metadata["pe_docs"]["figure"] for c in drawn] == on_page
    for cell in drawn:
        spec = figures.FIGURES[cell.metadata["pe_docs"]["figure"]]
        tree = ast.parse("\n".join(line for line in cell.source.splitlines() if not line.startswith("%")))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == spec.function]
        assert len(calls) == 1
        kwargs = {k.arg: ast.literal_eval(k.value) for k in calls[0].keywords}
        assert kwargs == {**spec.kwargs, "lang": chapter[0]}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=_id)
def test_notebook_prose_is_in_the_page_language(chapter: tuple[str, str], sites: dict[str, notebooks.Site]) -> None:
    lang, name = chapter
    nb = generated(chapter, sites)
    first = nb.cells[0]
    assert first.cell_type == "markdown"
    install = f'pip install "pe-docs[plot] @ git+{sites[lang].repository}"'
    assert install in first.source
    home = (layout.DOCS / lang / "index.md").read_text(encoding="utf-8")
    assert f"`{install}`" in home, f"{lang}/index.md: the home page's install line is not the notebooks' {install!r}"
    assert sites[lang].repository == "https://github.com/pe-docs/pe-docs"
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        words = prose(cell.source)
        if lang == "zh":
            assert not re.search(r"[A-Za-z]", words) or HAN.search(words), f"{name}: not Chinese:\n{cell.source}"
        else:  # English, quoting the odd Chinese phrase (我爱你, a seed's 偶数位置) at most
            chinese, latin = len(HAN.findall(words)), len(re.findall(r"[A-Za-z]", words))
            assert chinese <= 0.1 * (chinese + latin), f"{name}: Chinese in the English notebook:\n{cell.source}"
    # the page's prose is there, converted: every heading of the page, in order
    md = pages.model._markdown()  # the model's reader (math is not Markdown)
    # a heading's attribute list ({#anchor}) sets the page's anchor; the notebook has no use for it and drops it
    page_headings = [("#" * h.level, h.text) for h in pages.read(layout.DOCS / lang / name).headings]
    nb_headings = [
        (tok.markup, tokens[i + 1].content)
        for cell in nb.cells
        if cell.cell_type == "markdown"
        for tokens in [md.parse(cell.source)]
        for i, tok in enumerate(tokens)
        if tok.type == "heading_open"
    ]
    assert nb_headings == page_headings


def test_generation_is_deterministic(sites: dict[str, notebooks.Site]) -> None:
    lang, name = CHAPTERS[0]
    text = (layout.DOCS / lang / name).read_text(encoding="utf-8")
    assert notebooks.notebook_text(text, name, sites[lang]) == notebooks.notebook_text(text, name, sites[lang])


# --- (3) the built site links each chapter to its own notebook -------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.downloads: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a" and "download" in a:
            self.downloads.append(a)


def downloads(html_path: Path) -> list[dict[str, str | None]]:
    parser = _Links()
    parser.feed(html_path.read_text(encoding="utf-8"))
    return parser.downloads


@pytest.mark.site
@pytest.mark.parametrize("lang", pages.LANGS)
def test_built_chapters_link_their_notebook(site_dir: Path, site_base: str, lang: str) -> None:
    root = site_dir if lang == "en" else site_dir / lang
    built_for = notebooks.Site.from_config(engine.load(lang, site_url=site_base))  # the session site's address
    title = "Download notebook" if lang == "en" else "下载 Notebook"
    chapters = pages.chapters(lang)
    assert chapters
    for name, path in chapters.items():
        stem = name.removesuffix(".md")
        links = downloads(root / stem / "index.html")
        assert len(links) == 1, f"{lang}/{stem}: {links}"
        link = links[0]
        assert link["title"] == title and "md-content__button" in (link["class"] or "")
        target = urljoin(f"https://example.org/{stem}/", link["href"] or "")
        assert target == f"https://example.org/notebooks/{stem}.ipynb"
        served = root / "notebooks" / f"{stem}.ipynb"
        assert served.is_file(), served
        # the served file is the page's notebook, generated in this build from this page
        expected = notebooks.notebook_text(path.read_text(encoding="utf-8"), name, built_for)
        assert served.read_text(encoding="utf-8") == expected
        assert not (root / "notebooks" / stem / "index.html").exists(), "a notebook was rendered as a page"
    for other in ("", "api/", "contributing/"):  # pages that are not chapters get no button
        assert not downloads(root / other / "index.html"), f"{lang}/{other}"
    nbs = {p.name for p in (root / "notebooks").glob("*.ipynb")}
    assert nbs == {n.replace(".md", ".ipynb") for n in chapters}


# --- (4) the converter on small synthetic pages ----------------------------------------------------------

EN = notebooks.Site(lang="en", name="Test site", repository="https://example.org/repo")
ZH = notebooks.Site(lang="zh", name="测试站点", repository="https://example.org/repo")
PUBLIC = notebooks.Site(
    lang="en", name="Test site", repository="https://example.org/repo", site_url="https://example.org/docs/"
)


def cells(markdown: str, site: notebooks.Site = EN, src_uri: str = "page.md") -> list[tuple[str, str]]:
    """(cell type, source) of the page's cells, without the intro cell."""
    nb = notebooks.notebook(markdown, src_uri, site)
    assert nb.cells[0].metadata["pe_docs"] == {"intro": True}
    return [(c.cell_type, c.source) for c in nb.cells[1:]]


def test_prose_and_code_alternate_and_cont_blocks_are_cells() -> None:
    page = (
        "# Title\n\nText one.\n\n```python\na = 1\n```\n\nText two.\n\n<!--pytest-codeblocks:cont-->\n"
        "```python\nb = a + 1\n```\n\n```text\nnot run\n```\n"
    )
    got = cells(page)
    assert got == [
        ("markdown", "# Title\n\nText one."),
        ("code", "a = 1"),
        ("markdown", "Text two."),
        ("code", "b = a + 1"),
        ("markdown", "```text\nnot run\n```"),
    ]
    nb = notebooks.notebook(page, "page.md", EN)
    assert [c.metadata.get("pe_docs") for c in nb.cells if c.cell_type == "code"] == [None, {"cont": True}]
    assert [c.id for c in nb.cells] == [f"cell-{n}" for n in range(len(nb.cells))]


def test_admonition_becomes_a_blockquote_with_its_code_as_cells() -> None:
    page = (
        'Before.\n\n!!! warning "Mind the `gap`"\n    First paragraph\n    goes on.\n\n    ```python\n'
        "    def f():\n\n        return 1\n    ```\n\n    After the code.\n\nOutside again.\n"
    )
    assert cells(page) == [
        ("markdown", "Before.\n\n> **⚠️ Mind the `gap`**\n>\n> First paragraph\n> goes on."),
        ("code", "def f():\n\n    return 1"),
        ("markdown", "> After the code.\n\nOutside again."),
    ]


def test_admonition_titles_types_and_nesting() -> None:
    page = (
        '!!! note\n    Untitled.\n\n!!! danger ""\n    No title at all.\n\n'
        '!!! tip "Outer"\n    !!! bug "Inner"\n        Deep.\n'
    )
    ((kind, text),) = cells(page)
    assert kind == "markdown"
    assert text == (
        "> **ℹ️ Note**\n>\n> Untitled.\n\n> No title at all.\n\n> **💡 Outer**\n>\n> > **🐞 Inner**\n> >\n> > Deep."
    )


SOLUTION = {
    "en": (
        "## Exercise\n\nCompute the longest wavelength for `d_model = 8`.\n\n"
        '??? success "Solution"\n    Take the last column.\n\n    ```python\n    from pe_docs import wavelengths\n\n'
        "    longest = wavelengths(8)[-1].item()\n    print(round(longest))\n    ```\n\n"
        "    <!--pytest-codeblocks:expected-output-->\n    ```text\n    6283\n    ```\n\n"
        "    It is $2\\pi \\cdot 10000^{6/8}$.\n\n"
        "Later blocks may use it:\n\n```python\nassert round(longest) == 6283\n```\n"
    ),
}
SOLUTION["zh"] = (
    SOLUTION["en"]
    .replace("## Exercise", "## 练习")
    .replace('"Solution"', '"解答"')
    .replace("Compute the longest wavelength for", "算出")
    .replace("Take the last column.", "取最后一列。")
    .replace("It is", "它等于")
    .replace("Later blocks may use it:", "后面的代码块可以接着用：")
)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_collapsed_solution_stays_collapsed_and_runs_in_place(lang: str) -> None:
    """A ``??? success "Solution"`` block (exercises, issue 21): its prose and code, readable, in one collapsed
    ``<details>`` Markdown cell; its code right after as cells with the input collapsed, so the notebook still
    runs top to bottom (later blocks use what the solution computed)."""
    site = EN if lang == "en" else ZH
    nb = notebooks.notebook(SOLUTION[lang], "exercise.md", site)
    kinds = [(c.cell_type, c.metadata.get("pe_docs"), c.metadata.get("jupyter")) for c in nb.cells[1:]]
    assert kinds == [
        ("markdown", None, None),
        ("markdown", {"details": True}, None),
        ("code", None, {"source_hidden": True}),
        ("markdown", None, None),
        ("code", None, None),
    ]
    details = nb.cells[2].source
    title = "Solution" if lang == "en" else "解答"
    assert details.startswith(f"<details>\n<summary>✅ {title}</summary>\n\n")
    assert details.endswith("\n\n</details>")
    code = "from pe_docs import wavelengths\n\nlongest = wavelengths(8)[-1].item()\nprint(round(longest))"
    assert f"```python\n{code}\n```" in details and "```text\n6283\n```" in details
    assert "$2\\pi \\cdot 10000^{6/8}$" in details
    assert nb.cells[3].source == code
    assert [c.source for c in page_cells(nb)] == [f.code for f in pages.parse(SOLUTION[lang]).running]
    # Markdown inside <details> needs the blank lines around it; a renderer sees one HTML block, then Markdown
    tokens = MarkdownIt("commonmark", {"html": True}).parse(details)
    assert [t.type for t in tokens][:2] == ["html_block", "paragraph_open"]
    assert tokens[0].content.startswith("<details>") and tokens[-1].content.strip() == "</details>"


def test_collapsed_solution_runs_top_to_bottom() -> None:
    """The generated notebook of a page with a collapsed solution runs top to bottom on a fresh kernel."""
    text = notebooks.notebook_text(SOLUTION["en"], "exercise.md", EN)
    result = kernels.run(text, "en", name="exercise-test")
    assert result["ok"], result.get("error")
    nb = kernels.executed(result)
    assert [o.text for o in nb.cells[3].outputs if o.output_type == "stream"] == ["6283\n"]


def test_a_kernel_that_dies_starting_is_started_once_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that dies before replying to kernel_info (no cell ran: kernels started side by side can race for
    their ports) is started once more; any other failure is the notebook's."""
    import threading

    import nbclient

    execute, starts, this_test = nbclient.NotebookClient.execute, [], threading.get_ident()

    def dies_once(client: nbclient.NotebookClient, **kwargs: object) -> object:
        if threading.get_ident() != this_test:  # in one process the chapters' notebooks run beside it (harness)
            return execute(client, **kwargs)
        starts.append(1)
        if len(starts) == 1:
            raise RuntimeError("Kernel died before replying to kernel_info")
        return execute(client, **kwargs)

    monkeypatch.setattr(nbclient.NotebookClient, "execute", dies_once)
    text = notebooks.notebook_text(SOLUTION["en"], "exercise.md", EN)
    result = kernels.run(text, "en", name="kernel-restart-test", use_cache=False)
    assert result["ok"] and len(starts) == 2, result.get("error")


def test_open_collapsible_and_untitled_details() -> None:
    page = '???+ tip "Open"\n    Shown.\n\n    ```python\n    x = 1\n    ```\n\n??? danger ""\n    No title.\n'
    nb = notebooks.notebook(page, "page.md", EN)
    (first, code, second) = nb.cells[1:]
    assert first.source.startswith("<details open>\n<summary>💡 Open</summary>")
    assert "jupyter" not in code.metadata and code.source == "x = 1"
    assert second.source == "<details>\n<summary></summary>\n\nNo title.\n\n</details>"
    assert notebooks._html_inline("Mind the `a < b` & co") == "Mind the <code>a &lt; b</code> &amp; co"


def test_display_math_in_an_admonition_stays_one_block() -> None:
    page = '!!! note "Math"\n    $$\n    a = b\n    + c\n    $$\n\n    Inline $x$ kept.\n\n$$\nd\n$$\n'
    ((_, text),) = cells(page)
    assert "> $$a = b + c$$" in text and "> Inline $x$ kept." in text
    assert text.endswith("$$\nd\n$$")  # outside a quote, math is left exactly as written
    # a collapsible block inside an admonition: its <details> cell is quoted, its math on one line there too
    nested = '!!! note "Math"\n    ??? success "Solution"\n        $$\n        a = b\n        + c\n        $$\n'
    details = [text for kind, text in cells(nested) if "<details>" in text]
    assert len(details) == 1 and "> $$a = b + c$$" in details[0], details


def test_content_tabs_show_each_title_and_content() -> None:
    page = '=== "PyTorch"\n\n    ```python\n    x = 1\n    ```\n\n=== "NumPy"\n\n    Text in a tab.\n'
    assert cells(page) == [("markdown", "**PyTorch**"), ("code", "x = 1"), ("markdown", "**NumPy**\n\nText in a tab.")]


def test_expected_output_follows_its_cell() -> None:
    page = "```python\nprint(1)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```text\n1\n```\n\nThen.\n"
    assert cells(page) == [
        ("code", "print(1)"),
        ("markdown", "Expected output:\n\n```text\n1\n```"),
        ("markdown", "Then."),
    ]
    zh = cells(page.replace("Then.", "然后。"), ZH)
    assert zh[1] == ("markdown", "预期输出：\n\n```text\n1\n```")
    nb = notebooks.notebook(page, "page.md", EN)
    assert nb.cells[2].metadata["pe_docs"] == {"expected_output": True}


def test_figure_pair_becomes_one_cell_drawing_the_registered_figure() -> None:
    page = (
        "The figure.\n\n![Heat map](figures/heatmap.light.svg#only-light)\n"
        "![Heat map](figures/heatmap.dark.svg#only-dark)\n\nDone.\n"
    )
    got = cells(page)
    assert [kind for kind, _ in got] == ["markdown", "code", "markdown"]
    code = got[1][1]
    assert code.startswith("%matplotlib inline\nfrom pe_docs.plotting import plot_heatmap\n")
    assert '# Heat map\nfig = plot_heatmap(max_len=100, d_model=128, lang="en")\n' in code
    nb = notebooks.notebook(page, "page.md", ZH)
    assert 'lang="zh"' in nb.cells[2].source and nb.cells[2].metadata["pe_docs"] == {"figure": "heatmap"}
    assert "中文字体" in nb.cells[0].source  # the Chinese intro names the font the labels need
    assert "中文字体" not in notebooks.notebook("No figure.\n", "page.md", ZH).cells[0].source
    with pytest.raises(ValueError, match="'nope' is not registered"):
        notebooks.notebook("![x](figures/nope.light.svg#only-light)\n", "page.md", EN)


def test_long_figure_calls_are_wrapped_and_valid_python() -> None:
    for name in figures.FIGURES:
        code = notebooks.figure_code(name, "alt", "en")
        ast.parse("\n".join(line for line in code.splitlines() if not line.startswith("%")))
        assert max(len(line) for line in code.splitlines()) <= 100


def test_links_without_site_url_become_text() -> None:
    page = (
        "See [the formula](formula.md#the-definition), [above](#top), [walk](walkthrough.md), "
        "[PyTorch](https://pytorch.org/) and `[not](a.md)` and [`code` text](formula.md).\n"
    )
    ((_, text),) = cells(page)
    assert text == ("See the formula, above, walk, [PyTorch](https://pytorch.org/) and `[not](a.md)` and `code` text.")


def test_links_with_site_url_become_absolute() -> None:
    page = (
        "See [the formula](formula.md#the-definition), [above](#top), [walk](walkthrough.md), "
        "[home](index.md), [up](../x/other.md), [PyTorch](https://pytorch.org/), `[not](a.md)` "
        "and ![pic](img/a.png).\n"
    )
    ((_, text),) = cells(page, PUBLIC, "sub/page.md")
    assert text == (
        "See [the formula](https://example.org/docs/sub/formula/#the-definition), "
        "[above](https://example.org/docs/sub/page/#top), [walk](https://example.org/docs/sub/walkthrough/), "
        "[home](https://example.org/docs/sub/), [up](https://example.org/docs/x/other/), "
        "[PyTorch](https://pytorch.org/), `[not](a.md)` and ![pic](https://example.org/docs/sub/img/a.png)."
    )
    intro = notebooks.notebook("# T\n", "formula.md", PUBLIC).cells[0].source
    assert "[T](https://example.org/docs/formula/)" in intro


def test_a_page_whose_code_needs_only_torch_says_pe_docs_is_optional() -> None:
    """``pe_docs: optional`` in the front matter (the walkthrough) turns the first cell's install instructions into
    an option; any other value, or the flag on a page with figures (pe_docs draws them), is refused."""
    for site, words in ((EN, "It needs only PyTorch."), (ZH, "运行它只需要 PyTorch。")):
        intro = notebooks.notebook("---\npe_docs: optional\n---\n# T\n", "t.md", site).cells[0].source
        assert words in intro and 'pip install "pe-docs[plot] @ git+https://example.org/repo"' in intro
        assert words not in notebooks.notebook("# T\n", "t.md", site).cells[0].source
    with pytest.raises(ValueError, match="pe_docs: 'required'"):
        notebooks.notebook("---\npe_docs: required\n---\n# T\n", "t.md", EN)
    name = next(iter(figures.FIGURES))
    with pytest.raises(ValueError, match="figures are drawn by pe_docs"):
        notebooks.notebook(
            f"---\npe_docs: optional\n---\n# T\n\n![a](figures/{name}.light.svg#only-light)\n", "t.md", EN
        )


def test_page_url_is_mkdocs_url(tmp_path: Path) -> None:
    """The notebook links to the URL MkDocs gives the page (directory URLs or not)."""
    from mkdocs.structure.files import File

    for directory_urls in (True, False):
        s = notebooks.Site("en", "x", "https://r", site_url="https://h/p/", use_directory_urls=directory_urls)
        for uri in ("index.md", "formula.md", "a/b.md", "a/index.md"):
            url = File(uri, str(tmp_path), str(tmp_path), use_directory_urls=directory_urls).url
            assert s.page_url(uri) == urljoin("https://h/p/", url)


def test_comments_and_heading_attributes_dropped() -> None:
    page = (
        "<!-- a comment\nover two lines -->\n中文第一行，第二行 <!-- inline --> and\nEnglish `代码\n换行` end.\n"
        "## Heading { #custom-id }\n"
    )
    ((_, text),) = cells(page, ZH)
    assert text == "中文第一行，第二行  and\nEnglish `代码\n换行` end.\n## Heading"


def test_front_matter_opt_out_and_title() -> None:
    code = "```python\nx = 1\n```\n"
    assert pages.parse(code).chapter
    assert not pages.parse("---\nnotebook: false\n---\n" + code).chapter
    assert not pages.parse("# Only prose\n\n```text\nx\n```\n").chapter
    assert pages.parse("!!! note\n    ```python\n    x = 1\n    ```\n").chapter  # in an admonition
    nb = notebooks.notebook("---\ntitle: Front\nquoted:\n  '512': paper\n---\n# Heading\n" + code, "p.md", EN)
    assert "“Front”" in nb.cells[0].source
    assert "quoted" not in nb.cells[1].source and nb.cells[1].source == "# Heading"
    assert notebooks.generate({"p.md": code, "q.md": "text\n", "r.ipynb": code}, EN).keys() == {"notebooks/p.ipynb"}


@pytest.mark.parametrize("lang", pages.LANGS)
def test_site_read_fast_is_the_site_of_the_loaded_config(lang: str) -> None:
    assert notebooks.site_of(lang) == notebooks.Site.from_config(engine.load(lang))


def test_site_from_config_needs_the_repository(tmp_path: Path) -> None:
    config = load_config(config_file=str(layout.CONFIGS["en"]))
    assert notebooks.Site.from_config(config).repository == "https://github.com/pe-docs/pe-docs"
    config.extra.pop("repository")
    with pytest.raises(ValueError, match="extra.repository"):
        notebooks.Site.from_config(config)
