"""`make serve`'s server: both languages reachable on loopback, with MkDocs' live-reload script injected."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.site


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode("utf-8")


def test_serve_both_languages_with_live_reload(built_site: dict[str, object]) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "site_tools.site", "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 240
        while True:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else "server exited"
            try:
                status, html = fetch(base + "zh/formula/")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)
        assert status == 200 and "公式" in html
        assert "livereload" in html  # the reload script that refreshes the browser after a rebuild
        status, html = fetch(base + "formula/")
        assert status == 200 and "The formula" in html
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
