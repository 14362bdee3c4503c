"""Front-end assets the site serves itself, and what a page's figures and styles cost a reader's phone.

- **KaTeX.** :func:`katex_files`: KaTeX's stylesheet and fonts from the pinned npm package (package.json). The
  math is typeset at build time (``site_tools.finish.formulas``): no KaTeX script is served.
- **Figures.** :func:`figure_links` makes every build-time figure (``figures/<name>.<light|dark>.svg``) load
  lazily (the browser fetches an image only when it is about to scroll into view, and never one that is hidden:
  the colour scheme the reader is not using hides its variant, so a first view fetches one variant of the
  figures near the top, and toggling the scheme fetches the others), sized from its SVG (the layout does not
  jump when it arrives), and names its lightbox link (the figure's text alternative and "view larger" in the
  page's language): a link around an image has no name of its own. A figure with a narrow layout for phones
  (a ``<picture>`` whose ``<source>`` names it) gets its lightbox link around the picture, not inside it (where
  mkdocs-glightbox puts it, and where the image would ignore the picture's sources). A page without an image skips the
  lightbox's script and stylesheet (:func:`needs_lightbox`; the hook sets mkdocs-glightbox's ``glightbox: false``).
- **The notebook page's stylesheet.** :func:`notebook_styles` cuts mkdocs-jupyter's inlined JupyterLab stylesheet
  (~570 KB per notebook page) down to the rules the page can use and moves it into one content-addressed file that
  browsers cache.
- **The notebook page's copy buttons.** :func:`notebook_copy_labels` names mkdocs-jupyter's copy buttons in the
  page's language, with Material's own words for its copy buttons.

``figure_links``, ``notebook_styles`` and ``notebook_copy_labels`` are steps of ``site_tools.finish``: they change a
built page's tree.
"""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
import re
from pathlib import Path

from site_tools import ROOT, cache, dom

KATEX_DIST = ROOT / "node_modules" / "katex" / "dist"
# The lightbox link's name: the figure's alternative text and what the link does, per page language.
VIEW_LARGER = {"en": "{alt} (view larger)", "zh": "{alt}（查看大图）"}


def katex_files() -> dict[str, Path]:
    """Map site paths ``assets/katex/...`` to the files in ``node_modules/katex/dist``: what the pages load, the
    stylesheet and the fonts it names (the browser fetches those a page's math uses).

    Raises:
        FileNotFoundError: KaTeX is not installed (run ``make setup``, which runs ``npm ci``).
    """
    if not (KATEX_DIST / "katex.min.css").is_file():
        raise FileNotFoundError(f"KaTeX not found in {KATEX_DIST}; run `make setup` (it runs `npm ci`) to install it")
    fonts = {f"assets/katex/fonts/{font.name}": font for font in sorted((KATEX_DIST / "fonts").iterdir())}
    return {"assets/katex/katex.min.css": KATEX_DIST / "katex.min.css", **fonts}


_SVG_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([\d.]+)(pt|px)?"[^>]*?\sheight="([\d.]+)(pt|px)?"', re.S)
_PX_PER = {"pt": 4 / 3, "px": 1.0, None: 1.0}


def svg_size(path: Path) -> tuple[int, int] | None:
    """The CSS pixel size an SVG file declares on its root element (``width``/``height`` in pt or px)."""
    try:
        head = path.read_bytes()[:4096].decode("utf-8", "replace")
    except OSError:
        return None
    if not (found := _SVG_SIZE.search(head)):
        return None
    width, wunit, height, hunit = found.groups()
    return round(float(width) * _PX_PER[wunit]), round(float(height) * _PX_PER[hunit])


def _is_figure(src: str) -> bool:
    return "figures/" in src and src.split("#", 1)[0].endswith(".svg")


def needs_lightbox(source: str, src_uri: str) -> bool:
    """Whether a page shows an image, which mkdocs-glightbox makes open in its lightbox: a Markdown page
    (``site_tools.pages``: an image, or an ``<img>`` in its HTML), or a notebook with an image among the outputs it
    stores. A page without one is built with mkdocs-glightbox's ``glightbox: false`` (the hook sets it), and loads
    no lightbox script or stylesheet (70 KB)."""
    if src_uri.endswith(".ipynb"):
        cells = json.loads(source).get("cells", [])
        outputs = [o for c in cells for o in c.get("outputs", [])]
        return any(k.startswith("image/") for o in outputs for k in (o.get("data") or {}))
    from site_tools import pages

    return pages.parse(source).images > 0


def _elements(node: dom.Node) -> list[dom.Node]:
    return [c for c in dom.children(node) if c.is_element_node]


def figure_links(tree: dom.Tree, page_url: str, site_dir: Path | str, *, lang: str = "en") -> None:
    """Make a page's figures lazy and sized, and name their lightbox links (see the module's docstring), in its tree.

    ``page_url`` is the page's URL relative to the site root (``formula/``), used to find each figure's file in
    ``site_dir``.
    """
    site_dir = Path(site_dir)
    template = VIEW_LARGER.get(lang, VIEW_LARGER["en"])
    for picture in tree.css("picture"):
        # mkdocs-glightbox wraps the image of a <picture> (a figure with a narrow layout for phones) in its link,
        # where the image no longer picks the picture's sources: the link goes around the picture instead
        link = next((c for c in _elements(picture) if c.tag == "a" and "glightbox" in dom.classes(c)), None)
        if link is not None:
            attrs = dict(link.attributes)
            link.unwrap()
            picture.replace_with(dom.element(tree, "a", picture.html or "", **attrs))
    for link in tree.css("a.glightbox"):
        img = next(iter(_elements(link)), None)
        if img is not None and img.tag == "picture":
            img = next((c for c in _elements(img) if c.tag == "img"), None)
        if img is None or img.tag != "img":
            continue
        alt = (img.attributes.get("alt") or "").strip()
        if _is_figure(img.attributes.get("src") or "") and alt and "aria-label" not in link.attributes:
            link.attrs["aria-label"] = template.format(alt=alt)
    for img in tree.css("img"):
        src = img.attributes.get("src") or ""
        if not _is_figure(src) or "loading" in img.attributes:
            continue
        img.attrs["loading"] = "lazy"
        img.attrs["decoding"] = "async"
        target = posixpath.normpath(posixpath.join(page_url, src.split("#", 1)[0]))
        size = svg_size(site_dir / target) if not target.startswith("..") else None
        if size and "width" not in img.attributes and "height" not in img.attributes:
            img.attrs["width"], img.attrs["height"] = str(size[0]), str(size[1])


# ---- the notebook page's stylesheet --------------------------------------------------------------------------

# mkdocs-jupyter inlines all of JupyterLab's stylesheet (about 570 KB: every widget, menu and dialog of the
# application) in a notebook page, which uses a few dozen of its rules. notebook_styles keeps the rules that
# can apply to the page: a rule stays if one of its selectors, with the pseudo-classes that depend on the
# reader's actions (:hover, :focus…) and pseudo-elements removed, matches an element of the page; at-rules other
# than @media and @supports stay as they are. Selectors Lexbor cannot evaluate keep their rule, and so do
# selectors naming what Material's script sets in the browser ([data-md-color-scheme=slate], .md-typeset__scrollwrap).
_STRUCTURAL = frozenset(
    {":not", ":is", ":where", ":has", ":root", ":first-child", ":last-child", ":only-child", ":nth-child",
     ":nth-last-child", ":first-of-type", ":last-of-type", ":only-of-type", ":nth-of-type", ":nth-last-of-type",
     ":empty", ":checked", ":disabled", ":enabled", ":defined", ":link", ":any-link", ":lang", ":dir", ":required",
     ":optional", ":read-only", ":read-write", ":placeholder-shown", ":indeterminate"}
)  # fmt: skip
_PSEUDO = re.compile(r"::?[a-zA-Z-]+(?:\((?:[^()]|\([^()]*\))*\))?")
_RUNTIME = re.compile(r"\[data-md-|\.md-")
_NAMES = re.compile(r"(?<![-\w\\])([.#])(-?[_a-zA-Z][-\w]*)")
_NOT = re.compile(r":not\((?:[^()]|\([^()]*\))*\)")
_PRUNE_VERSION = "3"  # change when the pruning changes: the cache keys include it


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


class _Matcher:
    """A page's tree, for asking whether a selector matches one of its elements."""

    def __init__(self, tree: dom.Tree) -> None:
        self.tree = tree
        self.classes = {name for el in tree.css("[class]") for name in dom.classes(el)}
        self.ids = {el.attributes.get("id") for el in tree.css("[id]")}
        self.cache: dict[str, bool] = {}

    def matches(self, selector: str) -> bool:
        selector = _PSEUDO.sub(lambda m: m.group(0) if m.group(0).split("(")[0] in _STRUCTURAL else "", selector)
        selector = " ".join(selector.split())
        if not selector or selector[-1] in ">+~":
            selector = (selector + " *").strip()
        if selector in self.cache:
            return self.cache[selector]
        if _RUNTIME.search(selector):  # state Material sets in the browser (colour scheme, table wrappers…)
            found = True
        elif any(n not in (self.classes if k == "." else self.ids) for k, n in _NAMES.findall(_NOT.sub("", selector))):
            found = False  # a class or id (outside :not) that no element of the page has
        else:
            try:
                found = self.tree.css_first(selector) is not None
            except Exception:  # a selector Lexbor cannot evaluate: keep its rule
                found = True
        self.cache[selector] = found
        return found


_CSS_TOKEN = re.compile(r"""/\*.*?\*/|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[{};]""", re.S)


def _css_blocks(css: str) -> list[tuple[str, str | None]]:
    """Top-level statements of ``css``: ``(prelude, body)`` for a rule or block at-rule (body without its braces),
    ``(statement, None)`` for ``@charset …;`` and the like. Comments are dropped."""
    out: list[tuple[str, str | None]] = []
    depth, start, body_start, prelude = 0, 0, 0, ""  # start: where the current statement begins
    for m in _CSS_TOKEN.finditer(css):
        token = m.group(0)
        if token[0] in "/\"'":  # a comment or a string
            continue
        if token == "{":
            if depth == 0:
                prelude, body_start = _uncommented(css[start : m.start()]), m.end()
            depth += 1
        elif token == "}":
            depth -= 1
            if depth == 0:
                out.append((prelude, css[body_start : m.start()]))
                start = m.end()
        elif token == ";" and depth == 0:
            out.append((_uncommented(css[start : m.start()]) + ";", None))
            start = m.end()
    return out


def _uncommented(text: str) -> str:
    """``text`` (the start of a statement) without its comments, stripped."""
    if "/*" in text:
        text = _CSS_TOKEN.sub(lambda m: "" if m.group(0).startswith("/*") else m.group(0), text)
    return text.strip()


def prune_css(css: str, page: _Matcher) -> str:
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


STYLE_MARKER = ".jupyter-wrapper"  # in every rule of mkdocs-jupyter's JupyterLab stylesheets
STYLES_DIR = "assets/stylesheets/notebook"


def notebook_styles(tree: dom.Tree, page_url: str, site_dir: Path | str) -> None:
    """Replace each ``<style>`` holding ``STYLE_MARKER`` (mkdocs-jupyter's JupyterLab stylesheets) by a link to a file
    with the rules of it that can apply to this page (:func:`prune_css`), in the page's tree.

    The file is ``assets/stylesheets/notebook/<sha256 of the CSS, 16 hex>.css`` under ``site_dir``: every notebook
    page with the same rules links the same file, which a browser fetches once. The link sits where the
    ``<style>`` was, so the cascade order is unchanged. ``page_url`` is the page's URL relative to the site root
    (``walkthrough/``). The pruned rules are kept in the build cache (``pruned-css/``), by the stylesheet and the
    page: pruning takes a few seconds.
    """
    styles = [node for node in tree.css("style") if STYLE_MARKER in (node.text() or "")]
    if not styles:
        return
    page = None
    html_key = hashlib.sha256(dom.write(tree).encode()).hexdigest()
    for node in styles:
        css = node.text() or ""
        key = hashlib.sha256(f"{_PRUNE_VERSION}\0{css}\0{html_key}".encode()).hexdigest()[:24]
        cached = cache.folder("pruned-css") / f"{key}.css"
        if cached.is_file():
            pruned = cached.read_text(encoding="utf-8")
        else:
            page = page or _Matcher(tree)
            pruned = prune_css(css, page)
            cache.write(cached, pruned)
        data = pruned.strip().encode("utf-8")
        rel = f"{STYLES_DIR}/{hashlib.sha256(data).hexdigest()[:16]}.css"
        target = Path(site_dir) / rel
        if not target.is_file():
            cache.write(target, data + b"\n")
        href = posixpath.relpath(rel, page_url or ".")
        node.replace_with(dom.element(tree, "link", rel="stylesheet", href=href))


def notebook_copy_labels(tree: dom.Tree) -> None:
    """Give the notebook page's copy buttons the page's language: mkdocs-jupyter's template writes
    ``<clipboard-copy aria-label="Copy to Clipboard">`` with a ``Copied!`` notice in every language; Material's
    own copy buttons take their labels from the page's translations (its ``#__config`` script: ``clipboard.copy``,
    ``clipboard.copied``), and so do these. A page without those translations is left as it is."""
    config = tree.css_first("script#__config")
    try:
        words = json.loads(config.text()).get("translations", {}) if config is not None else {}
    except ValueError:
        return
    copy, copied = words.get("clipboard.copy"), words.get("clipboard.copied")
    if not (copy and copied):
        return
    for button in tree.css("clipboard-copy"):
        button.attrs["aria-label"] = button.attrs["title"] = copy
        for notice in button.css(".notice"):
            notice.inner_html = html.escape(copied)
