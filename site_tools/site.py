"""Build and serve the bilingual site: ``python -m site_tools.site build|serve``.

One MkDocs build per language — ``mkdocs.yml`` (English, into ``site/``) and ``mkdocs.zh.yml`` (Chinese, into
``site/zh/``) — so each language has its own search index. ``serve`` rebuilds both on any change to the pages,
the library, the overrides or the configs and reloads the browser (MkDocs' own live-reload server).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SITE_DIR = ROOT / "site"
# The English build cleans site/ (including site/zh), so it always runs first.
CONFIGS: dict[str, Path] = {"en": ROOT / "mkdocs.yml", "zh": ROOT / "mkdocs.zh.yml"}
WATCHED = ("docs", "pe_docs", "overrides", "site_tools", "mkdocs.yml", "mkdocs.zh.yml")

log = logging.getLogger("pe-docs")


def build(
    langs: tuple[str, ...] = ("en", "zh"),
    *,
    strict: bool = True,
    overrides: Mapping[str, Any] | None = None,
) -> dict[str, float]:
    """Build the given languages (English first); return seconds per language.

    ``make site`` and ``make test`` build with the defaults: strict, so any warning (a broken link or anchor,
    a page missing from the nav, a failed notebook cell, …) aborts the build. Only ``serve`` passes
    ``strict=False``, so that it keeps serving while a page is being edited.

    Args:
        langs: Languages to build, drawn from ``CONFIGS``; built in the order of ``CONFIGS`` whatever the
            order given.
        strict: Abort on the first warning.
        overrides: Config options that replace those of the language's config file (passed to
            ``mkdocs.config.load_config``) for every language built, e.g. ``docs_dir``, ``site_dir`` and
            ``nav`` for a throwaway site in the tests. Strictness is not one of them: it is ``strict``.

    Raises:
        ValueError: an unknown language, or ``overrides`` sets ``strict``.
        mkdocs.exceptions.Abort: a strict build found a warning (broken link or anchor, failed notebook, …).
    """
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    unknown = set(langs) - set(CONFIGS)
    if unknown:
        raise ValueError(f"langs must be drawn from {sorted(CONFIGS)}, got {sorted(unknown)}")
    options = dict(overrides or {})
    if "strict" in options:
        raise ValueError(f"overrides must not set strict (use the strict argument), got strict={options['strict']!r}")
    timings: dict[str, float] = {}
    for lang in sorted(langs, key=list(CONFIGS).index):
        start = time.perf_counter()
        config = load_config(config_file=str(CONFIGS[lang]), strict=strict, **options)
        mkdocs_build(config)
        timings[lang] = time.perf_counter() - start
        log.info("built %s in %.1f s", lang, timings[lang])
    return timings


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Build both languages, serve ``site/`` on host:port, rebuild and reload on every change.

    The builds here are not strict (unlike ``make site``/``make test``): a broken link in a page being edited
    is logged and the server keeps serving.
    """
    from mkdocs.livereload import LiveReloadServer

    def rebuild() -> None:
        try:
            build(strict=False)
        except Exception as exc:  # keep serving; the error is shown in the terminal
            log.error("build failed: %s", exc)

    build(strict=False)
    server = LiveReloadServer(builder=rebuild, host=host, port=port, root=str(SITE_DIR))
    for name in WATCHED:
        server.watch(str(ROOT / name))
    log.info("English: %s   中文: %szh/", server.url, server.url)
    try:
        server.serve()  # blocks: rebuilds on change until Ctrl-C
    except KeyboardInterrupt:
        log.info("shutting down")
    finally:
        server.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_tools.site", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build both languages into site/ (strict)")
    b.add_argument("--lang", choices=sorted(CONFIGS), action="append", help="only this language")
    s = sub.add_parser("serve", help="build, serve on 127.0.0.1 and live-reload")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s")
    if args.command == "build":
        timings = build(tuple(args.lang) if args.lang else ("en", "zh"))
        log.info("site built in %s", ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()))
    else:
        serve(args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
