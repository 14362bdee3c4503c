"""Licences and citation: MIT for code, CC BY 4.0 for prose and figures, said in every place a reader looks."""

from __future__ import annotations

import re
import tomllib

import pytest
import yaml
from mkdocs.config import load_config

import pe_docs
from site_tools import ROOT

CC_BY = "https://creativecommons.org/licenses/by/4.0/"


def citation() -> dict:
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_code_licence_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) ")
    assert "pe-docs contributors" in text.splitlines()[2]
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


def test_docs_licence_is_cc_by_4() -> None:
    text = (ROOT / "LICENSE-docs").read_text(encoding="utf-8")
    assert "Creative Commons Attribution 4.0 International" in text
    assert CC_BY in text and f"{CC_BY}legalcode" in text
    assert "MIT" in text and "LICENSE" in text  # where the code's licence is


def test_citation_cff_has_the_required_keys() -> None:
    """CFF 1.2.0 requires cff-version, message, title and authors; the project's own metadata must match."""
    data = citation()
    assert data["cff-version"] == "1.2.0"
    for key in ("message", "title"):
        assert isinstance(data[key], str) and data[key].strip(), key
    assert data["authors"] == [{"name": "pe-docs contributors"}]
    assert data["repository-code"] == "https://github.com/pe-docs/pe-docs"
    assert data["url"] == "https://pe-docs.github.io/pe-docs/"
    assert data["license"] == "MIT"
    assert data["type"] == "software"
    # the version is a string (a bare 0.1 would be read as a float) and is the package's
    assert isinstance(data["version"], str) and data["version"] == pe_docs.__version__
    # ... which is written once: pyproject.toml reads it from the package
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["dynamic"] == ["version"] and "version" not in pyproject["project"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "pe_docs.__version__"}


def test_pyproject_licence_matches() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]


def test_readme_states_both_licences() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Licence and citation", 1)[1]
    for needle in ("[MIT License](LICENSE)", CC_BY, "LICENSE-docs", "CITATION.cff"):
        assert needle in section, needle


@pytest.mark.parametrize(
    ("config", "words"), [("mkdocs.yml", ("Text and figures", "code")), ("mkdocs.zh.yml", ("正文与插图", "代码"))]
)
def test_site_footer_states_both_licences(config: str, words: tuple[str, str]) -> None:
    """The footer (mkdocs ``copyright``) of each language, in that language."""
    line = load_config(config_file=str(ROOT / config))["copyright"]
    assert f'<a href="{CC_BY}">CC BY 4.0</a>' in line
    assert re.search(r'<a href="https://github\.com/pe-docs/pe-docs/blob/main/LICENSE">MIT</a>', line)
    assert all(w in line for w in words)
    if config == "mkdocs.zh.yml":
        assert not re.search(r"[\u4e00-\u9fff，]\s+[\u4e00-\u9fff]", line)  # no space between Chinese characters
