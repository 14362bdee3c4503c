"""The order of a run under pytest-xdist: units a worker runs whole, the longest first, the notebooks last.

Every test belongs to a unit (:func:`unit`): its module; a page's blocks (both languages); a slice of the browser
tests; the tests that share the release copy (one worker makes it and builds it once). ``make test`` runs with
``--dist loadgroup``: each unit is an ``xdist_group``, so one worker runs it whole. The units go out longest first
(:data:`HEAVY`, measured with ``benchmarks/bench_tests.py``), so that no long build is left for the end, and the
notebook tests last, when their results are ready.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.notebooks import NOTEBOOK_TEST

HEAVY = (
    "tests/test_reproducible.py",
    "release-copy",
    "tests/test_serve.py",
    "tests/test_build_guards.py",
    "tests/test_pdf.py",
)
BROWSER_SLICES = {"tests/test_browser.py": 3}
_INDEX = pytest.StashKey[int]()


def unit(item: pytest.Item) -> str:
    """The unit a test belongs to (see the module's docstring)."""
    module = item.nodeid.split("::", 1)[0]
    if module == "tests/test_chapter.py" or "release_copy" in getattr(item, "fixturenames", ()):
        return "release-copy"  # one worker makes the release copy and builds it once for all its tests
    if module.startswith("docs/"):
        return "page:" + Path(module).name  # a page's blocks, both languages
    if item.nodeid.split("::", 1)[-1].startswith(NOTEBOOK_TEST):
        return "notebooks"
    if module in BROWSER_SLICES:
        return f"{module}#{item.stash.get(_INDEX, 0) % BROWSER_SLICES[module]}"
    return module


def _rank(name: str) -> tuple[int, int]:
    module = name.split("#", 1)[0]
    if module in HEAVY:
        return (0, HEAVY.index(module))
    if module in BROWSER_SLICES:
        return (1, 0)
    if name == "notebooks":
        return (9, 0)
    return (2, 0)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    per_module: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        item.stash[_INDEX] = per_module.get(module, 0)
        per_module[module] = item.stash[_INDEX] + 1
    units: dict[str, list[pytest.Item]] = {}
    for item in items:
        units.setdefault(unit(item), []).append(item)
    order = sorted(units, key=_rank)  # stable: collection order within a rank
    items[:] = [item for name in order for item in units[name]]
    if getattr(config.option, "loadgroup", False):
        for item in items:
            item.add_marker(pytest.mark.xdist_group(unit(item)))
