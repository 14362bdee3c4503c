"""MkDocs hooks (listed under ``hooks:`` in mkdocs.yml), kept thin: the work is in plain, tested modules.

- ``on_config``: key mkdocs-jupyter's execution cache by the ``pe_docs`` sources, so a notebook is re-executed
  whenever the library it imports changes (its own cache key only looks at the notebook file).
- ``on_files``: add the build-time figures for this language, KaTeX's stylesheet and fonts, and every chapter's
  notebook (``site_tools.notebooks``), generated from the page as ``notebooks/<page>.ipynb``.
- ``on_pre_page``: give a chapter page the URL of its notebook (``page.notebook_url``), for the download button
  in ``overrides/main.html``.
- ``on_page_content``: remove line breaks between two Chinese characters (browsers render them as spaces),
  and keep numbers written with a thousands space (60 611) on one line; end the page with its versions
  (``site_tools.versions``: the torch a chapter's blocks ran with, the library versions in ``checked_against``);
  a page without figures does not load the lightbox (``site_tools.assets.has_lightbox``).
- ``on_config`` also gives each ``extra.alternate`` its absolute address (head links, 404 page).
- ``on_post_page``: every page gets its math typeset by KaTeX (``site_tools.math``, one node process per build)
  and its figures loaded lazily, sized, with named lightbox links (``site_tools.assets``); notebook pages keep
  only the rules of mkdocs-jupyter's JupyterLab stylesheet that can apply to them (``site_tools.assets``) and link
  it as a cached file instead of inlining it (``site_tools.publish``); ``on_post_build``: drop the source maps
  Material ships, add ``.nojekyll`` (``site_tools.publish``).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # mkdocs loads this file by path; make the repo's modules importable
    sys.path.insert(0, str(ROOT))

from mkdocs.config.defaults import MkDocsConfig  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402
from mkdocs.structure.pages import Page  # noqa: E402

from site_tools import assets, cjk, figures, math, notebooks, publish, versions  # noqa: E402

log = logging.getLogger("mkdocs.hooks.pe_docs")
_katex = math.Katex()  # one node process per build, started by the first page with math


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    config.extra["alternate"] = publish.alternate_links(config.site_url, config.extra.get("alternate") or [])
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None:
        digest = figures.source_digest()[:16]
        lang = config.theme["language"]  # one folder per language: the plugin evicts entries a build did not use
        jupyter.config["cache_dir"] = str(figures.cache_root() / "mkdocs-jupyter" / lang / digest)
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    lang = config.theme["language"]
    for uri, path in figures.ensure_figures(lang).items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    for uri, path in assets.katex_files().items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    # In-memory files (no abs_src_path): mkdocs-jupyter's on_files, which turns *.ipynb files into pages, leaves
    # them as they are whatever the order of the two on_files (this hook runs after the plugins).
    sources = {f.src_uri: f.content_string for f in files.documentation_pages() if f.src_uri.endswith(".md")}
    chapters = {uri: text for uri, text in sources.items() if notebooks.wants_notebook(text)}
    if chapters:  # a site without chapters needs no extra.repository
        for uri, text in notebooks.generate(chapters, notebooks.Site.from_config(config)).items():
            files.append(File.generated(config, uri, content=text))
    return files


def on_pre_page(page: Page, config: MkDocsConfig, files: Files) -> Page:
    notebook = files.get_file_from_path(notebooks.notebook_uri(page.file.src_uri))
    if notebook is not None and page.file.src_uri.endswith(".md"):
        page.notebook_url = notebook.url  # type: ignore[attr-defined]  # site-relative; the template applies `url`
    return page


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if not assets.has_lightbox(html):  # mkdocs-glightbox then adds no script or stylesheet (70 KB) to the page
        page.meta["glightbox"] = False
    html = cjk.keep_numbers_whole(cjk.join_wide_lines(html, lang=config.theme["language"]))
    # the torch a chapter's blocks ran with (a chapter has a notebook), and the versions its claims are checked against
    chapter = getattr(page, "notebook_url", None) is not None
    return versions.add_version_line(html, page.meta, chapter=chapter, lang=config.theme["language"])


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    lang = config.theme["language"]
    output, warnings = math.render_page(output, _katex, where=_source_name(page), lang=lang)
    for warning in warnings:  # a strict build fails on them
        log.warning(warning)
    if page.file.src_uri.endswith(".ipynb"):
        output = publish.externalize_styles(assets.prune_notebook_styles(output), page.url, config.site_dir)
    return assets.figure_links(output, page.url, config.site_dir, lang=lang)


def _source_name(page: Page) -> str:
    """The page's source file as a contributor knows it (``docs/en/formula.md``), for messages."""
    path = Path(page.file.abs_src_path or page.file.src_uri)
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()


def on_post_build(config: MkDocsConfig) -> None:
    _katex.close()
    publish.drop_source_maps(config.site_dir)
    publish.write_nojekyll(config.site_dir)


def on_build_error(error: Exception) -> None:
    _katex.close()
