"""When a page block's test may pass without running: one rule, in :func:`passed_before`.

pytest-codeblocks makes one test of each python block of a page, together with the blocks that continue it
(``<!--pytest-codeblocks:cont-->``). The English and the Chinese page carry the same blocks, and most of a run's
blocks passed in the run before with nothing changed. So a block's test that passed is remembered in the build cache
(``<cache>/blocks/<key>``, ``site_tools.build.kernels.block_passed``), and the next test with the same key passes at
once, reported as reused in the run's summary. The key (``site_tools.build.kernels.block_key``) holds everything the
outcome depends on: the test's code as Python reads it (its own block and every block that continues it; comments and
blank lines left out), what it must print, its marks, and ``site_tools.build.kernels.environment_digest`` (the library's
and the figures' sources, every pin, Python, the CPU, MKL's code path, torch's threads, the harness itself). Change any
of them and the block runs again; ``PE_DOCS_NO_CACHE=1`` runs every block. A test that failed is never remembered.
``tests/test_block_cache.py`` checks the rule.

A page block that fails is reported at the page line it failed on (:func:`failing_line`): pytest-codeblocks names
only the line of the block's first fence and prints the code of the whole chain.
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

import pytest

from site_tools import cache, pages
from site_tools.build import kernels
from site_tools.pages.model import SHELLS


def is_page_block(item: pytest.Item) -> bool:
    """Whether a test is a python block of a page (pytest-codeblocks' item)."""
    block = getattr(item, "obj", None)
    return getattr(block, "syntax", None) == "python" and hasattr(block, "expected_output")


def key_of(block: Any) -> str:
    """The cache key of a pytest-codeblocks block (its code already holds the blocks that continue it)."""
    return kernels.block_key(block.code, block.expected_output, block.expected_output_ignore_whitespace, block.marks)


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
    outcome = yield
    if outcome.excinfo is None and not dict(item.user_properties).get("pe_docs_reused"):
        remember(block)


def failing_line(item: pytest.Item, error: BaseException) -> str | None:
    """Where a page block's test failed, as "docs/<lang>/<page>.md:<line>: <the line>" and the error: the last line
    of the page's code in the traceback of the error pytest-codeblocks wraps (the code of a block and the blocks that
    continue it, run as one string), mapped back to its fence. ``None`` if the failure is not in the page's code (an
    expected output that differs: pytest-codeblocks' own message says so)."""
    cause = error.__cause__ or error.__context__
    if cause is None:
        return None
    lines = [n for frame, n in traceback.walk_tb(cause.__traceback__) if frame.f_code.co_filename == "<string>"]
    if not lines:
        return None
    path = Path(str(item.path))
    head = item.obj.lineno  # type: ignore[attr-defined]  # pytest-codeblocks: the line of the first fence
    chain = pages.read(path).chains().get(head, [])
    # the page's lines of the chain, in order; pytest-codeblocks drops the blank lines of an indented fence, so the
    # run code's lines are found in them one after the other
    shown = [(f.line + 1 + j, text.rstrip()) for f in chain for j, text in enumerate(f.code.split("\n"))]
    k = -1
    for text in item.obj.code.split("\n")[: lines[-1]]:  # type: ignore[attr-defined]
        k = next((i for i in range(k + 1, len(shown)) if shown[i][1] == text.rstrip()), len(shown))
    if not 0 <= k < len(shown):
        return None
    line, text = shown[k]
    return f"{pages.rel(path)}:{line}: {text.strip()}\n{type(cause).__name__}: {cause}"


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
