"""The one HTML reader and writer of the site's tools: selectolax's binding of Lexbor.

Every step that reads or changes a built page (``site_tools.finish``: numbers, math, figures;
``site_tools.finish.cjk``'s measure of what a reader sees) works on the tree parsed here, once
per page, and the page is written once, from that tree; the book, the link check of ``site_tools.pages.links`` and
the successor watch read HTML with it too.

Why Lexbor (selectolax 1.0, pinned in requirements.txt, which mkdocs-glightbox already needs): it parses as the
HTML standard says a browser does (so the tree a step sees is the tree the reader's browser builds, implied end tags
and all), it selects with CSS, it parses and writes the largest page (550 KB) in about 25 ms, and it is
maintained. BeautifulSoup with ``html.parser`` takes 0.7 s for the same page, about 30 times as long, and
``html.parser`` does not build the tree the standard describes.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

Node = LexborNode
Tree = LexborHTMLParser

#: Elements without an end tag: they hold no text.
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
)


def parse(html: str) -> Tree:
    """A whole page (``<html>``, ``<head>`` and ``<body>`` are implied when missing)."""
    return LexborHTMLParser(html)


def parse_fragment(html: str) -> Tree:
    """A piece of HTML (any elements, table cells included), as ``<template>`` parses its content."""
    return LexborHTMLParser(html, is_fragment=True, fragment_tag="template")


def write(tree: Tree) -> str:
    """The HTML of a page or a fragment."""
    return tree.html or ""


def children(node: Node) -> list[Node]:
    """The child nodes of ``node`` (elements, text and comments), as a list: safe to change while iterating."""
    return list(node.iter(include_text=True))


def classes(node: Node) -> list[str]:
    """The class names of an element."""
    return (node.attributes.get("class") or "").split()


def element(tree: Tree, tag: str, inner_html: str = "", **attrs: str | None) -> Node:
    """A new element of ``tree``'s document, not yet inserted (``attrs``: its attributes, ``None`` as ``""``)."""
    node = tree.create_node(tag)
    for name, value in attrs.items():
        node.attrs[name] = value or ""
    if inner_html:
        node.inner_html = inner_html
    return node
