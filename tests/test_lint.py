"""The repository passes its lint hooks (.pre-commit-config.yaml: ruff check, ruff format --check, codespell, mypy),
and the code on the pages, which readers copy, is formatted and free of pyflakes' findings."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from site_tools import ROOT, pages


def test_ruff_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("name", [n for n in pages.page_names() if n.endswith(".md")])
def test_page_code_is_ruff_clean(name: str, tmp_path: Path) -> None:
    """Every python block of the page, in both languages, is formatted as `ruff format` would (each fence alone, the
    project's settings), and the code of each of its tests (a block with the blocks that continue it) has no unused
    or undefined name, no redefinition (ruff's F rules) and no line over 120 columns (E501): the code readers copy
    is held to the rules of the code beside it. Findings name the page line."""
    where: dict[str, tuple[str, list[tuple[int, int]]]] = {}  # file: (page, [(first row, page line of row 1)])
    (tmp_path / "format").mkdir()
    (tmp_path / "check").mkdir()
    for lang in pages.LANGS:
        path = pages.files(lang).get(name)
        if path is None:
            continue
        for head, chain in pages.read(path).chains().items():
            for f in chain:
                file = f"{lang}-{f.line}.py"
                (tmp_path / "format" / file).write_text(f.code + "\n", encoding="utf-8")
                where[file] = (pages.rel(path), [(1, f.line + 1)])
            rows, row = [], 1
            for f in chain:
                rows.append((row, f.line + 1))
                row += f.code.count("\n") + 1
            file = f"{lang}-chain-{head}.py"
            (tmp_path / "check" / file).write_text("\n".join(f.code for f in chain) + "\n", encoding="utf-8")
            where[file] = (pages.rel(path), rows)

    def page_line(file: str, row: int) -> str:
        page, rows = where[file]
        first, line = max((r for r in rows if r[0] <= row), key=lambda r: r[0])
        return f"{page}:{line + row - first}"

    ruff = [sys.executable, "-m", "ruff", "--config", str(ROOT / "pyproject.toml")]
    fmt = subprocess.run(
        [*ruff[:3], "format", *ruff[3:], "--no-cache", "--diff", "."],
        cwd=tmp_path / "format",
        capture_output=True,
        text=True,
    )
    # the diff, each block's header naming its page line: what to change, in one run with the findings below
    diff = re.sub(r"^(---|\+\+\+) (\S+?\.py)$", lambda m: f"{m[1]} {page_line(m[2], 1)}", fmt.stdout, flags=re.M)
    check = subprocess.run(
        [*ruff[:3], "check", *ruff[3:], "--no-cache", "--select", "F,E501", "--output-format", "concise", "."],
        cwd=tmp_path / "check",
        capture_output=True,
        text=True,
    )
    found = [
        f"{page_line(file, int(row))}: {message}"
        for file, row, message in re.findall(r"^(\S+?\.py):(\d+):\d+: (.*)$", check.stdout, re.M)
    ]
    if diff.strip():
        found.append("not formatted as `ruff format` would format it (make format does not reach the pages):\n" + diff)
    assert not found, "\n".join(found)
    assert fmt.returncode == check.returncode == 0, fmt.stdout + fmt.stderr + check.stdout + check.stderr


def test_library_does_not_import_site_tooling_or_matplotlib_at_top_level() -> None:
    """`import pe_docs` needs only torch: matplotlib lives in pe_docs.plotting, site code in site_tools."""
    code = (
        "import sys, pe_docs; "
        "bad = [m for m in ('matplotlib', 'site_tools', 'mkdocs', 'mpmath') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _pinned(name: str) -> str:
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line.split("==")[0].strip().lower().replace("_", "-") == name:
            return line.split("==")[1].strip()
    raise AssertionError(f"{name} is not pinned in requirements.txt")


def _hook_env() -> dict[str, str]:
    env = dict(os.environ)
    # scripts/venv-run falls back to the first python3 on PATH when the checkout has no .venv (a worktree):
    # make it this interpreter's environment.
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


LINT_FILES = ["git", "ls-files", "--cached", "--others", "--exclude-standard"]  # what `make lint` checks


def test_pre_commit_hooks_pass() -> None:
    """The hooks of .pre-commit-config.yaml (ruff check, ruff format --check, codespell, mypy) pass on every file, new
    (untracked) ones too: the same run as `make lint`, so CI runs the hooks a commit runs."""
    files = subprocess.run(LINT_FILES, cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--color", "never", "--files", *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=_hook_env(),
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


def test_make_lint_checks_new_files_and_says_it_changed_nothing(tmp_path: Path) -> None:
    """`make lint` in a repository with a new page not yet added to git: the page is spell-checked, and the report
    says that no file was changed and how to fix what the hooks name (no "hook(s) made changes" with the
    contributor's own uncommitted diff, which pre-commit's --show-diff-on-failure prints)."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    for name in ("Makefile", ".pre-commit-config.yaml", "pyproject.toml", "scripts/venv-run"):
        shutil.copy2(ROOT / name, repo / name)
    (repo / ".venv").symlink_to(Path(sys.executable).parent.parent)
    (repo / ".gitignore").write_text(".venv\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    (repo / "pyproject.toml").write_text(
        (repo / "pyproject.toml").read_text(encoding="utf-8") + "\n", encoding="utf-8"
    )  # an uncommitted edit
    (repo / "docs/en").mkdir(parents=True)
    typo = "t" + "eh"  # spelled out here, the hook would flag this file
    (repo / "docs/en/new-page.md").write_text(f"# New\n\nThis is {typo} new page.\n", encoding="utf-8")
    result = subprocess.run(["make", "-o", "setup", "lint"], cwd=repo, capture_output=True, text=True, env=_hook_env())
    out = result.stdout + result.stderr
    assert result.returncode != 0, out
    assert f"docs/en/new-page.md:3: {typo} ==> the" in out, out
    assert "make lint: failed, and changed no file (the hooks only check)" in out and "make format" in out
    assert "made changes" not in out and "All changes made by hooks" not in out


def test_hooks_use_the_pinned_tools() -> None:
    """Every hook is local and runs a tool pinned in requirements.txt from the project's environment."""
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert [repo["repo"] for repo in config["repos"]] == ["local"]
    assert {hook["id"] for hook in hooks} == {"ruff-check", "ruff-format", "codespell", "mypy"}
    for hook in hooks:
        assert hook["entry"].startswith("scripts/venv-run "), hook
        assert hook["language"] in {"unsupported", "system"}, hook
    assert "--check" in next(h["entry"] for h in hooks if h["id"] == "ruff-format")  # never rewrites files
    for tool in ("pre-commit", "ruff", "codespell", "mypy"):
        _pinned(tool)
    import codespell_lib
    import mypy.version
    import pre_commit.constants

    assert _pinned("pre-commit") == pre_commit.constants.VERSION
    assert codespell_lib.__version__ == _pinned("codespell")
    assert mypy.version.__version__ == _pinned("mypy")
    version = subprocess.run([sys.executable, "-m", "ruff", "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.split()[-1] == _pinned("ruff")


def test_spell_check_finds_a_typo(tmp_path: Path) -> None:
    """The spell checker with the project's configuration is not silenced: a real typo is reported."""
    typo = "sepe" + "rate"  # spelled out here, the hook would flag this file
    page = tmp_path / "page.md"
    page.write_text(f"The positional encoding is kept {typo} from the embeddings.\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "codespell_lib", "--toml", str(ROOT / "pyproject.toml"), str(page)],
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0 and f"{typo} ==> separate" in result.stdout, result.stdout + result.stderr


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


def test_every_make_target_is_phony_and_documented() -> None:
    """Each target of the Makefile is in ``.PHONY``, in the Makefile's header and in the README (``setup`` is what the
    others run first), so a new command cannot be described in one place and missed in the others."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = re.findall(r"^([a-z][a-z-]*):", makefile, flags=re.M)
    phony = set(re.search(r"^\.PHONY: (.*)$", makefile, flags=re.M)[1].split())  # type: ignore[index]
    header = makefile[: makefile.index(".PHONY")]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "sync" in targets and set(targets) == phony, sorted(set(targets) ^ phony)
    for target in set(targets) - {"setup"}:
        assert re.search(rf"make {target}\b(?!-)", readme), f"README.md does not name make {target}"
        if target not in {"format", "clean", "bench", "bench-tests", "parity", "lint", "test-upstream"}:
            assert re.search(rf"#   make {target}\b", header), f"the Makefile's header does not name make {target}"
