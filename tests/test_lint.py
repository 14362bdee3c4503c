"""The repository is ruff-clean (the configuration is in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_library_does_not_import_site_tooling_or_matplotlib_at_top_level() -> None:
    """`import pe_docs` needs only torch: matplotlib lives in pe_docs.plotting, site code in site_tools."""
    code = (
        "import sys, pe_docs; "
        "bad = [m for m in ('matplotlib', 'site_tools', 'mkdocs', 'mpmath') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_merge_conflict_markers() -> None:
    """A merge committed half-resolved would build: `<<<<<<<` renders as text on a page."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    found = []
    for name in files:
        path = ROOT / name
        if path.suffix not in {".md", ".py", ".yml", ".yaml", ".toml", ".html", ".js", ".css", ".ipynb", ".txt"}:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if line.startswith(("<<<<<<< ", ">>>>>>> ")) or line == "=======":
                found.append(f"{name}:{n}")
    assert found == [], found
