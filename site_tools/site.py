"""Build, serve and deploy the bilingual site: ``python -m site_tools.site build|serve|deploy``.

One MkDocs build per language — ``mkdocs.yml`` (English, into ``site/``) and ``mkdocs.zh.yml`` (Chinese, into
``site/zh/``) — so each language has its own search index. ``serve`` rebuilds both on any change to the pages,
the library, the overrides or the configs and reloads the browser (MkDocs' own live-reload server).

The public address is set once, as ``site_url`` in ``mkdocs.yml``; ``SITE_URL=https://example.org/path/`` (or
``--site-url``) builds for another one. The Chinese site's address is derived here, ``<address>zh/``.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_tools import publish

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

ROOT = Path(__file__).resolve().parent.parent
SITE_DIR = ROOT / "site"
# The English build cleans site/ (including site/zh), so it always runs first.
CONFIGS: dict[str, Path] = {"en": ROOT / "mkdocs.yml", "zh": ROOT / "mkdocs.zh.yml"}
WATCHED = ("docs", "pe_docs", "overrides", "site_tools", "mkdocs.yml", "mkdocs.zh.yml")

log = logging.getLogger("pe-docs")


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


def build(
    langs: tuple[str, ...] = ("en", "zh"),
    *,
    strict: bool = True,
    site_url: str | None = None,
    site_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> dict[str, float]:
    """Build the given languages (English first) for the public address ``site_url``; return seconds per language.

    ``make site`` and ``make test`` build with the defaults: strict, so any warning (a broken link or anchor,
    a page missing from the nav, a failed notebook cell, …) aborts the build. Only ``serve`` passes
    ``strict=False``, so that it keeps serving while a page is being edited. ``site_url``, ``site_dir`` and
    ``overrides`` are as in :func:`load`.

    Raises:
        ValueError: an unknown language, or ``overrides`` sets ``strict``.
        mkdocs.exceptions.Abort: a strict build found a warning (broken link or anchor, failed notebook, …).
    """
    from mkdocs.commands.build import build as mkdocs_build

    unknown = set(langs) - set(CONFIGS)
    if unknown:
        raise ValueError(f"langs must be drawn from {sorted(CONFIGS)}, got {sorted(unknown)}")
    timings: dict[str, float] = {}
    for lang in sorted(langs, key=list(CONFIGS).index):
        start = time.perf_counter()
        config = load(lang, site_url=site_url, site_dir=site_dir, strict=strict, overrides=overrides)
        mkdocs_build(config)
        timings[lang] = time.perf_counter() - start
        log.info("built %s in %.1f s", lang, timings[lang])
    return timings


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Build both languages, serve ``site/`` on host:port, rebuild and reload on every change."""
    from mkdocs.livereload import LiveReloadServer

    local = f"http://{host}:{port}/"  # like `mkdocs serve`: the site is built for the address it is served at

    def rebuild() -> None:
        try:
            build(strict=False, site_url=local)
        except Exception as exc:  # keep serving; the error is shown in the terminal
            log.error("build failed: %s", exc)

    build(strict=False, site_url=local)
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
    import contextlib
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
    d = sub.add_parser("deploy", help="commit site/ to the gh-pages branch (ghp-import); --push to publish it")
    d.add_argument("--push", action="store_true", help="push gh-pages to origin after committing")
    d.add_argument("--site-dir", type=Path, default=SITE_DIR, help="the built site (default: site/)")
    s = sub.add_parser("serve", help="build, serve on 127.0.0.1 and live-reload")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s")
    if args.command == "build":
        langs = tuple(args.lang) if args.lang else ("en", "zh")
        timings = build(langs, site_url=args.site_url, site_dir=args.site_dir)
        log.info("site built in %s", ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()))
        log.info("public address: %s", publish.public_url(args.site_url))
    elif args.command == "deploy":
        deploy(args.site_dir, push=args.push)
    else:
        serve(args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
