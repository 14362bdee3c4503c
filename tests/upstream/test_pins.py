"""The tier runs what requirements-upstream.txt pins (the versions the pages say they are checked against)."""

from __future__ import annotations

import os
from importlib import metadata

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from site_tools.versions import normalize, read_pins


def test_installed_versions_are_the_pins():
    """Pinned tier: every package of the file is installed at its pinned version (torch's ``+cpu`` local label
    aside, as pip's ``==`` ignores it), and nothing else is installed. Newest releases (the weekly run): every
    tier package is at least at its pin."""
    pins = read_pins()
    installed = {normalize(d.metadata["Name"]): d.version for d in metadata.distributions()}
    installed.pop("pip", None)
    installed.pop("setuptools", None)
    if os.environ.get("PE_DOCS_UPSTREAM") == "latest":
        older = {
            n: (installed.get(n), p.version)
            for n, p in pins.items()
            if p.tier and Version(installed[n]) < Version(p.version)
        }
        assert older == {}, older
        return
    wrong = {
        n: (installed.get(n), p.version)
        for n, p in pins.items()
        if n not in installed or not SpecifierSet(f"=={p.version}").contains(installed[n], prereleases=True)
    }
    assert wrong == {}, f"installed, pinned: {wrong}"
    assert set(installed) - set(pins) == set(), "installed but not pinned"
