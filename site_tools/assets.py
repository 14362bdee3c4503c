"""Front-end assets the site serves itself, and what a page's figures cost a reader's phone.

- **KaTeX.** :func:`katex_files`: KaTeX's stylesheet and fonts from the pinned npm package (package.json). The
  math is typeset at build time (``site_tools.math``): no KaTeX script is served.
- **Figures.** :func:`figure_links` makes every build-time figure (``figures/<name>.<light|dark>.svg``) load
  lazily (the browser fetches an image only when it is about to scroll into view, and never one that is hidden:
  the colour scheme the reader is not using hides its variant, so a first view fetches one variant of the
  figures near the top, and toggling the scheme fetches the others), sized from its SVG (the layout does not
  jump when it arrives), and names its lightbox link (the figure's text alternative and "view larger" in the
  page's language): a link around an image has no name of its own. A page without such a figure skips the
  lightbox's script and stylesheet (:func:`has_lightbox`; the hook sets mkdocs-glightbox's ``glightbox: false``).
"""

from __future__ import annotations

import hashlib
import html
import os
import posixpath
import re
from pathlib import Path
from typing import Any

from site_tools import figures

ROOT = Path(__file__).resolve().parent.parent
KATEX_DIST = ROOT / "node_modules" / "katex" / "dist"
# What the pages load: the stylesheet, and the fonts it names (the browser fetches those a page's math uses).
_KATEX_FILES = ("katex.min.css",)
# The lightbox link's name: the figure's alternative text and what the link does, per page language.
VIEW_LARGER = {"en": "{alt} (view larger)", "zh": "{alt}（查看大图）"}


def katex_files() -> dict[str, Path]:
    """Map site paths ``assets/katex/...`` to the files in ``node_modules/katex/dist``.

    Raises:
        FileNotFoundError: KaTeX is not installed (run ``make setup``, which runs ``npm ci``).
    """
    if not (KATEX_DIST / "katex.min.css").is_file():
        raise FileNotFoundError(f"KaTeX not found in {KATEX_DIST}; run `make setup` (it runs `npm ci`) to install it")
    out = {f"assets/katex/{name}": KATEX_DIST / name for name in _KATEX_FILES}
    for font in sorted((KATEX_DIST / "fonts").iterdir()):
        out[f"assets/katex/fonts/{font.name}"] = font
    return out


_IMG = re.compile(r"<img\b[^>]*>")
_ATTR = re.compile(r'\s([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="([^"]*)")?')
_LINKED_IMG = re.compile(r'(<a class="glightbox"[^>]*)(>\s*)(<img\b[^>]*>)')
_SVG_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([\d.]+)(pt|px)?"[^>]*?\sheight="([\d.]+)(pt|px)?"', re.S)
_PX_PER = {"pt": 4 / 3, "px": 1.0, None: 1.0, "": 1.0}


def _attrs(tag: str) -> dict[str, str]:
    return {name: html.unescape(value or "") for name, value in _ATTR.findall(tag)}


def svg_size(path: Path) -> tuple[int, int] | None:
    """The CSS pixel size an SVG file declares on its root element (``width``/``height`` in pt or px)."""
    try:
        head = path.read_bytes()[:4096].decode("utf-8", "replace")
    except OSError:
        return None
    found = _SVG_SIZE.search(head)
    if not found:
        return None
    width, wunit, height, hunit = found.groups()
    return round(float(width) * _PX_PER[wunit]), round(float(height) * _PX_PER[hunit])


def _is_figure(src: str) -> bool:
    return "figures/" in src and src.split("#", 1)[0].endswith(".svg")


def has_lightbox(page_html: str) -> bool:
    """Whether a page's content has an image that opens in the lightbox (mkdocs-glightbox wraps it in a link)."""
    return 'class="glightbox"' in page_html


def figure_links(page_html: str, page_url: str, site_dir: Path | str, *, lang: str = "en") -> str:
    """``page_html`` with its figures lazy, sized and their lightbox links named (see the module's docstring).

    ``page_url`` is the page's URL relative to the site root (``formula/``), used to find each figure's file in
    ``site_dir`` (figures are copied there before pages are written).
    """
    site_dir = Path(site_dir)
    template = VIEW_LARGER.get(lang, VIEW_LARGER["en"])

    def image(m: re.Match[str]) -> str:
        tag = m.group(0)
        attrs = _attrs(tag)
        src = attrs.get("src", "")
        if not _is_figure(src) or "loading" in attrs:
            return tag
        extra = ' loading="lazy" decoding="async"'
        target = posixpath.normpath(posixpath.join(page_url, src.split("#", 1)[0]))
        size = svg_size(site_dir / target) if not target.startswith("..") else None
        if size and "width" not in attrs and "height" not in attrs:
            extra += f' width="{size[0]}" height="{size[1]}"'
        return tag[:-1].rstrip("/").rstrip() + extra + ">"

    def link(m: re.Match[str]) -> str:
        opening, gap, img = m.groups()
        attrs = _attrs(img)
        alt = attrs.get("alt", "").strip()
        if not _is_figure(attrs.get("src", "")) or not alt or "aria-label=" in opening:
            return m.group(0)
        name = html.escape(template.format(alt=alt), quote=True)
        return f'{opening} aria-label="{name}"{gap}{img}'

    return _IMG.sub(image, _LINKED_IMG.sub(link, page_html))


# ---- the notebook page's stylesheet --------------------------------------------------------------------------

# mkdocs-jupyter inlines all of JupyterLab's stylesheet (about 570 KB: every widget, menu and dialog of the
# application) in a notebook page, which uses a few dozen of its rules. prune_notebook_styles keeps the rules that
# can apply to the page: a rule stays if one of its selectors, with the pseudo-classes that depend on the
# reader's actions (:hover, :focus…) and pseudo-elements removed, matches an element of the page; at-rules other
# than @media and @supports stay as they are. Selectors soupsieve cannot evaluate keep their rule, and so do
# selectors naming what Material's script sets in the browser ([data-md-color-scheme=slate], .md-typeset__scrollwrap).
_STRUCTURAL = frozenset(
    [
        ":not",
        ":is",
        ":where",
        ":has",
        ":root",
        ":first-child",
        ":last-child",
        ":only-child",
        ":nth-child",
        ":nth-last-child",
        ":first-of-type",
        ":last-of-type",
        ":only-of-type",
        ":nth-of-type",
        ":nth-last-of-type",
        ":empty",
        ":checked",
        ":disabled",
        ":enabled",
        ":defined",
        ":link",
        ":any-link",
        ":lang",
        ":dir",
        ":required",
        ":optional",
        ":read-only",
        ":read-write",
        ":placeholder-shown",
        ":indeterminate",
    ]
)
_PSEUDO = re.compile(r"::?[a-zA-Z-]+(?:\((?:[^()]|\([^()]*\))*\))?")
_RUNTIME = re.compile(r"\[data-md-|\.md-")
_NAMES = re.compile(r"(?<![-\w\\])([.#])(-?[_a-zA-Z][-\w]*)")
_PRUNE_VERSION = "2"  # change when the pruning changes: the cache keys include it
_STYLE = re.compile(r"(<style(?:\s[^>]*)?>)(?P<css>.*?)(</style>)", re.S | re.I)


def _split_top(text: str, separators: str) -> list[str]:
    """``text`` split at the characters in ``separators`` that are outside brackets and parentheses."""
    out, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char in separators and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


class _PageIndex:
    """The elements of a page, indexed by class, id and tag name, for asking whether a selector matches one."""

    def __init__(self, page_html: str) -> None:
        from bs4 import BeautifulSoup

        self.soup = BeautifulSoup(page_html, "html.parser")
        self.elements = self.soup.find_all(True)
        self.by_class: dict[str, list[Any]] = {}
        self.by_id: dict[str, list[Any]] = {}
        self.by_tag: dict[str, list[Any]] = {}
        for tag in self.elements:
            for name in tag.get("class") or []:
                self.by_class.setdefault(name, []).append(tag)
            if tag.get("id"):
                self.by_id.setdefault(tag["id"], []).append(tag)
            self.by_tag.setdefault(tag.name, []).append(tag)
        self.cache: dict[str, bool] = {}

    def _candidates(self, compound: str) -> list[Any] | None:
        """Elements that may match the compound selector ``compound`` (None: no index applies)."""
        positive = re.sub(r":not\((?:[^()]|\([^()]*\))*\)", "", compound)
        lists = [self.by_class.get(n, []) if k == "." else self.by_id.get(n, []) for k, n in _NAMES.findall(positive)]
        tag = re.match(r"[a-zA-Z][-\w]*", positive)
        if tag:
            lists.append(self.by_tag.get(tag.group(0).lower(), []))
        return min(lists, key=len) if lists else None

    def matches(self, selector: str) -> bool:
        import soupsieve

        selector = _PSEUDO.sub(lambda m: m.group(0) if m.group(0).split("(")[0] in _STRUCTURAL else "", selector)
        selector = " ".join(selector.split())
        if not selector or selector[-1] in ">+~":
            selector = (selector + " *").strip()
        if selector in self.cache:
            return self.cache[selector]
        if _RUNTIME.search(selector):  # state Material sets in the browser (colour scheme, table wrappers…)
            self.cache[selector] = True
            return True
        # Every class and id outside :not(…) must exist on the page; the last compound picks the candidates.
        positive = re.sub(r":not\((?:[^()]|\([^()]*\))*\)", "", selector)
        if any(n not in (self.by_class if k == "." else self.by_id) for k, n in _NAMES.findall(positive)):
            found = False
        else:
            candidates = self._candidates(_split_top(selector, " >+~")[-1])
            try:
                compiled = soupsieve.compile(selector)
                found = any(compiled.match(el) for el in (self.elements if candidates is None else candidates))
            except Exception:  # a selector soupsieve cannot evaluate: keep its rule
                found = True
        self.cache[selector] = found
        return found


_CSS_TOKEN = re.compile(r"""/\*.*?\*/|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[{};]""", re.S)


def _css_blocks(css: str) -> list[tuple[str, str | None]]:
    """Top-level statements of ``css``: ``(prelude, body)`` for a rule or block at-rule (body without its braces),
    ``(statement, None)`` for ``@charset …;`` and the like. Comments are dropped."""
    out: list[tuple[str, str | None]] = []
    depth, body_start, prelude = 0, 0, ""
    pieces: list[str] = []  # the current prelude, without comments
    last = 0
    for m in _CSS_TOKEN.finditer(css):
        token = m.group(0)
        if token.startswith("/*"):
            if depth == 0:
                pieces.append(css[last : m.start()])
                last = m.end()
            continue
        if token[0] in "\"'":
            continue
        if token == "{":
            if depth == 0:
                pieces.append(css[last : m.start()])
                prelude, body_start = "".join(pieces).strip(), m.end()
            depth += 1
        elif token == "}":
            depth -= 1
            if depth == 0:
                out.append((prelude, css[body_start : m.start()]))
                pieces, last = [], m.end()
        elif token == ";" and depth == 0:
            pieces.append(css[last : m.start()])
            out.append(("".join(pieces).strip() + ";", None))
            pieces, last = [], m.end()
    return out


def prune_css(css: str, page: _PageIndex) -> str:
    """The rules of ``css`` that can apply to ``page`` (see above), without comments."""
    out = []
    for prelude, body in _css_blocks(css):
        if body is None or (prelude.startswith("@") and not prelude.lower().startswith(("@media", "@supports"))):
            out.append(prelude if body is None else f"{prelude}{{{body}}}")
        elif prelude.startswith("@"):
            inner = prune_css(body, page)
            if inner:
                out.append(f"{prelude}{{{inner}}}")
        elif any(page.matches(s) for s in _split_top(prelude, ",")):
            out.append(f"{prelude}{{{body}}}")
    return "".join(out)


def prune_notebook_styles(page_html: str, marker: str = ".jupyter-wrapper") -> str:
    """``page_html`` with each ``<style>`` holding ``marker`` (mkdocs-jupyter's JupyterLab stylesheets) cut down to
    the rules that can apply to this page. Kept in the build cache (``pruned-css/``), by the stylesheet and the
    page: pruning takes a few seconds."""
    if marker not in page_html:
        return page_html
    pages: list[_PageIndex] = []  # parsed once, if some stylesheet is not in the cache

    def replace(m: re.Match[str]) -> str:
        css = m.group("css")
        if marker not in css:
            return m.group(0)
        key = hashlib.sha256(f"{_PRUNE_VERSION}\0{css}\0{page_html}".encode()).hexdigest()[:24]
        cached = figures.cache_root() / "pruned-css" / f"{key}.css"
        if cached.is_file():
            return m.group(1) + cached.read_text(encoding="utf-8") + m.group(3)
        if not pages:
            pages.append(_PageIndex(page_html))
        pruned = prune_css(css, pages[0])
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(pruned, encoding="utf-8")
        tmp.replace(cached)
        return m.group(1) + pruned + m.group(3)

    return _STYLE.sub(replace, page_html)
