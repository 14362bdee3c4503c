"""`make chapter NAME=<slug>`: a new chapter in both languages that passes every check as created.

The command runs in a scratch copy of the repository (pages, configs, templates, tools, library, tests); the
new pair then goes through the checks of ``make test`` there: its blocks run (pytest ``--codeblocks``), the
numbers check, the parity of the code, the Chinese checks, the fence checks, and a strict build of both sites.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import make_scratch_repo

from site_tools import chapter, numbers, pages

ROOT = Path(__file__).resolve().parent.parent
SLUG = "scratch-chapter"  # a name no real page uses, so `-k` selects only the new pair's tests


def run(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(cwd))
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def created(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scratch copy after ``python -m site_tools.chapter scratch-chapter`` (what ``make chapter`` runs)."""
    copy = make_scratch_repo(tmp_path_factory.mktemp("repo"))
    result = run([sys.executable, "-m", "site_tools.chapter", SLUG], copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"wrote docs/en/{SLUG}.md" in result.stdout and f"wrote docs/zh/{SLUG}.md" in result.stdout
    return copy


def test_makefile_target_runs_the_module() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert '\nchapter: setup\n\t$(PY) -m site_tools.chapter "$(NAME)"\n' in makefile


def test_pages_and_nav_are_created(created: Path) -> None:
    en = (created / "docs/en" / f"{SLUG}.md").read_text(encoding="utf-8")
    zh = (created / "docs/zh" / f"{SLUG}.md").read_text(encoding="utf-8")
    assert en.startswith("# Scratch chapter\n")
    assert zh.startswith("# 章节标题\n") and "用一段话说明" in zh  # a Chinese skeleton, not the English page
    nav = chapter.nav_files(created / "mkdocs.yml")
    assert nav.index(f"{SLUG}.md") == nav.index("api.md") - 1
    assert [name for name in nav if name != f"{SLUG}.md"] == chapter.nav_files(ROOT / "mkdocs.yml")
    # only the nav line was added to mkdocs.yml
    before = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    after = (created / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    assert len(after) == len(before) + 1 and [line for line in after if line not in before] == [f"  - {SLUG}.md"]


def test_new_pair_passes_the_page_checks(created: Path) -> None:
    """Numbers, parity, weak assertions, in this process; blocks, fences and the Chinese checks in a pytest run
    of the scratch copy, selected to the new pair (the other pages are checked by the suite itself)."""
    en, zh = created / "docs/en" / f"{SLUG}.md", created / "docs/zh" / f"{SLUG}.md"
    assert numbers.check_pair(en, zh) == []
    assert [s.text for s in numbers.stated_numbers(en)] == ["6283", "10000"]  # the check did read the prose
    assert pages.code_signature(en) == pages.code_signature(zh) and len(pages.code_signature(en)) == 4
    assert pages.weak_asserts(en) == pages.weak_asserts(zh) == []
    result = run(
        [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            f"docs/en/{SLUG}.md", f"docs/zh/{SLUG}.md",
            "tests/test_numbers.py", "tests/test_chinese.py", "tests/test_pages.py", "-k", SLUG,
        ],
        created,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    summary = result.stdout.strip().splitlines()[-1]
    # 3 blocks per page (the cont block joins the first) + numbers (3) + Chinese (3) + fences (2)
    assert summary.startswith("14 passed"), result.stdout[-2000:]


@pytest.mark.site
def test_strict_build_of_the_copy(created: Path) -> None:
    result = run([sys.executable, "-m", "site_tools.site", "build"], created, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    for path in (f"site/{SLUG}/index.html", f"site/zh/{SLUG}/index.html"):
        assert (created / path).is_file(), path
    html = (created / "site/zh" / SLUG / "index.html").read_text(encoding="utf-8")
    assert "用代码验证论断" in html and "6283" in html


@pytest.mark.parametrize(
    ("slug", "message"),
    [
        ("", "give the chapter a name"),
        ("Attention", "lower-case ASCII words"),
        ("attention_scores", "lower-case ASCII words"),
        ("attention--scores", "lower-case ASCII words"),
        ("-attention", "lower-case ASCII words"),
        ("../attention", "lower-case ASCII words"),
        ("注意力", "lower-case ASCII words"),
        ("a" * 41, "at most 40 characters"),
        ("zh", "reserved"),
        ("figures", "reserved"),
        ("formula", "already exists"),
        ("walkthrough", "already exists"),
        ("index", "already exists"),
    ],
)
def test_bad_or_existing_slug_is_refused(slug: str, message: str, tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    for name in ("docs", "templates"):
        shutil.copytree(ROOT / name, copy / name)
    shutil.copy2(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    with pytest.raises(chapter.ChapterError, match=message):
        chapter.create(slug, root=copy)
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before  # nothing written


def test_slug_already_in_nav_is_refused(tmp_path: Path) -> None:
    (tmp_path / "docs/en").mkdir(parents=True)
    (tmp_path / "docs/zh").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("nav:\n  - index.md\n  - Draft: draft.md\n  - api.md\n", encoding="utf-8")
    with pytest.raises(chapter.ChapterError, match="already listed under nav"):
        chapter.check_slug("draft", tmp_path)


def test_nav_insertion_keeps_the_file_as_written(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\nnav:\n    - index.md\n    - api.md   # reference\n\ntheme: material\n")
    chapter.add_to_nav(config, "new-page")
    assert (
        config.read_text()
        == "site_name: x\nnav:\n    - index.md\n    - new-page.md\n    - api.md   # reference\n\ntheme: material\n"
    )
    config.write_text("nav:\n  - index.md\n  - other.md\nplugins: []\n")
    chapter.add_to_nav(config, "new-page")  # no api.md: at the end of the nav
    assert config.read_text() == "nav:\n  - index.md\n  - other.md\n  - new-page.md\nplugins: []\n"


def test_command_line_refuses_with_a_message(tmp_path: Path) -> None:
    result = run([sys.executable, "-m", "site_tools.chapter", "Bad Name"], ROOT)
    assert result.returncode == 2 and "make chapter: slug must be lower-case" in result.stderr
    assert result.stdout == ""
