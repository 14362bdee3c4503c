"""Shared fixtures: the bilingual site is built once per test session (strict) and reused.

It is built for a public address under a sub-path, ``http://127.0.0.1:<port>/pe-docs-test/`` (Chinese under
``…/zh/``), into a temporary folder, and served there the way GitHub Pages serves a project site: only under
that prefix, with the root ``404.html`` (status 404) for every missing address. So every site and browser test
also checks that the site works at an address other than the one in mkdocs.yml.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_tools import site
from site_tools.browser import serve_site

TEST_PREFIX = "/pe-docs-test/"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    """Build both languages with strict checks for the test address and serve them; yield what was built.

    Keys: ``dir`` (the English site; Chinese in ``dir/zh``), ``base`` (the English site's address, served),
    ``timings`` (seconds per language), ``seconds`` (total).
    """
    site_dir = tmp_path_factory.mktemp("public") / "site"
    with serve_site(site_dir, TEST_PREFIX) as base:
        start = time.perf_counter()
        timings = site.build(site_url=base, site_dir=site_dir)  # the build of `make site`: strict by default
        yield {"dir": site_dir, "base": base, "timings": timings, "seconds": time.perf_counter() - start}


@pytest.fixture(scope="session")
def site_dir(built_site: dict[str, object]) -> Path:
    return built_site["dir"]  # type: ignore[return-value]


@pytest.fixture(scope="session")
def site_base(built_site: dict[str, object]) -> str:
    """The English site's public address (the server's sub-path); the Chinese one is ``site_base + "zh/"``."""
    return built_site["base"]  # type: ignore[return-value]


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
