"""`make chapter NAME=<slug>`: a new chapter in both languages that passes every check as created.

The command runs in a scratch copy of the repository (pages, configs, templates, tools, library, tests); the
new pair then goes through what ``make test`` runs for a page, there: ``make check PAGE=<slug>``, which selects
from the whole suite every test of that page (``--page``: its blocks, fences, parity, numbers, weak assertions,
Chinese style, both notebooks executed), and a strict build of both sites. Nothing is picked by hand, so a check
that the template fails cannot go unnoticed here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from harness.scratch import SCRATCH_CHAPTER, SCRATCH_SECTION

from site_tools import ROOT, pages
from site_tools.pages import chapter, stated_numbers

SLUG = SCRATCH_CHAPTER


def run(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(cwd))
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def created(release_copy: dict[str, Any]) -> Path:
    """A copy of the repository as a release tarball holds it, after ``python -m site_tools.pages.chapter
    scratch-chapter --section 'Deep dives'`` (what ``make chapter`` runs; conftest.py's ``release_copy``)."""
    result = release_copy["chapter"]
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"wrote docs/en/{SLUG}.md" in result.stdout and f"wrote docs/zh/{SLUG}.md" in result.stdout
    assert f"make check PAGE={SLUG}" in result.stdout  # the next step it names is the one-page check
    return release_copy["dir"]


def test_makefile_targets_run_the_modules() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert (
        '\nchapter: setup\n\t$(PY) -m site_tools.pages.chapter "$(NAME)" $(if $(SECTION),--section "$(SECTION)",)\n'
        in makefile
    )
    assert '\ncheck: setup\n\t$(PY) -m site_tools.pages.check "$(PAGE)"\n' in makefile


def test_pages_and_nav_are_created(created: Path) -> None:
    en = (created / "docs/en" / f"{SLUG}.md").read_text(encoding="utf-8")
    zh = (created / "docs/zh" / f"{SLUG}.md").read_text(encoding="utf-8")
    assert en.startswith("# Scratch chapter\n")
    assert zh.startswith("# 页面标题\n") and "用一段话说明" in zh  # a Chinese skeleton, not the English page
    k = [en for en, _ in chapter.section_pairs(ROOT)].index(SCRATCH_SECTION)
    for config in chapter.CONFIGS:  # each language's nav, at the end of the section asked for (its own title there)
        places = pages.nav_places(created / config)
        assert places[f"{SLUG}.md"] == (chapter.sections(ROOT / config)[k],)
        order = list(places)
        after = order[order.index(f"{SLUG}.md") + 1]
        assert places[after] != places[f"{SLUG}.md"], "not the last page of its section"
        assert [name for name in order if name != f"{SLUG}.md"] == list(pages.nav_places(ROOT / config))
        # only the nav line was added, indented as the line before it (the section's last page)
        before = (ROOT / config).read_text(encoding="utf-8").splitlines()
        after_lines = (created / config).read_text(encoding="utf-8").splitlines()
        added = [line for line in after_lines if line not in before]
        assert len(after_lines) == len(before) + 1 and [line.strip() for line in added] == [f"- {SLUG}.md"]
        previous = after_lines[after_lines.index(added[0]) - 1]
        assert previous.lstrip().startswith("- ") and previous.endswith(".md")
        assert len(added[0]) - len(added[0].lstrip()) == len(previous) - len(previous.lstrip())


def test_new_pair_passes_the_page_checks(created: Path) -> None:
    """``make check PAGE=scratch-chapter`` in the copy: the tests ``make test`` runs for the new pair, all passing."""
    en, zh = created / "docs/en" / f"{SLUG}.md", created / "docs/zh" / f"{SLUG}.md"
    assert [s.text for s in stated_numbers.stated_numbers(en)] == ["6283", "10000"]  # the check did read the prose
    assert pages.code_signature(en) == pages.code_signature(zh) and len(pages.code_signature(en)) == 4
    result = run([sys.executable, "-m", "site_tools.pages.check", SLUG, "-rA"], created)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    passed = [line.split(" ", 1)[1] for line in result.stdout.splitlines() if line.startswith("PASSED ")]
    for lang in ("en", "zh"):
        assert any(p.startswith(f"docs/{lang}/{SLUG}.md::line ") for p in passed), passed  # the blocks
        assert f"tests/test_notebooks.py::test_notebook_runs_top_to_bottom[{lang}/{SLUG}.md]" in passed
        assert f"tests/test_notebooks.py::test_notebook_has_the_page_code_in_order[{lang}/{SLUG}.md]" in passed
        assert f"tests/test_pages.py::test_page_runs_what_it_shows[{lang}/{SLUG}.md]" in passed
    for test in ("test_every_stated_number_is_asserted_on_its_page", "test_changing_any_stated_number_fails"):
        assert f"tests/test_numbers.py::{test}[{SLUG}.md]" in passed
    assert any(p.startswith("tests/test_chinese.py::") for p in passed)
    assert not [p for p in passed if SLUG not in p], "a test of another page was selected"
    # what passes but is still the skeleton's is listed after the tests, with file and line, to replace
    assert "Still as the template left them (replace before the pull request):" in result.stdout
    assert f"docs/zh/{SLUG}.md:1: the title is still the skeleton's: # 页面标题" in result.stdout
    for lang in ("en", "zh"):
        assert f"docs/{lang}/{SLUG}.md:4: the template's comment is still there: delete it" in result.stdout


@pytest.mark.site
def test_strict_build_of_the_copy(created: Path, release_site: dict[str, Any]) -> None:
    """``make site`` in the copy: both languages build strictly with the new chapter."""
    result = release_site["build"]
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    for path in (f"site/{SLUG}/index.html", f"site/zh/{SLUG}/index.html"):
        assert (created / path).is_file(), path
    html = (created / "site/zh" / SLUG / "index.html").read_text(encoding="utf-8")
    assert "用代码验证论断" in html and "6283" in html


# A tarball has no git history: its pages' "last update" is the build's date, not a commit's (test_build_guards.py
# checks that the tarball builds so); the test of git's dates cannot run on the copy.
NEEDS_GIT = "tests/test_site_build.py::test_last_update_is_the_git_date_in_the_page_language"


@pytest.mark.site
def test_new_pair_passes_the_checks_of_the_built_pages(created: Path, release_site: dict[str, Any]) -> None:
    """``make check PAGE=scratch-chapter`` in the copy with its built site (``--site-dir site``), its site tests
    (``-m site``; the page's own tests ran above): every test that reads the built pages — the print page and the
    books, the Chinese typesetting, the versions line, the page weight, … — on the site with the new chapter,
    selected by ``harness.page_selection``, not by hand. (The template's guidance once named a dark-scheme figure,
    which failed the print page's check.)"""
    assert release_site["build"].returncode == 0
    command = [sys.executable, "-m", "site_tools.pages.check", SLUG, "--site-dir", "site", "-m", "site", "-rA"]
    result = run([*command, "--deselect", NEEDS_GIT], created)
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
    passed = [line.split(" ", 1)[1] for line in result.stdout.splitlines() if line.startswith("PASSED ")]
    for lang in ("en", "zh"):
        assert f"tests/test_pdf.py::test_print_page_shows_what_paper_can[{lang}]" in passed
        assert f"tests/test_pdf.py::test_chapters_appear_in_the_navs_order[{lang}]" in passed
    assert "tests/test_versions.py::test_built_pages_carry_their_versions" in passed
    assert f"tests/test_chinese_built.py::test_no_stray_spaces_on_the_built_page[{SLUG}.md]" in passed
    assert not any("test_chinese_built.py::test_no_stray_spaces_on_the_built_page[formula.md]" in p for p in passed)
    assert not any(p.startswith("tests/test_figures.py::test_every_registered_figure") for p in passed)
    assert len([p for p in passed if SLUG not in p]) >= 20  # the checks of the whole built site


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


def test_a_config_without_a_nav_is_named(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.zh.yml"
    config.write_text("INHERIT: mkdocs.yml\n", encoding="utf-8")
    with pytest.raises(chapter.ChapterError, match=r"^mkdocs\.zh\.yml has no top-level nav"):
        chapter.add_to_nav(config, "draft")


def test_nav_insertion_keeps_the_file_as_written(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\nnav:\n    - index.md\n    - api.md   # reference\n\ntheme: material\n")
    chapter.add_to_nav(config, "new-page")
    assert (
        config.read_text()
        == "site_name: x\nnav:\n    - index.md\n    - new-page.md\n    - api.md   # reference\n\ntheme: material\n"
    )
    sections = "nav:\n  - index.md\n  - Learn:\n      - a.md\n  - Reference:\n      - b.md\n      - api.md\nx: 1\n"
    config.write_text(sections)
    chapter.add_to_nav(config, "new-page")  # in api.md's section, indented as it is
    assert config.read_text() == sections.replace("      - api.md", "      - new-page.md\n      - api.md")
    config.write_text("nav:\n  - index.md\n  - other.md\nplugins: []\n")
    chapter.add_to_nav(config, "new-page")  # no api.md: at the end of the nav
    assert config.read_text() == "nav:\n  - index.md\n  - other.md\n  - new-page.md\nplugins: []\n"


def test_command_line_refuses_with_a_message(tmp_path: Path) -> None:
    result = run([sys.executable, "-m", "site_tools.pages.chapter", "Bad Name"], ROOT)
    assert result.returncode == 2 and "make chapter: slug must be lower-case" in result.stderr
    assert result.stdout == ""


def _repo(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    for name in ("docs", "templates"):
        shutil.copytree(ROOT / name, copy / name)
    for name in chapter.CONFIGS:
        shutil.copy2(ROOT / name, copy / name)
    return copy


def test_the_section_is_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without SECTION on a terminal, ``make chapter`` lists the open sections (Learn is not one: it says why), and
    takes a number or a title; then it names ``make check`` as the next step."""
    copy = _repo(tmp_path)
    answers = iter(["9", "Learn", "2"])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert chapter.main(["asked-page"], root=copy) == 0
    out = capsys.readouterr().out
    assert "  1. Use (使用)\n  2. Deep dives (深入专题)\n" in out and "Not offered: Learn is the reading path" in out
    assert out.count("a number from 1 to 4, or a title") == 2  # "9" and "Learn" were asked again
    for config in chapter.CONFIGS:
        assert pages.nav_places(copy / config)["asked-page.md"] == (chapter.sections(copy / config)[2],)
    assert "wrote docs/en/asked-page.md" in out and "make check PAGE=asked-page" in out


@pytest.mark.parametrize(
    ("section", "message"),
    [
        (None, "say which section of the nav the chapter goes in: make chapter NAME=<slug> SECTION=<title>, one of "
         "'Use', 'Deep dives', 'Reference', 'Contribute'"),
        ("Learn", "a new chapter does not go in Learn: Learn is the reading path"),
        ("学习", "a new chapter does not go in Learn"),
        ("Appendix", "the nav has no section 'Appendix'; SECTION must be one of 'Use', 'Deep dives'"),
    ],
)  # fmt: skip
def test_a_missing_or_closed_section_is_refused(
    section: str | None,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Not on a terminal (a script, CI) and without SECTION, or with a section a chapter does not go in: refused,
    nothing written."""
    copy = _repo(tmp_path)
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    argv = ["new-page"] + ([] if section is None else ["--section", section])
    assert chapter.main(argv, root=copy) == 2
    assert message in capsys.readouterr().err
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before


def test_a_section_in_either_language_puts_the_page_in_both_navs(tmp_path: Path) -> None:
    copy = _repo(tmp_path)
    chapter.create("first-page", "深入专题", root=copy)  # the Chinese title
    chapter.create("second-page", "reference", root=copy)  # any case; Reference holds api.md: before it
    for config in chapter.CONFIGS:
        places = pages.nav_places(copy / config)
        titles = chapter.sections(copy / config)
        assert places["first-page.md"] == (titles[2],) and places["second-page.md"] == (titles[3],)
        order = list(places)
        assert order.index("second-page.md") == order.index("api.md") - 1
        assert order.index("first-page.md") == order.index("relative-schemes.md") + 1


def test_no_page_keeps_the_skeleton() -> None:
    """``make check``'s reminder is quiet on the site's own pages: none keeps the template's comment or title."""
    slugs = sorted({Path(name).stem for name in pages.page_names()})
    assert len(slugs) > 20
    left = [item for slug in slugs for item in chapter.skeleton_left(slug)]
    if left:
        pytest.fail("\n".join(left), pytrace=False)
