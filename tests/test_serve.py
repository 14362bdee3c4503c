"""`make serve`'s server: both languages reachable on loopback, with MkDocs' live-reload script injected."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.site


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode("utf-8")


def wait_until(url: str, predicate: Callable[[str], bool], proc: subprocess.Popen, timeout: float = 300) -> str:
    """Poll ``url`` until its HTML satisfies ``predicate`` (the timeout only guards against a hang)."""
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, "server exited"
        try:
            _, html = fetch(url)
            if predicate(html):
                return html
        except OSError:
            pass
        assert time.monotonic() < deadline, f"{url} never showed the change"
        time.sleep(0.2)


def pages_in(index: dict) -> list[str]:
    return sorted({d["location"].split("#")[0] for d in index["docs"]})


def test_serve_both_languages_with_live_reload_and_rebuild_only_the_edited_page(
    tmp_path: Path, built_site: dict[str, object]
) -> None:
    """``python -m site_tools.build.preview`` (``make serve``), in a scratch copy of the repository (after the test
    run's build, so it reuses its figures): both languages are served on loopback with MkDocs' live-reload script.
    A paragraph edited in one language is rebuilt alone: the other language and the other pages are not written
    again, the search index gets the page's new text and keeps every other page. A new title rebuilds the language,
    so every page's navigation shows it."""
    from site_tools import copy_repository

    repo = copy_repository(tmp_path / "repo")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "site_tools.build.preview", "--port", str(port)],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(repo)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/"
    site_dir = repo / "site"
    try:
        html = wait_until(base + "zh/formula/", lambda html: "公式" in html, proc, timeout=600)
        assert "livereload" in html  # the reload script that refreshes the browser after a rebuild
        status, html = fetch(base + "formula/")
        assert status == 200 and "The formula" in html and "livereload" in html
        time.sleep(1)
        untouched = [site_dir / "index.html", site_dir / "formula/index.html", site_dir / "zh/index.html"]
        mtimes = {p: p.stat().st_mtime_ns for p in untouched}
        index_before = json.loads((site_dir / "zh/search/search_index.json").read_text(encoding="utf-8"))

        page = repo / "docs/zh/formula.md"
        text = page.read_text(encoding="utf-8")
        marker = "previewmarkxyz"
        # the page's first prose line that ends with a colon (whatever the page says this week)
        sentence = next(line for line in text.splitlines() if line.endswith("：") and line[:1] not in " |#!?<`-$")
        page.write_text(text.replace(sentence, f"{sentence[:-1]} {marker}：", 1), encoding="utf-8")
        wait_until(base + "zh/formula/", lambda html: marker in html, proc)
        time.sleep(1)
        assert {p: p.stat().st_mtime_ns for p in untouched} == mtimes  # neither English nor other zh pages
        index = json.loads((site_dir / "zh/search/search_index.json").read_text(encoding="utf-8"))
        assert pages_in(index) == pages_in(index_before)
        assert any(marker in d["text"] for d in index["docs"] if d["location"].startswith("formula/"))

        page.write_text(text.replace("# 公式\n", "# 公式与定义\n", 1), encoding="utf-8")
        html = wait_until(base + "zh/wavelength/", lambda html: "公式与定义" in html, proc)  # the nav of another page
        assert marker not in wait_until(base + "zh/formula/", lambda html: marker not in html, proc)
        assert "公式与定义" not in fetch(base + "formula/")[1] and html
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
