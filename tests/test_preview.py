"""What `make serve` rebuilds after a change (``site_tools.build.preview.plan``), and how a build is put in place."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_tools import pages
from site_tools.build import preview, site

FORMULA = {"en": "docs/en/formula.md", "zh": "docs/zh/formula.md"}


def snapshot() -> dict[str, tuple[int, int]]:
    """Modification times and sizes of a few watched files, as ``preview._snapshot`` records them."""
    paths = [
        *FORMULA.values(),
        "docs/en/index.md",
        "pe_docs/encoding.py",
        "site_tools/build/hooks.py",
        "overrides/main.html",
    ]
    return dict.fromkeys([*paths, "mkdocs.yml"], (1, 10))


@pytest.fixture
def titles() -> dict[str, str | None]:
    return {path: pages.read(preview.ROOT / path).title for path in FORMULA.values()}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_paragraph_edit_is_a_page_rebuild_of_its_language(lang: str, titles: dict[str, str | None]) -> None:
    before = snapshot()
    after = dict(before, **{FORMULA[lang]: (2, 11)})
    assert preview.plan(before, after, titles) == ({lang: True}, False)


def test_a_new_title_rebuilds_the_language(titles: dict[str, str | None]) -> None:
    before = snapshot()
    after = dict(before, **{FORMULA["zh"]: (2, 11)})
    assert preview.plan(before, after, {**titles, FORMULA["zh"]: "another title"}) == ({"zh": False}, False)


def test_an_added_or_removed_page_rebuilds_the_language(titles: dict[str, str | None]) -> None:
    before = snapshot()
    assert preview.plan(before, dict(before, **{"docs/en/new.md": (1, 1)}), titles) == ({"en": False}, False)
    removed = dict(before)
    del removed["docs/en/index.md"]
    assert preview.plan(before, removed, titles) == ({"en": False}, False)
    assert preview.plan(before, dict(before, **{"docs/zh/walkthrough.md": (1, 1)}), titles) == ({"zh": False}, False)


@pytest.mark.parametrize(
    ("path", "restart"),
    [
        ("pe_docs/encoding.py", True),
        ("site_tools/build/hooks.py", True),
        ("overrides/main.html", False),
        ("mkdocs.yml", False),
    ],
)
def test_shared_files_rebuild_both_languages(path: str, restart: bool, titles: dict[str, str | None]) -> None:
    """The library and the tools also restart the workers: they imported the old code."""
    before = snapshot()
    after = dict(before, **{path: (2, 11), FORMULA["en"]: (2, 11)})
    assert preview.plan(before, after, titles) == ({"en": False, "zh": False}, restart)


def test_nothing_changed_builds_nothing(titles: dict[str, str | None]) -> None:
    assert preview.plan(snapshot(), snapshot(), titles) == ({}, False)


def test_page_title() -> None:
    """The title the preview compares to tell a new title (the whole language rebuilt) from a changed paragraph."""
    assert pages.parse("---\nquoted:\n  '1': x\n---\n\n# The formula\n\n## Part\n").title == "The formula"
    assert pages.parse("---\ntitle: Front matter wins\n---\n# Heading\n").title == "Front matter wins"
    assert pages.parse("No heading\n").title is None


def test_snapshot_skips_bytecode_and_hidden_files() -> None:
    snap = preview._snapshot()
    assert "docs/en/formula.md" in snap and "site_tools/build/preview.py" in snap
    assert not [p for p in snap if "__pycache__" in p or p.endswith(".pyc") or "/." in p]


def test_the_home_page_rebuilds_its_language(titles: dict[str, str | None]) -> None:
    """Material's search index keeps, after a page-only build, the entries of the pages whose URL does not start
    with the rebuilt page's: the home page's URL ("") starts every URL (``site_tools.build.engine``, touch point 4)."""
    before = snapshot()
    after = dict(before, **{"docs/en/index.md": (2, 11)})
    assert preview.plan(before, after, titles) == ({"en": False}, False)


def test_changed_pages_are_named_per_language() -> None:
    before = snapshot()
    after = dict(before, **{FORMULA["zh"]: (2, 11), "docs/zh/new.md": (1, 1)})
    del after["docs/en/index.md"]
    assert preview.changed_pages(before, after, "zh") == ["formula.md", "new.md"]
    assert preview.changed_pages(before, after, "en") == ["index.md"]
    assert preview.changed_pages(before, before, "en") == []


def test_install_keeps_the_other_language(tmp_path: Path) -> None:
    dest = tmp_path / "site"
    (dest / "zh").mkdir(parents=True)
    (dest / "zh" / "index.html").write_text("zh")
    (dest / "index.html").write_text("old en")
    (dest / ".nojekyll").write_text("")
    staging = tmp_path / ".site.building"
    staging.mkdir()
    (staging / "index.html").write_text("new en")
    site.install(staging, dest, "en")
    assert (dest / "index.html").read_text() == "new en"
    assert (dest / "zh" / "index.html").read_text() == "zh"  # not deleted by the English build
    assert (dest / ".nojekyll").exists() and not staging.exists()
    zh_staging = dest / ".zh.building"
    zh_staging.mkdir()
    (zh_staging / "index.html").write_text("new zh")
    site.install(zh_staging, dest / "zh", "zh")
    assert (dest / "zh" / "index.html").read_text() == "new zh" and (dest / "index.html").read_text() == "new en"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    assert sorted(p.name for p in dest.iterdir()) == [".nojekyll", "index.html", "zh"]
