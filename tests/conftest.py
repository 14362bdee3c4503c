"""Shared fixtures and the shape of a test run: one site build per run, notebooks started first, one page at a time.

**The site** is built once per test run (strict), for a public address under a sub-path,
``http://127.0.0.1:<port>/pe-docs-test/`` (Chinese under ``…/zh/``), into a temporary folder, and served there the
way GitHub Pages serves a project site: only under that prefix, with the root ``404.html`` (status 404) for every
missing address. So every site and browser test also checks that the site works at an address other than the one
in mkdocs.yml. Under pytest-xdist (``make test`` runs ``-n 2``) the process that steers the run serves the folder
for the whole run and tells the workers its address; the first worker that needs the site builds it (a file lock:
one build, the others wait for it) and every worker uses that one build.

**The chapter notebooks** (``site_tools.kernels``) start as soon as the selected tests are known, in that same
steering process, in the background: ``tests/test_notebooks.py`` collects their results, which are written to a
folder every worker can read.

**One page** (``--page <slug>``, what ``make check PAGE=<slug>`` runs): only the tests of that page are kept — its
blocks in both languages, and every test parametrised by the page (fences, parity, numbers, weak assertions,
Chinese style, its notebooks). Nothing is listed by hand: a new test parametrised by pages joins by itself. Tests
that need the built site are left to ``make test``.

**Order** (under pytest-xdist): every test belongs to a unit that one worker runs as a whole (a module, a page's
blocks, a slice of the browser tests), and the units go out longest first, so that no long build is left for the
end, and the notebook tests last, when their results are ready.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from site_tools import kernels, site
from site_tools.browser import serve_site

# Every test process — the pytest-xdist workers, the builds and servers they start, the notebook kernels — runs torch
# on one thread: they already share the cores, and threads of their own would only wait for each other (and spin
# while they wait). Set before torch is imported; the page blocks' results are kept under this setting
# (site_tools.kernels.environment_digest).
os.environ["OMP_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = "1"

ROOT = Path(__file__).resolve().parent.parent

# The upstream tier runs in its own environment with its own ini file (make test-upstream). Left out here before
# its conftest.py is imported: both would be the module ``conftest``, and ``from conftest import …`` in the tests
# below would find the wrong one.
collect_ignore = ["upstream"]
TEST_PREFIX = "/pe-docs-test/"
NOTEBOOK_TEST = "test_notebook_runs_top_to_bottom"
_RUN = pytest.StashKey[dict[str, Any]]()


def _worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _steers_workers(config: pytest.Config) -> bool:
    """Whether this is the pytest-xdist controller of a run with workers."""
    return (
        not _worker(config)
        and getattr(config.option, "dist", "no") != "no"
        and bool(getattr(config.option, "numprocesses", 0))
    )


# --- options -------------------------------------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--page",
        action="store",
        default=None,
        metavar="SLUG",
        help="only the tests of one page (docs/en/SLUG.md and docs/zh/SLUG.md): what `make check PAGE=SLUG` runs",
    )


# --- the run: shared folder, site server, notebook runner -----------------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    if "torch" in sys.modules:  # imported before this file by a plugin: the variables came too late for it
        sys.modules["torch"].set_num_threads(1)
    if _worker(config):
        config.stash[_RUN] = json.loads(config.workerinput["pe_docs_run"])  # type: ignore[attr-defined]
        return
    shared = Path(tempfile.mkdtemp(prefix="pe-docs-run-"))
    stack = ExitStack()
    run: dict[str, Any] = {"dir": str(shared), "notebooks": str(shared / "notebooks"), "stack": stack}
    if _steers_workers(config):  # serve the shared site folder from here, for the whole run
        site_dir = shared / "public" / "site"
        run["site_dir"] = str(site_dir)
        run["site_base"] = stack.enter_context(serve_site(site_dir, TEST_PREFIX))
    config.stash[_RUN] = run


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist: tell each worker where the run's shared folder, site and notebook results are."""
    run = node.config.stash[_RUN]
    node.workerinput["pe_docs_run"] = json.dumps({k: v for k, v in run.items() if k != "stack"})


def pytest_unconfigure(config: pytest.Config) -> None:
    if _worker(config) or _RUN not in config.stash:
        return
    run = config.stash[_RUN]
    if run.get("runner") is not None:
        run["runner"].shutdown()
    run["stack"].close()
    shutil.rmtree(run["dir"], ignore_errors=True)


def _notebooks_of(ids: list[str]) -> list[tuple[str, str]]:
    out = []
    for nodeid in ids:
        m = re.search(rf"::{NOTEBOOK_TEST}\[(\w+)/([^\]]+)\]", nodeid)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def _start_notebooks(config: pytest.Config, ids: list[str]) -> None:
    run = config.stash[_RUN]
    chapters = _notebooks_of(ids)
    if not chapters or config.option.collectonly:
        return
    if run.get("runner") is None:
        workers = max(1, min(2, os.cpu_count() or 1))
        run["runner"] = kernels.Runner(Path(run["notebooks"]), workers=workers)
    run["runner"].start(chapters)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """pytest-xdist controller: the first worker has collected; start the selected notebooks now."""
    _start_notebooks(node.config, list(ids))


def pytest_collection_finish(session: pytest.Session) -> None:
    if not _worker(session.config) and not _steers_workers(session.config):
        _start_notebooks(session.config, [item.nodeid for item in session.items])


@pytest.fixture(scope="session")
def notebook_result(pytestconfig: pytest.Config) -> Any:
    """``notebook_result((lang, page))``: the run of that chapter's notebook (``site_tools.kernels.run``),
    waiting for the background runner; run here if no runner was started for it."""
    run = pytestconfig.stash[_RUN]
    out_dir = Path(run["notebooks"])

    def get(chapter: tuple[str, str]) -> dict[str, Any]:
        if not kernels.result_path(out_dir, chapter).is_file() and not _worker(pytestconfig):
            _start_notebooks(pytestconfig, [f"::{NOTEBOOK_TEST}[{chapter[0]}/{chapter[1]}]"])
        return kernels.wait(out_dir, chapter)

    return get


# --- the site -------------------------------------------------------------------------------------------------------


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
    run = pytestconfig.stash[_RUN]
    if "site_dir" not in run:  # one process: build and serve here
        site_dir = tmp_path_factory.mktemp("public") / "site"
        with serve_site(site_dir, TEST_PREFIX) as base:
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


# --- one page; units and order -------------------------------------------------------------------------------------


def _mentions(value: object, names: set[str]) -> bool:
    """Whether a test parameter names one of the page files ``names`` (a path, ``formula.md``, ``en/formula.md``,
    or a tuple or list holding one)."""
    if isinstance(value, Path):
        return value.name in names and value.parent.parent.name == "docs"
    if isinstance(value, str):
        return value.rsplit("/", 1)[-1] in names and value.endswith((".md", ".ipynb"))
    if isinstance(value, tuple | list):
        return any(_mentions(v, names) for v in value)
    return False


SITE_FIXTURES = {"built_site", "site_dir", "site_base"}  # a test using one of these needs the built site


def page_tests(items: list[pytest.Item], slug: str) -> list[pytest.Item]:
    """The tests of one page: its blocks and every test parametrised by it, except those needing the built site."""
    slug = Path(slug).name.removesuffix(".md").removesuffix(".ipynb")
    names = {f"{slug}.md", f"{slug}.ipynb"}
    keep = []
    for item in items:
        path = Path(str(item.path))
        if path.suffix == ".md" and path.name in names and path.parent.parent == ROOT / "docs":
            keep.append(item)
            continue
        params = getattr(getattr(item, "callspec", None), "params", {})
        needs_site = item.get_closest_marker("site") or SITE_FIXTURES & set(getattr(item, "fixturenames", ()))
        if any(_mentions(v, names) for v in params.values()) and not needs_site:
            keep.append(item)
    return keep


# Units that take longest, first (measured with benchmarks/bench_tests.py); the rest follow in collection order.
HEAVY = (
    "tests/test_reproducible.py",
    "release-copy",
    "tests/test_serve.py",
    "tests/test_build_guards.py",
)
BROWSER_SLICES = {"tests/test_browser.py": 3, "tests/test_explorer.py": 2}


def _unit(item: pytest.Item) -> str:
    module = item.nodeid.split("::", 1)[0]
    if module == "tests/test_chapter.py" or "release_copy" in getattr(item, "fixturenames", ()):
        return "release-copy"  # one worker makes the release copy and builds it once for all its tests
    if module.startswith("docs/"):
        return "page:" + Path(module).name  # a page's blocks, both languages
    if item.nodeid.split("::", 1)[-1].startswith(NOTEBOOK_TEST):
        return "notebooks"
    if module in BROWSER_SLICES:
        index = getattr(item, "_pe_docs_index", 0)
        return f"{module}#{index % BROWSER_SLICES[module]}"
    return module


def _reuse_passed_blocks(item: pytest.Item) -> None:
    """Let a page block's test pass at once when a block with the same tokens passed in the same environment
    (``site_tools.kernels.block_key``), and remember it when it passes."""
    block = getattr(item, "obj", None)
    if getattr(block, "syntax", None) != "python" or not hasattr(block, "expected_output"):
        return
    run = item.runtest

    def runtest() -> None:
        key = kernels.block_key(block.code, block.expected_output, block.expected_output_ignore_whitespace, block.marks)
        passed = kernels.block_passed(key)
        if kernels.caching() and passed.exists():
            item.user_properties.append(("pe_docs_reused", "block"))
            return
        run()
        if kernels.caching():
            passed.parent.mkdir(parents=True, exist_ok=True)
            passed.touch()

    item.runtest = runtest  # type: ignore[method-assign]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    reports = terminalreporter.stats.get("passed", [])
    reused = [dict(r.user_properties).get("pe_docs_reused") for r in reports if r.when == "call"]
    blocks, notebooks = reused.count("block"), reused.count("notebook")
    if blocks or notebooks:
        terminalreporter.write_line(
            f"pe-docs: {blocks} page blocks and {notebooks} notebook runs had passed with the same code, library "
            f"and environment, and were reused from the cache ({kernels.NO_CACHE_ENV}=1 runs them again)"
        )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        _reuse_passed_blocks(item)
    slug = config.getoption("--page")
    if slug:
        keep = page_tests(items, slug)
        if not keep:
            raise pytest.UsageError(f"--page {slug}: no test of a page docs/en/{slug}.md or docs/zh/{slug}.md")
        deselected = [i for i in items if i not in keep]
        items[:] = keep
        config.hook.pytest_deselected(items=deselected)
    per_module: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        item._pe_docs_index = per_module.get(module, 0)  # type: ignore[attr-defined]
        per_module[module] = item._pe_docs_index + 1  # type: ignore[attr-defined]
    units: dict[str, list[pytest.Item]] = {}
    for item in items:
        units.setdefault(_unit(item), []).append(item)

    def rank(name: str) -> tuple[int, int]:
        module = name.split("#", 1)[0]
        if module in HEAVY:
            return (0, HEAVY.index(module))
        if module in BROWSER_SLICES:
            return (1, 0)
        if name == "notebooks":
            return (9, 0)
        return (2, 0)

    order = sorted(units, key=rank)  # stable: collection order within a rank
    items[:] = [item for name in order for item in units[name]]
    if getattr(config.option, "loadgroup", False):
        for item in items:
            item.add_marker(pytest.mark.xdist_group(_unit(item)))


# --- scratch copies of the repository -------------------------------------------------------------------------------

SCRATCH_CHAPTER = "scratch-chapter"  # a name no real page uses


def _env(repo: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(repo)}
    env.pop("SITE_URL", None)
    return env


@pytest.fixture(scope="session")
def release_copy(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The sources as a release tarball (``git archive``) holds them — every file ``git ls-files`` lists, no ``.git``
    — after ``make chapter NAME=scratch-chapter`` (``python -m site_tools.chapter``). KaTeX is linked (what
    ``make setup`` installs) and so is the build cache (keyed by content: what a tarball would draw again).

    Keys: ``dir``, and ``chapter`` (the chapter command's completed process). Used by ``test_chapter.py`` (a new
    chapter passes its checks and the strict build) and ``test_build_guards.py`` (a tarball builds).
    """
    import subprocess

    copy = tmp_path_factory.mktemp("release") / "pe-docs"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    for rel in filter(None, listed):
        if (ROOT / rel).is_file():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, copy / rel)
    (copy / "node_modules").symlink_to(ROOT / "node_modules")
    (ROOT / ".cache").mkdir(exist_ok=True)
    (copy / ".cache").symlink_to(ROOT / ".cache")
    chapter = subprocess.run(
        [sys.executable, "-m", "site_tools.chapter", SCRATCH_CHAPTER],
        cwd=copy,
        env=_env(copy),
        capture_output=True,
        text=True,
        timeout=600,
    )
    return {"dir": copy, "chapter": chapter}


@pytest.fixture(scope="session")
def release_site(release_copy: dict[str, Any], built_site: dict[str, object]) -> dict[str, Any]:
    """``python -m site_tools.site build`` (``make site``) in :func:`release_copy`, both languages, for the address
    in mkdocs.yml (no ``SITE_URL``); after the test run's build (``built_site``), whose figures and executed
    notebooks it finds in the cache. Keys: ``dir`` (the copy), ``site`` (its ``site/``), ``build`` (the completed
    process)."""
    import subprocess

    copy = release_copy["dir"]
    build = subprocess.run(
        [sys.executable, "-m", "site_tools.site", "build"],
        cwd=copy,
        env=_env(copy),
        capture_output=True,
        text=True,
        timeout=900,
    )
    return {"dir": copy, "site": copy / "site", "build": build}


# What the checks and the build read; a scratch copy of these is a repository the tests may change freely.
SCRATCH_DIRS = ("docs", "templates", "site_tools", "pe_docs", "tests", "overrides")
SCRATCH_FILES = ("mkdocs.yml", "mkdocs.zh.yml", "pyproject.toml", "Makefile", "requirements-upstream.txt")


def make_scratch_repo(dest: Path, *, cache: str = "shared") -> Path:
    """Copy the repository's pages, configs, tools, library and tests into ``dest`` and link the installed KaTeX.

    ``cache``: ``"shared"`` links the build cache (same sources, same cache keys: figures and notebooks are reused,
    not redrawn); ``"copy"`` gives the copy its own copy of it (a full build evicts the cached notebooks it did not
    use, mkdocs-jupyter's ``on_post_build``, so a test that watches the cache must not share it with builds running
    beside it); ``"none"`` gives it none (a cold build)."""
    if cache not in {"shared", "copy", "none"}:
        raise ValueError(f"cache must be 'shared', 'copy' or 'none', got {cache!r}")
    root = ROOT
    ignore = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints")
    for name in SCRATCH_DIRS:
        shutil.copytree(root / name, dest / name, ignore=ignore)
    for name in SCRATCH_FILES:
        shutil.copy2(root / name, dest / name)
    (dest / "node_modules").symlink_to(root / "node_modules")
    (root / ".cache").mkdir(exist_ok=True)
    if cache == "shared":
        (dest / ".cache").symlink_to(root / ".cache")
    elif cache == "copy":
        shutil.copytree(root / ".cache", dest / ".cache")
    return dest
