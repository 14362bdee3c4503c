"""Copies of the repository a test may change: a release tarball, and a scratch checkout.

- ``release_copy`` / ``release_site`` (session fixtures): the sources as ``git archive`` holds them (no ``.git``), with
  a new chapter made by ``make chapter``, and ``make site`` run in it.
- a scratch copy for one test: ``site_tools.copy_repository(tmp_path / "repo", cache=…)``, with the build cache
  shared, copied or none.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

SCRATCH_CHAPTER = "scratch-chapter"  # a name no real page uses
SCRATCH_SECTION = "Deep dives"  # the nav section it is created in


def _env(repo: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(repo)}
    env.pop("SITE_URL", None)
    return env


@pytest.fixture(scope="session")
def release_copy(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The sources as a release tarball (``git archive``) holds them — every file ``git ls-files`` lists, no ``.git``
    — after ``make chapter NAME=scratch-chapter SECTION='Deep dives'`` (``python -m site_tools.pages.chapter``). KaTeX
    is linked (what ``make setup`` installs) and so is the build cache (keyed by content: what a tarball would draw
    again).

    Keys: ``dir``, and ``chapter`` (the chapter command's completed process). Used by ``test_chapter.py`` (a new
    chapter passes its checks and the strict build) and ``test_build_guards.py`` (a tarball builds).
    """
    import subprocess

    from site_tools import copy_repository

    copy = copy_repository(tmp_path_factory.mktemp("release") / "pe-docs")
    chapter = subprocess.run(
        [sys.executable, "-m", "site_tools.pages.chapter", SCRATCH_CHAPTER, "--section", SCRATCH_SECTION],
        cwd=copy,
        env=_env(copy),
        capture_output=True,
        text=True,
        timeout=600,
    )
    return {"dir": copy, "chapter": chapter}


@pytest.fixture(scope="session")
def release_site(release_copy: dict[str, Any], built_site: dict[str, object]) -> dict[str, Any]:
    """``python -m site_tools.build`` (``make site``) in :func:`release_copy`, both languages, for the address
    in mkdocs.yml (no ``SITE_URL``); after the test run's build (``built_site``), whose figures and executed
    notebooks it finds in the cache. Keys: ``dir`` (the copy), ``site`` (its ``site/``), ``build`` (the completed
    process)."""
    import subprocess

    copy = release_copy["dir"]
    build = subprocess.run(
        [sys.executable, "-m", "site_tools.build"],
        cwd=copy,
        env=_env(copy),
        capture_output=True,
        text=True,
        timeout=900,
    )
    return {"dir": copy, "site": copy / "site", "build": build}
