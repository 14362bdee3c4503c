"""The book: each language's pages, in the navigation's order, printed into one PDF by Chromium.

``python -m site_tools.book`` (``make pdf``) reads the **built** site (``site/`` and ``site/zh/``, as ``make site``
leaves them) and writes ``site/pe-docs.en.pdf`` and ``site/zh/pe-docs.zh.pdf``, where the published site links them
(the footer of every page, ``overrides/partials/copyright.html``, and the home page): :func:`build` assembles each
language's print page (:mod:`site_tools.book.assembly`) and prints it (:mod:`site_tools.book.printing`); :func:`main`
is the command line.

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
import json
import logging
import time
from pathlib import Path

from site_tools.book.assembly import assemble, pdf_path, version
from site_tools.book.printing import Printed, cached_print, log
from site_tools.layout import CONFIGS, SITE_DIR


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
        printed = cached_print(assembled, site_dir, out_dir / pdf_path(lang))
        log.info(
            "%(lang)s: %(path)s, %(pages)d pages, %(mb).1f MB, %(seconds).1f s"
            " (%(scaled)d wide elements scaled to fit, %(wrapped)d code blocks wrapped)",
            {**dataclasses.asdict(printed), "mb": printed.bytes / 1e6},
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
        print(json.dumps([{**dataclasses.asdict(r), "path": str(r.path)} for r in results]))
    return 0
