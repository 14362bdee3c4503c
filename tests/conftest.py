"""The test run's plugins (``tests/harness/``, one concern each: the list is ``harness/__init__.py``'s docstring,
each plugin's own docstring names its fixtures) and the names tests import.
"""

from __future__ import annotations

import pytest

pytest.register_assert_rewrite("harness")

from harness.scratch import SCRATCH_CHAPTER  # noqa: E402

# The upstream tier runs in its own environment with its own ini file (make test-upstream). Left out here before
# its conftest.py is imported: both would be the module ``conftest``, and ``from conftest import …`` in the tests
# would find the wrong one.
collect_ignore = ["upstream"]

pytest_plugins = [
    "harness.run",
    "harness.built_site",
    "harness.notebooks",
    "harness.page_selection",
    "harness.scheduling",
    "harness.block_cache",
    "harness.scratch",
    "harness.live",
]

__all__ = ["SCRATCH_CHAPTER"]
