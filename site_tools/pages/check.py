"""One page's checks, in seconds: ``python -m site_tools.pages.check <slug>`` (``make check PAGE=<slug>``).

The contributor's loop while writing or editing a chapter. It runs, for ``docs/en/<slug>.md`` and
``docs/zh/<slug>.md``, the tests ``make test`` runs for that page — selected from the whole suite by
``--page`` (``tests/harness/page_selection.py``), not listed here:

- every python block of both languages (pytest-codeblocks), and the fence checks (``site_tools.pages``: every
  python fence runs as shown, no skip marks, indented as its box needs; the front matter is valid YAML);
- parity: the page exists in both languages with the same code (a differing block shown as a diff whose lines name
  their file and line in both languages), and both navs list it (``site_tools.pages.nav_problems_of``);
- verified prose (``site_tools.pages.stated_numbers``): every stated number asserted on the page, both languages
  stating the same numbers, and every stated number's change noticed;
- assertions that cannot fail (``site_tools.pages.asserts``), and those that never run while the blocks run
  (``tests/harness/block_cache.py``);
- its links: every page and anchor they name exists (``site_tools.pages.link_problems``: what the strict build
  refuses, found from the sources);
- the Chinese page's style (``tests/test_chinese.py``);
- each library of ``checked_against`` backed by a test of the upstream tier that names the page
  (``site_tools.versions.backing``);
- both generated notebooks executed on a fresh kernel (English on MKL's generic code path, Chinese on its AVX2
  path: the paths other x86 CPUs take), reused from the cache when nothing they depend on changed.

After the tests it lists, as a reminder and not a failure, what of the template the page still carries (the Chinese
skeleton's title, the template's comment: ``site_tools.pages.chapter.skeleton_left``), since both pass every check.

A failure names the page, the line and, for numbers, the number, as in ``make test``. What needs the built site
(the print page, the browser, the API pages' anchors) is left to ``make test``; after ``make site``,
``python -m site_tools.pages.check <slug> --site-dir site`` adds the tests that read the built pages (further arguments
go to pytest).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from site_tools import ROOT, pages
from site_tools.pages.chapter import skeleton_left


def page_test_paths(slug: str) -> list[str]:
    """Where a page's tests can be: the tests (parametrised by pages) and the page's own Markdown (its blocks).

    The other pages' files and the modules' doctests hold no test of this page, so they are not collected.

    >>> page_test_paths("formula")
    ['tests', 'docs/en/formula.md', 'docs/zh/formula.md']
    """
    files = [f"docs/{lang}/{slug}.md" for lang in pages.LANGS]
    return ["tests", *(f for f in files if (ROOT / f).is_file())]


def main(argv: list[str] | None = None) -> int:
    """``python -m site_tools.pages.check <slug> [pytest options]``; returns pytest's exit status (2 for a bad slug)."""
    args = sys.argv[1:] if argv is None else argv
    names = sorted({Path(name).stem for name in pages.page_names()})
    if not args or not args[0].strip():
        print("usage: make check PAGE=<slug>   (python -m site_tools.pages.check <slug>)", file=sys.stderr)
        print(f"pages: {' '.join(names)}", file=sys.stderr)
        return 2
    slug = Path(args[0].strip()).name.removesuffix(".md")  # formula.md, docs/zh/formula.md
    if slug not in names:
        print(f"make check: no page {slug!r} in docs/en or docs/zh; pages: {' '.join(names)}", file=sys.stderr)
        return 2
    import pytest

    os.chdir(ROOT)
    paths = page_test_paths(slug)
    start = time.perf_counter()
    # --tb=short: a failure shows its message and the line it failed on, not the test's arguments and source first
    status = pytest.main(["-p", "no:cacheprovider", "-q", "--tb=short", "--page", slug, *paths, *args[1:]])
    left = skeleton_left(slug)
    if left:  # not failures: a chapter as make chapter creates it passes every check
        print("Still as the template left them (replace before the pull request):", *left, sep="\n  ")
    print(f"make check PAGE={slug}: {time.perf_counter() - start:.1f} s")
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
