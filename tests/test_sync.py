"""``make sync PAGE=<slug>`` (site_tools.pages.sync): the Chinese code blocks rewritten from the English ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from site_tools import ROOT, layout, pages
from site_tools.pages import sync


def test_unchanged_lines_keep_their_chinese_comments_and_the_rest_follows_english() -> None:
    en = "\n".join(
        [
            "import torch",
            "",
            "# build the table:",
            "# one row per position",
            "x = torch.zeros(3)  # three zeros",
            "y = x + 2  # changed",
            "z = y * 2  # new",
            "print(z)",
        ]
    )
    zh = "\n".join(
        [
            "import torch",
            "",
            "# 构建编码表，每个位置一行",
            "x = torch.zeros(3)  # 三个零",
            "y = x + 1  # 旧的一行",
            "w = 0  # 删掉的一行",
            "print(z)",
        ]
    )
    assert sync.synced_code(en, zh).split("\n") == [
        "import torch",
        "",
        "# 构建编码表，每个位置一行",  # a comment run, translated on fewer lines, stays
        "x = torch.zeros(3)  # 三个零",  # the same code: the Chinese comment stays
        "y = x + 2  # changed",  # changed code: the English line, to translate
        "z = y * 2  # new",  # a new line: the English one
        "print(z)",  # the same code again; the line the English has not (w = 0) is gone
    ]
    assert sync.synced_code(zh, zh) == zh
    code = [text for _, text in pages.code_lines(sync.synced_code(en, zh))]
    assert code == [text for _, text in pages.code_lines(en)]  # parity holds after a sync


def _pages(tmp_path: Path, en: str, zh: str) -> None:
    for lang, text in (("en", en), ("zh", zh)):
        (tmp_path / lang).mkdir(exist_ok=True)
        (tmp_path / lang / "a.md").write_text(text, encoding="utf-8")


def test_a_page_is_rewritten_block_by_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    en = (
        "# A\n\n```python\nx = 2  # two\nprint(x)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```text\n2\n```\n\n"
        '!!! note "N"\n    ```python\n    y = x  # same\n    ```\n'
    )
    zh = (
        "# 甲\n\n```python\nx = 1  # 一\nprint(x)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```text\n1\n```\n\n"
        '!!! note "注"\n    ```python\n    y = x  # 相同\n    ```\n'
    )
    _pages(tmp_path, en, zh)
    monkeypatch.setattr(layout, "DOCS", tmp_path)
    target = tmp_path / "zh" / "a.md"
    assert sync.sync("a.md") == [
        f"{pages.rel(target)}:3: block 1 now follows {pages.rel(tmp_path / 'en' / 'a.md')}:3",
        f"{pages.rel(target)}:9: block 2 now follows {pages.rel(tmp_path / 'en' / 'a.md')}:9",
    ]
    assert target.read_text(encoding="utf-8") == zh.replace("x = 1  # 一", "x = 2  # two").replace("\n1\n", "\n2\n")
    assert pages.parity_problems_of("a.md") == []
    assert sync.sync("a.md") == []  # a second sync changes nothing


def test_different_numbers_of_blocks_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _pages(tmp_path, "# A\n\n```python\nx = 1\n```\n\n```python\ny = 2\n```\n", "# 甲\n\n```python\nx = 1\n```\n")
    monkeypatch.setattr(layout, "DOCS", tmp_path)
    with pytest.raises(ValueError, match=r"a\.md: 2 code blocks in en, 1 in zh; add or remove blocks in both first"):
        sync.sync("a.md")
    with pytest.raises(ValueError, match="not a Markdown page of both languages"):
        sync.sync("b.md")
    _pages(tmp_path, "# A\n\n> ```python\n> x = 2\n> ```\n", "# 甲\n\n> ```python\n> x = 1\n> ```\n")
    with pytest.raises(ValueError, match=r"a\.md:3: block 1 sits in a blockquote; edit it by hand"):
        sync.sync("a.md")


@pytest.mark.parametrize("name", [n for n in pages.page_names() if n.endswith(".md")])
def test_every_page_is_in_sync(name: str) -> None:
    """A sync of any page changes nothing: the Chinese blocks are the English ones, comments aside and in place."""
    stale = [z.line for _, _, z, _ in sync.planned(name)]
    slug = name.removesuffix(".md")
    assert not stale, f"docs/zh/{name}: blocks at lines {stale} differ from the English; run make sync PAGE={slug}"


def test_the_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "site_tools.pages.sync"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 2 and "usage: make sync PAGE=<slug>" in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "site_tools.pages.sync", "no-such-page"], cwd=ROOT, capture_output=True, text=True
    )
    assert (
        result.returncode == 1 and "make sync: no-such-page.md: not a Markdown page of both languages" in result.stderr
    )
