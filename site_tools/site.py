"""Build, serve and deploy the bilingual site: ``python -m site_tools.site build|serve|deploy``.

One MkDocs build per language — ``mkdocs.yml`` (English, into ``site/``) and ``mkdocs.zh.yml`` (Chinese, into
``site/zh/``) — so each language has its own search index. :func:`load` is the one place a language's config is
read: the build, the preview workers and the tests all go through it.

The public address is set once, as ``site_url`` in ``mkdocs.yml``; ``SITE_URL=https://example.org/path/`` (or
``--site-url``) builds for another one. The Chinese site's address is derived here, ``<address>zh/``.

``build`` builds the languages in parallel, one process each (the machine has 2 cores; each build draws its
figures, generates its chapter notebooks and executes its notebook pages), each into a staging folder next to its
destination; when every language has succeeded they are moved into place. A language's build therefore never
deletes another's output (MkDocs cleans its ``site_dir``, and the English ``site_dir`` holds ``zh/``), and a
failed build leaves the previous site as it was.

``serve`` builds for the local address it serves on (like ``mkdocs serve``) and keeps one worker process per
language, with everything imported and loaded; on a change it rebuilds only what the change can affect:

- a page of one language (``docs/en/…`` or ``docs/zh/…``): that language only. If the page already existed
  and its title did not change, with MkDocs' dirty build: only that page is rendered and written (the
  navigation of the other pages, which shows titles, is unchanged), and the search index is patched with the
  page's new entries. An added or removed page, or a new title, rebuilds the language in full.
- anything else (the library, the tools, the theme overrides, a config): both languages in full, in parallel.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import logging
import multiprocessing
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_tools import publish

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

ROOT = Path(__file__).resolve().parent.parent
SITE_DIR = ROOT / "site"
CONFIGS: dict[str, Path] = {"en": ROOT / "mkdocs.yml", "zh": ROOT / "mkdocs.zh.yml"}
WATCHED = ("docs", "pe_docs", "overrides", "site_tools", "mkdocs.yml", "mkdocs.zh.yml")
LOG_FORMAT = "%(levelname)-7s -  %(message)s"

log = logging.getLogger("pe-docs")


# ----------------------------------------------------------------------------------------------------------------
# One language


def load(
    lang: str,
    *,
    site_url: str | None = None,
    site_dir: Path | None = None,
    strict: bool = True,
    overrides: Mapping[str, Any] | None = None,
) -> MkDocsConfig:
    """The MkDocs config of one language, at its public address.

    Args:
        lang: ``"en"`` or ``"zh"``.
        site_url: the English site's public address; defaults to ``$SITE_URL``, then ``mkdocs.yml``'s.
        site_dir: the English output folder (other languages go to ``<site_dir>/<lang>``); default ``site/``.
        strict: fail the build on any warning.
        overrides: other config options that replace those of the config file (``docs_dir``, ``nav``, … for a
            throwaway site in the tests); not ``strict`` (use ``strict``).

    Raises:
        ValueError: an unknown language, or ``overrides`` sets ``strict``.
    """
    from mkdocs.config import load_config

    if lang not in CONFIGS:
        raise ValueError(f"lang must be one of {sorted(CONFIGS)}, got {lang!r}")
    extra = dict(overrides or {})
    if "strict" in extra:
        raise ValueError(f"overrides must not set strict (use the strict argument), got strict={extra['strict']!r}")
    options: dict[str, object] = {
        "site_url": publish.language_url(publish.public_url(site_url), lang),
        "strict": strict,
    }
    if site_dir is not None:
        options["site_dir"] = str(Path(site_dir) if lang == "en" else Path(site_dir) / lang)
    return load_config(config_file=str(CONFIGS[lang]), **{**options, **extra})


def written(lang: str) -> dict[str, Any]:
    """A language's config file as written (``INHERIT`` merged, as MkDocs merges it), without loading the theme or
    the plugins: for what needs a few settings fast (the notebooks' site name, repository and language). The
    address is not in it: use :func:`load`, or ``publish.language_url(publish.public_url(), lang)``.

    Raises:
        ValueError: an unknown language.
    """
    from mkdocs.utils.yaml import yaml_load

    if lang not in CONFIGS:
        raise ValueError(f"lang must be one of {sorted(CONFIGS)}, got {lang!r}")
    with open(CONFIGS[lang], "rb") as fd:
        return yaml_load(fd)


def _staging_dir(dest: Path) -> Path:
    """Where a build of ``dest`` is written before it replaces ``dest``: a hidden sibling."""
    return dest.parent / f".{dest.name}.building"


def _build_language(
    lang: str,
    *,
    strict: bool,
    site_url: str | None = None,
    site_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> tuple[float, str, str]:
    """Build one language (config from :func:`load`) into its staging folder; return (seconds, staging folder,
    destination)."""
    from mkdocs.commands.build import build as mkdocs_build

    start = time.perf_counter()
    config = load(lang, site_url=site_url, site_dir=site_dir, strict=strict, overrides=overrides)
    dest = Path(config.site_dir)
    staging = _staging_dir(dest)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    config.site_dir = str(staging)
    try:
        mkdocs_build(config)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    seconds = time.perf_counter() - start
    log.info("built %s in %.1f s", lang, seconds)
    return seconds, str(staging), str(dest)


def _install(staging: Path, dest: Path, lang: str) -> None:
    """Replace ``dest`` by the finished build in ``staging``.

    Kept from the old ``dest``: the other languages' sites inside it (``site/zh`` for the English site) and
    hidden entries the new build does not have (MkDocs never deletes those either).
    """
    staging, dest = Path(staging), Path(dest)
    if dest.is_dir():
        nested = {other for other in CONFIGS if other != lang}
        for entry in dest.iterdir():
            ours = entry.name.endswith((".building", ".old"))
            if (entry.name in nested or (entry.name.startswith(".") and not ours)) and not (
                staging / entry.name
            ).exists():
                entry.rename(staging / entry.name)
    old = dest.with_name(f".{dest.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if dest.exists():
        dest.rename(old)
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging.rename(dest)
    shutil.rmtree(old, ignore_errors=True)


def _init_worker(level: int, lang: str) -> None:
    logging.basicConfig(level=level, format=f"%(levelname)-7s -  [{lang}] %(message)s", force=True)


def build(
    langs: tuple[str, ...] = ("en", "zh"),
    *,
    strict: bool = True,
    site_url: str | None = None,
    site_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    parallel: bool = True,
) -> dict[str, float]:
    """Build the given languages for the public address ``site_url``, in parallel processes; return seconds per
    language.

    ``make site`` and ``make test`` build with the defaults: strict, so any warning (a broken link or anchor,
    a page missing from the nav, a failed notebook cell, …) aborts the build. Only ``serve`` passes
    ``strict=False``, so that it keeps serving while a page is being edited.

    Each language is built into a staging folder and moved into place only when every language has succeeded:
    a failed build leaves the previous site untouched, and no language's build deletes another's output.

    Args:
        langs: Languages to build, drawn from ``CONFIGS``.
        strict: Abort on the first warning.
        site_url, site_dir, overrides: as in :func:`load`. The address is resolved here, once (``site_url``, else
            ``$SITE_URL``, else ``mkdocs.yml``'s), and every language's process builds for it.
        parallel: Build the languages after the first in other processes, at the same time (the first is built
            in this process). ``False`` builds them one after the other here.

    Raises:
        ValueError: an unknown language, or ``overrides`` sets ``strict``.
        mkdocs.exceptions.Abort: a strict build found a warning (broken link or anchor, failed notebook, …).
    """
    unknown = set(langs) - set(CONFIGS)
    if unknown:
        raise ValueError(f"langs must be drawn from {sorted(CONFIGS)}, got {sorted(unknown)}")
    options = dict(overrides or {})
    if "strict" in options:
        raise ValueError(f"overrides must not set strict (use the strict argument), got strict={options['strict']!r}")
    job = {"strict": strict, "site_url": publish.public_url(site_url), "site_dir": site_dir, "overrides": options}
    order = sorted(set(langs), key=list(CONFIGS).index)
    results: dict[str, tuple[float, str, str]] = {}
    errors: dict[str, BaseException] = {}
    if parallel and len(order) > 1:
        context = multiprocessing.get_context("spawn")  # never fork a process that has run torch
        level = logging.getLogger().getEffectiveLevel()
        pools = [
            concurrent.futures.ProcessPoolExecutor(
                1, mp_context=context, initializer=_init_worker, initargs=(level, lang)
            )
            for lang in order[1:]
        ]
        try:
            futures = {
                lang: pool.submit(_build_language, lang, **job) for lang, pool in zip(order[1:], pools, strict=True)
            }
            try:
                results[order[0]] = _build_language(order[0], **job)
            except BaseException as exc:
                errors[order[0]] = exc
            for lang, future in futures.items():
                try:
                    results[lang] = future.result()
                except BaseException as exc:
                    errors[lang] = exc
        finally:
            for pool in pools:
                pool.shutdown(wait=True, cancel_futures=True)
    else:
        for lang in order:
            try:
                results[lang] = _build_language(lang, **job)
            except BaseException as exc:
                errors[lang] = exc
                break
    if errors:
        for _, staging, _ in results.values():
            shutil.rmtree(staging, ignore_errors=True)
        raise next(iter(errors.values()))
    for lang in reversed(order):  # site/zh first (its staging folder is inside site/), then site/, which keeps it
        _, staging, dest = results[lang]
        _install(Path(staging), Path(dest), lang)
    return {lang: results[lang][0] for lang in order}


# ----------------------------------------------------------------------------------------------------------------
# Preview: one long-lived worker per language


class _DirtyNotice(logging.Filter):
    """Drop MkDocs' warning that a dirty build may leave navigation stale: serve only uses one when it cannot."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "'dirty' build is being performed" not in record.getMessage()


def _page_url(location: str) -> str:
    return location.split("#", 1)[0]


def merge_search_index(previous: dict[str, Any], partial: dict[str, Any]) -> dict[str, Any]:
    """The full search index after a dirty build: ``previous`` with the entries of the pages in ``partial``
    (the pages that build rendered) replaced, in place, by ``partial``'s entries."""
    rebuilt: dict[str, list[dict[str, Any]]] = {}
    for entry in partial["docs"]:
        rebuilt.setdefault(_page_url(entry["location"]), []).append(entry)
    replaced = set(rebuilt)
    docs: list[dict[str, Any]] = []
    for entry in previous["docs"]:
        url = _page_url(entry["location"])
        if url in rebuilt:
            docs.extend(rebuilt.pop(url))  # at the place of the page's first old entry
        elif url not in replaced:
            docs.append(entry)
    for entries in rebuilt.values():  # pages that had no entry before
        docs.extend(entries)
    return {**partial, "docs": docs}


class _LanguageState:
    """A worker's language: builds in full (into staging) or dirty (in place), never strict, for the address
    ``site_url`` (the English one; see :func:`load`), and keeps the search index."""

    def __init__(self, lang: str, site_url: str) -> None:
        self.lang = lang
        self.site_url = site_url
        self.index: dict[str, Any] | None = None
        logging.getLogger("mkdocs.commands.build").addFilter(_DirtyNotice())

    def build(self, *, dirty: bool) -> dict[str, Any]:
        from mkdocs.commands.build import build as mkdocs_build

        start = time.perf_counter()
        config = load(self.lang, site_url=self.site_url, strict=False)
        dest = Path(config.site_dir)
        index_path = dest / "search" / "search_index.json"
        if dirty and self.index is not None and index_path.is_file():
            jupyter = config.plugins.get("mkdocs-jupyter")
            if jupyter is not None:  # after a build that rendered no notebook it would evict every cached one
                post_build = config.plugins.events["post_build"]
                post_build[:] = [m for m in post_build if getattr(m, "__self__", None) is not jupyter]
            mkdocs_build(config, dirty=True)
            partial = json.loads(index_path.read_text(encoding="utf-8"))
            self.index = merge_search_index(self.index, partial)
            index_path.write_text(json.dumps(self.index, separators=(",", ":"), default=str), encoding="utf-8")
            seconds = time.perf_counter() - start
            log.info("rebuilt the changed %s pages in %.2f s", self.lang, seconds)
            return {"seconds": seconds, "staging": None, "dest": str(dest)}
        seconds, staging, dest_str = _build_language(self.lang, strict=False, site_url=self.site_url)
        self.index = json.loads((Path(staging) / "search" / "search_index.json").read_text(encoding="utf-8"))
        return {"seconds": seconds, "staging": staging, "dest": dest_str}


def _worker_main(conn: Any, lang: str, level: int, site_url: str) -> None:
    _init_worker(level, lang)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C goes to the server, which stops the workers
    sys.path.insert(0, str(ROOT))
    state = _LanguageState(lang, site_url)
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):  # the server is gone
            return
        if request is None:
            return
        try:
            conn.send(("ok", state.build(**request)))
        except BaseException as exc:  # report and keep serving
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


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
            level = logging.getLogger().getEffectiveLevel()
            self.process = context.Process(
                target=_worker_main,
                args=(child, self.lang, level, self.site_url),
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
            try:
                stat = path.stat()
            except OSError:
                continue
            if path.is_file():
                out[rel.as_posix()] = (stat.st_mtime_ns, stat.st_size)
    return out


def page_title(text: str) -> str | None:
    """A page's title as MkDocs takes it from the source: front matter ``title:``, else the first level-1 heading
    (``site_tools.pages`` reads the page)."""
    from site_tools import pages

    return pages.parse(text).title


# Code the workers import: a change there needs fresh worker processes (a long-lived process would keep drawing
# figures with the library it imported first, and cache them under the new sources' key).
CODE_DIRS = ("pe_docs", "site_tools")


def plan(
    before: Mapping[str, tuple[int, int]], after: Mapping[str, tuple[int, int]], titles: Mapping[str, str | None]
) -> tuple[dict[str, bool], bool]:
    """What a change needs: ``({lang: dirty}, restart)``.

    ``{lang: dirty}`` names the languages to rebuild and whether a dirty build (only the changed pages) is
    enough; ``restart`` says that the workers must be started afresh (the library or the tools changed).
    ``titles`` are the page titles as of ``before`` (``docs/<lang>/<page>.md`` → title).
    """
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    out: dict[str, bool] = {}
    for path in sorted(changed):
        parts = path.split("/")
        if parts[0] == "docs" and len(parts) > 2 and parts[1] in CONFIGS:
            lang = parts[1]
            dirty = path in before and path in after and path.endswith(".md") and _same_title(path, titles)
            out[lang] = out.get(lang, True) and dirty
        else:  # the library, the tools, the overrides, a config: everything
            return dict.fromkeys(CONFIGS, False), any(p.split("/")[0] in CODE_DIRS for p in changed)
    return out, False


def _same_title(path: str, titles: Mapping[str, str | None]) -> bool:
    try:
        return page_title((ROOT / path).read_text(encoding="utf-8")) == titles.get(path)
    except (OSError, UnicodeDecodeError):
        return False


def _titles(snapshot: Mapping[str, tuple[int, int]]) -> dict[str, str | None]:
    out = {}
    for path in snapshot:
        if path.startswith("docs/") and path.endswith(".md"):
            try:
                out[path] = page_title((ROOT / path).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                out[path] = None
    return out


class Preview:
    """The builds behind ``serve``: one worker per language, each rebuilding only what a change affects, all for
    the address ``site_url`` (the English one)."""

    def __init__(self, site_url: str) -> None:
        self.site_url = publish.check_site_url(site_url)
        self.workers = {lang: _Worker(lang, self.site_url) for lang in CONFIGS}
        self.snapshot: dict[str, tuple[int, int]] = {}
        self.titles: dict[str, str | None] = {}
        self.lock = threading.Lock()

    def build(self, todo: Mapping[str, bool]) -> None:
        """Build ``{lang: dirty}`` in the workers, at the same time, then install the full builds in order."""
        for lang, dirty in todo.items():
            self.workers[lang].send(dirty=dirty)
        finished = {lang: self.workers[lang].receive() for lang in todo}
        for lang in reversed(CONFIGS):  # inner sites first, as in build()
            if lang not in finished:
                continue
            status, result = finished[lang]
            if status != "ok":
                log.error("%s build failed: %s", lang, result)
            elif result["staging"] is not None:
                _install(Path(result["staging"]), Path(result["dest"]), lang)

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
            self.snapshot, self.titles = current, _titles(current)
            if restart:
                log.info("the library or the tools changed: restarting the build processes")
                self.stop()
            if todo:
                log.info("rebuilding %s", ", ".join(f"{lang} ({'page' if d else 'full'})" for lang, d in todo.items()))
                self.build(todo)

    def stop(self) -> None:
        for worker in self.workers.values():
            worker.stop()


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Build both languages, serve ``site/`` on host:port, rebuild and reload on every change.

    The builds are for the address served here, ``http://<host>:<port>/`` (like ``mkdocs serve``: canonical and
    language links stay on this server), and not strict (unlike ``make site``/``make test``): a broken link in
    a page being edited is logged and the server keeps serving.
    """
    from mkdocs.livereload import LiveReloadServer

    local = f"http://{host}:{port}/"

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    preview = Preview(local)
    server = None
    try:
        preview.start()
        # Poll the watched folders every 0.2 s (MkDocs' default is 0.5 s); a poll only stats a few hundred files.
        server = LiveReloadServer(
            builder=preview.rebuild, host=host, port=port, root=str(SITE_DIR), polling_interval=0.2
        )
        for name in WATCHED:
            server.watch(str(ROOT / name))
        log.info("English: %s   中文: %szh/", server.url, server.url)
        server.serve()  # blocks: rebuilds on change until Ctrl-C
    except KeyboardInterrupt:
        log.info("shutting down")
    finally:
        if server is not None:
            server.shutdown()
        preview.stop()
        signal.signal(signal.SIGTERM, previous)


def deploy(
    site_dir: Path = SITE_DIR,
    *,
    repo: Path = ROOT,
    branch: str = "gh-pages",
    push: bool = False,
    remote: str = "origin",
) -> str:
    """Commit the built ``site_dir`` as the whole tree of ``branch`` (ghp-import, with ``.nojekyll``); push if asked.

    Returns the commit message. The branch's previous commit stays its parent, so its history is kept.

    Raises:
        FileNotFoundError: ``site_dir`` does not hold both languages and the 404 page (build it first).
        ghp_import.GhpError: ``repo`` is not a git repository, or committing or pushing failed.
    """
    import subprocess

    from ghp_import import ghp_import

    missing = [rel for rel in ("index.html", "404.html", "zh/index.html") if not (Path(site_dir) / rel).is_file()]
    if missing:
        raise FileNotFoundError(f"{site_dir} lacks {', '.join(missing)}: build the site first (make site)")
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True, check=False
    ).stdout.strip()
    message = f"Deploy the site built from {head or 'a working tree'}"
    with contextlib.chdir(repo):  # ghp-import runs git in the current directory
        ghp_import(str(Path(site_dir).resolve()), mesg=message, branch=branch, nojekyll=True, push=push, remote=remote)
    log.info("committed %s to %s%s", site_dir, branch, f" and pushed to {remote}" if push else " (not pushed)")
    return message


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_tools.site", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build both languages into site/ (strict)")
    b.add_argument("--lang", choices=sorted(CONFIGS), action="append", help="only this language")
    b.add_argument(
        "--site-url", help=f"public address of the English site (default: ${publish.SITE_URL_ENV}, else mkdocs.yml)"
    )
    b.add_argument("--site-dir", type=Path, help="output folder (default: site/)")
    b.add_argument("--serial", action="store_true", help="build the languages one after the other, in this process")
    d = sub.add_parser("deploy", help="commit site/ to the gh-pages branch (ghp-import); --push to publish it")
    d.add_argument("--push", action="store_true", help="push gh-pages to origin after committing")
    d.add_argument("--site-dir", type=Path, default=SITE_DIR, help="the built site (default: site/)")
    s = sub.add_parser("serve", help="build, serve on 127.0.0.1 and live-reload")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    if args.command == "build":
        start = time.perf_counter()
        langs = tuple(args.lang) if args.lang else ("en", "zh")
        timings = build(langs, site_url=args.site_url, site_dir=args.site_dir, parallel=not args.serial)
        log.info(
            "site built in %.1f s (%s)",
            time.perf_counter() - start,
            ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()),
        )
        log.info("public address: %s", publish.public_url(args.site_url))
    elif args.command == "deploy":
        deploy(args.site_dir, push=args.push)
    else:
        serve(args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
