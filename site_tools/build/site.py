"""Build the bilingual site: ``python -m site_tools.build`` (``make site``).

One engine build per language — ``mkdocs.yml`` (English, into ``site/``) and ``mkdocs.zh.yml`` (Chinese, into
``site/zh/``), so each language has its own search index — then the finishing pass over what the engine wrote
(``site_tools.finish``); the config is loaded and the engine run by ``site_tools.build.engine``.

The public address is set once, as ``site_url`` in ``mkdocs.yml``; ``SITE_URL=https://example.org/path/`` (or
``--site-url``) builds for another one. The Chinese site's address is derived from it, ``<address>zh/``
(``site_tools.layout.language_url``).

The languages are built in parallel, one process each (the machine has 2 cores; each build draws its figures,
generates its chapter notebooks), each into a staging folder next to its
destination; when every language has succeeded they are moved into place. A language's build therefore never
deletes another's output (MkDocs cleans its ``site_dir``, and the English ``site_dir`` holds ``zh/``), and a
failed build leaves the previous site as it was.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import logging
import multiprocessing
import shutil
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from site_tools import finish, layout
from site_tools.build import engine
from site_tools.layout import CONFIGS, LANGS

LOG_FORMAT = "%(levelname)-7s -  %(message)s"

log = logging.getLogger("pe-docs")


def build_language(
    lang: str,
    *,
    strict: bool,
    site_url: str | None = None,
    site_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> tuple[float, str, str]:
    """Build one language (config from ``engine.load``) into its staging folder and finish it; return (seconds,
    staging folder, destination)."""
    start = time.perf_counter()
    config = engine.load(lang, site_url=site_url, site_dir=site_dir, strict=strict, overrides=overrides)
    return build_config(config, strict=strict, start=start)


def build_config(
    config: Any, *, strict: bool, start: float, finisher: finish.Finisher | None = None
) -> tuple[float, str, str]:
    """Build a loaded config (``engine.load``) into the staging folder of its ``site_dir`` and finish it (with
    ``finisher``, if given: the preview keeps one); return (seconds since ``start``, staging folder, destination)."""
    lang = engine.language(config)
    dest = Path(config.site_dir)
    staging = dest.parent / f".{dest.name}.building"  # a hidden sibling, until it replaces dest
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    config.site_dir = str(staging)
    try:
        engine.build(config)
        finish.finish_site(staging, **engine.finishing(config), strict=strict, finisher=finisher)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    seconds = time.perf_counter() - start
    log.info("built %s in %.1f s", lang, seconds)
    return seconds, str(staging), str(dest)


def install(staging: Path, dest: Path, lang: str) -> None:
    """Replace ``dest`` by the finished build in ``staging``.

    Kept from the old ``dest``: the other languages' sites inside it (``site/zh`` for the English site) and
    hidden entries the new build does not have (MkDocs never deletes those either).
    """
    if dest.is_dir():
        nested = {other for other in CONFIGS if other != lang}
        for entry in dest.iterdir():
            hidden = entry.name.startswith(".") and not entry.name.endswith((".building", ".old"))  # not our own
            if (entry.name in nested or hidden) and not (staging / entry.name).exists():
                entry.rename(staging / entry.name)
    old = dest.with_name(f".{dest.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if dest.exists():
        dest.rename(old)
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging.rename(dest)
    shutil.rmtree(old, ignore_errors=True)


def init_worker(level: int, lang: str) -> None:
    """Logging in a process that builds one language: its messages start with the language."""
    logging.basicConfig(level=level, format=f"%(levelname)-7s -  [{lang}] %(message)s", force=True)


def build(
    langs: tuple[str, ...] = LANGS,
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
    a page missing from the nav, a failed notebook cell, KaTeX's warning about a formula, …) aborts the build. Only
    the preview passes ``strict=False``, so that it keeps serving while a page is being edited. Each language goes
    into place only when every language has succeeded (see the module's docstring).

    Args:
        langs: Languages to build, drawn from ``CONFIGS``.
        site_url, site_dir, overrides: as in ``engine.load``. The address is resolved here, once (``site_url``,
            else ``$SITE_URL``, else ``mkdocs.yml``'s), and every language's process builds for it.
        parallel: Build the languages after the first in other processes, at the same time (the first is built
            in this process). ``False`` builds them one after the other here.

    Raises:
        ValueError: an unknown language, or ``overrides`` sets ``strict``.
        mkdocs.exceptions.Abort: a strict build found a warning (broken link or anchor, failed notebook, …).
        site_tools.finish.FinishError: a strict build's finishing found a warning.
    """
    unknown = set(langs) - set(CONFIGS)
    if unknown:
        raise ValueError(f"langs must be drawn from {sorted(CONFIGS)}, got {sorted(unknown)}")
    url = layout.public_url(site_url)  # every language of one build shares these arguments
    job = functools.partial(build_language, strict=strict, site_url=url, site_dir=site_dir, overrides=overrides)
    order = sorted(set(langs), key=list(CONFIGS).index)
    results: dict[str, tuple[float, str, str]] = {}
    errors: dict[str, BaseException] = {}
    with contextlib.ExitStack() as stack:
        # the languages after the first, each in a process of its own, at the same time
        futures: dict[str, concurrent.futures.Future] = {}
        for lang in order[1:] if parallel else ():
            pool = concurrent.futures.ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),  # never fork a process that has run torch
                initializer=init_worker,
                initargs=(logging.getLogger().getEffectiveLevel(), lang),
            )
            futures[lang] = stack.enter_context(pool).submit(job, lang)
        for lang in order:
            try:
                results[lang] = futures[lang].result() if lang in futures else job(lang)
            except BaseException as exc:
                errors[lang] = exc
                if not futures:  # one after the other: stop at the first failure
                    break
    if errors:
        for _, staging, _ in results.values():
            shutil.rmtree(staging, ignore_errors=True)
        raise next(iter(errors.values()))
    for lang in reversed(order):  # site/zh first (its staging folder is inside site/), then site/, which keeps it
        _, staging, dest = results[lang]
        install(Path(staging), Path(dest), lang)
    return {lang: results[lang][0] for lang in order}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_tools.build", description=__doc__)
    parser.add_argument("--lang", choices=sorted(CONFIGS), action="append", help="only this language")
    parser.add_argument(
        "--site-url", help=f"public address of the English site (default: ${layout.SITE_URL_ENV}, else mkdocs.yml)"
    )
    parser.add_argument("--site-dir", type=Path, help="output folder (default: site/)")
    parser.add_argument("--serial", action="store_true", help="build the languages one after the other, here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    start = time.perf_counter()
    langs = tuple(args.lang) if args.lang else LANGS
    timings = build(langs, site_url=args.site_url, site_dir=args.site_dir, parallel=not args.serial)
    each = ", ".join(f"{k} {v:.1f} s" for k, v in timings.items())
    log.info("site built in %.1f s (%s)", time.perf_counter() - start, each)
    log.info("public address: %s", layout.public_url(args.site_url))
    return 0
