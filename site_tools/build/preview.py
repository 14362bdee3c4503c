"""The preview: ``python -m site_tools.build.preview`` (``make serve``) builds both languages, serves them with live
reload, and after a change rebuilds only what the change can affect.

It builds for the local address it serves on (like ``mkdocs serve``: canonical and language links stay on this
server), not strict (unlike ``make site``/``make test``: a broken link in a page being edited is logged and the
server keeps serving), and keeps one worker process per language with everything imported and loaded (and KaTeX's
node process running). On a change:

- a page of one language (``docs/en/…`` or ``docs/zh/…``): that language only. If the page already existed and
  its title did not change, the engine renders and writes only that page (``site_tools.build.engine.build`` with
  ``dirty=True``: the navigation of the other pages, which shows titles, is unchanged), and the finishing pass
  (``site_tools.finish``) finishes only that page. MkDocs says at each such build that a
  "dirty" build may leave navigation stale: here it cannot. An added or removed page, a new title, or the home page
  (see ``site_tools.build.engine``, touch point 4) rebuilds the language in full.
- anything else (the library, the tools, the theme overrides, a config): both languages in full, in parallel; a
  change of the library or the tools starts fresh worker processes (a long-lived one would keep drawing figures with
  the library it imported first).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import multiprocessing
import signal
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from site_tools import ROOT, finish, layout, pages
from site_tools.build import engine, site
from site_tools.layout import CONFIGS, SITE_DIR

WATCHED = ("docs", "pe_docs", "overrides", "site_tools", "mkdocs.yml", "mkdocs.zh.yml")
# Code the workers import: a change there needs fresh worker processes.
CODE_DIRS = ("pe_docs", "site_tools")

log = logging.getLogger("pe-docs")


class _LanguageState:
    """A worker's language: builds in full (into staging, finished there) or only the changed pages (in place,
    finished by a finisher kept for the worker's life), never strict, for the address ``site_url`` (the English
    one; see ``engine.load``)."""

    def __init__(self, lang: str, site_url: str) -> None:
        self.lang = lang
        self.site_url = site_url
        self.finisher: finish.Finisher | None = None
        self.serving = False

    def build(self, *, dirty: bool, edited: Iterable[str] = ()) -> dict[str, Any]:
        start = time.perf_counter()
        config = engine.load(self.lang, site_url=self.site_url, strict=False)
        if not self.serving:  # as `mkdocs serve --dirty`: Material's search keeps the pages a dirty build skips
            engine.serve_dirty(config)
            self.serving = True
        options = engine.finishing(config)
        if self.finisher is None:
            self.finisher = finish.Finisher(options["lang"], alternates=options["alternates"])
        if not dirty:
            seconds, staging, dest = site.build_config(config, strict=False, start=start, finisher=self.finisher)
            return {"seconds": seconds, "staging": staging, "dest": dest}
        engine.build(config, dirty=True)
        todo = {page.src_uri: page for page in finish.site_pages(options["docs_dir"], options["use_directory_urls"])}
        finished = self.finisher.pages(config.site_dir, (todo[uri] for uri in edited if uri in todo))
        finish.report(finished, strict=False)
        seconds = time.perf_counter() - start
        log.info("rebuilt the changed %s pages in %.2f s", self.lang, seconds)
        return {"seconds": seconds, "staging": None, "dest": config.site_dir}


def _worker_main(conn: Any, lang: str, level: int, site_url: str) -> None:
    site.init_worker(level, lang)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C goes to the server, which stops the workers
    sys.path.insert(0, str(ROOT))
    state = _LanguageState(lang, site_url)  # loads nothing until its first build
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):  # the server is gone
            break
        if request is None:
            break
        try:
            conn.send(("ok", state.build(**request)))
        except BaseException as exc:  # report and keep serving
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
    if state.finisher is not None:
        state.finisher.close()


class _Worker:
    """A process that builds one language on request, for the address ``site_url`` (started again if it dies)."""

    def __init__(self, lang: str, site_url: str) -> None:
        self.lang = lang
        self.site_url = site_url
        self.process: Any = None
        self.conn: Any = None

    def send(self, **request: Any) -> None:
        if self.process is None or not self.process.is_alive():
            context = multiprocessing.get_context("spawn")
            self.conn, child = context.Pipe()
            self.process = context.Process(
                target=_worker_main,
                args=(child, self.lang, logging.getLogger().getEffectiveLevel(), self.site_url),
                name=f"pe-docs-{self.lang}",
                daemon=True,
            )
            self.process.start()
            child.close()
        self.conn.send(request)

    def receive(self) -> tuple[str, Any]:
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            self.process = None
            return ("error", f"the {self.lang} build process died")

    def stop(self) -> None:
        if self.process is not None and self.process.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.process.join(timeout=5)
            if self.process.is_alive():
                self.process.terminate()
                self.process.join(timeout=5)
        self.process = None


def _snapshot(paths: Iterable[str] = WATCHED) -> dict[str, tuple[int, int]]:
    """Modification time and size of every watched file (caches, hidden files and bytecode left out)."""
    out: dict[str, tuple[int, int]] = {}
    for name in paths:
        top = ROOT / name
        files = [top] if top.is_file() else top.rglob("*")
        for path in files:
            rel = path.relative_to(ROOT)
            if any(part.startswith(".") or part == "__pycache__" for part in rel.parts) or path.suffix == ".pyc":
                continue
            with contextlib.suppress(OSError):  # a file removed meanwhile
                if path.is_file():
                    stat = path.stat()
                    out[rel.as_posix()] = (stat.st_mtime_ns, stat.st_size)
    return out


def plan(
    before: Mapping[str, tuple[int, int]], after: Mapping[str, tuple[int, int]], titles: Mapping[str, str | None]
) -> tuple[dict[str, bool], bool]:
    """What a change needs: ``({lang: dirty}, restart)``.

    ``{lang: dirty}`` names the languages to rebuild and whether rebuilding the changed pages is enough;
    ``restart`` says that the workers must be started afresh (the library or the tools changed). ``titles`` are the
    page titles as of ``before`` (``docs/<lang>/<page>.md`` → title).
    """
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    out: dict[str, bool] = {}
    for path in sorted(changed):
        parts = path.split("/")
        if parts[0] == "docs" and len(parts) > 2 and parts[1] in CONFIGS:
            lang = parts[1]
            dirty = (
                path in before
                and path in after
                and path.endswith(".md")
                and parts[2:] != ["index.md"]  # Material's search index keeps pages by URL prefix; the home's is ""
                and _title(path) == titles.get(path)
            )
            out[lang] = out.get(lang, True) and dirty
        else:  # the library, the tools, the overrides, a config: everything
            return dict.fromkeys(CONFIGS, False), any(p.split("/")[0] in CODE_DIRS for p in changed)
    return out, False


def changed_pages(before: Mapping[str, tuple[int, int]], after: Mapping[str, tuple[int, int]], lang: str) -> list[str]:
    """The pages of ``lang`` (``formula.md``, relative to ``docs/<lang>``) that changed between two snapshots."""
    prefix = f"docs/{lang}/"
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    return sorted(p.removeprefix(prefix) for p in changed if p.startswith(prefix))


def _title(path: str) -> str | None:
    """The title of the page at ``path`` (relative to the repository); None if it has none or cannot be read."""
    try:
        return pages.read(ROOT / path).title
    except (OSError, UnicodeDecodeError):
        return None


def _titles(snapshot: Mapping[str, tuple[int, int]]) -> dict[str, str | None]:
    return {path: _title(path) for path in snapshot if path.startswith("docs/") and path.endswith(".md")}


class Preview:
    """The builds behind ``serve``: one worker per language, each rebuilding only what a change affects, all for
    the address ``site_url`` (the English one)."""

    def __init__(self, site_url: str) -> None:
        self.site_url = layout.check_site_url(site_url)
        self.workers = {lang: _Worker(lang, self.site_url) for lang in CONFIGS}
        self.snapshot: dict[str, tuple[int, int]] = {}
        self.titles: dict[str, str | None] = {}
        self.lock = threading.Lock()

    def build(self, todo: Mapping[str, bool], edited: Mapping[str, list[str]] | None = None) -> None:
        """Build ``{lang: dirty}`` in the workers, at the same time (``edited``: the changed pages of each language
        a dirty build finishes), then install the full builds in order."""
        for lang, dirty in todo.items():
            self.workers[lang].send(dirty=dirty, **({"edited": (edited or {}).get(lang, [])} if dirty else {}))
        finished = {lang: self.workers[lang].receive() for lang in todo}
        for lang in sorted(finished, key=list(CONFIGS).index, reverse=True):  # inner sites first, as in site.build()
            status, result = finished[lang]
            if status != "ok":
                log.error("%s build failed: %s", lang, result)
            elif result["staging"] is not None:
                site.install(Path(result["staging"]), Path(result["dest"]), lang)

    def start(self) -> None:
        with self.lock:
            self.snapshot = _snapshot()
            self.titles = _titles(self.snapshot)
            self.build(dict.fromkeys(CONFIGS, False))

    def rebuild(self) -> None:
        """What the live-reload server calls after a change under ``WATCHED``."""
        with self.lock:
            current = _snapshot()
            todo, restart = plan(self.snapshot, current, self.titles)
            edited = {lang: changed_pages(self.snapshot, current, lang) for lang in todo}
            self.snapshot, self.titles = current, _titles(current)
            if restart:
                log.info("the library or the tools changed: restarting the build processes")
                self.stop()
            if todo:
                log.info("rebuilding %s", ", ".join(f"{lang} ({'page' if d else 'full'})" for lang, d in todo.items()))
                self.build(todo, edited)

    def stop(self) -> None:
        for worker in self.workers.values():
            worker.stop()


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Build both languages for ``http://<host>:<port>/``, serve ``site/`` there, rebuild and reload on every change
    (not strict: see the module)."""
    local = f"http://{host}:{port}/"
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)  # raises KeyboardInterrupt, as Ctrl-C
    preview = Preview(local)
    server = None
    try:
        preview.start()
        server = engine.live_reload_server(
            preview.rebuild, host=host, port=port, root=SITE_DIR, watch=tuple(ROOT / name for name in WATCHED)
        )
        log.info("English: %s   中文: %szh/", server.url, server.url)
        server.serve()  # blocks: rebuilds on change until Ctrl-C
    except KeyboardInterrupt:
        log.info("shutting down")
    finally:
        if server is not None:
            server.shutdown()
        preview.stop()
        signal.signal(signal.SIGTERM, previous)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_tools.build.preview", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format=site.LOG_FORMAT)
    serve(args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
