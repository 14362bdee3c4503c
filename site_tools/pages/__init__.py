"""The pages as sources, read as data: one model of a page, used by every check, by the notebooks and by
``make check``. What is where (the cut follows what a module reads):

- :mod:`~site_tools.pages.model`: one page's text, knowing nothing of the site. :func:`read` (a file) and
  :func:`parse` (Markdown text) give a :class:`~site_tools.pages.model.Page`: front matter, fences with what
  pytest-codeblocks does with them, prose lines, headings, figures, the page as a tree of items, and every place
  where the tests would not run what the page shows. Its docstring says how a page is read;
- :mod:`~site_tools.pages.site`: where the pages and the navs are, and the checks across them: the page files of
  each language (:func:`files`), the code blocks that must match between the languages (parity), the navs;
  ``python -m site_tools.pages`` (``make parity``);
- :mod:`~site_tools.pages.links`: a page rendered as Python-Markdown renders it with the site's extensions (the one
  check that needs a page's HTML), its links and anchors checked without building;
- built on them: every stated number asserted (:mod:`~site_tools.pages.stated_numbers`), assertions that cannot
  fail (:mod:`~site_tools.pages.asserts`), one page's tests (:mod:`~site_tools.pages.check`, ``make check``), new
  chapters (:mod:`~site_tools.pages.chapter`), the Chinese code blocks rewritten from the English ones
  (:mod:`~site_tools.pages.sync`).

The names callers use are re-exported here (``pages.read``, ``pages.files``, …). :func:`files` reads
``site_tools.layout.DOCS``: to point the checks at other pages, patch it there.
"""

from site_tools import ROOT
from site_tools.pages.links import link_problems, render
from site_tools.pages.model import (
    Box,
    Code,
    Expected,
    Fence,
    Figure,
    Heading,
    Item,
    Prose,
    Verbatim,
    codeblocks_keyword,
    parse,
    read,
    rel,
    walk,
)
from site_tools.pages.site import (
    LANGS,
    chapters,
    code_lines,
    code_signature,
    comments,
    fences,
    files,
    main,
    nav_places,
    nav_problems_of,
    page_names,
    parity_problems,
    parity_problems_of,
    weak_asserts,
)
