"""Every chapter as a Jupyter notebook in its own language, generated from the page at build time.

A *chapter* is a Markdown page with at least one python block whose front matter does not say
``notebook: false`` (the home page opts out). Its notebook, ``notebooks/<page>.ipynb`` on the site of the page's
language, holds:

1. a Markdown cell saying where the notebook comes from and how to install ``pe_docs`` (from the repository
   named by ``extra.repository`` in mkdocs.yml); a page whose code runs with PyTorch alone says so in its front
   matter, ``pe_docs: optional`` (the walkthrough: its last check falls back to the formula), and its first cell
   then calls ``pe_docs`` optional (``tests/test_walkthrough.py`` runs that notebook without it);
2. the page, in order, as ``site_tools.pages`` reads it: its prose as Markdown cells and every python block that
   the tests run as a code cell, also the blocks inside admonitions, collapsible blocks and content tabs. A block
   continued with ``<!--pytest-codeblocks:cont-->`` is simply the next cell (a notebook has one namespace).

What a notebook cannot show as the page does is converted:

- an admonition (``!!! warning "Title"``) becomes a blockquote with its title in bold; its code blocks become
  code cells in place and the quote resumes after them;
- a collapsible block (``??? success "Solution"``: an exercise's solution, a "deeper" note) becomes one Markdown
  cell with its whole content — prose, code as fenced blocks, expected output — inside a closed ``<details>``
  element whose ``<summary>`` is the title, followed by its code as code cells in page order, with the input
  collapsed (``metadata.jupyter.source_hidden``, which JupyterLab, Notebook 7 and VS Code honour): the solution
  stays hidden until the reader opens it, and the notebook still runs from top to bottom, in place, so a later
  cell may use what the solution computed. An open one (``???+``) becomes an open ``<details>``, its cells shown;
- a content tab (``=== "Title"``) becomes its title in bold followed by the tab's content;
- ``<!--pytest-codeblocks:expected-output-->`` and its fence become a Markdown cell "Expected output" right
  after the code cell;
- a figure (``![alt](figures/NAME.light.svg#only-light)`` and its ``#only-dark`` twin) becomes one code cell
  that draws it with the ``pe_docs.plotting`` function and arguments registered in ``site_tools.build.figures``, with
  the page's language: it runs wherever ``pe_docs[plot]`` is installed, offline, and shows what the page shows;
- a link to another page of the site (``[x](relative.md#anchor)``) or to an anchor of this page becomes an
  absolute link to the public site when ``site_url`` is configured, else its text;
- HTML comments are dropped; math (``$…$``, ``$$…$$``) is kept, since Jupyter renders it; a line break between
  two Chinese characters is removed, as the build does for the pages (renderers show it as a space).

Why figures are code: the same function and arguments as the build give the same figure, drawn offline and
checked by the notebook tests; embedding the build's SVG would add 40–210 KB per figure and hide how it is
made, and linking the site's SVG would need the network and ``site_url``. The price: matplotlib (the ``plot``
extra) and, for Chinese labels, a CJK font, which the Chinese first cell names.

Why ``notebooks/<page>.ipynb``: one folder per language site, a URL that does not depend on
``use_directory_urls``, and a downloaded file named after its chapter. The hook adds the files from memory
(``File.generated(content=…)``).

The output is deterministic (numbered cell ids, sorted keys): two builds of one commit give identical files.
"""

from __future__ import annotations

import functools
import html
import itertools
import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

import nbformat

from site_tools import layout, pages
from site_tools.build.figures import FIGURES
from site_tools.pages import Box, Code, Expected, Figure, Item, Prose, Verbatim, walk

NOTEBOOK_DIR = "notebooks"
PACKAGE = "pe-docs[plot]"

# The texts a notebook adds to the page, per language.
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "intro": (
            "This notebook is generated from {chapter} of {site}: the page's text, and its code unchanged"
            "{figures}.\n\n"
            "It needs the `pe_docs` package (and matplotlib for the figures) from [the project's repository]"
            "({repository}). Install it into the environment of this notebook's kernel, from a terminal:\n\n"
            "```bash\n{install}\n```\n\n"
            "or from a cell of this notebook: `%pip install {install_arg}`. Then run the cells from top to bottom; "
            "nothing else from the repository is needed."
        ),
        "optional": (
            "This notebook is generated from {chapter} of {site}: the page's text, and its code unchanged.\n\n"
            "It needs only PyTorch. The `pe_docs` package, from [the project's repository]({repository}), is "
            "optional: where the code finds it, it also compares its results with it. To have it, install it into "
            "the environment of this notebook's kernel, from a terminal:\n\n"
            "```bash\n{install}\n```\n\n"
            "or from a cell of this notebook: `%pip install {install_arg}`. Run the cells from top to bottom; "
            "nothing else from the repository is needed."
        ),
        "chapter_link": "the chapter [{title}]({url})",
        "chapter_text": "the chapter “{title}”",
        "site": "*{name}*",
        "figures": ", plus a cell that draws each figure",
        "cjk_font": "",
        "expected": "Expected output:",
        "white": "readable in light and dark notebook themes",
    },
    "zh": {
        "intro": (
            "本 Notebook 由{site}的{chapter}生成：文字取自页面，代码与页面完全相同{figures}。"
            "代码打印出的文字是英文：中英文页面的代码除注释外逐字相同，输出也就相同。\n\n"
            "运行前需要安装 `pe_docs` 包（画图还需要 matplotlib），它在[项目仓库]({repository})里。"
            "请把它装进这个 Notebook 的内核所用的环境，可以在终端里运行：\n\n"
            "```bash\n{install}\n```\n\n"
            "也可以在 Notebook 的单元格里运行 `%pip install {install_arg}`。装好后从上到下依次运行各单元格即可，"
            "不需要仓库里的其他文件。{cjk_font}"
        ),
        "optional": (
            "本 Notebook 由{site}的{chapter}生成：文字取自页面，代码与页面完全相同。"
            "代码打印出的文字是英文：中英文页面的代码除注释外逐字相同，输出也就相同。\n\n"
            "运行它只需要 PyTorch。`pe_docs` 包（在[项目仓库]({repository})里）可装可不装："
            "装了，代码还会把结果与它比对。"
            "要装的话，请把它装进这个 Notebook 的内核所用的环境，可以在终端里运行：\n\n"
            "```bash\n{install}\n```\n\n"
            "也可以在 Notebook 的单元格里运行 `%pip install {install_arg}`。从上到下依次运行各单元格即可，"
            "不需要仓库里的其他文件。"
        ),
        "chapter_link": "[“{title}”]({url})一页",
        "chapter_text": "“{title}”一页",
        "site": "“{name}”",
        "figures": "，另加画出每幅图的单元格",
        "cjk_font": (
            "图中的中文标签需要系统里装有中文字体，例如在 Debian/Ubuntu 上运行 "
            "`sudo apt-get install fonts-wqy-microhei`。"
        ),
        "expected": "预期输出：",
        "white": "浅色和深色的 Notebook 主题下都看得清",
    },
}

# Material's admonition types (and their aliases) -> the sign shown before the title in the notebook.
_SIGNS = {
    **dict.fromkeys(("note", "abstract", "summary", "tldr", "info", "todo"), "ℹ️"),
    **dict.fromkeys(("tip", "hint", "important"), "💡"),
    **dict.fromkeys(("success", "check", "done"), "✅"),
    **dict.fromkeys(("question", "help", "faq"), "❓"),
    **dict.fromkeys(("warning", "caution", "attention"), "⚠️"),
    **dict.fromkeys(("failure", "fail", "missing"), "❌"),
    **dict.fromkeys(("danger", "error"), "⛔"),
    "bug": "🐞",
    "example": "🧪",
    **dict.fromkeys(("quote", "cite"), "💬"),
}

_COMMENT = re.compile(r"<!--.*?-->", re.S)
# Spans left alone by link rewriting: inline code, display and inline math.
_PROTECTED = re.compile(r"(`+).+?\1|\$\$.+?\$\$|\$[^$\n]+\$", re.S)
_LINK = re.compile(
    r"(?P<bang>!?)\[(?P<text>(?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)\]"
    r"\((?P<target>[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\)"
)
_SCHEME = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
_HEADING_ATTRS = re.compile(r"^(#{1,6}[ \t].*?)[ \t]*\{[ \t]*[:#.][^}]*\}[ \t]*$")


# --- the site ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    """What a notebook needs to know about the site of its language."""

    lang: str
    name: str
    repository: str
    site_url: str | None = None
    use_directory_urls: bool = True

    def __post_init__(self) -> None:
        """Raises:
        ValueError: no ``repository`` (the config's ``extra.repository``), or no texts for the language.
        """
        if not self.repository:
            raise ValueError("mkdocs.yml must name the project's repository as extra.repository (the install line)")
        if self.lang not in TEXTS:
            raise ValueError(
                f"no notebook texts for language {self.lang!r}; add them to site_tools.build.notebooks.TEXTS"
            )
        object.__setattr__(self, "repository", str(self.repository).rstrip("/"))

    @classmethod
    def from_config(cls, config: Any) -> Site:
        """From a loaded MkDocs config (``mkdocs.yml`` or ``mkdocs.zh.yml``)."""
        repository = (config.extra or {}).get("repository") or ""  # none: "", which __post_init__ refuses
        return cls(
            config.theme["language"], config.site_name, repository, config.site_url or None, config.use_directory_urls
        )

    def page_url(self, src_uri: str) -> str | None:
        """The absolute URL of a page (``formula.md``), as MkDocs builds it; ``None`` without ``site_url``."""
        if not self.site_url:
            return None
        return urljoin(self.site_url.rstrip("/") + "/", layout.page_url(src_uri, self.use_directory_urls))

    def resolve(self, target: str, src_uri: str) -> str | None:
        """Where a link of page ``src_uri`` points, as an absolute URL; ``None`` when it cannot be one."""
        if _SCHEME.match(target):
            return target
        if not self.site_url:
            return None
        path, _, anchor = target.partition("#")  # no path: an anchor of this page
        uri = posixpath.normpath(posixpath.join(posixpath.dirname(src_uri), path)) if path else src_uri
        # a page, else a file of the site (an image, a download)
        url = self.page_url(uri) if uri.endswith(".md") else urljoin(self.site_url.rstrip("/") + "/", uri)
        return f"{url}#{anchor}" if anchor and url else url


@functools.cache
def site_of(lang: str) -> Site:
    """The :class:`Site` of one language as ``make site`` builds it (for its public address), read once from the
    config file as written (``site_tools.layout.raw_config``: fast, no plugins loaded); the tests check that it is
    what :meth:`Site.from_config` gives for the loaded config.

    Raises:
        ValueError: an unknown language, no ``extra.repository``, or no texts for the language.
    """
    raw = layout.raw_config(lang)
    return Site(
        lang=(raw.get("theme") or {}).get("language", "en"),
        name=raw["site_name"],
        repository=(raw.get("extra") or {}).get("repository") or "",  # none: "", which __post_init__ refuses
        site_url=layout.language_url(layout.public_url(), lang),
        use_directory_urls=raw.get("use_directory_urls", True),
    )


def notebook_uri(src_uri: str) -> str:
    """Where the notebook of page ``src_uri`` is on its site: ``formula.md`` -> ``notebooks/formula.ipynb``."""
    return f"{NOTEBOOK_DIR}/{posixpath.splitext(src_uri)[0]}.ipynb"


# --- the notebook -----------------------------------------------------------------------------------------


def _literal(value: Any) -> str:
    """A Python literal for a figure's argument, in the style of the pages (double quotes)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple):
        inner = ", ".join(_literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def figure_code(name: str, alt: str, lang: str) -> str:
    """The code cell that draws registered figure ``name`` as the page shows it (light theme)."""
    spec = FIGURES[name]
    args = [f"{k}={_literal(v)}" for k, v in spec.kwargs.items()] + [f"lang={_literal(lang)}"]
    call = f"fig = {spec.function}({', '.join(args)})"
    if len(call) > 100:
        call = f"fig = {spec.function}(\n" + "".join(f"    {a},\n" for a in args) + ")"
    return "\n".join(
        [
            "%matplotlib inline",
            f"from pe_docs.plotting import {spec.function}",
            "",
            f"# {alt}" if alt else f"# {name}",
            call,
            f'fig.set_facecolor("white")  # {TEXTS[lang]["white"]}',
            "fig",
        ]
    )


def convert_prose(text: str, site: Site, src_uri: str) -> str:
    """Markdown prose as a notebook shows it: comments dropped, links absolute (or text), heading attribute
    lists removed; code spans and math untouched."""
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(m.group(0))
        return f"\x00{len(kept) - 1}\x00"

    def link(m: re.Match[str]) -> str:
        url = site.resolve(m.group("target"), src_uri)
        return f"{m.group('bang')}[{m.group('text')}]({url})" if url else m.group("text")

    text = _LINK.sub(link, _PROTECTED.sub(keep, _COMMENT.sub("", text)))
    text = "\n".join(_HEADING_ATTRS.sub(r"\1", line) for line in text.split("\n"))
    return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], text)


def _quote(text: str, prefix: str) -> list[str]:
    """Lines of ``text`` inside ``prefix`` (``"> "`` per level); display math is kept on one line there, since
    Jupyter would otherwise see the quote markers as part of the TeX."""
    if prefix:
        text = re.sub(r"\$\$(.+?)\$\$", lambda m: "$$" + " ".join(m.group(1).split()) + "$$", text, flags=re.S)
    return [(prefix + line).rstrip() if line.strip() else prefix.rstrip() for line in text.split("\n")]


class _Writer:
    """The cells of a notebook, from the page's items; ``inline``: everything as Markdown lines (code as fenced
    blocks), for the inside of a ``<details>`` cell."""

    def __init__(self, site: Site, src_uri: str, *, inline: bool = False) -> None:
        self.site = site
        self.src_uri = src_uri
        self.inline = inline
        self.cells: list[nbformat.NotebookNode] = []
        self.markdown: list[str] = []

    def prose(self, text: str) -> str:
        return convert_prose(text, self.site, self.src_uri)

    def add(self, cell: nbformat.NotebookNode, *, hidden: bool = False, **metadata: Any) -> None:
        if metadata:
            cell.metadata["pe_docs"] = metadata
        if hidden:  # JupyterLab, Notebook 7 and VS Code show the input collapsed
            cell.metadata["jupyter"] = {"source_hidden": True}
        self.cells.append(cell)

    def flush(self, **metadata: Any) -> None:
        # Blank lines (inside quotes: ">", "> >"): none at either end, and a run of them becomes one, the
        # shallowest: it ends what it must.
        lines: list[str] = []
        for blank, run in itertools.groupby(self.markdown, key=lambda line: not line.strip(" >")):
            group = list(run)
            lines += [min(group, key=lambda line: line.count(">"))] if blank else group
        lines = lines[1:] if lines and not lines[0].strip(" >") else lines
        lines = lines[:-1] if lines and not lines[-1].strip(" >") else lines
        if lines:
            self.add(nbformat.v4.new_markdown_cell("\n".join(lines)), **metadata)
        self.markdown = []

    def code(self, source: str, *, hidden: bool = False, **metadata: Any) -> None:
        self.flush()
        self.add(nbformat.v4.new_code_cell(source.strip("\n")), hidden=hidden, **metadata)

    def details(self, box: Box, prefix: str) -> None:
        """A collapsible block: its whole content, code included, in a ``<details>`` Markdown cell (collapsed like
        the page's, open for ``???+``), then its code as cells in page order, inputs collapsed unless open; inside
        a ``<details>`` cell, a nested ``<details>``."""
        sign = _SIGNS.get(box.type, _SIGNS["note"])
        summary = f"{sign} {_html_inline(self.prose(box.title))}" if box.title else ""
        inner = _Writer(self.site, self.src_uri, inline=True)
        inner.write(box.items)
        lines = ["<details open>" if box.open else "<details>", f"<summary>{summary}</summary>", ""]
        lines += [*inner.markdown, "", "</details>"]
        lines = _quote("\n".join(lines), prefix)
        if self.inline:
            self.markdown += ["", *lines]
            return
        self.flush()
        self.markdown = lines
        self.flush(details=True)
        for item in walk(box.items):
            if isinstance(item, Code):
                self.code(item.code, hidden=not box.open, **({"cont": True} if item.cont else {}))
            elif isinstance(item, Figure):
                self.code(figure_code(item.name, item.alt, self.site.lang), hidden=not box.open, figure=item.name)

    def write(self, items: list[Item], depth: int = 0) -> None:
        prefix = "> " * depth
        texts = TEXTS[self.site.lang]
        for item in items:
            if self.inline:
                self.markdown.append(prefix.rstrip())
            if isinstance(item, Prose):
                self.markdown += _quote(self.prose("\n".join(item.lines)), prefix)
            elif isinstance(item, Verbatim):
                self.markdown += _quote("\n".join(item.lines), prefix)
            elif isinstance(item, Code) and self.inline:
                self.markdown += _quote(f"```python\n{item.code}\n```", prefix)
            elif isinstance(item, Code):
                self.code(item.code, **({"cont": True} if item.cont else {}))
            elif isinstance(item, Expected):
                if not self.inline:  # a cell of its own
                    self.flush()
                self.markdown += _quote(f"{texts['expected']}\n\n```text\n{item.text}\n```", prefix)
                if not self.inline:
                    self.flush(expected_output=True)
            elif isinstance(item, Figure) and self.inline:
                self.markdown += _quote(f"*{item.alt or item.name}*", prefix)
            elif isinstance(item, Figure):
                self.code(figure_code(item.name, item.alt, self.site.lang), figure=item.name)
            elif item.kind == "details":
                self.details(item, prefix)
            elif item.kind == "tab":
                self.markdown += [prefix.rstrip(), f"{prefix}**{self.prose(item.title or '')}**", prefix.rstrip()]
                self.write(item.items, depth)
                self.markdown.append(prefix.rstrip())
            else:
                inner = prefix + "> "
                self.markdown.append(prefix.rstrip())  # a blank line: the quote is a block of its own
                if item.title:
                    sign = _SIGNS.get(item.type, _SIGNS["note"])
                    self.markdown += [f"{inner}**{sign} {self.prose(item.title)}**", inner.rstrip()]
                self.write(item.items, depth + 1)
                self.markdown.append(prefix.rstrip())  # and what follows is outside it


def _html_inline(text: str) -> str:
    """Markdown of a title as HTML for a ``<summary>`` (Markdown is not rendered inside HTML): escaped, with code
    spans as ``<code>``."""
    return re.sub(r"(`+)(.+?)\1", lambda m: f"<code>{m.group(2).strip()}</code>", html.escape(text, quote=False))


def intro(site: Site, src_uri: str, title: str, has_figures: bool, *, optional: bool = False) -> str:
    """The first cell: what the notebook is and how to install ``pe_docs`` (``optional``: that it needs only
    PyTorch, and how to install ``pe_docs`` all the same)."""
    texts = TEXTS[site.lang]
    url = site.page_url(src_uri)
    chapter = texts["chapter_link"].format(title=title, url=url) if url else texts["chapter_text"].format(title=title)
    install_arg = f'"{PACKAGE} @ git+{site.repository}"'
    return texts["optional" if optional else "intro"].format(
        chapter=chapter,
        site=texts["site"].format(name=site.name),
        figures=texts["figures"] if has_figures else "",
        repository=site.repository,
        install=f"pip install {install_arg}",
        install_arg=install_arg,
        cjk_font=texts["cjk_font"] if has_figures else "",
    )


def notebook(markdown: str, src_uri: str, site: Site) -> nbformat.NotebookNode:
    """The notebook of one page (its Markdown source, its path relative to the docs folder).

    Raises:
        ValueError: the page shows a figure that is not registered in ``site_tools.build.figures``; its front
            matter's ``pe_docs`` is not ``optional``, or is on a page with figures (drawn by ``pe_docs``).
    """
    page = pages.parse(markdown)
    shown = [item.name for item in walk(list(page.items)) if isinstance(item, Figure)]
    if unknown := [name for name in shown if name not in FIGURES]:
        raise ValueError(f"figure {unknown[0]!r} is not registered in site_tools/build/figures.py")
    optional = "pe_docs" in page.meta
    if optional and (page.meta["pe_docs"] != "optional" or shown):
        why = "its figures are drawn by pe_docs" if shown else "the one value it takes is optional"
        raise ValueError(f"{src_uri}: front matter pe_docs: {page.meta['pe_docs']!r}: {why}")
    writer = _Writer(site, src_uri)
    title = page.title or posixpath.splitext(posixpath.basename(src_uri))[0]
    writer.markdown = intro(site, src_uri, title, bool(shown), optional=optional).split("\n")
    writer.flush(intro=True)
    writer.write(list(page.items))
    writer.flush()
    for n, cell in enumerate(writer.cells):
        cell.id = f"cell-{n}"
    return nbformat.v4.new_notebook(
        cells=writer.cells,
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        },
    )


@functools.lru_cache(maxsize=128)
def notebook_text(markdown: str, src_uri: str, site: Site) -> str:
    """The ``.ipynb`` file of one page, as text (kept for the process: the preview's builds ask again for the
    notebooks of the pages that did not change)."""
    nb = notebook(markdown, src_uri, site)
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


def generate(sources: Mapping[str, str], site: Site) -> dict[str, str]:
    """The notebooks of a site's chapters: ``{notebooks/<page>.ipynb: text}`` for every page in ``sources``
    (``{src_uri: Markdown}``) that is a chapter."""
    return {
        notebook_uri(src_uri): notebook_text(markdown, src_uri, site)
        for src_uri, markdown in sources.items()
        if src_uri.endswith(".md") and pages.parse(markdown).chapter
    }
