"""Versions on the pages, read at build time from what is installed and from the upstream tier's pins.

Two lines at the end of a page, never typed by hand:

- every chapter page (a page with python blocks: it has a notebook) says which torch its blocks ran with — the
  torch installed in the environment that builds the site, the one the tests run the blocks with;
- a page whose front matter names libraries, ``checked_against: [transformers, diffusers]``, says which versions
  of them the upstream test tier (``make test-upstream``, ``tests/upstream/``) checks its claims against: the
  pins of ``requirements-upstream.txt``, which ``tests/upstream/test_pins.py`` checks are the versions installed.

A page may list a library only if a tier test checks what the page says of it: a test in ``tests/upstream/`` marked
``@pytest.mark.pages("<slug>")`` (on the test, or ``pytestmark`` for a whole module) that imports the library, itself
or through a helper of its module, and that quotes in its docstring, ``Page (<slug>): “…”``, what the page says (four
words or more of the English page, as a reader reads it: no Markdown, no math delimiters). :func:`tier_tests` reads
the tier's files (as text: its libraries are not installed here), :func:`backing` names the tests that back one
page's claim about one library and :func:`quoting` those of them that quote the page; ``tests/test_versions.py``
holds every ``checked_against`` entry to one.

Standard library only: the upstream tier's own environment imports this module to read its pins, and
``python -m site_tools.versions latest`` prints what ``scripts/test-upstream.sh --latest`` installs.
"""

from __future__ import annotations

import ast
import html
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from site_tools import ROOT

REQUIREMENTS = ROOT / "requirements-upstream.txt"
TIER = ROOT / "tests" / "upstream"
# The module a tier package is imported as, where it is not its name with "-" as "_" (``import whisper``).
IMPORT_NAMES = {"openai-whisper": "whisper"}
_MODULE = re.compile(r"[A-Za-z_]\w*(?:\.\w+)*")  # a dotted module name

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
        if (match := _LINE.match(line)) is None:
            raise ValueError(f"{path.name}:{number}: not an exact pin `name==version`: {raw!r}")
        flags = [part.strip() for part in (match["comment"] or "").split(",")]
        listed = [flag.split("(")[0][8:] for flag in flags if flag.startswith("without:")][-1:]  # the last one counts
        without = tuple(normalize(n) for text in listed for n in re.findall(r"[A-Za-z0-9][A-Za-z0-9._-]*", text))
        name = normalize(match["name"])
        if name in pins:
            raise ValueError(f"{path.name}:{number}: {name} is pinned twice")
        pins[name] = Pin(name, match["version"], flags[0].startswith("tier"), "--no-deps" in flags, without)
    return pins


# Per language: the torch sentence, the checked-against sentence, what joins two names, what joins the sentences.
_TEXT = {
    "en": ("Code blocks on this page ran with torch {}.", "Checked against {}.", ", ", " "),
    "zh": ("本页代码块在 torch {} 上运行。", "已对照 {} 验证。", "、", ""),
}


def version_line(meta: Mapping[str, object], *, chapter: bool, lang: str, pins: dict[str, Pin] | None = None) -> str:
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
    torch, checked, between_names, between_sentences = _TEXT[lang]
    names = meta.get("checked_against", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"checked_against must be a list of package names, got {names!r}")
    sentences = []
    if chapter:
        sentences.append(torch.format(f"<code>{html.escape(metadata.version('torch'))}</code>"))
    if names:
        pins = read_pins() if pins is None else pins
        unknown = [n for n in names if normalize(n) not in pins or not pins[normalize(n)].tier]
        if unknown:
            tier = sorted(p.name for p in pins.values() if p.tier)
            raise ValueError(f"checked_against names {unknown}, which the upstream tier does not pin; it pins {tier}")
        listed = between_names.join(
            f"{html.escape(n)} <code>{html.escape(pins[normalize(n)].version)}</code>" for n in names
        )
        sentences.append(checked.format(listed))
    return f'<p class="pe-versions"><small>{between_sentences.join(sentences)}</small></p>' if sentences else ""


def import_name(package: str) -> str:
    """The top-level module a pinned package is imported as: ``keras-hub`` -> ``keras_hub``."""
    name = normalize(package)
    return IMPORT_NAMES.get(name, name.replace("-", "_"))


@dataclass(frozen=True)
class TierTest:
    """A test of the upstream tier, as its source reads: the pages it names and the modules it imports."""

    name: str  # tests/upstream/<file>.py::<function>
    pages: tuple[str, ...]  # the slugs of @pytest.mark.pages(...) on it and on its module (pytestmark)
    # the top-level modules it imports (or loads by name), itself, through helpers or at module level
    modules: frozenset[str]
    # what it checks, in the pages' words: (slug, quote) for each ``Page (<slug>): “…”`` of its docstring
    quotes: tuple[tuple[str, str], ...] = ()


def tier_tests(folder: Path = TIER) -> list[TierTest]:
    """Every ``test_*`` function of ``folder/test_*.py``, read with :mod:`ast` (nothing is imported)."""
    found = []
    for path in sorted(folder.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        module_imports = _imports([n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)])
        module_pages = tuple(
            slug
            for n in tree.body
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in n.targets)
            for slug in _page_marks(n.value)
        )
        rel = path.relative_to(folder.parent.parent).as_posix()  # tests/upstream/<file>.py
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                pages = module_pages + tuple(slug for d in node.decorator_list for slug in _page_marks(d))
                modules = module_imports | _imports(_reachable(node, functions))
                doc = ast.get_docstring(node) or ""
                labelled = tuple(re.findall(r"Page \(([\w-]+)\):\s*“([^”]+)”", doc))
                found.append(TierTest(f"{rel}::{node.name}", tuple(dict.fromkeys(pages)), frozenset(modules), labelled))
    return found


def backing(slug: str, package: str, tests: list[TierTest] | None = None) -> list[str]:
    """The tier tests that name page ``slug`` and import ``package`` (a name as ``checked_against`` gives it)."""
    module = import_name(package)
    return [t.name for t in (tier_tests() if tests is None else tests) if slug in t.pages and module in t.modules]


QUOTE_WORDS = 4  # a quote shorter than this could be found on any page


def plain(text: str) -> str:
    """Text as a reader reads it, for comparing a quote with a page: link targets, Markdown emphasis and code marks,
    math delimiters and line breaks gone, runs of spaces one."""
    text = re.sub(r"\]\([^)]*\)", "", text)  # [text](target) -> [text
    text = re.sub(r"[`*$\[\]]", "", text)
    return " ".join(text.split())


def quoting(slug: str, package: str, page_text: str, tests: list[TierTest] | None = None) -> list[str]:
    """The tier tests that back page ``slug``'s claim about ``package`` (:func:`backing`) and quote ``page_text``: a
    passage of at least ``QUOTE_WORDS`` words that the test's docstring quotes as ``Page (<slug>): “…”``, found in the
    page as :func:`plain` reads both."""
    tests = tier_tests() if tests is None else tests
    names, page = set(backing(slug, package, tests)), plain(page_text)
    return [
        t.name
        for t in tests
        if t.name in names
        and any(label == slug and len(q.split()) >= QUOTE_WORDS and plain(q) in page for label, q in t.quotes)
    ]


def stale_quotes(slug: str, page_text: str, tests: list[TierTest] | None = None) -> list[tuple[str, str]]:
    """(test, quote) for every quote a tier test labels ``Page (<slug>): “…”`` that ``page_text`` no longer says: the
    page's wording changed under the test that checks it."""
    page = plain(page_text)
    return [
        (t.name, q)
        for t in (tier_tests() if tests is None else tests)
        for label, q in t.quotes
        if label == slug and plain(q) not in page
    ]


def _page_marks(node: ast.expr) -> list[str]:
    """The string arguments of ``pytest.mark.pages(...)`` calls in an expression (a decorator, a list of marks)."""
    out = []
    for call in ast.walk(node):
        match call:
            case ast.Call(func=ast.Attribute(attr="pages", value=ast.Attribute(attr="mark")), args=args):
                out += [a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return out


def _reachable(node: ast.AST, functions: Mapping[str, ast.AST]) -> list[ast.AST]:
    """``node`` and the module-level functions and classes it uses by name, and those they use, and so on."""
    out, seen = [node], set()
    for current in out:  # out grows as the loop goes
        for name in ast.walk(current):
            if isinstance(name, ast.Name) and name.id in functions and name.id not in seen:
                seen.add(name.id)
                out.append(functions[name.id])
    return out


def _imports(nodes: list[ast.AST]) -> set[str]:
    """The top-level modules imported anywhere in ``nodes``: by ``import`` statements, and by name, a string argument
    of a call (``importlib.import_module("timm.layers")``, a fixture that loads one module of a package alone)."""
    modules: set[str] = set()
    bodies = [n for node in nodes for n in (node.body if isinstance(node, ast.FunctionDef | ast.ClassDef) else [node])]
    for node in bodies:  # not the decorators: a mark's strings are not modules
        for n in ast.walk(node):
            if isinstance(n, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in n.names)
            elif isinstance(n, ast.ImportFrom) and n.module and not n.level:
                modules.add(n.module.split(".")[0])
            elif isinstance(n, ast.Call):
                modules.update(
                    a.value.split(".")[0]
                    for a in n.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str) and _MODULE.fullmatch(a.value)
                )
    return modules


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

        declared = [(pin, Requirement(s)) for pin in tier if pin.no_deps for s in metadata.requires(pin.name) or []]
        return [
            str(req).split(";")[0].strip()
            for pin, req in declared
            if (req.marker is None or req.marker.evaluate({"extra": ""})) and normalize(req.name) not in pin.without
        ]
    raise ValueError(f"group must be 'resolved', 'no-deps' or 'their-deps', got {group!r}")


if __name__ == "__main__":  # python -m site_tools.versions latest resolved|no-deps|their-deps
    if len(sys.argv) != 3 or sys.argv[1] != "latest":
        sys.exit("usage: python -m site_tools.versions latest resolved|no-deps|their-deps")
    print("\n".join(latest_requirements(sys.argv[2])))
