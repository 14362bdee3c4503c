"""The site, built once per test run and served the way GitHub Pages serves a project site.

It is built with the build of ``make site`` (``site_tools.build.site.build``: strict), for a public address under a
sub-path, ``http://127.0.0.1:<port>/pe-docs-test/`` (Chinese under ``…/zh/``), into the run's folder, and served only
under that prefix, with the root ``404.html`` (status 404) for every missing address: every site and browser test
also checks that the site works at an address other than the one in mkdocs.yml. Under pytest-xdist the steering
process serves the folder for the whole run and tells the workers its address; the first worker that needs the site
builds it (a file lock: one build, the others wait for it and use it, or report its error).

The port is the checkout's own (:func:`stable_port`), the same at every run, so the site's absolute addresses (its
canonical links, the books' "online at" lines) do not change from run to run and the books' content-keyed cache is
reused; when another run of the same checkout holds it, any free port serves (and the books are printed again).

Fixtures: ``built_site``, ``site_dir``, ``site_base``. A test that uses one of them needs the built site
(:data:`SITE_FIXTURES`: ``make check`` leaves it to ``make test``).

``--site-dir DIR`` uses a site already built in ``DIR`` (by ``make site``, for the address in mkdocs.yml) instead of
building one, and serves it the same way: ``tests/test_chapter.py`` runs the checks of the built pages on its scratch
copy's site with it (``--page`` then keeps them: ``harness.page_selection``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.run import is_worker, state, steers_workers
from site_tools import ROOT
from site_tools.browser import serve_site
from site_tools.build import site

TEST_PREFIX = "/pe-docs-test/"
SITE_FIXTURES = frozenset({"built_site", "site_dir", "site_base"})


def stable_port(root: Path = ROOT) -> int:
    """This checkout's port: from a digest of its path, in 20000–32767, below Linux's ephemeral ports (32768 up),
    which the kernel hands out for port 0."""
    digest = hashlib.sha256(str(root).encode("utf-8")).digest()
    return 20_000 + int.from_bytes(digest[:4], "big") % 12_768


def serve_test_site(stack: contextlib.ExitStack, site_dir: Path) -> str:
    """Serve ``site_dir`` under :data:`TEST_PREFIX` on :func:`stable_port` (any free port if it is taken) until
    ``stack`` closes; the base address."""
    try:
        return stack.enter_context(serve_site(site_dir, TEST_PREFIX, port=stable_port()))
    except OSError:  # another run of this checkout serves there
        return stack.enter_context(serve_site(site_dir, TEST_PREFIX))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--site-dir",
        action="store",
        default=None,
        metavar="DIR",
        help="use the site already built in DIR (make site) instead of building one",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--site-dir") or is_worker(config) or not steers_workers(config):
        return
    run = state(config)  # serve the shared site folder from here, for the whole run
    site_dir = Path(run["dir"]) / "public" / "site"
    run["site_dir"] = str(site_dir)
    run["site_base"] = serve_test_site(run["stack"], site_dir)


def _build(site_dir: Path, base: str) -> dict[str, object]:
    start = time.perf_counter()
    timings = site.build(site_url=base, site_dir=site_dir)  # the build of `make site`: strict by default
    return {"timings": timings, "seconds": time.perf_counter() - start}


@pytest.fixture(scope="session")
def built_site(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    """Build both languages with strict checks for the test address and serve them; yield what was built.

    Keys: ``dir`` (the English site; Chinese in ``dir/zh``), ``base`` (the English site's address, served),
    ``timings`` (seconds per language), ``seconds`` (total). Under pytest-xdist one worker builds, the others wait
    and use its build; the steering process serves it.
    """
    run = state(pytestconfig)
    given = pytestconfig.getoption("--site-dir")
    if given:  # built already: serve it
        site_dir = Path(given).resolve()
        if not (site_dir / "index.html").is_file():
            raise pytest.UsageError(f"--site-dir {given}: no built site there (no index.html); run make site first")
        with contextlib.ExitStack() as stack:
            yield {"dir": site_dir, "base": serve_test_site(stack, site_dir), "timings": {}, "seconds": 0.0}
        return
    if "site_dir" not in run:  # one process: build and serve here
        site_dir = tmp_path_factory.mktemp("public") / "site"
        with contextlib.ExitStack() as stack:
            base = serve_test_site(stack, site_dir)
            yield {"dir": site_dir, "base": base, **_build(site_dir, base)}
        return
    from filelock import FileLock

    site_dir, base = Path(run["site_dir"]), run["site_base"]
    done = Path(run["dir"]) / "site-build.json"
    with FileLock(str(done) + ".lock"):
        if not done.exists():
            try:
                record: dict[str, Any] = _build(site_dir, base)
            except BaseException as exc:
                done.write_text(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), encoding="utf-8")
                raise
            done.write_text(json.dumps(record), encoding="utf-8")
    record = json.loads(done.read_text(encoding="utf-8"))
    if "error" in record:
        pytest.fail(f"the session's site build failed (in another worker): {record['error']}", pytrace=False)
    yield {"dir": site_dir, "base": base, **record}


@pytest.fixture(scope="session")
def site_dir(built_site: dict[str, object]) -> Path:
    return built_site["dir"]  # type: ignore[return-value]


@pytest.fixture(scope="session")
def site_base(built_site: dict[str, object]) -> str:
    """The English site's public address (the server's sub-path); the Chinese one is ``site_base + "zh/"``."""
    return built_site["base"]  # type: ignore[return-value]
