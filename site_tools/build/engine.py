"""The engine: the one module of the build that calls MkDocs (``hooks.py`` is the other that imports it: MkDocs calls
it), and the list of the places the site depends on MkDocs 1.6 or Material for MkDocs 9.8 beyond their
documented options — their Python, their templates, their markup and scripts — each with the test
that fails when an upgrade breaks it.

The rest of the tooling is plain Python on plain data: ``site_tools.build.site`` and ``site_tools.build.preview``
ask this module for a language's config and for a build, ``site_tools.finish`` finishes what the engine wrote (any
engine's HTML: a test finishes a page rendered by Python-Markdown alone), ``site_tools.pages`` reads the sources, and
``site_tools.layout`` holds the site's layout as data (configs as written, the nav, page paths, addresses).
Moving to another engine (Zensical, ProperDocs: ``.github/workflows/successor.yml`` tries both every week) means
rewriting this module, ``hooks.py`` and the templates, and going down the list below.

Touch points (where an upgrade can break the site; the test that notices):

1. **Config.** :func:`load` (``mkdocs.config.load_config`` with options, ``INHERIT`` in ``mkdocs.zh.yml``),
   ``layout.read_config_file`` (reads a file as ``mkdocs.utils.yaml.yaml_load`` does, ``INHERIT`` merged), the
   config fields read (``site_url``, ``site_dir``, ``docs_dir``, ``theme.language``, ``extra``,
   ``use_directory_urls``). — ``tests/test_publish.py::test_configs_at_their_public_address``,
   ``tests/test_notebooks.py`` (``site_of`` is what ``Site.from_config`` gives),
   ``tests/test_engine.py::test_raw_config_is_the_loaded_config``.
2. **Builds.** :func:`build` (``mkdocs.commands.build.build``, strict mode's ``Abort``, ``dirty=True``), the staging
   folder as ``site_dir``. — ``tests/test_build_guards.py`` (a broken link or anchor aborts ``make site``),
   ``tests/test_site_build.py``.
3. **Where a page is written.** ``layout.page_file`` and ``layout.page_url`` mirror MkDocs' ``File.dest_uri`` and
   ``Page.url`` (``use_directory_urls``). — ``tests/test_engine.py::test_page_paths_are_mkdocs_own``.
4. **The preview's page rebuild** (:func:`build` with ``dirty=True``): MkDocs renders only the pages whose source
   is newer than their output; Material's search plugin keeps the other pages' entries in the index when told, with
   the plugin event ``on_startup(command="serve", dirty=True)`` that ``mkdocs serve --dirty`` sends
   (:func:`serve_dirty`: its plugin objects are kept across config loads in one process, MkDocs' plugin cache).
   Material's index keeps the other pages by URL prefix, which the home page's URL ("") is of every page: the
   preview rebuilds a language in full when its home page changes. — ``tests/test_serve.py`` (the edited page alone
   is written, the search index keeps every page and gets the new text), ``tests/test_preview.py``.
5. **The live-reload server.** :func:`live_reload_server` (``mkdocs.livereload.LiveReloadServer``, its ``builder``,
   ``watch``, ``serve``, ``shutdown``, ``url``). — ``tests/test_serve.py``, ``tests/test_build_guards.py::
   test_serve_builds_without_strict``.
6. **Hooks** (``site_tools/build/hooks.py``, ``hooks:`` in mkdocs.yml): ``on_config`` (``extra.alternate``),
   ``on_files`` (``File.generated`` for the figures, KaTeX's files and the chapter
   notebooks; ``Files.documentation_pages``, ``File.content_string``), ``on_pre_page`` (``page.notebook_url`` for the
   template), ``on_page_markdown`` (mkdocs-glightbox's documented ``glightbox: false`` page option), ``on_env``
   (Jinja's bytecode cache on the theme's environment). — ``tests/test_site_build.py``
   (figures per language, notebooks, KaTeX's files), ``tests/test_page_weight.py::
   test_only_pages_with_figures_load_the_lightbox``, ``tests/test_reproducible.py``.
7. **Templates** (``overrides/``): ``main.html`` extends Material's ``base.html`` and overrides its blocks
   ``content`` (the notebook download button: ``page.notebook_url`` from the hook), ``styles`` and ``scripts``
   (the explorer), ``header`` (calls Material's ``__md_get``); nothing in it changes Material's head, scripts or
   requests. ``404.html`` extends ``main.html``. ``partials/alternate.html`` is
   Material's language selector with one line changed, because Material's own does not keep the reader's page
   wherever the site is read (Material 9.8.1's bundle; integrations/alternate and integrations/sitemap in its
   sources): its links go to each language's home, and on a click its script looks the current address up in the
   other language's ``sitemap.xml`` (fetched for each alternate link of the head) and goes to the same page
   only if it is found there. The sitemap holds ``site_url``'s addresses, of which the script swaps only the protocol
   and the host name for the current ones, not the port or the path: served at another address (the preview on a
   port, a mirror under another path, a copy on disk) no page is found and the reader lands on the other home;
   from a file on disk the sitemap cannot be fetched at all; and the query (an explorer's settings) is part of the
   address looked up, so with one the page is never found. Our line links each page's twin itself
   (``target="_self"`` keeps Material's click handler out) and carries the query and the fragment over. —
   ``tests/test_browser.py`` (the language selector keeps the page, Material's sitemap requests find each language's
   sitemap, the palette is applied before the content), ``tests/test_engine.py::
   test_the_language_selector_is_material_s_but_for_its_links``, ``tests/test_engine.py::
   test_the_blocks_main_html_overrides_are_material_s``.
8. **What the finishing pass and the book know of the engine's HTML** (``site_tools.finish``, ``site_tools.book``,
   both reading with ``site_tools.dom``): a page's content is Material's ``article.md-content__inner`` (else
   ``<body>``), its "Last update" box (``aside.md-source-file``) stays last; the book also drops Material's buttons
   (``.md-content__button``) and flattens its content tabs (``.tabbed-set``); mkdocs-glightbox wraps an image in
   ``a.glightbox``; Material's head links each language's home (its alternate links), where its script finds a
   ``sitemap.xml``; the engine writes a ``sitemap.xml`` (and ``sitemap.xml.gz``) per language, where each page's
   twins are named. —
   ``tests/test_finish.py`` (each step, a Material page and a Python-Markdown page), ``tests/test_site_build.py::
   test_sitemap_lists_every_page_at_its_public_address_with_its_twins``, ``tests/test_page_weight.py``,
   ``tests/test_pdf.py``, ``tests/test_engine.py::test_the_finishing_pass_knows_material_s_page``.
9. **Search.** Material's search plugin indexes each rendered page and cuts its Chinese into words with jieba
   (``jieba_dict_user``). No Markdown extension of ours runs: the Chinese sources break a line only where a space
   belongs (most Chinese paragraphs are one line), so the index holds the text a reader sees. —
   ``tests/test_chinese_built.py::test_search_indexes_the_text_the_reader_sees``,
   ``tests/test_site_build.py::test_chinese_index_is_segmented``, ``tests/test_search.py``.

10. **What the overrides and the finishing pass read of Material's markup and scripts.** ``partials/copyright.html``
    is Material's footer partial with the licence line and the book's link (``tests/test_licensing.py``,
    ``tests/test_engine.py::test_the_footer_is_material_s_but_for_the_book_link``); ``scrollers.js`` waits for
    Material's ``document$`` and makes its ``md-typeset__scrollwrap`` tables reachable by keyboard, and its code
    blocks where Material leaves them out (no ``(hover)``: a touch screen)
    (``tests/test_browser.py::test_wide_formulas_tables_and_code_scroll_by_keyboard``); the finishing pass leaves
    ``md-search`` and ``md-header`` untypeset, the measure of stray spaces skips
    ``headerlink`` (``tests/test_finish.py``, ``tests/test_chinese_built.py``), and the book prints
    ``data-md-color-scheme`` light (``tests/test_pdf.py``); the stylesheets colour with Material's CSS variables
    (``--md-default-fg-color``), whose contrast the axe-core runs of ``tests/test_browser.py`` check in both schemes.
    Every class, data attribute and CSS variable of Material's (md-…, data-md-…, --md-…) that the overrides and
    the tooling name is in the installed Material's templates, stylesheets or scripts
    (``tests/test_engine.py::test_every_material_name_the_site_uses_is_material_s``).

Every name this list gives in double backquotes is one the code has (``tests/test_engine.py::
test_every_name_in_the_touch_points_is_in_the_code``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_tools import layout

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig


def load(
    lang: str,
    *,
    site_url: str | None = None,
    site_dir: Path | None = None,
    strict: bool = True,
    overrides: Mapping[str, Any] | None = None,
) -> MkDocsConfig:
    """The MkDocs config of one language, at its public address.

    Args:
        lang: ``"en"`` or ``"zh"``.
        site_url: the English site's public address; defaults to ``$SITE_URL``, then ``mkdocs.yml``'s.
        site_dir: the English output folder (other languages go to ``<site_dir>/<lang>``); default ``site/``.
        strict: fail the build on any warning.
        overrides: other config options that replace those of the config file (``docs_dir``, ``nav``, … for a
            throwaway site in the tests); not ``strict`` (use ``strict``).

    Raises:
        ValueError: an unknown language, or ``overrides`` sets ``strict``.
    """
    from mkdocs.config import load_config

    layout.check_lang(lang)
    extra = dict(overrides or {})
    if "strict" in extra:
        raise ValueError(f"overrides must not set strict (use the strict argument), got strict={extra['strict']!r}")
    options: dict[str, object] = {"site_url": layout.language_url(layout.public_url(site_url), lang), "strict": strict}
    if site_dir is not None:
        options["site_dir"] = str(Path(site_dir) if lang == "en" else Path(site_dir) / lang)
    return load_config(config_file=str(layout.CONFIGS[lang]), **{**options, **extra})


def language(config: MkDocsConfig) -> str:
    """The language a loaded config builds (``theme.language``)."""
    return str(config.theme["language"])


def finishing(config: MkDocsConfig) -> dict[str, Any]:
    """What ``site_tools.finish`` needs of a loaded config: ``lang``, ``docs_dir``, ``use_directory_urls`` and
    ``alternates`` (``extra.alternate`` at absolute addresses)."""
    return {
        "lang": language(config),
        "docs_dir": Path(config.docs_dir),
        "use_directory_urls": bool(config.use_directory_urls),
        "alternates": layout.alternate_links(config.site_url or None, list(config.extra.get("alternate") or [])),
    }


def build(config: MkDocsConfig, *, dirty: bool = False) -> None:
    """Run MkDocs on a loaded config, into ``config.site_dir``.

    ``dirty``: render only the pages whose source is newer than their output (the preview, after
    :func:`serve_dirty`).

    Raises:
        mkdocs.exceptions.Abort: a strict build found a warning (a broken link or anchor, …).
    """
    from mkdocs.commands.build import build as mkdocs_build

    mkdocs_build(config, dirty=dirty)


def serve_dirty(config: MkDocsConfig) -> None:
    """Tell the plugins, once per process, that the builds to come are ``mkdocs serve --dirty``'s: Material's search
    plugin then keeps the entries of the pages a dirty build does not render (its plugin object is kept across
    config loads in the process)."""
    config.plugins.on_startup(command="serve", dirty=True)


def live_reload_server(
    builder: Callable[[], None], *, host: str, port: int, root: Path, watch: tuple[Path, ...]
) -> Any:
    """MkDocs' live-reload server for ``root`` (not started: call ``serve()``): ``builder`` runs after a change under
    one of ``watch``, and the pages it serves reload in the browser. It polls every 0.2 s (MkDocs' default is 0.5 s;
    a poll only stats a few hundred files)."""
    from mkdocs.livereload import LiveReloadServer

    server = LiveReloadServer(builder=builder, host=host, port=port, root=str(root), polling_interval=0.2)
    for path in watch:
        server.watch(str(path))
    return server
