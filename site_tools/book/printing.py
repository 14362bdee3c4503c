"""The book printed: a print page (:mod:`site_tools.book.assembly`) printed with Debian's Chromium through
Playwright (``page.pdf``: PDF bookmarks from the headings, a tagged PDF, fonts embedded), by :func:`print_book`:

- code wraps, and what is still wider than the text column (a long formula, a wide table) is scaled to fit; the
  build fails if anything still overflows, or if a request would leave the built site (every request is answered
  from the site folder: no network);
- the page is printed twice: the first print tells on which page each chapter starts, for the table of contents.

A printed book is kept by content (:func:`book_key`): the same inputs reuse the file printed before.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import json
import logging
import re
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from site_tools import browser, cache
from site_tools.book.assembly import BOOK_CSS, CONTENT_WIDTH_PX, Assembled, BookError

# Every request of the print page goes to this origin and is answered from the built site (nothing else loads).
ORIGIN = "http://pe-docs.book"
# What a book may weigh (README.md): tests/test_pdf.py checks both languages' PDFs against these.
BUDGET_PAGES = 300
BUDGET_BYTES = 12_000_000
# A code block up to this much too wide is scaled down to fit; a wider one wraps its lines.
MIN_CODE_ZOOM = 0.8

log = logging.getLogger("pe-docs.book")


# Run in the page before printing: scale what is wider than the text column (a long formula, a wide table) to fit,
# then report what still overflows it.
_FIT = """
() => {
  // Reads and writes are batched: each read after a write lays the whole book out again.
  const column = document.querySelector(".pe-book").getBoundingClientRect();
  let scaled = 0, wrapped = 0;
  // Code and printed output: a block whose longest line is a little too wide is scaled down (to MIN_CODE_ZOOM at
  // most), one that is much too wide wraps its lines (book.css: pre-wrap).
  const blocks = [...document.querySelectorAll(".pe-book pre")];
  const unwrap = (el, value) => [el, ...el.querySelectorAll("code")].forEach(e => { e.style.whiteSpace = value; });
  blocks.forEach(el => unwrap(el, "pre"));
  const ratios = blocks.map(el => el.clientWidth / el.scrollWidth);
  blocks.forEach((el, i) => {
    if (ratios[i] >= 1) return;
    if (ratios[i] >= MIN_CODE_ZOOM) { el.style.zoom = String(ratios[i]); scaled++; return; }
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
    """Print ``book`` to ``out`` with headless Chromium (``site_tools.browser``'s: ``$CHROMIUM``, else Debian's),
    twice (see the module's docstring); every request is answered from ``site_dir``.

    Raises:
        BookError: a request the built site cannot answer, or content wider than the text column after scaling.
    """
    import pikepdf
    from playwright.sync_api import sync_playwright

    start = time.perf_counter()
    failures: list[str] = []
    book_url = f"{ORIGIN}/{book.prefix}__book__.html"
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
            fit = _FIT.replace("MIN_CODE_ZOOM", str(MIN_CODE_ZOOM))
            fitted = page.evaluate(fit)
            if failures:
                raise BookError(f"{book.lang}: requests the built site cannot answer: {sorted(set(failures))[:10]}")
            if fitted["overCount"]:
                raise BookError(
                    f"{book.lang}: {fitted['overCount']} elements wider than the text column after scaling:\n  "
                    + "\n  ".join(fitted["over"])
                )
            log.debug("%s: fitted in %.1f s", book.lang, time.perf_counter() - start)
            print_pdf = functools.partial(page.pdf, format="A4", prefer_css_page_size=True, print_background=True)
            first = print_pdf(outline=False, tagged=False)  # only its page numbers are used
            log.debug("%s: first print in %.1f s", book.lang, time.perf_counter() - start)
            page.evaluate(
                """numbers => { for (const el of document.querySelectorAll(".pe-book-toc__page"))
                     el.textContent = numbers[el.dataset.for] ?? ""; }""",
                _chapter_pages(first, book),
            )
            final = print_pdf(outline=True, tagged=True)
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
        # page.obj.objgen is page.objgen (a Page hands its attributes on to .obj), which pikepdf's stub types Object
        pages = {page.obj.objgen: number for number, page in enumerate(pdf.pages, start=1)}
        out = {}
        for item in book.items:
            dest = dests.get("/" + item.id) if dests is not None else None
            if dest is None:
                raise BookError(f"{book.lang}: the PDF has no destination for {item.id} (its contents link)")
            target = dest[0] if isinstance(dest, pikepdf.Array) else dest.D[0]
            out[item.id] = str(pages[target.objgen])
    return out


_PRINTED_SUFFIXES = (".css", ".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".woff", ".woff2", ".ttf", ".otf")


def book_key(book: Assembled, site_dir: Path) -> str:
    """The content key of a printed book: a digest of everything printing it reads.

    That is the assembled print page (every chapter's text, the title page's version and date), every file under
    the site that the page can load (the suffixes of ``_PRINTED_SUFFIXES``: stylesheets, fonts, figures, images),
    this module and ``book.css``, the versions of Chromium's driver and of pikepdf, and the fonts fontconfig lists
    (the Chinese text is set in an installed font). Two builds with the same key print the same book, so
    :func:`cached_print` reuses the file kept in ``<cache>/books/``; ``PE_DOCS_NO_CACHE=1`` prints every book again.
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


def cached_print(book: Assembled, site_dir: Path, out: Path) -> Printed:
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
