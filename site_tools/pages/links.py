"""A page's links, checked without building: :func:`render` gives the HTML MkDocs puts in the page's article (the
body as Python-Markdown renders it with the extensions of its language's config), :func:`link_problems` the links
the strict build refuses (a page that is not in ``docs/<lang>/``, an anchor its page does not have). A page is
rendered once per version of its file."""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

from site_tools import layout
from site_tools.pages.model import read, rel

T = TypeVar("T")


def _per_version(compute: Callable[[Path], T]) -> Callable[[Path], T]:
    """``compute(path)`` once per version of the file (cached by its resolved path and modification time)."""
    cached = functools.cache(lambda path, _mtime: compute(path))
    return functools.wraps(compute)(lambda path: cached(Path(path).resolve(), Path(path).stat().st_mtime_ns))


@_per_version
def render(path: Path) -> str:
    """The body of page ``path`` (``docs/<lang>/<name>.md``) as Python-Markdown renders it with the extensions of its
    language's config (``markdown_extensions``): the HTML MkDocs puts in the page's article, before the plugins and
    the theme. Once per version of the file: its links, its anchors and its Chinese are all read from it."""
    import markdown

    extensions, configs = [], {}
    for entry in layout.raw_config(path.parent.name)["markdown_extensions"]:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        extensions.append(name)
        configs[name] = options or {}
    return markdown.markdown(read(path).body, extensions=extensions, extension_configs=configs)


@_per_version
def _rendered(path: Path) -> Any:
    """Page ``path`` rendered (:func:`render`) and parsed, once per version of the file: a page is read as a source
    of links and again as the target of its own and other pages' anchors."""
    from site_tools import dom

    return dom.parse_fragment(render(path))


@_per_version
def _anchors(path: Path) -> frozenset[str] | None:
    """Every ``id`` in page ``path`` as rendered, or None where a plugin makes anchors the Markdown does not have
    (mkdocstrings' ``:::`` pages): those are left to the build."""
    if re.search(r"^:::", path.read_text(encoding="utf-8"), flags=re.M):
        return None
    return frozenset(node.attributes["id"] or "" for node in _rendered(path).css("[id]"))


@_per_version
def _title_ids(path: Path) -> frozenset[str]:
    """The ids of page ``path``'s headings that are made from their titles (no ``{#id}``): they change with the
    wording and differ between the languages, so other pages should not link to them."""
    rendered = {
        node.attributes["id"] or "" for node in _rendered(path).css("h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]")
    }
    return frozenset(rendered - {h.id for h in read(path).headings if h.id})


def link_problems(path: Path) -> list[str]:
    """The links of page ``path`` that the strict build (``make site``, ``make test``) refuses, found without
    building: a link to a page that is not in ``docs/<lang>/``, or to an anchor its page does not have (as
    MkDocs' ``validation.anchors`` checks it, from the ids of the rendered page); a link to another page's section
    whose id is made from the heading's title, not set with ``{#id}`` (it changes with the wording and differs
    between the languages: CONTRIBUTING's rule); and an id the page gives twice (two headings with the same
    ``{#id}``: links reach only the first). Each as ``file:line: …``."""
    path = Path(path)
    docs = path.parent.resolve()
    source = path.read_text(encoding="utf-8").splitlines()
    problems = []
    ids = Counter(node.attributes["id"] or "" for node in _rendered(path).css("[id]"))
    for anchor in sorted(a for a, n in ids.items() if a and n > 1):
        lines = [k for k, text in enumerate(source, start=1) if re.search(rf"\{{[^}}]*#{re.escape(anchor)}\b", text)]
        problems.append(
            f"{rel(path)}:{lines[-1] if lines else 0}: the id {anchor!r} is given {ids[anchor]} times (lines "
            f"{', '.join(map(str, lines)) or '?'}): a link to #{anchor} reaches only the first; give each its own id"
        )
    for node in _rendered(path).css("a[href]"):
        href = node.attributes["href"] or ""
        url = urlsplit(href)
        if url.scheme or url.netloc or href.startswith("/"):
            continue  # another site, or an absolute path: MkDocs leaves them (absolute_links: warn) to a test
        target = (path.parent / unquote(url.path)).resolve() if url.path else path.resolve()
        line = next((k for k, text in enumerate(source, start=1) if f"]({href}" in text or href in text), 0)
        where = f"{rel(path)}:{line}"
        if url.path and not url.path.endswith(".md"):
            name = url.path.rstrip("/").rsplit("/", 1)[-1]
            if "." not in name and ((docs / f"{name}.md").is_file() or not url.path.strip("./")):
                page = f"{name or 'index'}.md"  # ../glossary/: the built site's address of glossary.md
                problems.append(
                    f"{where}: the link {href!r} is the built site's address of {page}: link the page itself, "
                    f"{page}{'#' + url.fragment if url.fragment else ''}, which the strict build checks and which "
                    "works in the page's notebook too"
                )
            continue  # a file beside the pages (a figure, a download): not a page link
        if not target.is_file() or not target.is_relative_to(docs):
            problems.append(f"{where}: the link {href!r} names {url.path!r}, which is not a page in {rel(docs)}/")
            continue
        anchors = _anchors(target) if url.fragment else None
        fragment = unquote(url.fragment)
        if anchors is not None and fragment in anchors and target != path.resolve() and fragment in _title_ids(target):
            problems.append(
                f"{where}: the link {href!r}: #{fragment} is made from a heading's title in {rel(target)}, so it "
                "changes with the wording and differs between the languages; give the heading an id in both "
                f"languages (## Its title {{#short-id}}) and link to {url.path}#short-id"
            )
        if anchors is not None and fragment not in anchors:
            named = sorted(a for a in anchors if not re.fullmatch(r"__codelineno-.*|_\d+|fn.*|fnref.*", a))
            close = difflib.get_close_matches(fragment, named, n=3, cutoff=0.6)
            hint = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
            problems.append(
                f"{where}: the link {href!r}: {rel(target)} has no anchor {fragment!r}"
                f" ({hint}the anchors it has: {', '.join(named[:12])}{', …' if len(named) > 12 else ''})"
            )
    return problems
