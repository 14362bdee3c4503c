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
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from site_tools import cache
from site_tools.build import kernels


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
    """Run a page block's test unless :func:`passed_before` says it may pass; remember it when it passes."""
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


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    reports = terminalreporter.stats.get("passed", [])
    reused = [dict(r.user_properties).get("pe_docs_reused") for r in reports if r.when == "call"]
    blocks, notebooks = reused.count("block"), reused.count("notebook")
    if blocks or notebooks:
        terminalreporter.write_line(
            f"pe-docs: {blocks} page blocks and {notebooks} notebook runs had passed with the same code, library "
            f"and environment, and were reused from the cache ({cache.NO_CACHE_ENV}=1 runs them again)"
        )
