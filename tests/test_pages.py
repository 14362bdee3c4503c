"""Checks of the pages as source: every python fence runs, and both languages carry the same code."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_codeblocks.main import extract_from_file

from site_tools import pages
from site_tools.figures import FIGURES

MD_PAGES = [p for lang in pages.LANGS for p in pages.pages(lang).values() if p.suffix == ".md"]


def _id(p: Path) -> str:
    return p.relative_to(pages.DOCS).as_posix()


def _squash(code: str) -> str:
    """Code without blank lines (pytest-codeblocks drops blank lines inside indented fences)."""
    return "\n".join(line for line in code.splitlines() if line.strip())


@pytest.mark.parametrize("path", MD_PAGES, ids=_id)
def test_every_python_fence_is_executed(path: Path) -> None:
    """pytest-codeblocks silently skips ```py, ```python title=…, ~~~ and blocks glued to a non-python block."""
    executed = [
        _squash(b.code)
        for b in extract_from_file(path)
        if b.syntax == "python" and not any("skip" in m for m in b.marks)
    ]
    problems = []
    for fence in pages.fences(path):
        if not fence.looks_like_python or fence.skipped:
            continue
        if not fence.runs:
            problems.append(f"line {fence.line}: '{fence.tick}{fence.info}' is not collected; use a bare ```python")
        elif not any(_squash(fence.code) in code for code in executed):
            problems.append(f"line {fence.line}: python block never runs (cont marker after a non-python block?)")
    assert not problems, f"{_id(path)}:\n" + "\n".join(problems)


def test_fence_count_matches_collected_blocks() -> None:
    """The number of python fences on the site equals what pytest-codeblocks runs (cont blocks merged)."""
    fences = 0
    collected = 0
    for path in MD_PAGES:
        fs = [f for f in pages.fences(path) if f.runs]
        fences += len(fs)
        conts = sum("pytest-codeblocks:cont" in f.marker for f in fs)
        blocks = [b for b in extract_from_file(path) if b.syntax == "python"]
        assert len(blocks) == len(fs) - conts, _id(path)
        collected += len(blocks)
    assert fences > 0 and collected > 0


def test_no_skip_markers() -> None:
    """Nothing is skipped silently: a skipped block would need a reason on the page; we have none."""
    for path in MD_PAGES:
        for block in extract_from_file(path):
            assert not block.marks, f"{_id(path)} line {block.lineno}: marks {block.marks}"


def test_both_languages_same_pages_and_code() -> None:
    problems = pages.parity_problems()
    assert not problems, "\n".join(problems)


def test_parity_reports_what_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The contributor's check names the missing page and the differing block."""
    for lang in pages.LANGS:
        (tmp_path / lang).mkdir()
    (tmp_path / "en" / "a.md").write_text("# A\n\n```python\nx = 1  # one\n```\n", encoding="utf-8")
    (tmp_path / "zh" / "a.md").write_text("# 甲\n\n```python\nx = 2  # 二\n```\n", encoding="utf-8")
    (tmp_path / "en" / "b.md").write_text("# B\n", encoding="utf-8")
    (tmp_path / "en" / "c.md").write_text("# C\n\n```python\ny = 1  # c\n```\n", encoding="utf-8")
    (tmp_path / "zh" / "c.md").write_text("# 丙\n\n```python\n# 注释\ny = 1  # 丙\n\n```\n", encoding="utf-8")
    monkeypatch.setattr(pages, "DOCS", tmp_path)
    problems = pages.parity_problems()
    assert "a.md: code block 1 differs between en and zh (after removing comments)" in problems
    assert "b.md: exists in en only; add docs/zh/b.md" in problems
    assert not any(p.startswith("c.md") for p in problems)


def test_fence_parser_flags_silent_skips(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        '```py\na = 1\n```\n\n```python title="x.py"\nb = 2\n```\n\n~~~python\nc = 3\n~~~\n\n```python\nd = 4\n```\n',
        encoding="utf-8",
    )
    fs = pages.fences(page)
    assert [f.looks_like_python for f in fs] == [True, True, True, True]
    assert [f.runs for f in fs] == [False, False, False, True]


def test_every_figure_is_used_and_every_reference_registered() -> None:
    used: set[str] = set()
    for path in MD_PAGES:
        text = path.read_text(encoding="utf-8")
        for name in FIGURES:
            for theme in ("light", "dark"):
                if f"figures/{name}.{theme}.svg#only-{theme}" in text:
                    used.add(f"{name}.{theme}")
    expected = {f"{n}.{t}" for n in FIGURES for t in ("light", "dark")}
    assert used == expected, f"unused figure variants: {sorted(expected - used)}"
