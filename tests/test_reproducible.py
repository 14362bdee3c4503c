"""Two builds of the same commit are byte-identical, apart from dates.

The first is the test run's own build (``built_site``, conftest.py: ``build.build()``, the build of ``make site``,
from this checkout with its cache — cold in a fresh clone, as in CI). The second runs ``python -m site_tools.build``
(the recipe of ``make site``) for the same address in a scratch copy of the repository (no git history) with its own
empty cache (``PE_DOCS_CACHE``), so it draws every figure and generates every chapter's notebook
(``notebooks/<page>.ipynb``, ``site_tools.build.notebooks``) in processes of its own: nothing is shared with the
first but the sources. Every file of both sites is compared; gzip files by their content (their header holds the
time they were written); the only differences allowed are dates. So a build is reproducible, and a build from the
cache is the build from scratch.
"""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from site_tools import copy_repository, pages
from site_tools.build import notebooks

pytestmark = pytest.mark.site

# Dates a build writes: the sitemap's <lastmod> (the build date) and, where a page shows it, the date of its last
# change (git-revision-date-localized: a git date, or the build date without git), in the text of its <span> and in
# the span's title (the same date with the time of day).
DATES: tuple[tuple[re.Pattern[bytes], bytes], ...] = (
    (re.compile(rb"<lastmod>[^<]*</lastmod>"), b"<lastmod>DATE</lastmod>"),
    (re.compile(rb'(git-revision-date-localized-plugin-\w+")(?: title="[^"<>]*")?>[^<]*<'), rb'\1 title="DATE">DATE<'),
)


def masked(data: bytes) -> bytes:
    for pattern, replacement in DATES:
        data = pattern.sub(replacement, data)
    return data


def content(path: Path) -> bytes:
    data = path.read_bytes()
    return masked(gzip.decompress(data) if path.suffix == ".gz" else data)


def build_in_scratch(tmp_path: Path, name: str, site_url: str) -> Path:
    repo = copy_repository(tmp_path / name, cache=None)  # not the shared cache: this build starts cold
    env = {**os.environ, "PYTHONPATH": str(repo), "PE_DOCS_CACHE": str(tmp_path / f"{name}-cache")}
    env.pop("SITE_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "site_tools.build", "--site-url", site_url],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return repo / "site"


def test_masking_hides_only_dates() -> None:
    a = b"<url><loc>x</loc><lastmod>2026-11-23</lastmod></url>"
    assert masked(a) == masked(a.replace(b"2026-11-23", b"2027-01-02"))
    assert masked(a) != masked(a.replace(b"<loc>x", b"<loc>y"))
    span = b'<span class="git-revision-date-localized-plugin-date">November 23, 2026</span>'
    assert masked(span) == masked(span.replace(b"November 23", b"December 1"))
    titled = (
        b'<span class="git-revision-date-localized-plugin git-revision-date-localized-plugin-date"'
        b' title="November 23, 2026 12:26:09 UTC">November 23, 2026</span>'
    )
    assert masked(titled) == masked(titled.replace(b"12:26:09", b"12:26:35").replace(b"23", b"24"))
    assert masked(titled) != masked(titled.replace(b"plugin-date", b"plugin-other"))
    assert masked(b"<p>November 23, 2026</p>") == b"<p>November 23, 2026</p>"  # only the plugin's dates


def test_a_cold_build_is_the_session_build_apart_from_dates(tmp_path: Path, site_dir: Path, site_base: str) -> None:
    second = build_in_scratch(tmp_path, "cold", site_base)
    first = site_dir
    files = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second).as_posix() for p in second.rglob("*") if p.is_file())
    assert len(files) > 100
    generated = {  # every chapter's notebook, in both languages, is among the files compared
        (f"{lang}/" if lang != "en" else "") + notebooks.notebook_uri(name)
        for lang in pages.LANGS
        for name in pages.chapters(lang)
    }
    assert len(generated) >= 2 * len(pages.LANGS) and generated <= set(files), sorted(generated - set(files))
    differ = [name for name in files if content(first / name) != content(second / name)]
    assert differ == [], f"{len(differ)} files differ between two builds, e.g. {differ[:10]}"
