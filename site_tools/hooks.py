"""MkDocs hooks (listed under ``hooks:`` in mkdocs.yml), kept thin: the work is in plain, tested modules.

- ``on_config``: key mkdocs-jupyter's execution cache by the ``pe_docs`` sources, so a notebook is re-executed
  whenever the library it imports changes (its own cache key only looks at the notebook file).
- ``on_files``: add the build-time figures for this language and the self-hosted KaTeX files.
- ``on_page_content``: remove line breaks between two Chinese characters (browsers render them as spaces).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # mkdocs loads this file by path; make the repo's modules importable
    sys.path.insert(0, str(ROOT))

from mkdocs.config.defaults import MkDocsConfig  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402
from mkdocs.structure.pages import Page  # noqa: E402

from site_tools import assets, cjk, figures  # noqa: E402


def on_config(config: MkDocsConfig) -> MkDocsConfig:
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
    return files


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return cjk.join_wide_lines(html)
