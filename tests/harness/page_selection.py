"""``--page <slug>`` (what ``make check PAGE=<slug>`` runs): only the tests of one page are kept.

A page's tests are its blocks in both languages (the items collected from ``docs/en/<slug>.md`` and
``docs/zh/<slug>.md``) and every test parametrised by the page (fences, parity, numbers, weak assertions, Chinese
style, its notebooks): nothing is listed by hand, so a new test parametrised by pages joins by itself. Tests that
need the built site (a ``site`` mark, or a fixture of ``harness.built_site``) are left to ``make test`` — unless
``--site-dir`` names a site built already (``harness.built_site``): then the checks of the built pages join, those
that read the site's files (the ``site_dir`` fixture) without a server or a browser (``site_base``, the ``browser``
mark). ``tests/test_chapter.py`` runs a new chapter, as ``make chapter`` creates it, through both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.built_site import SITE_FIXTURES
from site_tools import ROOT, layout


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--page",
        action="store",
        default=None,
        metavar="SLUG",
        help="only the tests of one page (docs/en/SLUG.md and docs/zh/SLUG.md): what `make check PAGE=SLUG` runs",
    )


def mentions(value: object, names: set[str]) -> bool:
    """Whether a test parameter names one of the page files ``names`` (a path, ``formula.md``, ``en/formula.md``,
    or a tuple or list holding one)."""
    if isinstance(value, Path):
        return value.name in names and value.parent.parent.name == "docs"
    if isinstance(value, str):
        return value.rsplit("/", 1)[-1] in names and value.endswith(".md")
    if isinstance(value, tuple | list):
        return any(mentions(v, names) for v in value)
    return False


def reads_built_pages(item: pytest.Item) -> bool:
    """Whether a test checks the built site's files alone: the ``site_dir`` fixture, no server, no browser."""
    fixtures = set(getattr(item, "fixturenames", ()))
    return "site_dir" in fixtures and "site_base" not in fixtures and item.get_closest_marker("browser") is None


def page_tests(items: list[pytest.Item], slug: str, *, built: bool = False) -> list[pytest.Item]:
    """The tests of one page: its blocks and every test parametrised by it, except those needing the built site;
    with ``built`` (a site built already), also the tests that read the built pages (:func:`reads_built_pages`),
    but not those parametrised by another page or by a figure the page does not show."""
    from site_tools import pages
    from site_tools.build import figures

    slug = Path(slug).name.removesuffix(".md")
    names = {f"{slug}.md"}
    others: set[str] = set(pages.page_names()) - names if built else set()
    shown = {ref.name for lang in pages.LANGS if built and (f := layout.DOCS / lang / f"{slug}.md").is_file()
             for ref in pages.read(f).figures}  # fmt: skip
    keep = []
    for item in items:
        path = Path(str(item.path))
        if path.suffix == ".md" and path.name in names and path.parent.parent == ROOT / "docs":
            keep.append(item)
            continue
        if built and reads_built_pages(item):
            values = list(getattr(getattr(item, "callspec", None), "params", {}).values())
            another_page = any(mentions(v, others) for v in values) and not any(mentions(v, names) for v in values)
            another_figure = any(isinstance(v, str) and v in figures.FIGURES and v not in shown for v in values)
            if not another_page and not another_figure:
                keep.append(item)
            continue
        params = getattr(getattr(item, "callspec", None), "params", {})
        needs_site = item.get_closest_marker("site") or SITE_FIXTURES & set(getattr(item, "fixturenames", ()))
        if any(mentions(v, names) for v in params.values()) and not needs_site:
            keep.append(item)
    return keep


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slug = config.getoption("--page")
    if not slug:
        return
    keep = page_tests(items, slug, built=bool(config.getoption("--site-dir")))
    if not keep:
        raise pytest.UsageError(f"--page {slug}: no test of a page docs/en/{slug}.md or docs/zh/{slug}.md")
    deselected = [i for i in items if i not in keep]
    items[:] = keep
    config.hook.pytest_deselected(items=deselected)
