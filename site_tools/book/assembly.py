"""The book's print page: one language's pages, assembled into one HTML page from the built site.

:func:`assemble` assembles one print page from the built pages' articles, in the order of the ``nav`` of that
language's config (``mkdocs.yml``, ``mkdocs.zh.yml``; nested sections become parts; :func:`plan`):

- a title page (site name, version from ``git describe``, build date, public address, licences) and a table of
  contents with page numbers (the page is printed twice: the first print tells on which page each chapter starts);
- chapters numbered in navigation order (the home page is the unnumbered introduction), each on a new page, its
  headings moved down one level per enclosing section so that the bookmarks nest part > chapter > section;
- links between pages become links inside the PDF (every id is prefixed with its chapter's); links to what the book
  leaves out (the API reference, notebooks, files) point at the public site; the build fails if an internal link has
  no target;
- the site's own typeset HTML: KaTeX's math and fonts, the figures in the light scheme (the dark variants are
  dropped), collapsed boxes (``<details>``) printed open, every tab of a content tab set printed one after the other,
  each interactive explorer replaced by its fallback text (its still figures are on the page) and a link to it.

The API reference (``api*.md``) is left out: it is long, generated from the docstrings, and online; the table of
contents says where.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import fnmatch
import hashlib
import html
import os
import posixpath
import re
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from site_tools import ROOT, dom, layout
from site_tools.layout import CONFIGS

BOOK_CSS = Path(__file__).with_name("book.css")
# Pages of the nav that the book leaves out (matched against the page's file in docs/<lang>/).
LEFT_OUT = ("api.md", "api-*.md")
# The printed page: A4, and the width of its text column in CSS pixels (the layout is measured at that width).
PAGE_MARGIN_MM = {"top": 20, "right": 17, "bottom": 20, "left": 17}
CONTENT_WIDTH_PX = round((210 - PAGE_MARGIN_MM["left"] - PAGE_MARGIN_MM["right"]) / 25.4 * 96)

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


class BookError(RuntimeError):
    """The book cannot be built as promised (a missing page, a dangling link, an overflow, a request off the site)."""


def pdf_name(lang: str) -> str:
    """The PDF's file name, in its language's folder of the site: ``pe-docs.en.pdf``, ``pe-docs.zh.pdf``.

    Raises:
        ValueError: an unknown language.
    """
    layout.check_lang(lang)
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


load_config = layout.raw_config  # a config as written (the tests patch it here); ValueError: an unknown language


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
    parts: tuple[str, ...] = ()  # the sections of the parts open so far, outermost first
    for src, sections in layout.nav_pages(nav):
        if any(fnmatch.fnmatch(posixpath.basename(src), pattern) for pattern in left_out):
            continue
        same = 0  # a part opens on its first chapter: a section the book leaves empty has none
        while same < min(len(parts), len(sections)) and parts[same] == sections[same]:
            same += 1
        for depth in range(same, len(sections)):
            out.append(Part(title=sections[depth], depth=depth, id=f"part-{len(out)}"))
        parts = sections
        url = layout.page_url(src, directory_urls)
        home = url == "" and not out
        if not home:
            count += 1
        chapter_id = "ch-" + (_slug(url) if url else "home")
        out.append(Chapter(src=src, url=url, depth=len(sections), number=None if home else count, id=chapter_id))
    return out


# ---- one chapter: the built page's article, made part of the book --------------------------------------------------


# What the book reads of a built page (site_tools.dom parses it, as the finishing pass does;
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
