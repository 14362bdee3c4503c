"""Versions on the pages, read at build time from what is installed and from the upstream tier's pins.

Two lines at the end of a page, never typed by hand:

- every chapter page (a page with python blocks: it has a notebook) says which torch its blocks ran with — the
  torch installed in the environment that builds the site, the one the tests run the blocks with;
- a page whose front matter names libraries, ``checked_against: [transformers, diffusers]``, says which versions
  of them the upstream test tier (``make test-upstream``, ``tests/upstream/``) checks its claims against: the
  pins of ``requirements-upstream.txt``, which ``tests/upstream/test_pins.py`` checks are the versions installed.

Standard library only: the upstream tier's own environment imports this module to read its pins, and
``python -m site_tools.versions latest`` prints what ``scripts/test-upstream.sh --latest`` installs.
"""

from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = ROOT / "requirements-upstream.txt"

_LINE = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s#;]+)\s*(?:#\s*(?P<comment>.*))?$")


@dataclass(frozen=True)
class Pin:
    """One line of ``requirements-upstream.txt``: ``name==version  # tier, --no-deps, without: a b``."""

    name: str
    version: str
    tier: bool  # a package the tier tests (or needs as such), not only a dependency of one
    no_deps: bool  # installed without its declared dependencies, also when the newest releases are installed
    without: tuple[str, ...]  # those of its declared dependencies that are never installed


def normalize(name: str) -> str:
    """A distribution name as PyPI compares them (PEP 503): lower case, runs of ``-_.`` as one ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(path: Path = REQUIREMENTS) -> dict[str, Pin]:
    """Every pinned line of a requirements file, by normalised name; any other non-comment line is an error."""
    pins: dict[str, Pin] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _LINE.match(line)
        if match is None:
            raise ValueError(f"{path.name}:{number}: not an exact pin `name==version`: {raw!r}")
        comment = match["comment"] or ""
        flags = [part.strip() for part in comment.split(",")]
        without: tuple[str, ...] = ()
        for flag in flags:
            if flag.startswith("without:"):
                without = tuple(normalize(n) for n in re.findall(r"[A-Za-z0-9][A-Za-z0-9._-]*", flag.split("(")[0][8:]))
        name = normalize(match["name"])
        if name in pins:
            raise ValueError(f"{path.name}:{number}: {name} is pinned twice")
        pins[name] = Pin(name, match["version"], flags[0].startswith("tier"), "--no-deps" in flags, without)
    return pins


def installed_version(name: str) -> str:
    """The version of an installed distribution (``importlib.metadata``), e.g. ``"2.13.0+cpu"`` for torch."""
    return metadata.version(name)


_TEXT = {
    "en": {
        "torch": "Code blocks on this page ran with torch {}.",
        "checked": "Checked against {}.",
        "and": ", ",
        "join": " ",
    },
    "zh": {
        "torch": "本页代码块在 torch {} 上运行。",
        "checked": "已对照 {} 验证。",
        "and": "、",
        "join": "",
    },
}


def version_line(meta: dict[str, object], *, chapter: bool, lang: str, pins: dict[str, Pin] | None = None) -> str:
    """The HTML paragraph of versions for one page (``""`` when it has none to show).

    Args:
        meta: The page's front matter; ``checked_against`` is a list of distribution names pinned as tier
            packages in ``requirements-upstream.txt``.
        chapter: Whether the page is a chapter (its python blocks run): then the installed torch is named.
        lang: ``"en"`` or ``"zh"``.
        pins: The pins to read (default: ``requirements-upstream.txt``).

    Raises:
        ValueError: ``checked_against`` is not a list of names, or names a package the tier does not pin; an
            unknown ``lang``.
    """
    if lang not in _TEXT:
        raise ValueError(f"lang must be one of {sorted(_TEXT)}, got {lang!r}")
    text = _TEXT[lang]
    names = meta.get("checked_against", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"checked_against must be a list of package names, got {names!r}")
    sentences = []
    if chapter:
        sentences.append(text["torch"].format(f"<code>{html.escape(installed_version('torch'))}</code>"))
    if names:
        pins = read_pins() if pins is None else pins
        unknown = [n for n in names if normalize(n) not in pins or not pins[normalize(n)].tier]
        if unknown:
            tier = sorted(p.name for p in pins.values() if p.tier)
            raise ValueError(f"checked_against names {unknown}, which the upstream tier does not pin; it pins {tier}")
        listed = text["and"].join(
            f"{html.escape(n)} <code>{html.escape(pins[normalize(n)].version)}</code>" for n in names
        )
        sentences.append(text["checked"].format(listed))
    if not sentences:
        return ""
    return f'<p class="pe-versions"><small>{text["join"].join(sentences)}</small></p>'


def latest_requirements(group: str, pins: dict[str, Pin] | None = None) -> list[str]:
    """What ``scripts/test-upstream.sh --latest`` installs, by step (newest releases, nothing pinned).

    ``"resolved"``: the tier packages installed with their dependencies (torch apart); ``"no-deps"``: those
    installed without them; ``"their-deps"``: the declared dependencies of the ``no-deps`` ones (read from the
    installed metadata, environment markers applied) except those named after ``without:``.
    """
    pins = read_pins() if pins is None else pins
    tier = [p for p in pins.values() if p.tier]
    if group == "resolved":  # torch apart: the script installs it first, from the CPU wheels
        return [p.name for p in tier if not p.no_deps and p.name != "torch"]
    if group == "no-deps":
        return [p.name for p in tier if p.no_deps]
    if group == "their-deps":
        from packaging.requirements import Requirement  # installed by then (transformers needs it)

        wanted = []
        for pin in (p for p in tier if p.no_deps):
            for spec in metadata.requires(pin.name) or []:
                requirement = Requirement(spec)
                if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                    continue
                if normalize(requirement.name) not in pin.without:
                    wanted.append(str(requirement).split(";")[0].strip())
        return wanted
    raise ValueError(f"group must be 'resolved', 'no-deps' or 'their-deps', got {group!r}")


if __name__ == "__main__":  # python -m site_tools.versions latest resolved|no-deps|their-deps
    if len(sys.argv) != 3 or sys.argv[1] != "latest":
        sys.exit("usage: python -m site_tools.versions latest resolved|no-deps|their-deps")
    print("\n".join(latest_requirements(sys.argv[2])))
