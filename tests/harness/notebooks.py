"""The chapter notebooks, run in the background from the moment the selected tests are known.

Each chapter's generated notebook is executed on a fresh kernel by ``site_tools.build.kernels.Runner``, two at a time,
in the process that steers the run (under pytest-xdist, as soon as the first worker has collected: the controller
learns the selected test ids then), writing each result into the run's folder; ``tests/test_notebooks.py`` waits for
its notebook's result through the ``notebook_result`` fixture (and starts the run itself if nothing did).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from harness.run import is_worker, state, steers_workers
from site_tools.build import kernels

NOTEBOOK_TEST = "test_notebook_runs_top_to_bottom"
_RUNNER = pytest.StashKey[Any]()


def pytest_configure(config: pytest.Config) -> None:
    state(config).setdefault("notebooks", str(Path(state(config)["dir"]) / "notebooks"))


def notebooks_of(ids: list[str]) -> list[tuple[str, str]]:
    """The (language, page) of each notebook test among test ids."""
    out = []
    for nodeid in ids:
        m = re.search(rf"::{NOTEBOOK_TEST}\[(\w+)/([^\]]+)\]", nodeid)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def start(config: pytest.Config, ids: list[str]) -> None:
    """Start running the notebooks of these test ids in the background (once each)."""
    chapters = notebooks_of(ids)
    if not chapters or config.option.collectonly:
        return
    if config.stash.get(_RUNNER, None) is None:
        workers = max(1, min(2, os.cpu_count() or 1))
        config.stash[_RUNNER] = kernels.Runner(Path(state(config)["notebooks"]), workers=workers)
    config.stash[_RUNNER].start(chapters)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """pytest-xdist controller: the first worker has collected; start the selected notebooks now."""
    start(node.config, list(ids))


def pytest_collection_finish(session: pytest.Session) -> None:
    if not is_worker(session.config) and not steers_workers(session.config):
        start(session.config, [item.nodeid for item in session.items])


def pytest_unconfigure(config: pytest.Config) -> None:
    runner = config.stash.get(_RUNNER, None)
    if runner is not None:
        runner.shutdown()


@pytest.fixture(scope="session")
def notebook_result(pytestconfig: pytest.Config) -> Any:
    """``notebook_result((lang, page))``: the run of that chapter's notebook (``site_tools.build.kernels.run``),
    waiting for the background runner; run here if no runner was started for it."""
    out_dir = Path(state(pytestconfig)["notebooks"])

    def get(chapter: tuple[str, str]) -> dict[str, Any]:
        if not kernels.result_path(out_dir, chapter).is_file() and not is_worker(pytestconfig):
            start(pytestconfig, [f"::{NOTEBOOK_TEST}[{chapter[0]}/{chapter[1]}]"])
        return kernels.wait(out_dir, chapter)

    return get
