"""The project's cache: what builds and tests keep to reuse, each entry keyed by what it depends on (figures, executed
notebooks, notebook and page-block test runs, printed books, compiled templates).

It is ``$PE_DOCS_CACHE``, else ``.cache/`` in the checkout, read at every call: a build started with another
``PE_DOCS_CACHE`` (a cold build in the tests and benchmarks) uses its own, in this process and in those it starts.
``PE_DOCS_NO_CACHE=1`` runs every notebook and page block, and prints every book, again.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from site_tools import ROOT

ENV = "PE_DOCS_CACHE"
NO_CACHE_ENV = "PE_DOCS_NO_CACHE"  # set (to anything but "" or "0"): test runs and books are not reused


def folder(name: str = "") -> Path:
    """``<cache>/<name>`` (the cache itself without a name); not created."""
    return Path(os.environ.get(ENV) or ROOT / ".cache") / name


def enabled() -> bool:
    """Whether test runs and books may be reused (``PE_DOCS_NO_CACHE`` unset)."""
    return os.environ.get(NO_CACHE_ENV, "") in ("", "0")


def write(path: Path, data: str | bytes) -> Path:
    """Write ``path`` whole or not at all (through a file of this process and thread: builds and test workers run
    side by side on one cache), its folder created."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    tmp.replace(path)
    return path
