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
