"""The test run's plugins (``tests/harness/``, one concern each; read their docstrings) and the names tests import.

- ``harness.run``: the run's shared folder, handed to every pytest-xdist worker; one torch thread per process.
- ``harness.built_site``: the site built once per run (strict) and served under a sub-path, like GitHub Pages
  (fixtures ``built_site``, ``site_dir``, ``site_base``).
- ``harness.notebooks``: the chapter notebooks run in the background (fixture ``notebook_result``).
- ``harness.page_selection``: ``--page <slug>``, what ``make check PAGE=<slug>`` runs.
- ``harness.scheduling``: units a worker runs whole, longest first (``make test``).
- ``harness.block_cache``: when a page block's test may pass without running.
- ``harness.scratch``: a release tarball and scratch copies of the repository (fixtures ``release_copy``,
  ``release_site``).
- ``harness.live``: the explorers' browser tests' shared part (fixtures ``chromium``, ``base_url``, ``visits``,
  ``fresh``; ``Visit`` and the checks ``tests/test_live_*.py`` import).
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
