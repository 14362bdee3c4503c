"""The upstream tier: only when run as ``make test-upstream`` (with ``tests/upstream/pytest.ini``).

``make test`` collects ``tests/`` with the site's environment, which has none of these libraries: this hook
leaves the tier's modules out of that collection (they would fail to import). Standard library only here.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    """Leave the tier out of any run that does not use its own ini file."""
    if config.inipath is not None and Path(config.inipath).resolve() == HERE / "pytest.ini":
        return None
    return True if collection_path.suffix == ".py" or collection_path.is_dir() else None


def pytest_configure(config) -> None:
    """Nothing is downloaded at run time, whoever starts the tier: the Hugging Face libraries are offline. Run in
    an environment without the libraries (the site's .venv/), the tier stops at once and says how to run it."""
    if config.inipath is None or Path(config.inipath).resolve() != HERE / "pytest.ini":
        return
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        os.environ[name] = "1"
    os.environ.setdefault("KERAS_BACKEND", "torch")
    missing = [name for name in ("transformers", "diffusers", "whisper", "keras_hub", "x_transformers")
               if importlib.util.find_spec(name) is None]  # fmt: skip
    if missing:
        raise pytest.UsageError(
            f"tests/upstream needs the upstream libraries ({', '.join(missing)} not installed here): "
            "run it with `make test-upstream`, which installs them into .venv-upstream/"
        )
