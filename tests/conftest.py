"""Shared fixtures: the bilingual site is built once per test session (strict) and reused."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from site_tools import site


@pytest.fixture(scope="session")
def built_site() -> dict[str, object]:
    """Build both languages into site/ as `make site` does (strict); return timings and the site directory."""
    start = time.perf_counter()
    timings = site.build()  # the build of `make site`: strict by default
    return {"dir": site.SITE_DIR, "timings": timings, "seconds": time.perf_counter() - start}


@pytest.fixture(scope="session")
def site_dir(built_site: dict[str, object]) -> Path:
    return built_site["dir"]  # type: ignore[return-value]


# What the checks and the build read; a scratch copy of these is a repository the tests may change freely.
SCRATCH_DIRS = ("docs", "templates", "site_tools", "pe_docs", "tests", "overrides")
SCRATCH_FILES = ("mkdocs.yml", "mkdocs.zh.yml", "pyproject.toml")


def make_scratch_repo(dest: Path) -> Path:
    """Copy the repository's pages, configs, tools, library and tests into ``dest``; link the installed KaTeX and
    the build cache (same sources, same cache keys: figures and notebooks are reused, not redrawn)."""
    import shutil

    root = Path(__file__).resolve().parent.parent
    ignore = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints")
    for name in SCRATCH_DIRS:
        shutil.copytree(root / name, dest / name, ignore=ignore)
    for name in SCRATCH_FILES:
        shutil.copy2(root / name, dest / name)
    (dest / "node_modules").symlink_to(root / "node_modules")
    (root / ".cache").mkdir(exist_ok=True)
    (dest / ".cache").symlink_to(root / ".cache")
    return dest
