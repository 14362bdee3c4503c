"""The test run's shared state: one folder for the run, which every pytest-xdist worker is told about.

The process that steers the run (the pytest-xdist controller, or the only pytest process) creates a temporary
folder in ``pytest_configure`` and removes it at the end; under pytest-xdist it hands the folder (and what the other
plugins add to :func:`state`: the served site's address, …) to each worker through ``workerinput``. Every test
process — the workers, the builds and servers they start, the notebook kernels — runs torch on one thread: they
already share the cores, and threads of their own would only wait for each other. The page blocks' results are kept
under this setting (``site_tools.build.kernels.environment_digest``).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

# Set before torch is imported (this plugin is loaded with conftest.py, before the tests import anything).
os.environ["OMP_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = "1"

RUN = pytest.StashKey[dict[str, Any]]()


def is_worker(config: pytest.Config) -> bool:
    """Whether this process is a pytest-xdist worker."""
    return hasattr(config, "workerinput")


def steers_workers(config: pytest.Config) -> bool:
    """Whether this is the pytest-xdist controller of a run with workers."""
    return (
        not is_worker(config)
        and getattr(config.option, "dist", "no") != "no"
        and bool(getattr(config.option, "numprocesses", 0))
    )


def state(config: pytest.Config) -> dict[str, Any]:
    """The run's shared state: ``dir`` (the run's folder), ``stack`` (what to close at the end; steering process
    only), and what the other plugins put there (JSON values: they travel to the workers)."""
    return config.stash[RUN]


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if "torch" in sys.modules:  # imported before this file by a plugin: the variables came too late for it
        sys.modules["torch"].set_num_threads(1)
    if is_worker(config):
        config.stash[RUN] = json.loads(config.workerinput["pe_docs_run"])  # type: ignore[attr-defined]
        return
    shared = Path(tempfile.mkdtemp(prefix="pe-docs-run-"))
    config.stash[RUN] = {"dir": str(shared), "stack": ExitStack()}


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist: tell each worker the run's shared state."""
    run = state(node.config)
    node.workerinput["pe_docs_run"] = json.dumps({k: v for k, v in run.items() if k != "stack"})


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    if is_worker(config) or RUN not in config.stash:
        return
    run = state(config)
    run["stack"].close()
    shutil.rmtree(run["dir"], ignore_errors=True)
