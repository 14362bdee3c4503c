"""The engine's touch points (``site_tools.build.engine``'s docstring lists them all, each with its test): the ones that
no other test covers directly fail here when an upgrade of MkDocs or Material moves them. And every
``pe_docs.``/``site_tools.`` name and repository path the code, pages and overrides quote exists, resolved the same
way."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from site_tools import finish, layout, pages
from site_tools.build import engine

ROOT = layout.ROOT
MATERIAL = Path(__import__("material").__file__).parent / "templates"


@pytest.mark.parametrize("use_directory_urls", [True, False])
def test_page_paths_are_mkdocs_own(use_directory_urls: bool) -> None:
    """Where MkDocs writes a page and the URL it gives it (``File.dest_uri``, ``Page.url``), for every page and the
    names MkDocs treats apart (an index, a README, a page in a folder)."""
    from mkdocs.structure.files import File

    uris = [*pages.page_names(), "index.md", "README.md", "sub/index.md", "sub/page.md", "sub/README.md"]
    for uri in uris:
        file = File(uri, src_dir=None, dest_dir="", use_directory_urls=use_directory_urls)
        assert layout.page_file(uri, use_directory_urls) == file.dest_uri, uri
        assert layout.page_url(uri, use_directory_urls) == ("" if file.url in (".", "./") else file.url), uri


@pytest.mark.parametrize("lang", pages.LANGS)
def test_raw_config_is_the_loaded_config(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings read without loading the theme and plugins are the loaded config's (``INHERIT`` merged)."""
    monkeypatch.delenv(layout.SITE_URL_ENV, raising=False)
    raw, loaded = layout.raw_config(lang), engine.load(lang)
    assert raw["site_name"] == loaded.site_name
    assert raw["theme"]["language"] == engine.language(loaded) == lang
    assert raw["extra"]["repository"] == loaded.extra["repository"]
    assert Path(ROOT / raw["docs_dir"]) == Path(loaded.docs_dir)
    options = engine.finishing(loaded)
    assert options["lang"] == lang and options["docs_dir"] == ROOT / "docs" / lang
    base = raw["site_url"] if lang == "en" else layout.raw_config("en")["site_url"]
    assert {a["lang"]: a["url"] for a in options["alternates"]} == {"en": base, "zh": base + "zh/"}
    if lang == "zh":  # the dictionary Material cuts the Chinese search index with
        jieba_dict = loaded.plugins["material/search"].config["jieba_dict_user"]
        assert jieba_dict and Path(jieba_dict).is_file()
    from mkdocs.utils.yaml import yaml_load  # the floor reads a config file as MkDocs does

    with open(layout.CONFIGS[lang], "rb") as fd:
        as_mkdocs = yaml_load(fd)
    address = re.compile(r" at 0x[0-9a-f]+")  # the slug function is a new object on each reading
    assert address.sub("", repr(raw)) == address.sub("", repr(as_mkdocs))


def test_a_page_only_build_keeps_the_search_index_whole() -> None:
    """As ``mkdocs serve --dirty``: after ``serve_dirty``, the search plugin is the same object at every config load
    of the process (MkDocs' plugin cache), told that builds are dirty, so it keeps the entries of the pages a
    page-only build does not render. In a process of its own: the plugin keeps that state for the process."""
    code = (
        "from site_tools.build import engine\n"
        "first = engine.load('en', strict=False)\n"
        "engine.serve_dirty(first)\n"
        "second = engine.load('en', strict=False)\n"
        "search = second.plugins['material/search']\n"
        "assert search is first.plugins['material/search'] and search.is_dirty is True\n"
        "assert hasattr(search, 'search_index_prev')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]


def _lines(path: Path) -> list[str]:
    text = re.sub(r"\{#-.*?-#\}\n?", "", path.read_text(encoding="utf-8"), flags=re.S)
    return [line for line in text.splitlines() if line.strip()]


def test_the_language_selector_is_material_s_but_for_its_links() -> None:
    """``overrides/partials/alternate.html`` is Material's partial with one line changed: each link keeps the page
    (and opts out of Material's remapping through sitemap.xml). Any other change of Material's partial fails here."""
    ours, theirs = _lines(ROOT / "overrides/partials/alternate.html"), _lines(MATERIAL / "partials/alternate.html")
    link = [i for i, line in enumerate(theirs) if "md-select__link" in line]
    assert link and theirs[link[0]].strip() == (
        '<a href="{{ alt.link | url }}" hreflang="{{ alt.lang }}" class="md-select__link">'
    )
    assert ours[: link[0]] == theirs[: link[0]] and ours[link[0] + 1 :] == theirs[link[0] + 1 :]
    assert 'target="_self"' in ours[link[0]] and "page.url" in ours[link[0]]
    assert "location.search + location.hash" in ours[link[0]]  # an explorer's settings survive the switch


def test_the_footer_is_material_s_but_for_the_book_link() -> None:
    """``overrides/partials/copyright.html`` is Material's partial with the book's link added after the copyright
    line (and its own header comment): any other change of Material's partial fails here."""
    ours, theirs = _lines(ROOT / "overrides/partials/copyright.html"), _lines(MATERIAL / "partials/copyright.html")
    at = theirs.index("      {{ config.copyright }}")
    assert ours[:at] == theirs[:at] and ours[at + 4 :] == theirs[at + 1 :], "Material's partial changed beyond the link"
    assert ours[at] == "      {{ config.copyright }} ·" and 'class="pe-pdf-link"' in ours[at + 1]


# A name of Material's: a class (md-…, with its __element and --modifier), a data attribute (data-md-…) or a CSS
# variable (--md-…). pe-docs' own names start with pe-.
MATERIAL_NAME = re.compile(
    r"(?<![\w-])(?:--md-[a-z0-9-]+|data-md-[a-z0-9-]+(?<!-)|md-[a-z0-9]+(?:_[a-z0-9_]+)?(?:--?[a-z0-9]+)*)"
)
SOURCE_KINDS = {".html", ".css", ".js", ".py"}


def test_every_material_name_the_site_uses_is_material_s() -> None:
    """Every class, data attribute and CSS variable of Material's that the overrides (templates, stylesheets,
    scripts) and the tooling (its Python, the book's stylesheet) name is in the installed Material's templates,
    stylesheets or scripts: touch point 10 of ``site_tools.build.engine``, checked name by name, so that an upgrade
    that renames one fails here."""
    theirs = "".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in MATERIAL.rglob("*")
        if path.suffix in {".html", ".css", ".js"} and path.is_file()
    )
    sources = [p for top in ("overrides", "site_tools") for p in (ROOT / top).rglob("*") if p.suffix in SOURCE_KINDS]
    used: dict[str, set[str]] = {}
    for path in sources:
        for name in MATERIAL_NAME.findall(path.read_text(encoding="utf-8")):
            used.setdefault(name, set()).add(path.relative_to(ROOT).as_posix())
    assert {"md-typeset", "md-typeset__scrollwrap", "data-md-color-scheme", "--md-default-fg-color"} <= set(used)
    missing = {name: sorted(where) for name, where in used.items() if name not in theirs}
    assert not missing, f"Material's names the site uses that Material {MATERIAL} does not have: {missing}"


def test_the_blocks_main_html_overrides_are_material_s() -> None:
    """``overrides/main.html`` overrides blocks of Material's ``base.html`` (none copied whole) and calls
    ``__md_get``, which Material's templates define."""
    ours = (ROOT / "overrides/main.html").read_text(encoding="utf-8")
    base = (MATERIAL / "base.html").read_text(encoding="utf-8")
    overridden = set(re.findall(r"\{% block (\w+) %\}", ours))
    assert overridden == {"content", "styles", "scripts", "header"}  # nothing in the head: Material's own
    assert overridden <= set(re.findall(r"\{% block (\w+) %\}", base))
    assert "site_meta" not in overridden  # Material's head stays Material's; the pass links the twins
    assert "__md_get" in ours and "__md_get" in (MATERIAL / "partials/javascripts/base.html").read_text()


def test_the_finishing_pass_knows_material_s_page() -> None:
    """What ``site_tools.finish`` looks for in the engine's HTML is in Material's templates."""
    main = (MATERIAL / "main.html").read_text(encoding="utf-8") + (MATERIAL / "base.html").read_text(encoding="utf-8")
    assert 'class="md-content__inner md-typeset"' in main or "md-content__inner" in main
    assert "md-content__button" in (MATERIAL / "partials/actions.html").read_text(encoding="utf-8")
    assert "md-source-file" in (MATERIAL / "partials/source-file.html").read_text(encoding="utf-8")
    assert finish.CONTENT[0] == "article.md-content__inner"


def test_only_the_engine_and_the_hooks_import_mkdocs() -> None:
    """The other modules of site_tools work on plain data and HTML: an engine move does not touch them."""
    importers = sorted(
        path.relative_to(ROOT / "site_tools").as_posix()
        for path in (ROOT / "site_tools").rglob("*.py")
        if re.search(r"^\s*(?:from|import) (?:mkdocs|material)\b", path.read_text(), flags=re.M)
    )
    assert importers == ["build/engine.py", "build/hooks.py"]


def test_every_touch_point_names_tests_that_exist() -> None:
    """The list in ``site_tools.build.engine``'s docstring is only as good as the tests it names."""
    doc = re.sub(r"::\n\s+", "::", engine.__doc__ or "")
    named = re.findall(r"``(tests/[\w/]+\.py)(?:::(\w+))?``", doc)
    assert len(named) >= 15
    for file, test in named:
        assert (ROOT / file).is_file(), file
        assert not test or re.search(rf"^def {test}\(", (ROOT / file).read_text(), flags=re.M), f"{file}::{test}"


def _touch_points() -> str:
    doc = engine.__doc__ or ""
    return re.sub(r"::\n\s+", "::", doc[doc.index("Touch points") :])


def _code() -> str:
    """The project's own code and settings, as text: the site tools (the engine's list left out), the theme overrides,
    the configs."""
    texts = [(engine.__file__ and Path(engine.__file__).read_text(encoding="utf-8")).replace(engine.__doc__ or "", "")]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "site_tools").rglob("*.py")) if p.stem != "engine"]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "overrides").rglob("*")) if p.is_file()]
    texts += [(ROOT / name).read_text(encoding="utf-8") for name in ("mkdocs.yml", "mkdocs.zh.yml")]
    return "\n".join(texts)


def _resolves(dotted: str) -> bool:
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(found, attr):
                return False
            found = getattr(found, attr)
        return True
    return False


def test_every_name_in_the_touch_points_is_in_the_code() -> None:
    """The list in ``site_tools.build.engine``'s docstring names only what is there: each block it says ``main.html``
    overrides is overridden there (and is Material's), each of the engine's functions (``:func:``) exists, each dotted
    name of MkDocs, Material or Jinja imports, each path (``overrides/…``, ``partials/…``) is a file,
    and every other name in double backquotes (a template variable, a selector, an option, a script's name) occurs in
    the code, the overrides or the configs. A touch point that the code no longer has fails here."""
    doc = _touch_points()
    code = _code()
    main = (ROOT / "overrides/main.html").read_text(encoding="utf-8")
    base = (MATERIAL / "base.html").read_text(encoding="utf-8")
    missing = []
    blocks = re.findall(r"blocks?\s+((?:``\w+``(?:\s*\([^()]*\))?(?:,\s+|\s+and\s+)?)+)", doc)
    for block in re.findall(r"``(\w+)``", re.sub(r"\([^()]*\)", "", " ".join(blocks))):
        if f"{{% block {block} %}}" not in main or f"{{% block {block} %}}" not in base:
            missing.append(f"block {block}")
    for name in re.findall(r":func:`(\w+)`", doc):
        if not callable(getattr(engine, name, None)):
            missing.append(f"function {name}")
    names = set(re.findall(r"``([^`]+?)``", doc))
    assert len(names) > 50
    for name in sorted(names):
        if name.startswith("tests/"):
            continue  # test_every_touch_point_names_tests_that_exist
        in_code = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", code) is not None
        if re.fullmatch(r"[\w./-]+(?:/|\.(?:py|html|yml|xml|gz|json|css|js))", name):  # a file or a folder
            ok = any((where / name).exists() for where in (ROOT, ROOT / "overrides", MATERIAL)) or in_code
        elif re.fullmatch(r"(?:mkdocs|material|jinja2)(?:\.\w+)+", name):
            ok = _resolves(name)
        elif re.fullmatch(r"(?:File|Files|Page)\.\w+", name):  # MkDocs' structure
            module = "pages" if name.startswith("Page.") else "files"
            ok = _resolves(f"mkdocs.structure.{module}.{name}")
        else:
            ok = in_code
        if not ok:
            missing.append(name)
    assert missing == [], f"named in site_tools/build/engine.py's touch points but not in the code: {missing}"


# A dotted name of the two packages (pe_docs.analysis.rope_rotate) or a repository path (site_tools/build/figures.py)
# quoted in the code, the pages, the overrides or the docs: a comment that names what no longer exists misleads.
_DOTTED = re.compile(r"\b((?:pe_docs|site_tools)(?:\.[A-Za-z_]\w*)+)")
_PATH = re.compile(
    r"\b((?:pe_docs|site_tools|tests|docs|overrides|scripts|benchmarks|templates)/[\w./-]*"
    r"\.(?:py|js|css|md|html|yml|sh|txt|json|ipynb))\b"
)
_QUOTED_IN = [
    "overrides",
    "site_tools",
    "pe_docs",
    "docs",
    "templates",
    "scripts",
    "benchmarks",
    "README.md",
    "Makefile",
]
_PLACEHOLDERS = {f"docs/{lang}/{name}.md" for lang in ("en", "zh") for name in ("NAME", "attention-scores")}


def test_every_quoted_name_and_path_exists() -> None:
    files = subprocess.run(["git", "ls-files", *_QUOTED_IN], cwd=ROOT, capture_output=True, text=True, check=True)
    missing = []
    for name in files.stdout.split():
        path = ROOT / name
        if path.suffix not in {".py", ".js", ".css", ".md", ".html", ".yml", ".sh", ".txt"} and path.name != "Makefile":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            dotted = [m for m in _DOTTED.findall(line) if not m.endswith((".py", ".js", ".css", ".md", ".html"))]
            missing += [f"{name}:{n}: {m}" for m in dotted if not _resolves(m)]
            quoted = [m for m in _PATH.findall(line) if m not in _PLACEHOLDERS]
            missing += [f"{name}:{n}: {m}" for m in quoted if not (ROOT / m).exists()]
    assert missing == [], "quoted but not in the repository:\n" + "\n".join(missing)
