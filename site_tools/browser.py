"""Headless Chromium against the built site on loopback: a static server and a browser launcher.

Used by the browser tests, by ``python -m site_tools.browser shots`` (screenshots for a human to look at) and by
``python -m site_tools.browser measure`` (per page: first-view bytes and requests on a phone, as a static host that
gzips text sends them, axe-core's serious violations, first contentful paint under Slow 4G).
Playwright drives Debian's Chromium (``/usr/bin/chromium``); Playwright's own browser download is not used.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import functools
import gzip
import http.server
import io
import os
import shutil
import socketserver
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from site_tools import ROOT
from site_tools.layout import SITE_DIR

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise FileNotFoundError("Chromium not found; install Debian's `chromium` package (make setup does)")
    return path


#: What a static host (GitHub Pages) sends gzip-compressed to a browser that accepts it: text.
GZIPPED = frozenset({".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".ipynb"})


def gzipped(data: bytes) -> bytes:
    """``data`` as :func:`serve_site` sends a text file to a browser that accepts gzip."""
    return gzip.compress(data, compresslevel=6, mtime=0)  # zlib's default level


class _PagesHandler(http.server.SimpleHTTPRequestHandler):
    """Serves ``directory`` at the URL path ``prefix`` as GitHub Pages serves a project site (:func:`serve_site`)."""

    prefix = "/"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            path = path / "index.html"
        accepts = "gzip" in (self.headers.get("Accept-Encoding") or "")
        if not (accepts and path.suffix in GZIPPED and path.is_file()):
            return super().send_head()  # redirects, other files, 404s: as the standard library serves them
        body = gzipped(path.read_bytes())
        gzip_headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        self._answer(200, body, {"Content-Type": self.guess_type(str(path)), **gzip_headers})
        return io.BytesIO(body)

    def _answer(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()

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
        self._answer(404, body, {"Content-Type": "text/html; charset=utf-8"})
        if self.command != "HEAD":
            self.wfile.write(body)


class _Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True  # a named port can be served again right after the previous server stopped
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a browser closed before the answer was sent
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve_site(root: Path = SITE_DIR, prefix: str = "/", port: int = 0) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (a free port) under the URL path ``prefix``, in a thread; yield the base URL.

    Like a static host (GitHub Pages): ``<base>x/`` serves ``root/x/index.html``, a folder without its trailing
    slash is redirected, any missing address gets ``root/404.html`` with status 404, and text is sent
    gzip-compressed to a browser that accepts it (:data:`GZIPPED`). ``root`` may be filled
    after the server starts (files are read per request), so a site can be built for the yielded address.
    ``port`` 0 picks a free port; name one to serve a site built for that address.
    """
    if not prefix.startswith("/") or not prefix.endswith("/"):
        raise ValueError(f"prefix must start and end with '/', got {prefix!r}")
    handler = functools.partial(type("Handler", (_PagesHandler,), {"prefix": prefix}), directory=str(root))
    with _Server(("127.0.0.1", port), handler) as httpd:
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{httpd.server_address[1]}{prefix}"
        finally:
            httpd.shutdown()


def _stop(playwright: Any, chromium: Any) -> None:
    with contextlib.suppress(Exception):  # the driver may already be gone at interpreter exit
        chromium.close()
        playwright.stop()


@functools.cache
def shared_browser() -> Any:
    """The process's headless Chromium, started on first use and closed when the process exits.

    Playwright's sync API runs one driver per thread (a second ``sync_playwright()`` in the same thread fails), and
    starting Chromium takes a second: every caller in a process (a pytest-xdist worker runs all its browser tests in
    one) shares this browser and opens its own contexts in it.
    """
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    atexit.register(_stop, playwright, chromium)
    return chromium


def browser() -> contextlib.AbstractContextManager[Any]:
    """The process's shared headless Chromium (:func:`shared_browser`), as a context manager; it stays open."""
    return contextlib.nullcontext(shared_browser())


PHONE = {"width": 390, "height": 844}  # a common phone's CSS viewport (iPhone 12-15)
# A phone has a touch screen and no hover (CSS `(hover)` is false): Material makes a code block that scrolls a tab
# stop only where the reader can hover, so what a phone reader gets is checked with touch, as a phone has it.
PHONE_CONTEXT = {"has_touch": True}
DESKTOP = {"width": 1280, "height": 900}

# ---- a page's first view: what it downloads, how soon it paints, what axe-core finds ---------------------------

# What a page may download for its first view on a phone (PHONE, either colour scheme): every request until the
# network is idle after the load event (the search index Material fetches on load included), counted as the bytes
# that arrive from a static host that gzips text (serve_site does, as GitHub Pages): what a metered phone pays for.
PAGE_BUDGET = 600_000
# Chrome DevTools' "Slow 4G" preset (front_end/core/sdk/NetworkManager.ts, Slow4GConditions): 1.6 Mbit/s down
# and 750 kbit/s up, each times 0.9, and 150 ms times 3.75 of latency.
SLOW_4G = {"offline": False, "latency": 562.5, "downloadThroughput": 180_000, "uploadThroughput": 84_375}
# axe-core, from npm (package.json), and the WCAG 2.0 / 2.1 level A and AA rules the site must pass.
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
SERIOUS = ("serious", "critical")
# The rules of AXE_TAGS whose outcome depends on colours: all that changes between the light and the dark scheme
# (Material's schemes differ only in the CSS colour variables; the document is the same). The second scheme of a
# page is checked against these.
AXE_COLOUR_RULES = ("color-contrast", "link-in-text-block")


# The network counts as idle when no request has been in flight for this long (Playwright's "networkidle" uses
# 500 ms too, but counts from the start of the navigation, not from the load event: under load a large page can
# still be parsing when it fires).
QUIET_MS = 500


@dataclasses.dataclass
class FirstView:
    """One page opened in a fresh browser context (empty cache), recorded from the first request on."""

    url: str
    page: Any
    site: str  # requests that do not start with this address leave the site
    requests: list[Any] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    in_flight: set[Any] = dataclasses.field(default_factory=set)
    last_activity: float = 0.0

    def _started(self, request: Any) -> None:
        self.requests.append(request)
        self.in_flight.add(request)
        self.last_activity = time.monotonic()

    def _ended(self, request: Any) -> None:
        self.in_flight.discard(request)
        self.last_activity = time.monotonic()

    def wait_until_idle(self, quiet_ms: int = QUIET_MS, timeout_ms: int = 60_000) -> None:
        """Wait for the load event, then until no request has been in flight for ``quiet_ms``."""
        self.page.wait_for_load_state("load", timeout=timeout_ms)
        deadline = time.monotonic() + timeout_ms / 1000
        while self.in_flight or time.monotonic() - self.last_activity < quiet_ms / 1000:
            if time.monotonic() > deadline:
                pending = [r.url for r in self.in_flight]
                raise TimeoutError(f"{self.url}: the network was not idle after {timeout_ms} ms: {pending}")
            self.page.wait_for_timeout(25)  # lets Playwright deliver the request events it has received

    @property
    def offsite(self) -> list[str]:
        return [r.url for r in self.requests if not r.url.startswith((self.site, "data:", "blob:"))]

    def downloads(self) -> list[tuple[str, int]]:
        """Every network request so far (not data: and blob: addresses, parts of a file already counted) and the
        size of its response body as it arrived (compressed, if the server compressed it; 0 if it had none)."""
        return [(r.url, _arrived(r)) for r in self.requests if not r.url.startswith(("data:", "blob:"))]

    def weight(self) -> int:
        return sum(size for _, size in self.downloads())

    def wait_until_rendered(self) -> None:
        """Wait until the page's scripts have run: the document is complete, every explorer and live figure (if any)
        has drawn, and two frames have been rendered since (ResizeObserver callbacks, such as scrollers.js's, have
        run)."""
        self.page.wait_for_function(
            """() => document.readyState === 'complete'
                     && [...document.querySelectorAll('.pe-live')].every(e => e.dataset.state)"""
        )
        self.page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")

    def axe(self, rules: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
        """axe-core's violations of the rules tagged :data:`AXE_TAGS` (or of those in ``rules``) on the page now."""
        if not self.page.evaluate("() => typeof window.axe === 'object'"):
            self.page.add_script_tag(content=_axe_source())  # inline: no request
        only = {"type": "rule", "values": list(rules)} if rules else {"type": "tag", "values": list(AXE_TAGS)}
        return self.page.evaluate(
            """async only => (await axe.run(document, {runOnly: only, iframes: false,
                                                       resultTypes: ['violations']})).violations
               .map(v => ({id: v.id, impact: v.impact, help: v.help,
                           nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 200),
                                                     summary: n.failureSummary}))}))""",
            only,
        )


def _arrived(request: Any) -> int:
    """The bytes of a request's response body as they arrived: Chromium's count, else (a worker's request, which it
    does not count) the response's ``Content-Length``, else the body's length."""
    try:
        if (response := request.response()) is None:
            return 0
        size = int(request.sizes()["responseBodySize"])
        return size if size > 0 else int(response.headers.get("content-length") or len(response.body()))
    except Exception:  # a failed or aborted request: nothing arrived
        return 0


@functools.cache
def _axe_source() -> str:
    if not AXE_JS.is_file():
        raise FileNotFoundError(f"axe-core not found at {AXE_JS}; run `make setup` (it runs `npm ci`)")
    return AXE_JS.read_text(encoding="utf-8")


@contextlib.contextmanager
def first_view(
    chromium: Any,
    url: str,
    *,
    site: str,
    scheme: str = "light",
    viewport: dict[str, int] | None = None,
    throttle: dict[str, Any] | None = None,
    settle: bool = True,
    **context: Any,
) -> Iterator[FirstView]:
    """Open ``url`` in a new context of ``chromium`` (``scheme``: the reader's preferred colour scheme; ``viewport``
    defaults to :data:`PHONE`, with :data:`PHONE_CONTEXT`'s touch screen; ``context``: more options of the browser
    context) and wait for the load event and, with ``settle``, until the network is idle (else call
    :meth:`FirstView.wait_until_idle` before counting the downloads); yield the recorded view, close the context
    afterwards. With ``throttle`` (e.g. :data:`SLOW_4G`: network conditions to emulate), wait only for the first
    contentful paint."""
    phone = PHONE_CONTEXT if viewport in (None, PHONE) else {}
    ctx = chromium.new_context(viewport=viewport or PHONE, color_scheme=scheme, **{**phone, **context})
    try:
        page = ctx.new_page()
        view = FirstView(url=url, page=page, site=site)
        page.on("request", view._started)
        page.on("requestfinished", view._ended)
        page.on("requestfailed", view._ended)
        page.on("console", lambda m: view.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: view.errors.append(f"pageerror: {e}"))
        if throttle:
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", throttle)
            # only the first paint is wanted: do not wait for the rest of the page
            page.goto(url, wait_until="commit", timeout=120_000)
            page.wait_for_function(
                "() => performance.getEntriesByName('first-contentful-paint').length > 0", timeout=120_000
            )
        else:
            page.goto(url, wait_until="load")
            if settle:
                view.wait_until_idle()
        yield view
    finally:
        ctx.close()


def site_paths(site_dir: Path) -> list[str]:
    """The address of every page of a built site relative to its root (``""``, ``formula/``, ``zh/formula/``…):
    the folders holding an ``index.html``."""
    paths = [html.parent.relative_to(site_dir).as_posix() + "/" for html in site_dir.rglob("index.html")]
    return sorted("" if p == "./" else p for p in paths)


def screenshots(
    out_dir: Path, paths: list[str], schemes: tuple[str, ...], viewport: dict[str, int], site_dir: Path
) -> list[Path]:
    """Full-page PNGs of ``paths`` (relative URLs such as ``formula/`` or ``zh/formula/``) per colour scheme, in
    ``viewport`` (:data:`DESKTOP` or :data:`PHONE`); file names end in ``.<scheme>.<width>.png``. Figures load
    lazily on the site; here every figure of the scheme is loaded first."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with serve_site(site_dir) as base, browser() as b:
        for scheme in schemes:
            for path in paths:
                with first_view(b, base + path, site=base, scheme=scheme, viewport=viewport) as view:
                    load_all_images(view.page)
                    name = (path.strip("/").replace("/", "_") or "home") + f".{scheme}.{viewport['width']}.png"
                    view.page.screenshot(path=str(out_dir / name), full_page=True)
                    written.append(out_dir / name)
    return written


def load_all_images(page: Any, timeout_ms: int = 30_000) -> None:
    """Load every image of the page now (lazy ones too) and wait until each shown one is decoded, and the fonts."""
    page.evaluate("() => document.querySelectorAll('img[loading=lazy]').forEach(i => { i.loading = 'eager'; })")
    page.wait_for_function(
        """() => [...document.images].every(i => i.offsetParent === null || (i.complete && i.naturalWidth > 0))
                 && document.fonts.status === 'loaded'""",
        timeout=timeout_ms,
    )


def measure(site_dir: Path, paths: list[str], *, port: int = 0, throttled: bool = True, axe: bool = True) -> list[dict]:
    """Per page of a built site: its first view's bytes and requests on a phone in each colour scheme, the
    serious and critical axe violations (counted per element) in each, and the first contentful paint under
    :data:`SLOW_4G` (light scheme). ``port``: serve on this port (a site built for ``http://127.0.0.1:<port>/``).
    """
    rows = []
    with serve_site(site_dir, port=port) as base, browser() as chromium:
        for path in paths:
            row: dict[str, Any] = {"path": path}
            for scheme in ("light", "dark"):
                with first_view(chromium, base + path, site=base, scheme=scheme) as view:
                    downloads = view.downloads()
                    row[scheme] = {"bytes": sum(n for _, n in downloads), "requests": len(downloads)}
                    row[scheme]["files"] = sorted(downloads, key=lambda d: -d[1])
                    row[scheme]["errors"] = view.errors + [f"off the site: {u}" for u in view.offsite]
                    if axe:
                        found = [v for v in view.axe() if v["impact"] in SERIOUS]
                        row[scheme]["axe"] = {v["id"]: len(v["nodes"]) for v in found}
            if throttled:
                with first_view(chromium, base + path, site=base, throttle=SLOW_4G) as view:
                    row["fcp_slow_4g"] = view.page.evaluate(  # milliseconds, as the page's Performance API has it
                        "() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime ?? null"
                    )
            rows.append(row)
            print(_row_text(row), flush=True)
    return rows


def _row_text(row: dict[str, Any]) -> str:
    parts = [f"{row['path'] or '(home)':<24}"]
    for scheme in ("light", "dark"):
        r = row[scheme]
        axe = sum(r.get("axe", {}).values())
        parts.append(f"{scheme}: {r['bytes'] / 1e6:5.2f} MB {r['requests']:3d} req, axe {axe:4d}")
    if row.get("fcp_slow_4g") is not None:
        parts.append(f"FCP slow 4G {row['fcp_slow_4g'] / 1000:5.2f} s")
    return " | ".join(parts)


if __name__ == "__main__":
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m site_tools.browser", description="look at the built site")
    commands = parser.add_subparsers(dest="command", required=True)
    shots = commands.add_parser("shots", help="full-page screenshots")
    shots.add_argument("out", nargs="?", type=Path, default=ROOT / ".cache" / "screenshots")
    shots.add_argument("paths", nargs="*", default=["", "formula/", "zh/", "zh/formula/"])
    shots.add_argument("--phone", action="store_true", help=f"{PHONE['width']} px wide instead of a desktop window")
    shots.add_argument("--scheme", choices=["light", "dark"], action="append", help="only this colour scheme")
    shots.add_argument("--site", type=Path, default=SITE_DIR, help="the built site (default: site/)")
    weigh = commands.add_parser(
        "measure", help="per page: first-view bytes and requests on a phone, axe violations, FCP under Slow 4G"
    )
    weigh.add_argument("paths", nargs="*", help="pages (default: every page of the site)")
    weigh.add_argument("--site", type=Path, default=SITE_DIR, help="the built site (default: site/)")
    weigh.add_argument("--port", type=int, default=0, help="serve on this port (the site's address)")
    weigh.add_argument("--no-fcp", action="store_true", help="skip the throttled load")
    weigh.add_argument("--no-axe", action="store_true", help="skip axe-core")
    weigh.add_argument("--json", type=Path, help="also write the measurements here")
    args = parser.parse_args()
    if args.command == "shots":
        schemes = tuple(args.scheme) if args.scheme else ("light", "dark")
        for p in screenshots(args.out, args.paths, schemes, PHONE if args.phone else DESKTOP, args.site):
            print(p)
    else:
        paths = args.paths or site_paths(args.site)
        rows = measure(args.site, paths, port=args.port, throttled=not args.no_fcp, axe=not args.no_axe)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
