"""Headless Chromium against the built site on loopback: a static server and a browser launcher.

Used by the browser tests and by ``python -m site_tools.browser shots`` (screenshots for a human to look at).
Playwright drives Debian's Chromium (``/usr/bin/chromium``); Playwright's own browser download is not used.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import socketserver
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE_DIR = ROOT / "site"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise FileNotFoundError("Chromium not found; install Debian's `chromium` package (make setup does)")
    return path


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve_site(root: Path = SITE_DIR) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (a free port) in a thread; yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{httpd.server_address[1]}/"
        finally:
            httpd.shutdown()


@contextlib.contextmanager
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def screenshots(out_dir: Path, paths: list[str], schemes: tuple[str, ...] = ("light", "dark")) -> list[Path]:
    """Full-page PNGs of ``paths`` (relative URLs such as ``formula/`` or ``zh/formula/``) per colour scheme."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with serve_site() as base, browser() as b:
        for scheme in schemes:
            ctx = b.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
            page = ctx.new_page()
            for path in paths:
                page.goto(base + path, wait_until="networkidle")
                page.wait_for_timeout(300)
                name = (path.strip("/").replace("/", "_") or "home") + f".{scheme}.png"
                page.screenshot(path=str(out_dir / name), full_page=True)
                written.append(out_dir / name)
            ctx.close()
    return written


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".cache" / "screenshots"
    pages = sys.argv[2:] or ["", "formula/", "zh/", "zh/formula/"]
    for p in screenshots(out, pages):
        print(p)
