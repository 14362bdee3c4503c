"""The book: each language's pages, in the navigation's order, printed into one PDF by Chromium (``make pdf``).

What is where (the cut follows what each part needs):

- :mod:`~site_tools.book.cli`: ``python -m site_tools.book``, which ties the two below language by language:
  both languages' PDFs from the built site (:func:`build`, :func:`main`), and why the book is printed from the built
  site by Chromium, not by a plugin;
- :mod:`~site_tools.book.assembly`: one language's print page, from the built site's HTML and the configs: its
  parts and chapters in the nav's order (:func:`plan`), each built page's article made a chapter, the title page
  and the contents (:func:`assemble`), where the PDF lives in the site (:func:`pdf_path`);
- :mod:`~site_tools.book.printing`: that page made a PDF by Chromium through Playwright and pikepdf, fitted to the
  text column and printed twice for the contents' page numbers (:func:`print_book`), the printed books kept by
  content;
- ``book.css``: the print styles.

The names callers use are re-exported here. A function finds its helpers in its own module: patch ``load_config``
in ``assembly``, ``print_book`` in ``printing``, ``cached_print`` in ``cli``.
"""

from site_tools.book.assembly import (
    CONFIGS,
    TEXT,
    Assembled,
    BookError,
    Chapter,
    Part,
    assemble,
    build_date,
    language_prefix,
    load_config,
    pdf_name,
    pdf_path,
    plan,
    version,
)
from site_tools.book.cli import build, main
from site_tools.book.printing import BUDGET_BYTES, BUDGET_PAGES, Printed, print_book
