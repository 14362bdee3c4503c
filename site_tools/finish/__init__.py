"""Finishing the built site: the steps every page goes through after the engine has written it.

The engine (MkDocs with Material, ``site_tools.build.engine``) writes a language's site; :func:`finish_site` then
finishes it in place. What a step needs to know about a page — its language, its front matter, whether it is a
chapter — comes from the page's source (``site_tools.pages``), not from the engine's
objects, so the same pass finishes any engine's HTML (``tests/test_finish.py`` finishes a page that Python-Markdown
alone rendered from a real source). Each page is parsed once (``site_tools.dom``), each step changes that tree,
and the page is written once.

1. **Versions** (``site_tools.versions``): the torch a chapter's blocks ran with and the library versions its claims
   are checked against, at the end of the content.
2. **Numbers** (``site_tools.finish.cjk.keep_numbers_whole``): a number written with a thousands space (60 611) is
   never split over two lines.
3. **Math** (``site_tools.finish.formulas.typeset``): every formula typeset by KaTeX (one node process per build).
4. **Figures** (``site_tools.finish.assets.figure_links``): lazy, sized, their lightbox links named.
5. **Outputs** (:func:`mark_outputs`): a block's printed output, shown under it, is told from code (``pe-output``).

Then, once per language (:meth:`Finisher.site`): the sitemap names each page's twin in every language
(:func:`sitemap_alternates`: not the pages' heads, where Material's script would fetch ``<href>/sitemap.xml`` for each
``<link rel="alternate">``, which does not exist for a page's twin); the source maps Material ships, which nothing
loads, are dropped (:func:`drop_source_maps`); ``.nojekyll`` marks the output as plain files for GitHub Pages (no
Jekyll run, which would drop paths starting with ``_``). The preview (``site_tools.build.preview``) finishes only the
pages a change rebuilt.
"""

from __future__ import annotations

import contextlib
import gzip
import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from site_tools import dom, layout, pages, versions
from site_tools.finish import assets, cjk, formulas

#: Where a page's own content is: the first of these that the page has (``site_tools.build.engine`` lists what this
#: module knows of the engine's HTML).
CONTENT = ("article.md-content__inner", "article", "main", "body")
#: Material's "Last update" box, last in the content: the versions line goes before it.
SOURCE_FILE = "aside.md-source-file"

log = logging.getLogger("pe-docs.finish")


class FinishError(RuntimeError):
    """A strict build's finishing found warnings (KaTeX's, with their page)."""


@dataclass(frozen=True)
class BuiltPage:
    """A source page and the file the engine wrote for it."""

    src_uri: str  # relative to the language's docs folder: ``formula.md``
    source: Path
    file: str  # relative to the language's site folder: ``formula/index.html``
    url: str  # relative to the site's root: ``formula/``, ``""`` for the home page


def site_pages(docs_dir: Path | str, use_directory_urls: bool = True) -> list[BuiltPage]:
    """Every source page of a language (``docs_dir``) and where the engine writes it (``site_tools.layout``)."""
    return [
        BuiltPage(uri, path, layout.page_file(uri, use_directory_urls), layout.page_url(uri, use_directory_urls))
        for uri, path in pages.files(Path(docs_dir)).items()
    ]


class Finisher:
    """Finishes one language's built site (one KaTeX process for all its pages and builds: :meth:`close`).

    Args:
        lang: The language (``"en"``, ``"zh"``).
        alternates: Every language's site with its absolute address, ``[{"lang": "en", "url": …}, …]``
            (``site_tools.layout.alternate_links``); empty: the sitemap is left as it is.
    """

    def __init__(self, lang: str, *, alternates: Sequence[Mapping[str, Any]] = ()) -> None:
        self.lang = lang
        self.alternates = [a for a in alternates if a.get("url")]
        self.katex = formulas.Katex()

    def close(self) -> None:
        self.katex.close()

    def __enter__(self) -> Finisher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pages(self, site_dir: Path | str, todo: Iterable[BuiltPage]) -> list[str]:
        """Finish these pages' files in ``site_dir`` in place (those the engine wrote); return the warnings."""
        warnings: list[str] = []
        for page in todo:
            path = Path(site_dir) / page.file
            if not path.is_file():
                continue
            html, found = self.html(path.read_text(encoding="utf-8"), page, site_dir)
            path.write_text(html, encoding="utf-8")
            warnings += found
        return warnings

    def html(self, html: str, page: BuiltPage, site_dir: Path | str) -> tuple[str, list[str]]:
        """One page's HTML, finished (the steps of the module's docstring), and KaTeX's warnings. ``site_dir`` is the
        language's built site (figure files are read there).

        Raises:
            site_tools.finish.formulas.MathError: a formula KaTeX cannot parse.
            ValueError: the front matter's ``checked_against`` names a library the upstream tier does not pin.
        """
        source = pages.read(page.source)
        tree = dom.parse(html)
        content = next(node for node in map(tree.css_first, CONTENT) if node is not None)
        line = versions.version_line(source.meta, chapter=source.chapter, lang=self.lang)
        if line:  # last in the content, before the "Last update" box if that is one of its children
            box = content.css_first(SOURCE_FILE)
            if box is not None and box.parent is not None and box.parent.mem_id == content.mem_id:  # inside
                insert = box.insert_before
            else:
                insert = content.insert_child
            for node in dom.children(dom.element(tree, "div", line)):
                insert("\n")
                insert(node, move=True)
        assert tree.body is not None  # an HTML parser always makes a <body>; CONTENT was found in it
        cjk.keep_numbers_whole(tree.body)
        warnings = formulas.typeset(tree, self.katex, where=pages.rel(page.source), lang=self.lang)
        assets.figure_links(tree, page.url, site_dir, lang=self.lang)
        mark_outputs(content)
        return dom.write(tree), warnings

    def site(self, site_dir: Path | str) -> None:
        """What is done once per language: the twins in the sitemap, no source maps, ``.nojekyll``."""
        sitemap_alternates(site_dir, self.lang, self.alternates)
        drop_source_maps(site_dir)
        (Path(site_dir) / ".nojekyll").touch()


#: The class of a block that shows what the code before it prints (the fence after pytest-codeblocks'
#: ``expected-output`` marker, which Markdown passes on as an HTML comment): ``overrides/assets/stylesheets/extra.css``
#: labels it "Output" (输出).
OUTPUT_CLASS = "pe-output"


def mark_outputs(content: dom.Node) -> int:
    """Give each printed-output block in ``content`` the class :data:`OUTPUT_CLASS`, so that the stylesheet sets it
    apart from the code above it; return how many there are. An output block is a code block whose previous element
    is an ``expected-output`` marker as the page reader reads it (``site_tools.pages.codeblocks_keyword``), or, in a
    box, where Markdown wraps the marker in a paragraph of its own, whose previous element is that paragraph. A block
    already marked keeps one class."""
    marked = 0
    for block in content.css("div.highlight"):
        before = _previous(block)
        if before is not None and before.tag == "p" and not (before.text() or "").strip():
            before = next((n for n in dom.children(before) if n.tag == "-comment"), None)
        if before is None or before.tag != "-comment":
            continue
        keyword = pages.codeblocks_keyword(before.html or "")
        if keyword is not None and keyword.startswith("expected-output"):
            if OUTPUT_CLASS not in dom.classes(block):
                block.attrs["class"] = " ".join([*dom.classes(block), OUTPUT_CLASS])
            marked += 1
    return marked


def _previous(node: dom.Node) -> dom.Node | None:
    """The previous sibling of ``node`` that is not white space."""
    before = node.prev
    while before is not None and before.tag == "-text" and not (before.text() or "").strip():
        before = before.prev
    return before


SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"


def sitemap_alternates(site_dir: Path | str, lang: str, alternates: Sequence[Mapping[str, Any]]) -> int:
    """Name each page's twin in every language in a language's ``sitemap.xml`` (and ``sitemap.xml.gz``, if the
    engine wrote one): an ``xhtml:link rel="alternate" hreflang`` per language and ``x-default`` (English) in each
    ``<url>`` whose ``<loc>`` is on this language's site. ``alternates`` are :func:`alternate_links`' (each with its
    absolute ``url``); ``lang`` is this site's language. Returns the pages named; 0 (and nothing written) without a
    sitemap or addresses.
    """
    path = Path(site_dir) / "sitemap.xml"
    own = next((str(a["url"]) for a in alternates if a.get("lang") == lang and a.get("url")), None)
    if not path.is_file() or own is None:
        return 0
    ET.register_namespace("", SITEMAP_NS)
    ET.register_namespace("xhtml", XHTML_NS)
    tree = ET.parse(path)
    named = 0
    for url in tree.getroot().iter(f"{{{SITEMAP_NS}}}url"):
        loc = url.find(f"{{{SITEMAP_NS}}}loc")
        if loc is None or not (loc.text or "").startswith(own):
            continue
        for old in url.findall(f"{{{XHTML_NS}}}link"):
            url.remove(old)
        page = (loc.text or "")[len(own) :]
        for alt in alternates:
            for hreflang in (alt["lang"], "x-default") if alt["lang"] == "en" else (alt["lang"],):
                link = ET.Element(f"{{{XHTML_NS}}}link", rel="alternate", hreflang=hreflang, href=f"{alt['url']}{page}")
                url.append(link)  # after <lastmod>: the sitemap schema puts other namespaces last
        named += 1
    ET.indent(tree, space="  ")
    text = '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(tree.getroot(), encoding="unicode") + "\n"
    path.write_text(text, encoding="utf-8")
    packed = path.with_name("sitemap.xml.gz")
    if packed.is_file():
        with gzip.open(packed) as fd:
            fd.read()
            mtime = fd.mtime  # the engine's (the build timestamp): kept, so that builds stay reproducible
        packed.write_bytes(gzip.compress(text.encode("utf-8"), mtime=mtime))
    return named


_MAP_COMMENT = re.compile(rb"\n?(?://# sourceMappingURL=[^\n]*|/\*# sourceMappingURL=[^*]*\*/)\s*$")


def drop_source_maps(site_dir: Path | str) -> list[str]:
    """Delete every ``*.map`` under ``site_dir`` and the ``sourceMappingURL`` comments pointing at them.

    Returns the removed files, relative to ``site_dir``.
    """
    site_dir = Path(site_dir)
    maps = sorted(site_dir.rglob("*.map"))
    for path in maps:
        path.unlink()
    for path in [*site_dir.rglob("*.js"), *site_dir.rglob("*.css")]:
        data = path.read_bytes()
        stripped = _MAP_COMMENT.sub(b"\n", data)
        if stripped != data:
            path.write_bytes(stripped)
    return [path.relative_to(site_dir).as_posix() for path in maps]


def finish_site(
    site_dir: Path | str,
    lang: str,
    *,
    docs_dir: Path | str,
    alternates: Sequence[Mapping[str, Any]] = (),
    use_directory_urls: bool = True,
    strict: bool = True,
    finisher: Finisher | None = None,
) -> list[str]:
    """Finish a language's whole built site in place (see the module's docstring); return the warnings.

    ``finisher``: one kept for more builds (the preview's); by default one for this build only.

    Raises:
        FinishError: ``strict`` and there are warnings (KaTeX's: input it renders but LaTeX would reject).
        site_tools.finish.formulas.MathError: a formula KaTeX cannot parse.
    """
    with contextlib.nullcontext(finisher) if finisher is not None else Finisher(lang, alternates=alternates) as using:
        warnings = using.pages(site_dir, site_pages(docs_dir, use_directory_urls))
        using.site(site_dir)
    report(warnings, strict=strict)
    return warnings


def report(warnings: list[str], *, strict: bool) -> None:
    """Log the warnings; in a strict build, fail on them.

    Raises:
        FinishError: ``strict`` and there are warnings.
    """
    for warning in warnings:
        log.warning(warning)
    if strict and warnings:
        raise FinishError(f"finishing the site found {len(warnings)} warnings in strict mode: " + "; ".join(warnings))
