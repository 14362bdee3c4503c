"""The successor watch (``site_tools.build.successor``, ``.github/workflows/successor.yml``): its checks hold for the
site MkDocs builds (the control: a row a successor fails is its own), and its report shows every engine and check."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_tools.build import successor


@pytest.mark.site
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mkdocs_passes_every_check(site_dir: Path, lang: str) -> None:
    checks = successor.inspect(site_dir if lang == "en" else site_dir / lang, lang, finish_it=False)
    assert [c.name for c in checks] == [
        "every page written",
        "hooks: build-time figures",
        "hooks: chapter notebooks",
        "mkdocstrings: API pages",
        "GLightbox: figures open large",
        "git dates: Last update",
        "one site per language (INHERIT)",
        "search index",
        "search: Chinese cut into words (jieba)",
    ]
    assert [c.name for c in checks if not c.ok] == [], [(c.name, c.note) for c in checks]


def test_an_empty_output_fails_every_check(tmp_path: Path) -> None:
    """The checks look at what is there: a folder with nothing in it has none of it (the finishing pass included)."""
    checks = successor.inspect(tmp_path, "zh")
    assert [c.name for c in checks if c.ok] == []


def test_the_report_has_a_column_per_trial_and_a_row_per_check() -> None:
    trials = [
        successor.Trial("zensical", "zh", "0.1.3", 0, 12.0, "", [successor.Check("search index", True, "search.json")]),
        successor.Trial("properdocs", "zh", "", None, 0.0, "properdocs is not installed"),
    ]
    text = successor.report(trials)
    assert "| | zensical 0.1.3 · zh | properdocs (not installed) · zh |" in text
    assert "| build | exit 0, 12 s | not run |" in text
    assert "| search index | yes: search.json | — |" in text
    assert "- **properdocs · zh**: properdocs is not installed" in text
