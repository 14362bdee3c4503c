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

``figure_links`` is a step of ``site_tools.finish``: it changes a built page's tree.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from site_tools import ROOT, dom

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


def needs_lightbox(source: str) -> bool:
    """Whether a page shows an image, which mkdocs-glightbox makes open in its lightbox (``site_tools.pages``: an
    image, or an ``<img>`` in its HTML). A page without one is built with mkdocs-glightbox's ``glightbox: false``
    (the hook sets it), and loads no lightbox script or stylesheet (70 KB)."""
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
