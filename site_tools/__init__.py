"""Site tooling: plain Python that builds, finishes and checks the site, and that the tests import; ``pe_docs`` imports
nothing from here. One subpackage per job (README.md, "Layout"):

- ``build``: ``make site``, ``make serve``, ``make deploy``; the engine and its hooks, the build-time figures and
  chapter notebooks, the runs of the pages' code, the watch on the engine's successors;
- ``finish``: the pass over the HTML the engine wrote (numbers, math, figures, versions),
  on a tree read with one HTML parser, and the measure of stray spaces on Chinese pages;
- ``pages``: the pages as sources: the one reader of a page, the checks of what it says (numbers, assertions,
  parity), a page's tests (``make check``), a new chapter (``make chapter``);
- ``book``: each language as one PDF (``make pdf``).

They stand one on another, book on build on finish on pages, and all on the floor (``tests/test_layers.py``):
the site's layout as data (``layout``: languages, configs, nav, page paths, addresses), the one HTML reader (``dom``),
the project's cache (``cache``), headless Chromium on a built site (``browser``), and the upstream tier's pins
(``versions``, standard library only: the tier's own environment imports it).
"""

from __future__ import annotations

from pathlib import Path

#: The repository's root folder.
ROOT = Path(__file__).resolve().parent.parent


def copy_repository(dest: Path, *, cache: str | None = "shared") -> Path:
    """The repository's files (``git ls-files``: tracked, and untracked but not ignored) in ``dest``, with KaTeX and
    axe-core as installed (``node_modules``, linked): a copy to build or change (the tests' release tarball and scratch
    copies, the successor watch's builds).

    ``cache``: ``"shared"`` links the build cache (same sources, same keys: figures and notebooks are reused, not
    drawn again); ``None`` gives it none (a cold build).

    Raises:
        ValueError: another ``cache``.
    """
    import shutil
    import subprocess

    if cache not in {"shared", None}:
        raise ValueError(f"cache must be 'shared' or None, got {cache!r}")
    command = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    listed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\0")
    for rel in filter(None, listed):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    (ROOT / ".cache").mkdir(exist_ok=True)
    if cache == "shared":
        (dest / ".cache").symlink_to(ROOT / ".cache")
    return dest
