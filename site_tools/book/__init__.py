"""The book: each language's pages, in the navigation's order, printed into one PDF by Chromium.

``python -m site_tools.book`` (``make pdf``) reads the **built** site (``site/`` and ``site/zh/``, as ``make site``
leaves them) and writes ``site/pe-docs.en.pdf`` and ``site/zh/pe-docs.zh.pdf``, where the published site links them
(the footer of every page, ``overrides/partials/copyright.html``, and the home page).

For each language it assembles one print page from the built pages' articles, in the order of the ``nav`` of that
language's config (``mkdocs.yml``, ``mkdocs.zh.yml``; nested sections become parts), and prints it with Debian's
Chromium through Playwright (``page.pdf``: PDF bookmarks from the headings, a tagged PDF, fonts embedded):

- a title page (site name, version from ``git describe``, build date, public address, licences) and a table of
  contents with page numbers (the page is printed twice: the first print tells on which page each chapter starts);
- chapters numbered in navigation order (the home page is the unnumbered introduction), each on a new page, its
  headings moved down one level per enclosing section so that the bookmarks nest part > chapter > section;
- links between pages become links inside the PDF (every id is prefixed with its chapter's); links to what the book
  leaves out (the API reference, notebooks, files) point at the public site;
- the site's own typeset HTML: KaTeX's math and fonts, the figures in the light scheme (the dark variants are
  dropped), collapsed boxes (``<details>``) printed open, every tab of a content tab set printed one after the other,
  each interactive explorer replaced by its fallback text (its still figures are on the page) and a link to it;
- code wraps, and what is still wider than the text column (a long formula, a wide table) is scaled to fit; the
  build fails if anything still overflows, if a request would leave the built site (every request is answered
  from the site folder: no network), or if an internal link has no target.

The API reference (``api*.md``) is left out: it is long, generated from the docstrings, and online; the table of
contents says where.

Why not a plugin: mkdocs-print-site-plugin (one print page per site, printed by a browser) collects each page's HTML
in ``on_page_content``, before the finishing pass typesets the math (KaTeX, over the built site) and sizes the
figures, and writes its page without them: the math would stay TeX. It also adds its script and stylesheet to
every page, and it leaves the PDF, the page numbers and the bookmarks to the reader's browser. WeasyPrint would be a
second rendering engine (and Pango to install) that ignores some of the CSS KaTeX's HTML relies on
(``width: min-content``, SVG ``fill``: Kozea/WeasyPrint#1739, #2481); Chromium is the browser the site is tested in.
Reading the built site keeps the book independent of how the site is built: it holds what a reader sees.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import fnmatch
import hashlib
import html
import io
import json
import logging
import os
import posixpath
import re
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from site_tools import ROOT, browser, cache
from site_tools.build import engine
from site_tools.finish import dom

SITE_DIR = ROOT / "site"
CONFIGS = engine.CONFIGS  # each language's config file
BOOK_CSS = Path(__file__).with_name("book.css")
# Pages of the nav that the book leaves out (matched against the page's file in docs/<lang>/).
LEFT_OUT = ("api.md", "api-*.md")
# Every request of the print page goes to this origin and is answered from the built site (nothing else loads).
ORIGIN = "http://pe-docs.book"
# The printed page: A4, and the width of its text column in CSS pixels (the layout is measured at that width).
PAGE_MARGIN_MM = {"top": 20, "right": 17, "bottom": 20, "left": 17}
CONTENT_WIDTH_PX = round((210 - PAGE_MARGIN_MM["left"] - PAGE_MARGIN_MM["right"]) / 25.4 * 96)
# What a book may weigh (README.md): tests/test_pdf.py checks both languages' PDFs against these.
BUDGET_PAGES = 300
BUDGET_BYTES = 12_000_000
# A code block up to this much too wide is scaled down to fit; a wider one wraps its lines.
MIN_CODE_ZOOM = 0.8
MIN_OUTPUT_ZOOM = 0.7  # a notebook's output (8 pt, book.css): 5.6 pt at the least

# What the book itself says, per language.
TEXT: dict[str, dict[str, str]] = {
    "en": {
        "contents": "Contents",
        "version": "Version",
        "built": "Built",
        "online": "Online",
        "licence": "Licence",
        "left_out": "Not in this book: the API reference, generated from the docstrings, is online at",
        "interactive": "Interactive on the site",
        "no_git": "a source tree without git",
    },
    "zh": {
        "contents": "目录",
        "version": "版本",
        "built": "构建日期",
        "online": "在线阅读",
        "licence": "许可",
        "left_out": "本书未收录由文档字符串生成的 API 参考，请在线阅读：",
        "interactive": "网站上的交互版本",
        "no_git": "不含 git 历史的源码",
    },
}

log = logging.getLogger("pe-docs.book")


class BookError(RuntimeError):
    """The book cannot be built as promised (a missing page, a dangling link, an overflow, a request off the site)."""


def pdf_name(lang: str) -> str:
    """The PDF's file name, in its language's folder of the site: ``pe-docs.en.pdf``, ``pe-docs.zh.pdf``.

    Raises:
        ValueError: an unknown language.
    """
    if lang not in CONFIGS:
        raise ValueError(f"lang must be one of {sorted(CONFIGS)}, got {lang!r}")
    return f"pe-docs.{lang}.pdf"


def pdf_path(lang: str) -> str:
    """Where the PDF lives in the site, relative to its root: ``pe-docs.en.pdf``, ``zh/pe-docs.zh.pdf`` (the
    footer of every page, ``overrides/partials/copyright.html``, links it relative to its language's root).

    Raises:
        ValueError: an unknown language.
    """
    return language_prefix(lang) + pdf_name(lang)


# ---- the plan: what goes in, in which order --------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Part:
    """A section of the nav: a part of the book, on a page of its own."""

    title: str
    depth: int  # 0 for a top-level section
    id: str


@dataclasses.dataclass(frozen=True)
class Chapter:
    """A page of the nav."""

    src: str  # the page's file, relative to docs/<lang>/ (``formula.md``)
    url: str  # its URL relative to the language's root (``formula/``; ``""`` for the home page)
    depth: int  # how many sections enclose it
    number: int | None  # None for the home page (the introduction)
    id: str  # the anchor of the chapter in the book


# A language's config as written (``INHERIT`` merged), plugins not loaded: the engine is the one module that reads
# MkDocs' files. Raises ValueError for an unknown language.
load_config = engine.raw_config


def _slug(text: str) -> str:
    return re.sub(r"[^0-9A-Za-z]+", "-", text).strip("-").lower() or "x"


def plan(nav: list[Any], *, directory_urls: bool = True, left_out: tuple[str, ...] = LEFT_OUT) -> list[Part | Chapter]:
    """The book's parts and chapters, in the order of ``nav`` (a config's ``nav``: page files, ``{title: file}``,
    ``{section: [...]}``; external links are skipped, and so are the pages ``left_out`` and the sections left
    empty). Chapters are numbered from 1 in that order; the site's home page (``index.md`` at the top) is not.

    >>> [(type(x).__name__, getattr(x, "number", None), x.depth) for x in plan(
    ...     ["index.md", {"Learn": ["a.md", {"B": "b.md"}]}, {"Reference": ["api.md"]}, {"Ext": "https://x.org/"}]
    ... )]
    [('Chapter', None, 0), ('Part', None, 0), ('Chapter', 1, 1), ('Chapter', 2, 1)]

    Raises:
        ValueError: ``nav`` is not a list, or an entry is not a file, a section or a link.
    """
    if not isinstance(nav, list):
        raise ValueError(f"nav must be a list of pages and sections (the book follows it), got {nav!r}")
    out: list[Part | Chapter] = []
    count = 0

    def walk(items: list[Any], depth: int) -> None:
        nonlocal count
        for item in items:
            title, value = (None, item) if isinstance(item, str) else _entry(item)
            if isinstance(value, list):
                start = len(out)
                out.append(Part(title=str(title), depth=depth, id=f"part-{start}"))
                walk(value, depth + 1)
                if len(out) == start + 1:  # nothing in it made it into the book
                    out.pop()
                continue
            if _SCHEME.match(value) or value.startswith("/"):
                continue  # an external link
            if any(fnmatch.fnmatch(posixpath.basename(value), pattern) for pattern in left_out):
                continue
            url = engine.page_url(value, directory_urls)
            home = url == "" and not out
            if not home:
                count += 1
            chapter_id = "ch-" + (_slug(url) if url else "home")
            out.append(Chapter(src=value, url=url, depth=depth, number=None if home else count, id=chapter_id))

    walk(nav, 0)
    return out


def _entry(item: Any) -> tuple[Any, Any]:
    if isinstance(item, dict) and len(item) == 1:
        ((title, value),) = item.items()
        if isinstance(value, str | list):
            return title, value
    raise ValueError(f"a nav entry must be a page file, {{title: file}} or {{section: [entries]}}, got {item!r}")


# ---- one chapter: the built page's article, made part of the book --------------------------------------------------


# What the book reads of a built page (site_tools.finish.dom parses it, as the finishing pass does;
# site_tools.build.engine lists what is Material's): the article, the head's stylesheets and canonical address, <html>'s
# and <body>'s attributes.
_ARTICLE = "article.md-content__inner"
_HEAD_CSS = 'head link[rel="stylesheet"], head link[href$=".css"]'
_CANONICAL = 'head link[rel="canonical"]'
# Dropped from every article: the page's buttons (notebook, edit, view source), the headings' permalinks, scripts,
# the last-update line, the empty per-line anchors of code blocks, the explorer's assets.
_DROP = (
    ".md-content__button", ".headerlink", ".anchor-link", "script", "aside.md-source-file", 'a[id^="__codelineno"]',
    "noscript", "clipboard-copy",
)  # fmt: skip
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


@dataclasses.dataclass
class Article:
    """A built page read from the site folder: its article, made a chapter of the book."""

    chapter: Chapter
    title: str
    html: str  # the chapter, ready for the book
    ids: set[str]
    links: list[str]  # the internal links (``#...``) it makes
    stylesheets: list[str]  # site paths of the stylesheets its head links
    html_lang: str | None  # the built page's <html lang>
    body_attributes: dict[str, str | None]  # and its <body>'s attributes (Material's colour scheme, …)


def anchor(chapter: Chapter, id_: str) -> str:
    """The id in the book of the element ``id_`` of a chapter: prefixed with the chapter's, and short and ASCII
    (Chromium names a PDF destination after the id; PDF names are limited to 127 bytes).

    >>> ch = Chapter(src="formula.md", url="formula/", depth=0, number=3, id="ch-formula")
    >>> anchor(ch, "symbols"), anchor(ch, "频率")
    ('ch-formula--symbols', 'ch-formula--h33b52730')
    """
    if re.fullmatch(r"[A-Za-z0-9_:.-]{1,40}", id_):
        return f"{chapter.id}--{id_}"
    return f"{chapter.id}--h{hashlib.sha1(id_.encode()).hexdigest()[:8]}"


def _site_path(base: str, ref: str) -> tuple[str, str]:
    """``ref`` (relative to the site path ``base``) as a site path and a fragment."""
    ref_path, _, fragment = ref.partition("#")
    ref_path = ref_path.split("?", 1)[0]
    if not ref_path:
        return base, fragment
    joined = posixpath.normpath(posixpath.join(base or ".", unquote(ref_path)))
    if joined == ".":
        return "", fragment
    return joined + ("/" if ref_path.endswith("/") else ""), fragment


def _page_key(site_path: str) -> str:
    """The page a site path names: ``zh/formula/index.html`` and ``zh/formula/`` -> ``zh/formula``."""
    return site_path.removesuffix("index.html").strip("/")


class _Book:
    """Reads the pages of one language from the built site and rewrites them into chapters of one document."""

    def __init__(self, site_dir: Path, lang: str, prefix: str, items: list[Part | Chapter], public_root: str) -> None:
        self.site_dir = site_dir
        self.lang = lang
        self.prefix = prefix  # the language's folder in the site ("" or "zh/")
        self.public_root = public_root  # the English site's public address
        self.chapters = {_page_key(prefix + c.url): c for c in items if isinstance(c, Chapter)}

    def public(self, site_path: str, fragment: str = "") -> str:
        return self.public_root + site_path + (f"#{fragment}" if fragment else "")

    def read(self, chapter: Chapter) -> Article:
        path = self.prefix + chapter.url
        file = self.site_dir / path / "index.html"
        if not file.is_file():
            raise BookError(f"{file} is missing: build the site first (make site), with {chapter.src} in the nav")
        tree = dom.parse(file.read_text(encoding="utf-8"))
        article = tree.css_first(_ARTICLE)
        if article is None:
            raise BookError(f'{file} has no <article class="md-content__inner">: not a built page')
        hrefs = [link.attributes.get("href") for link in tree.css(_HEAD_CSS)]
        stylesheets = list(dict.fromkeys(_site_path(path, h)[0] for h in hrefs if h and "glightbox" not in h))
        root = tree.css_first("html")
        html_lang = root.attributes.get("lang") if root is not None else None
        self._tabs(article)
        for selector in _DROP:
            for node in article.css(selector):
                node.decompose()
        for node in article.css("a.glightbox"):  # the figure, without the lightbox link around it
            node.unwrap()
        for node in article.css("picture source"):  # a picture's narrow (phone) layout: the book prints the wide one
            node.decompose()
        for node in article.css("img"):
            src = node.attrs.get("src") or ""
            if src.endswith("#only-dark") or ".dark." in src.rsplit("/", 1)[-1]:
                node.decompose()
                continue
            for attr in [a for a in node.attrs if a in ("loading", "decoding")]:
                del node.attrs[attr]
        for node in article.css("details"):
            node.attrs["open"] = ""
        for node in article.css(".pe-live"):
            self._explorer(node, path)
        title = self._headings(tree, article, chapter)
        for node in article.css("[id]"):  # every id prefixed with the chapter's
            node.attrs["id"] = anchor(chapter, node.attrs["id"] or "")
        for node in article.css("a[name]"):
            del node.attrs["name"]
        links = self._links(article, chapter, path)
        return Article(
            chapter=chapter,
            title=title,
            html=f'<section class="pe-book-chapter" id="{chapter.id}">{article.inner_html}</section>',
            ids={chapter.id, *(node.attrs["id"] or "" for node in article.css("[id]"))},
            links=links,
            stylesheets=stylesheets,
            html_lang=html_lang,
            body_attributes=dict(tree.body.attributes if tree.body else {}),
        )

    def _tabs(self, article: Any) -> None:
        """Every tab of a content tab set, one after the other, each under its label."""
        for tabs in article.css(".tabbed-set"):
            labels = [label.text(strip=True) for label in tabs.css(".tabbed-labels > label")]
            blocks = tabs.css(".tabbed-content > .tabbed-block")
            for label, block in zip(labels, blocks, strict=False):
                block.inner_html = f'<p class="pe-book-tab-label">{html.escape(label)}</p>' + block.inner_html
            for node in tabs.css("input, .tabbed-labels"):
                node.decompose()
            tabs.attrs["class"] = "pe-book-tabs"

    def _explorer(self, node: Any, path: str) -> None:
        """An interactive explorer: its fallback text (the page's still figures show the same) and a link to it."""
        anchor = node.attrs.get("id")
        node.attrs["class"] = "pe-book-explorer"
        for attr in [a for a in node.attrs if a.startswith("data-")]:
            del node.attrs[attr]
        url = html.escape(self.public(path) + (f"#{anchor}" if anchor else ""), quote=True)
        link = f'<p class="pe-book-online">{TEXT[self.lang]["interactive"]}: <a href="{url}">{url}</a></p>'
        node.inner_html = node.inner_html + link

    def _headings(self, tree: Any, article: Any, chapter: Chapter) -> str:
        """Number the chapter's title and move every heading down one level per enclosing section."""
        title = None
        for node in article.css("h1, h2, h3, h4, h5, h6"):
            level = min(int(node.tag[1]) + chapter.depth, 6)
            if title is None and node.tag == "h1":
                title = node.text(strip=True)
                number = "" if chapter.number is None else f'<span class="pe-book-number">{chapter.number}</span> '
                node.attrs["class"] = "pe-book-chapter-title"
                node.inner_html = number + node.inner_html
            if level != int(node.tag[1]):
                node.replace_with(dom.element(tree, f"h{level}", node.inner_html, **dict(node.attributes)))
        if title is None:
            raise BookError(f"{chapter.src}: the built page has no <h1> title")
        return title

    def _links(self, article: Any, chapter: Chapter, path: str) -> list[str]:
        internal = []
        for node in article.css("a[href]"):
            href = node.attrs["href"] or ""
            if _SCHEME.match(href) or href.startswith("//"):
                continue
            target, fragment = _site_path(path, href)
            found = self.chapters.get(_page_key(target))
            if found is not None and not target.endswith((".pdf", ".ipynb", ".svg", ".png", ".css", ".js")):
                new = f"#{anchor(found, unquote(fragment))}" if fragment else f"#{found.id}"
                internal.append(new[1:])
            else:
                new = self.public(target, fragment)
            node.attrs["href"] = new
        for selector, attr in (("img[src]", "src"), ("link[href]", "href"), ("source[src]", "src")):
            for node in article.css(selector):
                value = node.attrs[attr] or ""
                if not _SCHEME.match(value) and not value.startswith("//"):
                    node.attrs[attr] = "/" + _site_path(path, value)[0]
        return internal


# ---- the whole book -------------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Assembled:
    """One language's print page and what it holds."""

    lang: str
    html: str
    items: list[Part | Chapter]
    titles: dict[str, str]  # chapter id -> title (as on the site)
    prefix: str


def version() -> str:
    """What the book was built from: ``git describe --tags --always --dirty``, or "" outside a git checkout."""
    command = ["git", "describe", "--tags", "--always", "--dirty"]
    try:
        out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def build_date() -> str:
    """The build date (UTC), ``$SOURCE_DATE_EPOCH``'s if set (reproducible builds), as YYYY-MM-DD."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = dt.datetime.fromtimestamp(int(epoch), dt.UTC) if epoch else dt.datetime.now(dt.UTC)
    return when.date().isoformat()


def language_prefix(lang: str) -> str:
    """The language's folder in the built site, from the configs' ``site_dir``: ``""`` (English), ``"zh/"``.

    Raises:
        ValueError: an unknown language.
        BookError: the language's site is not inside the English one.
    """
    english = Path(load_config("en").get("site_dir", "site"))
    own = Path(load_config(lang).get("site_dir", "site"))
    if own == english:
        return ""
    try:
        return own.relative_to(english).as_posix() + "/"
    except ValueError as exc:
        raise BookError(f"the {lang} site ({own}) must live inside the English one ({english})") from exc


def assemble(site_dir: Path, lang: str, *, release: str | None = None, date: str | None = None) -> Assembled:
    """One language's book as a single HTML page (its URLs are site paths, served from ``site_dir``).

    Args:
        site_dir: the built English site (other languages in their folders inside it), as ``make site`` leaves it.
        lang: ``"en"`` or ``"zh"``.
        release: the version printed on the title page (default: :func:`version`).
        date: the build date printed on the title page (default: :func:`build_date`).

    Raises:
        ValueError: an unknown language, or a nav the book cannot follow.
        BookError: a page is missing from the built site, or an internal link has no target in the book.
    """
    config = load_config(lang)
    if "nav" not in config:
        raise ValueError(f"{CONFIGS[lang].name} has no nav: the book follows the nav's order")
    items = plan(config["nav"], directory_urls=config.get("use_directory_urls", True))
    prefix = language_prefix(lang)
    english_home = site_dir / "index.html"
    canonical = (
        dom.parse(english_home.read_text(encoding="utf-8")).css_first(_CANONICAL) if english_home.is_file() else None
    )
    public_root = canonical.attributes.get("href") if canonical is not None else None
    if not public_root:
        raise BookError(f"{english_home} is missing or has no canonical address: build the site first (make site)")
    book = _Book(site_dir, lang, prefix, items, public_root)
    articles = [book.read(item) for item in items if isinstance(item, Chapter)]
    ids = set().union(*(p.ids for p in articles))
    dangling = sorted({f"{p.chapter.src} -> #{link}" for p in articles for link in p.links if link not in ids})
    if dangling:
        raise BookError("links without a target in the book:\n  " + "\n  ".join(dangling))
    stylesheets = dict.fromkeys(s for page in articles for s in page.stylesheets)
    # <html lang> and <body>'s attributes: the home page's (Material writes the same on every page), else the first's
    home = next((p for p in articles if p.chapter.url == ""), articles[0] if articles else None)
    html_lang, body = (home.html_lang, home.body_attributes) if home else (None, {})
    if "data-md-color-scheme" in body:
        body = {**body, "data-md-color-scheme": "default"}  # printed light
    body_attrs = "".join(f' {name}="{html.escape(value or "", quote=True)}"' for name, value in body.items())
    titles = {p.chapter.id: p.title for p in articles}
    text = TEXT[lang]
    shown = {c.src for c in items if isinstance(c, Chapter)}
    everything = plan(config["nav"], directory_urls=config.get("use_directory_urls", True), left_out=())
    left_out = [c.url for c in everything if isinstance(c, Chapter) and c.src not in shown]
    left_out_url = book.public(prefix + left_out[0]) if left_out else ""
    body_html = [
        _cover(config, text, release=version() if release is None else release, date=date or build_date(),
               url=book.public(prefix)),
        _contents(items, titles, text, left_out_url),
    ]  # fmt: skip
    chapters = {p.chapter.id: p for p in articles}
    for item in items:
        if isinstance(item, Part):
            level = min(item.depth + 1, 6)
            body_html.append(
                f'<section class="pe-book-part" id="{item.id}"><h{level} class="pe-book-part-title">'
                f"{html.escape(item.title)}</h{level}></section>"
            )
        else:
            body_html.append(chapters[item.id].html)
    links = "".join(f'<link rel="stylesheet" href="/{s}">' for s in stylesheets)
    document = (
        f'<!doctype html><html lang="{html_lang or lang}"><head><meta charset="utf-8">'
        f"<title>{html.escape(config['site_name'])}</title>{links}"
        f"<style>{BOOK_CSS.read_text(encoding='utf-8')}{_page_css(config['site_name'])}</style></head>"
        f'<body{body_attrs}><div class="md-typeset pe-book">{"".join(body_html)}</div></body></html>'
    )
    return Assembled(lang=lang, html=document, items=items, titles=titles, prefix=prefix)


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _page_css(site_name: str) -> str:
    m = PAGE_MARGIN_MM
    return (
        f"@page {{ size: A4; margin: {m['top']}mm {m['right']}mm {m['bottom']}mm {m['left']}mm;"
        f" @top-left {{ content: {_css_string(site_name)}; }} @bottom-center {{ content: counter(page); }} }}"
        "@page :first { @top-left { content: none; } @bottom-center { content: none; } }"
    )


def _cover(config: dict[str, Any], text: dict[str, str], *, release: str, date: str, url: str) -> str:
    esc = html.escape
    link = esc(url, quote=True)
    return (
        '<section class="pe-book-cover">'
        f'<p class="pe-book-cover__title">{esc(config["site_name"])}</p>'
        f'<p class="pe-book-cover__subtitle">{esc(config.get("site_description", ""))}</p>'
        '<dl class="pe-book-cover__facts">'
        f"<dt>{text['version']}</dt><dd><code>{esc(release or text['no_git'])}</code></dd>"
        f"<dt>{text['built']}</dt><dd>{esc(date)}</dd>"
        f'<dt>{text["online"]}</dt><dd><a href="{link}">{link}</a></dd>'
        f"<dt>{text['licence']}</dt><dd>{config.get('copyright', '')}</dd>"
        "</dl></section>"
    )


def _contents(items: list[Part | Chapter], titles: dict[str, str], text: dict[str, str], left_out_url: str) -> str:
    rows = []
    for item in items:
        if isinstance(item, Part):
            label, kind = html.escape(item.title), "part"
        else:
            number = "" if item.number is None else f'<span class="pe-book-number">{item.number}</span> '
            label, kind = number + html.escape(titles[item.id]), "chapter"
        rows.append(
            f'<li class="pe-book-toc__{kind}" style="--depth: {item.depth}"><a href="#{item.id}">'
            f'<span class="pe-book-toc__title">{label}</span><span class="pe-book-toc__leader"></span>'
            f'<span class="pe-book-toc__page" data-for="{item.id}"></span></a></li>'
        )
    note = ""
    if left_out_url:
        link = html.escape(left_out_url, quote=True)
        note = f'<p class="pe-book-toc__note">{text["left_out"]} <a href="{link}">{link}</a></p>'
    return (
        f'<nav class="pe-book-toc" id="pe-book-contents"><h1 class="pe-book-toc__heading">{text["contents"]}</h1>'
        f"<ol>{''.join(rows)}</ol>{note}</nav>"
    )


# ---- printing --------------------------------------------------------------------------------------------------------

# Run in the page before printing: scale what is wider than the text column (a long formula, a wide table) to fit,
# then report what still overflows it.
_FIT = """
() => {
  // Reads and writes are batched: each read after a write lays the whole book out again.
  const column = document.querySelector(".pe-book").getBoundingClientRect();
  let scaled = 0, wrapped = 0;
  // Code and notebook output: a block whose longest line is a little too wide is scaled down (to MIN_CODE_ZOOM at
  // most; MIN_OUTPUT_ZOOM for a notebook's printed tensors, whose rows wrapped mid-number are unreadable), one that
  // is much too wide wraps its lines (book.css: pre-wrap).
  const blocks = [...document.querySelectorAll(".pe-book pre")];
  const unwrap = (el, value) => [el, ...el.querySelectorAll("code")].forEach(e => { e.style.whiteSpace = value; });
  blocks.forEach(el => unwrap(el, "pre"));
  const ratios = blocks.map(el => el.clientWidth / el.scrollWidth);
  blocks.forEach((el, i) => {
    if (ratios[i] >= 1) return;
    const least = el.closest(".jp-OutputArea-output") ? MIN_OUTPUT_ZOOM : MIN_CODE_ZOOM;
    if (ratios[i] >= least) { el.style.zoom = String(ratios[i]); scaled++; return; }
    unwrap(el, "");
    wrapped++;
  });
  // A long formula, a wide table: scaled to the column.
  const wide = [...document.querySelectorAll(
      ".pe-book .katex-display, .pe-book table, .pe-book .md-typeset__scrollwrap")]
    .map(el => {
      const box = el.getBoundingClientRect();
      const need = Math.max(el.scrollWidth, box.right - column.left);
      return [el, Math.min(el.clientWidth || column.width, column.right - box.left) / need];
    })
    .filter(([, ratio]) => ratio > 0 && ratio < 0.999);
  for (const [el, ratio] of wide) { el.style.zoom = String(ratio); scaled++; }
  const over = [];
  // everything but the inside of a formula or a drawing (KaTeX clips its own stretchy SVGs; its MathML is hidden)
  for (const el of document.querySelectorAll(".pe-book-chapter *:not(.katex *, svg *)")) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > column.right + 4 && getComputedStyle(el).position !== "absolute") {
      const chapter = el.closest(".pe-book-chapter");
      over.push(`${chapter ? chapter.id : "?"}: <${el.tagName.toLowerCase()} class="${el.className}"> ${
        Math.round(box.right - column.right)} px: ${(el.textContent || "").trim().slice(0, 60)}`);
    }
  }
  return {scaled, wrapped, over: over.slice(0, 20), overCount: over.length};
}
"""


@dataclasses.dataclass
class Printed:
    """What printing one language gave."""

    lang: str
    path: Path
    pages: int
    bytes: int
    seconds: float
    scaled: int  # elements scaled to fit the column
    wrapped: int  # code blocks whose lines wrap


def _serve(page: Any, site_dir: Path, book_url: str, document: str, failures: list[str]) -> None:
    root = site_dir.resolve()

    def handle(route: Any) -> None:
        url = route.request.url
        if url == book_url:
            route.fulfill(body=document, content_type="text/html; charset=utf-8")
            return
        if url.startswith(ORIGIN + "/"):
            file = (root / unquote(urlsplit(url).path).lstrip("/")).resolve()
            if file.is_relative_to(root) and file.is_file():
                route.fulfill(path=str(file))
                return
        failures.append(url)
        route.abort()

    page.route("**/*", handle)


def print_book(book: Assembled, site_dir: Path, out: Path) -> Printed:
    """Print ``book`` to ``out`` with headless Chromium (``site_tools.browser``'s: ``$CHROMIUM``, else Debian's);
    every request is answered from ``site_dir``.

    Printed twice: the first print tells on which page each chapter starts, for the table of contents.

    Raises:
        BookError: a request the built site cannot answer, or content wider than the text column after scaling.
    """
    import pikepdf
    from playwright.sync_api import sync_playwright

    start = time.perf_counter()
    failures: list[str] = []
    book_url = f"{ORIGIN}/{book.prefix}__book__.html"
    options = {"format": "A4", "prefer_css_page_size": True, "print_background": True, "outline": True, "tagged": True}
    out.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=browser.chromium_path(), args=browser.CHROMIUM_ARGS)
        try:
            page = chromium.new_page(viewport={"width": CONTENT_WIDTH_PX, "height": 1100}, color_scheme="light")
            _serve(page, site_dir, book_url, book.html, failures)
            page.emulate_media(media="print", color_scheme="light")
            page.goto(book_url, wait_until="load", timeout=300_000)
            page.evaluate("document.fonts.ready.then(() => true)")
            log.debug("%s: loaded in %.1f s", book.lang, time.perf_counter() - start)
            fit = _FIT.replace("MIN_CODE_ZOOM", str(MIN_CODE_ZOOM)).replace("MIN_OUTPUT_ZOOM", str(MIN_OUTPUT_ZOOM))
            fitted = page.evaluate(fit)
            if failures:
                raise BookError(f"{book.lang}: requests the built site cannot answer: {sorted(set(failures))[:10]}")
            if fitted["overCount"]:
                raise BookError(
                    f"{book.lang}: {fitted['overCount']} elements wider than the text column after scaling:\n  "
                    + "\n  ".join(fitted["over"])
                )
            log.debug("%s: fitted in %.1f s", book.lang, time.perf_counter() - start)
            first = page.pdf(**{**options, "tagged": False, "outline": False})  # only its page numbers are used
            log.debug("%s: first print in %.1f s", book.lang, time.perf_counter() - start)
            page.evaluate(
                """numbers => { for (const el of document.querySelectorAll(".pe-book-toc__page"))
                     el.textContent = numbers[el.dataset.for] ?? ""; }""",
                _chapter_pages(first, book),
            )
            final = page.pdf(**options)
            log.debug("%s: second print in %.1f s", book.lang, time.perf_counter() - start)
            headings = page.evaluate(
                """() => [...document.querySelectorAll(".pe-book :is(h1, h2, h3, h4, h5, h6)")]
                     .map(h => h.textContent.replace(/\\s+/g, " ").trim())"""
            )
        finally:
            chromium.close()
    partial = out.with_name(out.name + ".part")  # a failed save leaves no half-written book in the site
    with pikepdf.open(io.BytesIO(final)) as pdf:
        pages = len(pdf.pages)
        _retitle(pdf, headings)
        # Chromium writes every object of the tagged PDF's structure tree (one per element) on its own; qpdf packs
        # them into compressed object streams: the same document in less than half the bytes.
        pdf.save(partial, object_stream_mode=pikepdf.ObjectStreamMode.generate, compress_streams=True)
    partial.replace(out)
    seconds = time.perf_counter() - start
    return Printed(book.lang, out, pages, out.stat().st_size, seconds, fitted["scaled"], fitted["wrapped"])


def _retitle(pdf: Any, headings: list[str]) -> None:
    """Give each bookmark its heading's text: Chromium drops the space where a heading wraps to a new line
    ("stretchingRoPE"). A bookmark whose text differs from every heading's by more than spaces is left as it is."""
    texts = {re.sub(r"\s+", "", text): text for text in headings}

    def walk(items: list[Any]) -> None:
        for item in items:
            item.title = texts.get(re.sub(r"\s+", "", item.title), item.title)
            walk(item.children)

    with pdf.open_outline() as outline:
        walk(outline.root)


def _chapter_pages(pdf_bytes: bytes, book: Assembled) -> dict[str, str]:
    """The page (1-based) on which each part and chapter starts: the named destinations of the contents' links."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        dests = pdf.Root.get("/Dests")
        pages = {page.objgen: number for number, page in enumerate(pdf.pages, start=1)}
        out = {}
        for item in book.items:
            dest = dests.get("/" + item.id) if dests is not None else None
            if dest is None:
                raise BookError(f"{book.lang}: the PDF has no destination for {item.id} (its contents link)")
            target = dest[0] if isinstance(dest, pikepdf.Array) else dest.D[0]
            out[item.id] = str(pages[target.objgen])
    return out


# What a printed book depends on besides its assembled page: the files the page loads from the site (stylesheets,
# fonts, figures, images), the book's own code and styles, the printer and the fonts installed on the machine.
_PRINTED_SUFFIXES = (".css", ".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".woff", ".woff2", ".ttf", ".otf")


def book_key(book: Assembled, site_dir: Path) -> str:
    """The content key of a printed book: a digest of everything printing it reads.

    That is the assembled print page (every chapter's text, the title page's version and date), every file under
    the site that the page can load (the suffixes of ``_PRINTED_SUFFIXES``: stylesheets, fonts, figures, images),
    this module and ``book.css``, the versions of Chromium's driver and of pikepdf, and the fonts fontconfig lists
    (the Chinese text is set in an installed font). Two builds with the same key print the same book, so
    :func:`build` reuses the cached file (``.cache/books/``, or ``$PE_DOCS_CACHE/books/``), as the build reuses
    figures and executed notebooks; ``PE_DOCS_NO_CACHE=1`` prints every book again.
    """
    from importlib import metadata

    digest = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    add("page", book.html.encode("utf-8"))
    root = Path(site_dir)
    for file in sorted(f for f in root.rglob("*") if f.suffix.lower() in _PRINTED_SUFFIXES and f.is_file()):
        add(file.relative_to(root).as_posix(), file.read_bytes())
    add("book.py", Path(__file__).read_bytes())
    add("book.css", BOOK_CSS.read_bytes())
    for package in ("playwright", "pikepdf"):
        add(package, metadata.version(package).encode())
    fonts = subprocess.run(["fc-list", "--format", "%{file}\n"], capture_output=True, text=True, check=False).stdout
    add("fonts", "\n".join(sorted(fonts.splitlines())).encode())
    return digest.hexdigest()


def _cached_print(book: Assembled, site_dir: Path, out: Path) -> Printed:
    """:func:`print_book`, or the book printed before from the same inputs (:func:`book_key`)."""
    if not cache.enabled():
        return print_book(book, site_dir, out)
    start = time.perf_counter()
    entry = cache.folder("books") / book_key(book, site_dir)
    pdf, facts = entry / "book.pdf", entry / "printed.json"
    if pdf.is_file() and facts.is_file():
        cache.write(out, pdf.read_bytes())
        known = json.loads(facts.read_text(encoding="utf-8"))
        log.info("%s: the same book as printed before (cache %s)", book.lang, entry.name[:12])
        return Printed(**{**known, "lang": book.lang, "path": out, "seconds": time.perf_counter() - start})
    printed = print_book(book, site_dir, out)
    cache.write(pdf, out.read_bytes())
    kept = {k: v for k, v in dataclasses.asdict(printed).items() if k not in ("lang", "path", "seconds")}
    cache.write(facts, json.dumps(kept))
    return printed


def build(
    site_dir: Path = SITE_DIR,
    langs: tuple[str, ...] = tuple(CONFIGS),
    *,
    out_dir: Path | None = None,
    release: str | None = None,
    date: str | None = None,
    parallel: bool = True,
) -> list[Printed]:
    """Build each language's PDF from the built site ``site_dir``, into its language's folder of ``out_dir``
    (default: the site itself: ``site/pe-docs.en.pdf``, ``site/zh/pe-docs.zh.pdf``).

    Args:
        site_dir, out_dir: as above.
        langs: the languages, drawn from ``CONFIGS``.
        release, date: what the title page says (default: :func:`version`, :func:`build_date`).
        parallel: print the languages at the same time, one Chromium each (Chromium does the work in its own
            processes; each thread drives its own). ``False`` prints them one after the other.

    Raises:
        ValueError: an unknown language.
        BookError: see :func:`assemble` and :func:`print_book`.
    """
    import concurrent.futures

    unknown = sorted(set(langs) - set(CONFIGS))
    if unknown:
        raise ValueError(f"langs must be drawn from {sorted(CONFIGS)}, got {unknown}")
    site_dir = Path(site_dir)
    out_dir = site_dir if out_dir is None else Path(out_dir)
    release = version() if release is None else release

    def one(lang: str) -> Printed:
        assembled = assemble(site_dir, lang, release=release, date=date)
        printed = _cached_print(assembled, site_dir, out_dir / pdf_path(lang))
        log.info(
            "%s: %s, %d pages, %.1f MB, %.1f s (%d wide elements scaled to fit, %d code blocks wrapped)",
            lang,
            printed.path,
            printed.pages,
            printed.bytes / 1e6,
            printed.seconds,
            printed.scaled,
            printed.wrapped,
        )
        return printed

    if not parallel or len(langs) < 2:
        return [one(lang) for lang in langs]
    with concurrent.futures.ThreadPoolExecutor(len(langs)) as pool:
        return list(pool.map(one, langs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_tools.book", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site-dir", type=Path, default=SITE_DIR, help="the built site (default: site/)")
    parser.add_argument("--out-dir", type=Path, help="where to write the PDFs (default: into the site)")
    parser.add_argument("--lang", choices=sorted(CONFIGS), action="append", help="only this language")
    parser.add_argument("--json", action="store_true", help="print what was built as JSON")
    parser.add_argument("--serial", action="store_true", help="print the languages one after the other")
    parser.add_argument("--release", help="the version on the title page (default: git describe)")
    parser.add_argument("--date", help="the date on the title page (default: today, or $SOURCE_DATE_EPOCH's)")
    parser.add_argument("-v", "--verbose", action="store_true", help="say how long each step takes")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s")
    log.setLevel(logging.DEBUG if args.verbose else logging.INFO)
    logging.getLogger("pikepdf").setLevel(logging.WARNING)  # its "logger bridge initialized"
    start = time.perf_counter()
    langs = tuple(args.lang or CONFIGS)
    results = build(
        args.site_dir, langs, out_dir=args.out_dir, release=args.release, date=args.date, parallel=not args.serial
    )
    log.info("books built in %.1f s", time.perf_counter() - start)
    if args.json:
        rows = [{**dataclasses.asdict(r), "path": str(r.path)} for r in results]
        print(json.dumps(rows))
    return 0
