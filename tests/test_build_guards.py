"""The quiet failure modes of the toolchain each make the build fail (or a check go red).

Each test builds a throwaway site from the real mkdocs.yml (same plugins, hooks and validation) with one
defect planted: a notebook cell that raises, a link to a missing anchor, a figure drawn with a missing glyph.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from site_tools import figures, hooks

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.site


def site_from(tmp_path: Path, pages: dict[str, str], nav: list[str]) -> object:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")
    return load_config(
        config_file=str(ROOT / "mkdocs.yml"),
        docs_dir=str(docs),
        site_dir=str(tmp_path / "site"),
        nav=nav,
        strict=True,
    )


def notebook(code: str) -> str:
    return json.dumps(
        {
            "cells": [
                {"cell_type": "markdown", "id": "title", "metadata": {}, "source": ["# A notebook"]},
                {
                    "cell_type": "code",
                    "id": "code",
                    "metadata": {},
                    "execution_count": None,
                    "outputs": [],
                    "source": [code],
                },
            ],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def test_failing_notebook_cell_fails_the_build(tmp_path: Path) -> None:
    config = site_from(
        tmp_path,
        {"index.md": "# Home\n", "nb.ipynb": notebook("raise ValueError('planted failure')")},
        ["index.md", "nb.ipynb"],
    )
    with pytest.raises(Exception, match="planted failure"):
        build(config)


def test_notebook_cache_is_keyed_by_the_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change to pe_docs re-executes the notebooks (mkdocs-jupyter's own key only sees the .ipynb)."""
    config = site_from(tmp_path, {"index.md": "# Home\n"}, ["index.md"])
    hooks.on_config(config)
    first = config.plugins["mkdocs-jupyter"].config["cache_dir"]
    monkeypatch.setattr(figures, "source_digest", lambda: "0123456789abcdef0123")
    hooks.on_config(config)
    second = config.plugins["mkdocs-jupyter"].config["cache_dir"]
    assert first != second and second.endswith("0123456789abcdef")
    assert config.plugins["mkdocs-jupyter"].config["allow_errors"] is False
    assert config.plugins["mkdocs-jupyter"].config["execute"] is True


def test_broken_anchor_fails_the_build(tmp_path: Path) -> None:
    config = site_from(
        tmp_path,
        {"index.md": "# Home\n\nSee [there](other.md#no-such-heading).\n", "other.md": "# Other\n\n## Real\n"},
        ["index.md", "other.md"],
    )
    with pytest.raises(Abort):
        build(config)


def test_broken_link_fails_the_build(tmp_path: Path) -> None:
    config = site_from(tmp_path, {"index.md": "# Home\n\nSee [missing](missing.md).\n"}, ["index.md"])
    with pytest.raises(Abort):
        build(config)


def test_chinese_headings_get_readable_anchors(tmp_path: Path) -> None:
    config = site_from(tmp_path, {"index.md": "# 首页\n\n## 为什么需要位置编码\n"}, ["index.md"])
    build(config)
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'id="为什么需要位置编码"' in html


@pytest.mark.browser
def test_a_tarball_without_git_still_builds(tmp_path: Path) -> None:
    """A copy of the sources without .git (a release tarball, `git archive`) builds strictly: the "Last update"
    date falls back to the build date instead of failing (git-revision-date-localized, fallback_to_build_date)."""
    import datetime as dt
    import os
    import shutil
    import subprocess
    import sys

    from babel.dates import format_date

    src = tmp_path / "pe-docs"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split("\0")
    for rel in filter(None, listed):
        if (ROOT / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, src / rel)
    (src / "node_modules").symlink_to(ROOT / "node_modules")  # what `make setup` (npm ci) would install
    # derived files keyed by content (figures, executed notebook): copied only to save time; a tarball redraws them
    if (ROOT / ".cache").is_dir():
        shutil.copytree(ROOT / ".cache", src / ".cache", ignore=shutil.ignore_patterns("screenshots"))
    assert subprocess.run(["git", "rev-parse"], cwd=src, capture_output=True, check=False).returncode != 0

    env = {**os.environ, "PYTHONPATH": str(src)}
    env.pop("SITE_URL", None)
    out = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "site_tools.site", "build", "--lang", "en", "--site-dir", str(out)],
        cwd=src, env=env, capture_output=True, text=True, check=False, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    html = (out / "formula" / "index.html").read_text(encoding="utf-8")
    today = dt.datetime.now(dt.UTC).date()
    shown = {format_date(d, format="long", locale="en") for d in (today, today - dt.timedelta(days=1))}
    dates = [d for d in shown if f">{d}</span>" in html]
    assert dates, "the page shows the build date as its last update"
    assert '<link rel="canonical" href="https://pe-docs.github.io/pe-docs/formula/">' in html

    # Served somewhere else than its public address (a local preview, a mirror), it still loads nothing from there:
    # the absolute head links (canonical, hreflang) are not fetched.
    from site_tools.browser import browser, serve_site

    with serve_site(out) as base, browser() as chromium:
        page = chromium.new_page()  # type: ignore[attr-defined]
        requests: list[str] = []
        errors: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(base + "formula/", wait_until="networkidle")
    assert [u for u in requests if not u.startswith((base, "data:"))] == [] and errors == [], (requests, errors)
