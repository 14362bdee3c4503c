"""Every chapter as a notebook (site_tools/notebooks.py): generated from the page, with the page's code, in the
page's language, linked from the built page, and running top to bottom on a fresh kernel in an empty folder.

The execution test runs every chapter notebook of both languages, one kernel each, as part of `make test`. The
kernels see ``pe_docs`` (a folder holding only a link to this checkout's package, first on their path, as an
installed package would be) and nothing else of the repository; their working directory is an empty temporary
folder. They run two at a time with one torch thread each (on two cores that uses less CPU than one at a time
with two threads each).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import nbformat
import pytest
from mkdocs.config import load_config
from pytest_codeblocks.main import extract_from_file

from site_tools import figures, notebooks, pages, site

ROOT = Path(__file__).resolve().parent.parent
CJK = re.compile(r"[\u3400-\u9fff]")
CHAPTERS = [(lang, name) for lang in pages.LANGS for name in notebooks.chapters(lang)]
WORKERS = max(1, min(2, os.cpu_count() or 1))


def _id(chapter: tuple[str, str]) -> str:
    return f"{chapter[0]}/{chapter[1]}"


@pytest.fixture(scope="module")
def sites() -> dict[str, notebooks.Site]:
    """The real configs of both languages, as the build reads them (``site.load``: Chinese at ``…/zh/``)."""
    return {lang: notebooks.Site.from_config(site.load(lang)) for lang in pages.LANGS}


def generated(chapter: tuple[str, str], sites: dict[str, notebooks.Site]) -> nbformat.NotebookNode:
    lang, name = chapter
    text = (pages.DOCS / lang / name).read_text(encoding="utf-8")
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


# --- (1) every chapter notebook runs on a fresh kernel in an empty folder ---------------------------------

_CHECK = """\
import json as _json, os as _os, sys as _sys
import pe_docs as _pe_docs
print(_json.dumps({"pe_docs": _pe_docs.__file__, "cwd": _os.getcwd(), "path": _sys.path}))
"""


@pytest.fixture(scope="module")
def kernel_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The kernels' environment: ``pe_docs`` importable as if installed, nothing else from the repository."""
    installed = tmp_path_factory.mktemp("site-packages")
    (installed / "pe_docs").symlink_to(ROOT / "pe_docs", target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME"}}
    env["PYTHONPATH"] = str(installed)
    env["OMP_NUM_THREADS"] = "1"  # one torch thread per kernel, WORKERS kernels at a time
    return env


def execute(nb: nbformat.NotebookNode, env: dict[str, str]) -> tuple[nbformat.NotebookNode, Path]:
    """Run a copy of ``nb`` (with a last cell reporting where ``pe_docs`` came from) on a new kernel whose
    working directory is a new empty folder."""
    from nbclient import NotebookClient

    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    nb.cells.append(nbformat.v4.new_code_cell(_CHECK, id="environment-check", metadata={"pe_docs": {"check": True}}))
    workdir = Path(tempfile.mkdtemp(prefix="pe-docs-notebook-"))
    client = NotebookClient(
        nb, kernel_name="python3", timeout=600, allow_errors=False, resources={"metadata": {"path": str(workdir)}}
    )
    client.execute(env=env)
    return nb, workdir


@pytest.fixture(scope="module")
def executions(
    request: pytest.FixtureRequest, kernel_env: dict[str, str], sites: dict[str, notebooks.Site]
) -> Iterator[dict[tuple[str, str], Future]]:
    """Start every selected chapter's notebook, WORKERS at a time; each test waits for its own."""
    wanted = [
        item.callspec.params["chapter"]
        for item in request.session.items
        if getattr(item, "originalname", "") == "test_notebook_runs_top_to_bottom" and hasattr(item, "callspec")
    ]
    pool = ThreadPoolExecutor(max_workers=WORKERS)
    futures = {chapter: pool.submit(execute, generated(chapter, sites), kernel_env) for chapter in wanted}
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.notebook
@pytest.mark.parametrize("chapter", CHAPTERS, ids=_id)
def test_notebook_runs_top_to_bottom(
    chapter: tuple[str, str], executions: dict[tuple[str, str], Future], sites: dict[str, notebooks.Site]
) -> None:
    """No cell raises, nothing is written to stderr, the page's expected outputs are printed, and the kernel
    used the checkout's pe_docs from an empty folder with no repository path."""
    nb, workdir = executions[chapter].result()  # a failing cell raises nbclient's CellExecutionError here

    def stdout(cell: nbformat.NotebookNode) -> str:
        return "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")

    stderr = [
        o.text
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "stream" and o.name == "stderr" and re.search(r"Warning|Error|Traceback", o.text)
    ]
    assert not stderr, f"{_id(chapter)} wrote warnings or errors:\n" + "\n".join(stderr)

    # The expected outputs of the page (pytest-codeblocks' reading) are what the notebook's cells print.
    blocks = [b for b in extract_from_file(pages.DOCS / chapter[0] / chapter[1]) if b.syntax == "python"]
    runs = chains(nb)
    assert len(runs) == len(blocks)
    for block, run in zip(blocks, runs, strict=True):
        if block.expected_output is not None:
            printed, expected = "".join(stdout(c) for c in run), block.expected_output
            if block.expected_output_ignore_whitespace:
                printed, expected = re.sub(r"\s+", "", printed), re.sub(r"\s+", "", expected)
            assert printed == expected, f"{_id(chapter)} line {block.lineno}"

    env = json.loads(stdout(nb.cells[-1]))
    assert Path(env["pe_docs"]).resolve() == (ROOT / "pe_docs" / "__init__.py").resolve()
    assert Path(env["cwd"]).resolve() == workdir.resolve()
    shutil.rmtree(workdir)
    venv = Path(sys.prefix).resolve()  # the environment pe_docs is installed in (.venv/ inside a checkout)
    on_path = [Path(p).resolve() for p in env["path"] if p]
    repo_paths = [str(p) for p in on_path if p.is_relative_to(ROOT) and not p.is_relative_to(venv)]
    assert not repo_paths, f"repository on the kernel's path: {repo_paths}"
    assert all(c.outputs for c in nb.cells if c.metadata.get("pe_docs", {}).get("figure")), "a figure is missing"
    assert all(
        any("image/png" in o.get("data", {}) for o in c.outputs)
        for c in nb.cells
        if c.metadata.get("pe_docs", {}).get("figure")
    ), "a figure cell shows no image"


# --- (2) same code as the page, prose in the page's language ------------------------------------------


def test_every_chapter_has_a_notebook_and_only_chapters() -> None:
    """Chapters are derived from the pages: python blocks and no ``notebook: false``."""
    for lang in pages.LANGS:
        names = set(notebooks.chapters(lang))
        assert {"formula.md", "wavelength.md", "log-trick.md", "relative.md", "limitations.md", "variants.md"} <= names
        assert not names & {"index.md", "api.md", "contributing.md"}
    assert {n for lang, n in CHAPTERS if lang == "en"} == {n for lang, n in CHAPTERS if lang == "zh"}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=_id)
def test_notebook_has_the_page_code_in_order(chapter: tuple[str, str], sites: dict[str, notebooks.Site]) -> None:
    nb = generated(chapter, sites)
    nbformat.validate(nb)
    path = pages.DOCS / chapter[0] / chapter[1]
    page_code = [f.code.strip("\n") for f in pages.fences(path) if f.runs]
    assert [c.source for c in page_cells(nb)] == page_code
    # and as pytest-codeblocks reads the page (a block with its continuations is one test)
    blocks = [b.code for b in extract_from_file(path) if b.syntax == "python"]

    def squash(code: str) -> str:
        return "\n".join(line for line in code.splitlines() if line.strip())

    assert [squash("\n".join(c.source for c in run)) for run in chains(nb)] == [squash(b) for b in blocks]
    # every figure of the page is drawn by a cell calling its registered function with its arguments
    text = path.read_text(encoding="utf-8")
    on_page = list(dict.fromkeys(re.findall(r"\]\(figures/([\w.-]+?)\.light\.svg#only-light\)", text)))
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
    assert f'pip install "pe-docs[plot] @ git+{sites[lang].repository}"' in first.source
    assert sites[lang].repository == "https://github.com/pe-docs/pe-docs"
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        words = prose(cell.source)
        if lang == "zh":
            assert not re.search(r"[A-Za-z]", words) or CJK.search(words), f"{name}: not Chinese:\n{cell.source}"
        else:  # English, quoting the odd Chinese phrase (我爱你, a seed's 偶数位置) at most
            chinese, latin = len(CJK.findall(words)), len(re.findall(r"[A-Za-z]", words))
            assert chinese <= 0.1 * (chinese + latin), f"{name}: Chinese in the English notebook:\n{cell.source}"
    # the page's prose is there, converted: every heading of the page, in order
    text = (pages.DOCS / lang / name).read_text(encoding="utf-8")
    page_headings = [h for h in re.findall(r"^#{1,6} .+$", text, flags=re.M) if not h.startswith("#!")]
    page_headings = [h for h in page_headings if not _in_fence(text, h)]
    nb_headings = [line for c in nb.cells if c.cell_type == "markdown" for line in c.source.splitlines()]
    nb_headings = [line for line in nb_headings if re.match(r"^#{1,6} ", line)]
    assert nb_headings == page_headings


def _in_fence(text: str, line: str) -> bool:
    """Whether ``line`` occurs only inside fenced code of ``text`` (a ``# comment`` in a python block)."""
    outside = re.sub(r"^[ \t]*(`{3,}|~{3,}).*?^[ \t]*\1[ \t]*$", "", text, flags=re.S | re.M)
    return line not in outside.splitlines()


def test_generation_is_deterministic(sites: dict[str, notebooks.Site]) -> None:
    lang, name = CHAPTERS[0]
    text = (pages.DOCS / lang / name).read_text(encoding="utf-8")
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
    built_for = notebooks.Site.from_config(site.load(lang, site_url=site_base))  # the session site's address
    title = "Download notebook" if lang == "en" else "下载 Notebook"
    chapters = notebooks.chapters(lang)
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
    walkthrough = downloads(root / "walkthrough" / "index.html")  # the hand-written notebook keeps its own
    assert [a["href"] for a in walkthrough] == ["walkthrough.ipynb"] and walkthrough[0]["title"] == title
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
        '!!! note\n    Untitled.\n\n??? danger ""\n    No title at all.\n\n'
        '!!! tip "Outer"\n    !!! bug "Inner"\n        Deep.\n'
    )
    ((kind, text),) = cells(page)
    assert kind == "markdown"
    assert text == (
        "> **ℹ️ Note**\n>\n> Untitled.\n\n> No title at all.\n\n> **💡 Outer**\n>\n> > **🐞 Inner**\n> >\n> > Deep."
    )


def test_display_math_in_an_admonition_stays_one_block() -> None:
    page = '!!! note "Math"\n    $$\n    a = b\n    + c\n    $$\n\n    Inline $x$ kept.\n\n$$\nd\n$$\n'
    ((_, text),) = cells(page)
    assert "> $$a = b + c$$" in text and "> Inline $x$ kept." in text
    assert text.endswith("$$\nd\n$$")  # outside a quote, math is left exactly as written


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
        "See [the formula](formula.md#the-definition), [above](#top), [walk](walkthrough.ipynb), "
        "[PyTorch](https://pytorch.org/) and `[not](a.md)` and [`code` text](formula.md).\n"
    )
    ((_, text),) = cells(page)
    assert text == ("See the formula, above, walk, [PyTorch](https://pytorch.org/) and `[not](a.md)` and `code` text.")


def test_links_with_site_url_become_absolute() -> None:
    page = (
        "See [the formula](formula.md#the-definition), [above](#top), [walk](walkthrough.ipynb), "
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


def test_page_url_is_mkdocs_url(tmp_path: Path) -> None:
    """The notebook links to the URL MkDocs gives the page (directory URLs or not)."""
    from mkdocs.structure.files import File

    for directory_urls in (True, False):
        s = notebooks.Site("en", "x", "https://r", site_url="https://h/p/", use_directory_urls=directory_urls)
        for uri in ("index.md", "formula.md", "a/b.md", "a/index.md"):
            url = File(uri, str(tmp_path), str(tmp_path), use_directory_urls=directory_urls).url
            assert s.page_url(uri) == urljoin("https://h/p/", url)


def test_comments_dropped_and_chinese_lines_joined() -> None:
    page = (
        "<!-- a comment\nover two lines -->\n中文第一行\n第二行 <!-- inline --> and\nEnglish `代码\n换行` end.\n"
        "## Heading { #custom-id }\n"
    )
    ((_, text),) = cells(page, ZH)
    assert text == "中文第一行第二行  and\nEnglish `代码\n换行` end.\n## Heading"


def test_front_matter_opt_out_and_title() -> None:
    code = "```python\nx = 1\n```\n"
    assert notebooks.wants_notebook(code)
    assert not notebooks.wants_notebook("---\nnotebook: false\n---\n" + code)
    assert not notebooks.wants_notebook("# Only prose\n\n```text\nx\n```\n")
    assert notebooks.wants_notebook("!!! note\n    ```python\n    x = 1\n    ```\n")  # in an admonition
    nb = notebooks.notebook("---\ntitle: Front\nquoted:\n  '512': paper\n---\n# Heading\n" + code, "p.md", EN)
    assert "“Front”" in nb.cells[0].source
    assert "quoted" not in nb.cells[1].source and nb.cells[1].source == "# Heading"
    assert notebooks.generate({"p.md": code, "q.md": "text\n", "r.ipynb": code}, EN).keys() == {"notebooks/p.ipynb"}


def test_site_from_config_needs_the_repository(tmp_path: Path) -> None:
    config = load_config(config_file=str(site.CONFIGS["en"]))
    assert notebooks.Site.from_config(config).repository == "https://github.com/pe-docs/pe-docs"
    config.extra.pop("repository")
    with pytest.raises(ValueError, match="extra.repository"):
        notebooks.Site.from_config(config)
