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


class _PagesHandler(http.server.SimpleHTTPRequestHandler):
    """Serves ``directory`` at the URL path ``prefix`` and answers every missing address with the root
    ``404.html`` and status 404, as GitHub Pages does for a project site."""

    prefix = "/"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def translate_path(self, path: str) -> str:
        url_path = path.split("?", 1)[0].split("#", 1)[0]
        if not (url_path + "/").startswith(self.prefix):
            return os.path.join(self.directory, "__outside_the_prefix__", "missing")  # answered with 404.html
        return super().translate_path("/" + path[len(self.prefix) :])

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@contextlib.contextmanager
def serve_site(root: Path = SITE_DIR, prefix: str = "/") -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (a free port) under the URL path ``prefix``, in a thread; yield the base URL.

    Like a static host (GitHub Pages): ``<base>x/`` serves ``root/x/index.html``, a folder without its trailing
    slash is redirected, and any missing address gets ``root/404.html`` with status 404. ``root`` may be filled
    after the server starts (files are read per request), so a site can be built for the yielded address.
    """
    if not prefix.startswith("/") or not prefix.endswith("/"):
        raise ValueError(f"prefix must start and end with '/', got {prefix!r}")
    handler_class = type("Handler", (_PagesHandler,), {"prefix": prefix})
    handler = functools.partial(handler_class, directory=str(root))
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{httpd.server_address[1]}{prefix}"
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


PHONE = {"width": 390, "height": 844}  # a common phone's CSS viewport (iPhone 12-15)
DESKTOP = {"width": 1280, "height": 900}


def screenshots(
    out_dir: Path,
    paths: list[str],
    schemes: tuple[str, ...] = ("light", "dark"),
    viewport: dict[str, int] | None = None,
    site_dir: Path = SITE_DIR,
) -> list[Path]:
    """Full-page PNGs of ``paths`` (relative URLs such as ``formula/`` or ``zh/formula/``) per colour scheme.

    ``viewport`` defaults to a desktop window (:data:`DESKTOP`); pass :data:`PHONE` for a phone. File names end
    in ``.<scheme>.<width>.png``.
    """
    viewport = viewport or DESKTOP
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with serve_site(site_dir) as base, browser() as b:
        for scheme in schemes:
            ctx = b.new_context(color_scheme=scheme, viewport=viewport)  # type: ignore[attr-defined]
            page = ctx.new_page()
            for path in paths:
                page.goto(base + path, wait_until="networkidle")
                page.wait_for_timeout(300)
                name = (path.strip("/").replace("/", "_") or "home") + f".{scheme}.{viewport['width']}.png"
                page.screenshot(path=str(out_dir / name), full_page=True)
                written.append(out_dir / name)
            ctx.close()
    return written


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(prog="python -m site_tools.browser", description="screenshots of the built site")
    parser.add_argument("out", nargs="?", type=Path, default=ROOT / ".cache" / "screenshots")
    parser.add_argument("paths", nargs="*", default=["", "formula/", "zh/", "zh/formula/"])
    parser.add_argument("--phone", action="store_true", help=f"{PHONE['width']} px wide instead of a desktop window")
    parser.add_argument("--scheme", choices=["light", "dark"], action="append", help="only this colour scheme")
    args = parser.parse_args()
    schemes = tuple(args.scheme) if args.scheme else ("light", "dark")
    for p in screenshots(args.out, args.paths, schemes, PHONE if args.phone else DESKTOP):
        print(p)
