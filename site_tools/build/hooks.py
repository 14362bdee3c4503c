"""MkDocs hooks (listed under ``hooks:`` in mkdocs.yml): only what must happen before the engine renders a page.

The HTML is finished after the engine has written it (``site_tools.finish``: math, Chinese text, versions, head
links, figures), by ``make site`` and the preview, not here.

- ``on_config``: give each ``extra.alternate`` its absolute address (the 404 page links both homes).
- ``on_files``: add the build-time figures for this language, KaTeX's stylesheet and fonts, and every chapter's
  notebook (``site_tools.build.notebooks``), generated from the page as ``notebooks/<page>.ipynb``.
- ``on_pre_page``: give a chapter page the URL of its notebook (``page.notebook_url``), for the download button
  in ``overrides/main.html``.
- ``on_page_markdown``: a page that shows no image is built with mkdocs-glightbox's ``glightbox: false``, so it loads
  no lightbox script or stylesheet (``site_tools.finish.assets.needs_lightbox``).
- ``on_env``: the theme's templates, compiled once, are kept in the build cache (Jinja's bytecode cache, keyed by
  each template's source): every build loads the config, and with it the theme, afresh.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # mkdocs loads this file by path; make the repo's modules importable
    sys.path.insert(0, str(ROOT))

from jinja2 import Environment, FileSystemBytecodeCache  # noqa: E402
from mkdocs.config.defaults import MkDocsConfig  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402
from mkdocs.structure.pages import Page  # noqa: E402

from site_tools import cache, layout, pages  # noqa: E402
from site_tools.build import figures, notebooks  # noqa: E402
from site_tools.finish import assets  # noqa: E402


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    config.extra["alternate"] = layout.alternate_links(config.site_url, config.extra.get("alternate") or [])
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    lang = config.theme["language"]
    for uri, path in {**figures.ensure_figures(lang), **assets.katex_files()}.items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    sources = {f.src_uri: f.content_string for f in files.documentation_pages() if f.src_uri.endswith(".md")}
    chapters = {uri: text for uri, text in sources.items() if pages.parse(text).chapter}
    if chapters:  # a site without chapters needs no extra.repository
        for uri, text in notebooks.generate(chapters, notebooks.Site.from_config(config)).items():
            files.append(File.generated(config, uri, content=text))
    return files


def on_pre_page(page: Page, config: MkDocsConfig, files: Files) -> Page:
    notebook = files.get_file_from_path(notebooks.notebook_uri(page.file.src_uri))
    if notebook is not None:
        page.notebook_url = notebook.url  # type: ignore[attr-defined]  # site-relative; the template applies `url`
    return page


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if not assets.needs_lightbox(page.file.content_string):  # the source, as on_files read it
        page.meta["glightbox"] = False
    return markdown


def on_env(env: Environment, config: MkDocsConfig, files: Files) -> Environment:
    jinja = cache.folder("jinja")
    jinja.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = FileSystemBytecodeCache(str(jinja))
    return env
