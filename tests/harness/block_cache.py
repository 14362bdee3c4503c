"""A page block's test: when it may pass without running (one rule, in :func:`passed_before`), that every assertion
of it ran, and where it failed.

pytest-codeblocks makes one test of each python block of a page, together with the blocks that continue it
(``<!--pytest-codeblocks:cont-->``). The English and the Chinese page carry the same blocks, and most of a run's
blocks passed in the run before with nothing changed. So a block's test that passed is remembered in the build cache
(``<cache>/blocks/<key>``, ``site_tools.build.kernels.block_passed``), and the next test with the same key passes at
once, reported as reused in the run's summary. The key (:func:`key_of`) holds everything the
outcome depends on: the test's code as Python reads it (its own block and every block that continues it; comments and
blank lines left out), what it must print, its marks, ``site_tools.build.kernels.environment_digest`` (the library's
and the figures' sources, every pin, Python, the CPU, MKL's code path, torch's threads, the harness itself) and
:data:`RULES` (this plugin and the assertions' reader, which decide that a block passed). Change any of them and the
block runs again; ``PE_DOCS_NO_CACHE=1`` runs every block. A test that failed is never remembered.
``tests/test_block_cache.py`` checks the rule.

A block that runs passes only if **every assertion in its code ran** (:func:`lines_run`, :func:`assertions_not_run`):
an assertion in a function no block calls, or under an ``if`` that is never true, backs a number without checking it.
The failure names each one at its page line.

A page block that fails is reported at the page line it failed on (:func:`failing_line`): pytest-codeblocks names
only the line of the block's first fence and prints the code of the whole chain.
"""

from __future__ import annotations

import hashlib
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from site_tools import cache, pages
from site_tools.build import kernels
from site_tools.pages import asserts
from site_tools.pages.model import SHELLS


def is_page_block(item: pytest.Item) -> bool:
    """Whether a test is a python block of a page (pytest-codeblocks' item)."""
    block = getattr(item, "obj", None)
    return getattr(block, "syntax", None) == "python" and hasattr(block, "expected_output")


# What decides here that a block passed, besides its run: this plugin (every assertion must run) and the assertions'
# reader (site_tools.pages.asserts). A change to either runs every block again.
RULES = hashlib.sha256(Path(__file__).read_bytes() + Path(asserts.__file__).read_bytes()).hexdigest()


def key_of(block: Any) -> str:
    """The cache key of a pytest-codeblocks block (its code already holds the blocks that continue it):
    ``kernels.block_key`` with :data:`RULES`."""
    key = kernels.block_key(block.code, block.expected_output, block.expected_output_ignore_whitespace, block.marks)
    return hashlib.sha256(f"{key}\0{RULES}".encode()).hexdigest()[:32]


def passed_before(block: Any) -> Path | None:
    """THE RULE: the record that lets this block's test pass without running — when caching is on and a test with
    the same key (:func:`key_of`) passed before — else ``None``: the block runs."""
    if not cache.enabled():
        return None
    record = kernels.block_passed(key_of(block))
    return record if record.exists() else None


def remember(block: Any) -> None:
    """Record that this block's test passed (nothing when caching is off)."""
    if cache.enabled():
        record = kernels.block_passed(key_of(block))
        record.parent.mkdir(parents=True, exist_ok=True)
        record.touch()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Run a page block's test unless :func:`passed_before` says it may pass; remember it when it passes. A shell
    block of a page is never run (pytest-codeblocks would run its commands on the contributor's machine): it fails,
    as the page check (``site_tools.pages``) says why."""
    block = getattr(item, "obj", None)
    if getattr(block, "syntax", None) in SHELLS and hasattr(block, "expected_output"):
        item.runtest = lambda: pytest.fail(  # type: ignore[method-assign]
            f"line {block.lineno}: ```{block.syntax} blocks are not run; show commands as ```console",  # type: ignore[union-attr]
            pytrace=False,
        )
    if not is_page_block(item):
        yield
        return
    block = item.obj  # type: ignore[attr-defined]
    if passed_before(block) is not None:
        item.user_properties.append(("pe_docs_reused", "block"))
        item.runtest = lambda: None  # type: ignore[method-assign]  # this call only: the item is not run again
    else:
        _every_assertion_runs(item)
    outcome = yield
    if outcome.excinfo is None and not dict(item.user_properties).get("pe_docs_reused"):
        remember(block)


def page_line(item: pytest.Item, line: int) -> tuple[Path, int, str] | None:
    """The page, its line number and its text for line ``line`` of the code pytest-codeblocks runs for ``item`` (a
    block and the blocks that continue it, run as one string), or ``None`` if it cannot be found."""
    path = Path(str(item.path))
    head = item.obj.lineno  # type: ignore[attr-defined]  # pytest-codeblocks: the line of the first fence
    chain = pages.read(path).chains().get(head, [])
    # the page's lines of the chain, in order; pytest-codeblocks drops the blank lines of an indented fence, so the
    # run code's lines are found in them one after the other
    shown = [(f.line + 1 + j, text.rstrip()) for f in chain for j, text in enumerate(f.code.split("\n"))]
    k = -1
    for text in item.obj.code.split("\n")[:line]:  # type: ignore[attr-defined]
        k = next((i for i in range(k + 1, len(shown)) if shown[i][1] == text.rstrip()), len(shown))
    if not 0 <= k < len(shown):
        return None
    return path, *shown[k]


def failing_line(item: pytest.Item, error: BaseException) -> str | None:
    """Where a page block's test failed, as "docs/<lang>/<page>.md:<line>: <the line>" and the error: the last line
    of the page's code in the traceback of the error pytest-codeblocks wraps, mapped back to its fence
    (:func:`page_line`). ``None`` if the failure is not in the page's code (an expected output that differs:
    pytest-codeblocks' own message says so)."""
    cause = error.__cause__ or error.__context__
    if cause is None:
        return None
    lines = [n for frame, n in traceback.walk_tb(cause.__traceback__) if frame.f_code.co_filename == "<string>"]
    where = page_line(item, lines[-1]) if lines else None
    if where is None:
        return None
    path, line, text = where
    return f"{pages.rel(path)}:{line}: {text.strip()}\n{type(cause).__name__}: {cause}"


@contextmanager
def lines_run() -> Iterator[set[int]]:
    """The lines of a page block's code that run inside the ``with``: Python's line events
    (:func:`sys.settrace`) in the frames of the code pytest-codeblocks runs (file ``<string>``, in the globals it
    gives that code), and in no other frame."""
    ran: set[int] = set()

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            ran.add(frame.f_lineno)
        return local

    def call(frame: FrameType, event: str, arg: Any) -> Any:
        page_code = frame.f_code.co_filename == "<string>" and frame.f_globals.get("__MODULE__") == "__main__"
        return local if page_code else None

    previous = sys.gettrace()
    sys.settrace(call)
    try:
        yield ran
    finally:
        sys.settrace(previous)


def assertions_not_run(item: pytest.Item, ran: set[int]) -> list[str]:
    """Each assertion of a page block's test that did not run, as "docs/<lang>/<page>.md:<line>: <assertion>"."""
    missed = []
    for first, last, text in asserts.assertions(item.obj.code):  # type: ignore[attr-defined]
        if ran.isdisjoint(range(first, last + 1)):
            where = page_line(item, first)
            missed.append(f"{pages.rel(where[0])}:{where[1]}: {text}" if where else text)
    return missed


def _every_assertion_runs(item: pytest.Item) -> None:
    """Make the test of a page block fail if an assertion of its code did not run while it passed."""
    run = item.runtest

    def runtest() -> None:
        with lines_run() as ran:
            run()
        if missed := assertions_not_run(item, ran):
            pytest.fail(
                "an assertion backs a number only if it runs, and these never ran (in a function no block calls, "
                "under a branch not taken, or in a loop that never turns):\n  " + "\n  ".join(missed),
                pytrace=False,
            )

    item.runtest = runtest  # type: ignore[method-assign]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A page block that failed: its report starts with the page line it failed on (:func:`failing_line`)."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and call.when == "call" and call.excinfo is not None and is_page_block(item):
        where = failing_line(item, call.excinfo.value)
        if where:
            report.longrepr = f"{where}\n\n{report.longrepr}"


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    reports = terminalreporter.stats.get("passed", [])
    reused = [dict(r.user_properties).get("pe_docs_reused") for r in reports if r.when == "call"]
    blocks, notebooks = reused.count("block"), reused.count("notebook")
    if blocks or notebooks:
        terminalreporter.write_line(
            f"pe-docs: {blocks} page blocks and {notebooks} notebook runs had passed with the same code, library "
            f"and environment, and were reused from the cache ({cache.NO_CACHE_ENV}=1 runs them again)"
        )
