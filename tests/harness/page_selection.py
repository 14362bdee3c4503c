"""``--page <slug>`` (what ``make check PAGE=<slug>`` runs): only the tests of one page are kept.

A page's tests are its blocks in both languages (the items collected from ``docs/en/<slug>.md`` and
``docs/zh/<slug>.md``) and every test parametrised by the page (fences, parity, numbers, weak assertions, Chinese
style, its notebooks): nothing is listed by hand, so a new test parametrised by pages joins by itself. Tests that
need the built site (a ``site`` mark, or a fixture of ``harness.built_site``) are left to ``make test``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.built_site import SITE_FIXTURES

ROOT = Path(__file__).resolve().parents[2]


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
        return value.rsplit("/", 1)[-1] in names and value.endswith((".md", ".ipynb"))
    if isinstance(value, tuple | list):
        return any(mentions(v, names) for v in value)
    return False


def page_tests(items: list[pytest.Item], slug: str) -> list[pytest.Item]:
    """The tests of one page: its blocks and every test parametrised by it, except those needing the built site."""
    slug = Path(slug).name.removesuffix(".md").removesuffix(".ipynb")
    names = {f"{slug}.md", f"{slug}.ipynb"}
    keep = []
    for item in items:
        path = Path(str(item.path))
        if path.suffix == ".md" and path.name in names and path.parent.parent == ROOT / "docs":
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
    keep = page_tests(items, slug)
    if not keep:
        raise pytest.UsageError(f"--page {slug}: no test of a page docs/en/{slug}.md or docs/zh/{slug}.md")
    deselected = [i for i in items if i not in keep]
    items[:] = keep
    config.hook.pytest_deselected(items=deselected)
