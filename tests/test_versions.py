"""Versions on the pages (site_tools/versions.py): read at build time, never typed.

The upstream tier checks that the installed versions are these pins (tests/upstream/test_pins.py); here: the pins
are read exactly, each page that cites a tier library lists it, both languages list the same, and the build writes
the line.
"""

from __future__ import annotations

import difflib
import re
from importlib import metadata
from pathlib import Path

import pytest

from site_tools import ROOT, pages, versions
from site_tools.pages import chapters

# how the pages cite each tier library's source, and its name on PyPI
CITED = {
    "huggingface/transformers": "transformers",
    "huggingface/diffusers": "diffusers",
    "openai/whisper": "openai-whisper",
    "keras-team/keras-hub": "keras-hub",
    "lucidrains/x-transformers": "x-transformers",
}


def _pins(tmp_path: Path, text: str) -> dict[str, versions.Pin]:
    path = tmp_path / "requirements-upstream.txt"
    path.write_text(text, encoding="utf-8")
    return versions.read_pins(path)


def test_pins_are_read_exactly(tmp_path: Path) -> None:
    pins = _pins(
        tmp_path,
        "# comment\n\ntorch==2.13.0  # tier: the CPU wheel\n"
        "keras-hub==0.32.0  # tier, --no-deps, without: tensorflow-text (TensorFlow)\nPyYAML==6.0.4\n"
        "typing_extensions==4.16.0\n",
    )
    assert list(pins) == ["torch", "keras-hub", "pyyaml", "typing-extensions"]
    assert pins["torch"] == versions.Pin("torch", "2.13.0", True, False, ())
    assert pins["keras-hub"] == versions.Pin("keras-hub", "0.32.0", True, True, ("tensorflow-text",))
    assert pins["pyyaml"] == versions.Pin("pyyaml", "6.0.4", False, False, ())
    for bad in ("torch>=2.13\n", "torch\n", "torch==2.13.0\ntorch==2.13.0\n", "-r other.txt\n"):
        with pytest.raises(ValueError, match=r"requirements-upstream.txt:\d"):
            _pins(tmp_path, bad)


def test_the_real_pins() -> None:
    pins = versions.read_pins()
    assert pins["torch"].version == "2.13.0" and pins["transformers"].tier
    assert all(re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", pin.version) for pin in pins.values())


# A version of transformers or torch that the text names ("transformers 5.24", "torch 2.13"), or a source's tag
# (transformers' "v5.24.0", in a citation of its code).
_NAMED_VERSION = re.compile(r"\b(transformers|torch) v?(\d+\.\d+(?:\.\d+)?)\b|\bv(\d+\.\d+\.\d+)\b")


def test_the_versions_the_text_names_are_the_pinned_ones() -> None:
    """Every transformers or torch version that the pages, the package, the tooling and the README name is the one
    pinned (the tier's transformers in requirements-upstream.txt, torch in requirements.txt), to the digits it
    gives: moving a pin without the text fails here. A bare tag is transformers' when its major version is."""
    pins = {
        "transformers": versions.read_pins()["transformers"].version,
        "torch": versions.read_pins(ROOT / "requirements.txt")["torch"].version,
    }
    files = [ROOT / "README.md"] + [
        path
        for top in ("docs", "pe_docs", "site_tools", "overrides")
        for path in (ROOT / top).rglob("*")
        if path.suffix in {".md", ".ipynb", ".py", ".js", ".html"}
    ]
    named, stale = 0, []
    for path in files:
        for match in _NAMED_VERSION.finditer(path.read_text(encoding="utf-8")):
            name, version = (match[1], match[2]) if match[1] else ("transformers", match[3])
            pin = pins[name]
            if not match[1] and version.split(".")[0] != pin.split(".")[0]:
                continue  # another project's tag
            named += 1
            if pin.split(".")[: version.count(".") + 1] != version.split("."):
                stale.append(f"{path.relative_to(ROOT)}: {match[0]!r}, but {name}=={pin} is pinned")
    assert named >= 10  # code.md names both, in both languages
    assert not stale, "\n".join(stale)


def test_version_line_in_both_languages(tmp_path: Path) -> None:
    pins = _pins(tmp_path, "transformers==5.23.0  # tier\ndiffusers==0.42.1  # tier\nregex==2026.11.19\n")
    torch = metadata.version("torch")
    meta = {"checked_against": ["transformers", "diffusers"]}
    en = versions.version_line(meta, chapter=True, lang="en", pins=pins)
    assert en == (
        f'<p class="pe-versions"><small>Code blocks on this page ran with torch <code>{torch}</code>. '
        "Checked against transformers <code>5.23.0</code>, diffusers <code>0.42.1</code>.</small></p>"
    )
    zh = versions.version_line(meta, chapter=True, lang="zh", pins=pins)
    assert zh == (
        f'<p class="pe-versions"><small>本页代码块在 torch <code>{torch}</code> 上运行。'
        "已对照 transformers <code>5.23.0</code>、diffusers <code>0.42.1</code> 验证。</small></p>"
    )
    assert versions.version_line({}, chapter=True, lang="en", pins=pins).count("torch") == 1
    assert "torch" not in versions.version_line(meta, chapter=False, lang="en", pins=pins)
    assert versions.version_line({}, chapter=False, lang="zh", pins=pins) == ""
    with pytest.raises(ValueError, match=r"names \['regex'\], which the upstream tier does not pin; it pins"):
        versions.version_line({"checked_against": ["regex"]}, chapter=False, lang="en", pins=pins)
    with pytest.raises(ValueError, match=r"checked_against must be a list of package names, got 'transformers'"):
        versions.version_line({"checked_against": "transformers"}, chapter=False, lang="en", pins=pins)
    with pytest.raises(ValueError, match=r"lang must be one of \['en', 'zh'\], got 'fr'"):
        versions.version_line({}, chapter=False, lang="fr", pins=pins)


def _front_matter(lang: str, name: str) -> dict:
    return dict(pages.read(ROOT / "docs" / lang / name).meta)


EN_PAGES = sorted(p.name for p in (ROOT / "docs" / "en").glob("*.md"))


@pytest.mark.parametrize("name", EN_PAGES)
def test_pages_that_cite_a_tier_library_list_it_in_both_languages(name: str) -> None:
    """A page that cites a tier library's source names it in ``checked_against`` (so its foot gives the version the
    tier checks it against); both languages list the same libraries; every name is a tier package. Parametrized by
    the page, so that ``make check`` runs it (contributor 49: a list in the English front matter only passed)."""
    tier = {name for name, pin in versions.read_pins().items() if pin.tier}
    en, zh = _front_matter("en", name), _front_matter("zh", name)
    names = en.get("checked_against", [])
    problems = []
    if en.get("checked_against") != zh.get("checked_against"):
        problems.append(
            f"checked_against differs between the languages: docs/en/{name} lists {en.get('checked_against')}, "
            f"docs/zh/{name} {zh.get('checked_against')}; list the same libraries in both front matters"
        )
    if not set(names) <= tier:
        problems.append(f"docs/en/{name}: checked_against lists {sorted(set(names) - tier)}, not tier packages")
    text = (ROOT / "docs" / "en" / name).read_text(encoding="utf-8")
    cited = {package for repo, package in CITED.items() if repo in text}
    if not cited <= set(names):
        problems.append(f"docs/en/{name} cites {sorted(cited - set(names))}: add them to checked_against")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_the_pages_that_list_tier_libraries() -> None:
    """The pages that state what tier libraries do list them (the test above passes on a page that lists none)."""
    listing = {name: _front_matter("en", name).get("checked_against", []) for name in EN_PAGES}
    assert listing["variants.md"] == ["transformers", "diffusers", "openai-whisper", "keras-hub"]
    assert all(listing[name] for name in ("relative.md", "relative-schemes.md", "limitations.md", "code.md"))


TIER_TESTS = versions.tier_tests()


def _misspelt_marks(slug: str) -> str:
    """A sentence naming the tier tests marked with a page that does not exist but is spelt like ``slug``."""
    slugs = {name.removesuffix(".md") for name in EN_PAGES}
    near = [
        f"{t.name} is marked {p!r}"
        for t in TIER_TESTS
        for p in t.pages
        if p not in slugs and difflib.get_close_matches(p, [slug], n=1, cutoff=0.8)
    ]
    return f". Note: {'; '.join(near)}, which is no page: did you mean {slug!r}?" if near else ""


@pytest.mark.parametrize("name", EN_PAGES)
def test_checked_against_is_backed_by_a_tier_test_that_names_the_page(name: str) -> None:
    """Each library a page lists in ``checked_against`` (its foot then says "Checked against <library> <version>")
    has a test in ``tests/upstream/`` that names the page (``@pytest.mark.pages("<slug>")``), imports the library
    and quotes in its docstring, in “ ”, the passage of the page it checks: the test that makes the claim true, run
    by ``make test-upstream``, tied to the claim (contributor 48: a mark on an unrelated test passed)."""
    slug = name.removesuffix(".md")
    text = (ROOT / "docs" / "en" / name).read_text(encoding="utf-8")
    problems = []
    for package in _front_matter("en", name).get("checked_against", []):
        backing = versions.backing(slug, package, TIER_TESTS)
        if not backing:
            problems.append(
                f"{name}: checked_against lists {package}, but no test in tests/upstream/ marked "
                f"@pytest.mark.pages({slug!r}) imports {versions.import_name(package)}. Mark the tier test that "
                f"checks what this page says of {package} (make test-upstream runs it); if there is none, write one "
                f"that compares the page's claim with {package} itself, or take {package} out of checked_against in "
                f"docs/en/{name} and docs/zh/{name}" + _misspelt_marks(slug)
            )
        elif not versions.quoting(slug, package, text, TIER_TESTS):
            problems.append(
                f"{name}: checked_against lists {package}, and {len(backing)} tier tests back it ({backing[0]}"
                f"{', …' if len(backing) > 1 else ''}), but none quotes the "
                f"page: add to the docstring of the one that checks the claim the page's words, in “ ” (at least "
                f"{versions.QUOTE_WORDS} words of docs/en/{name}, as a reader reads them: no backticks, no $), e.g. "
                "Page: “its rows are interleaved”. If the page's wording changed, quote the new words, after "
                "checking that the test still checks them"
            )
    for test, quote in versions.stale_quotes(slug, text, TIER_TESTS):
        problems.append(
            f"{test} quotes docs/en/{name}: “{quote}”, which the page no longer says: reread the test against the "
            "page's new words, then quote them"
        )
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_a_tier_test_backs_a_page_only_by_quoting_it() -> None:
    """``versions.quoting``: a test marked with the page that imports the library counts only if its docstring
    quotes four words or more of the page, found as a reader reads the page (links, code marks and math removed)."""
    page = "The port computes `XLM`'s [formula](sources.md#x) with the sines **first**, in $\\text{float32}$.\n"
    test = versions.TierTest(
        "t::a", ("variants",), frozenset({"transformers"}), (("variants", "computes XLM's formula with the"),)
    )
    assert versions.quoting("variants", "transformers", page, [test]) == ["t::a"]
    for quotes in [
        (),
        ("computes XLM's",),
        ("computes XLM's formula with sines",),
        ("computes XLM's formula with the",),
    ]:  # none, too short, not the page's
        label = (
            "code" if len(quotes) == 1 and quotes[0].endswith("the") else "variants"
        )  # the last: another page's label
        other = versions.TierTest("t::b", ("variants",), frozenset({"transformers"}), tuple((label, q) for q in quotes))
        assert versions.quoting("variants", "transformers", page, [other]) == []
    unmarked = versions.TierTest("t::c", ("code",), frozenset({"transformers"}), test.quotes)
    assert versions.quoting("variants", "transformers", page, [unmarked]) == []
    labelled = versions.TierTest("t::d", ("variants",), frozenset({"transformers"}), (("variants", "the sines last"),))
    assert versions.stale_quotes("variants", page, [labelled, test]) == [("t::d", "the sines last")]
    assert versions.stale_quotes("code", page, [labelled]) == []  # a quote of another page
    assert versions.plain(page) == "The port computes XLM's formula with the sines first, in \\text{float32}."


def test_tier_tests_name_pages_that_exist() -> None:
    """A page a tier test names exists, and the tier's tests of libraries name one (``test_pins`` checks the
    installed versions, not a page)."""
    slugs = {name.removesuffix(".md") for name in EN_PAGES}
    unknown = [f"{t.name}: {p!r}" for t in TIER_TESTS for p in t.pages if p not in slugs]
    if unknown:
        pytest.fail(f"tier tests name pages that do not exist: {unknown}", pytrace=False)
    tier = {versions.import_name(name) for name, pin in versions.read_pins().items() if pin.tier} - {"torch", "pytest"}
    unnamed = [t.name for t in TIER_TESTS if t.modules & tier and not t.pages]
    if unnamed:
        pytest.fail(f"tier tests that name no page (@pytest.mark.pages): {unnamed}", pytrace=False)
    assert len(TIER_TESTS) >= 30


def test_tier_tests_are_read_as_written(tmp_path: Path) -> None:
    """The reader of the tier's sources: marks on a test and on its module, imports in the test, in the helpers it
    calls (and theirs) and at module level; an unmarked test names no page."""
    tier = tmp_path / "tests" / "upstream"
    tier.mkdir(parents=True)
    (tier / "test_x.py").write_text(
        "import pytest\nimport numpy as np\n\npytestmark = [pytest.mark.pages('variants')]\n\n\n"
        "def _model():\n    return _config()\n\n\ndef _config():\n    from diffusers import UNet2DModel\n\n\n"
        "@pytest.mark.pages('code', 'relative')\n@pytest.mark.parametrize('a', [1])\ndef test_a(a):\n    _model()\n\n\n"
        "def test_b():\n    import keras_hub.layers\n",
        encoding="utf-8",
    )
    (tier / "test_y.py").write_text(
        "import importlib\n\n\ndef test_c(alone):\n    import whisper\n\n\n"
        "def test_d(alone):\n    alone('timm', 'layers.pos_embed_sincos')\n"
        "    importlib.import_module('torchtune.modules')\n",
        encoding="utf-8",
    )
    a, b, c, d = versions.tier_tests(tier)
    assert (a.name, a.pages, a.modules) == ("tests/upstream/test_x.py::test_a", ("variants", "code", "relative"),
                                            frozenset({"pytest", "numpy", "diffusers"}))  # fmt: skip
    assert (b.pages, b.modules) == (("variants",), frozenset({"pytest", "numpy", "keras_hub"}))
    assert (c.pages, c.modules) == ((), frozenset({"importlib", "whisper"}))
    assert {"timm", "torchtune"} <= d.modules  # loaded by name: a fixture's argument, importlib.import_module
    tests = [a, b, c]
    assert versions.backing("code", "diffusers", tests) == ["tests/upstream/test_x.py::test_a"]
    assert versions.backing("variants", "keras-hub", tests) == ["tests/upstream/test_x.py::test_b"]
    assert (
        versions.backing("code", "keras-hub", tests) == []
        and versions.backing("variants", "openai-whisper", tests) == []
    )
    assert [versions.import_name(n) for n in ("openai-whisper", "keras_hub", "x-transformers")] == [
        "whisper",
        "keras_hub",
        "x_transformers",
    ]


@pytest.mark.site
def test_built_pages_carry_their_versions(site_dir: Path) -> None:
    """The build writes the versions line: every chapter names the torch installed, the pages with
    ``checked_against`` the pinned versions, in each language's words."""
    torch = metadata.version("torch")
    pins = versions.read_pins()
    for lang, prefix, torch_text in (("en", "", "ran with torch"), ("zh", "zh/", "本页代码块在 torch")):
        for name in chapters(lang):
            page = site_dir / prefix / name.removesuffix(".md") / "index.html"
            html = page.read_text(encoding="utf-8")
            (line,) = re.findall(r'<p class="pe-versions">.*?</p>', html)
            assert torch_text in line and f"<code>{torch}</code>" in line, page
            for package in _front_matter(lang, name).get("checked_against", []):
                assert f"{package} <code>{pins[package].version}</code>" in line, (page, package)
        index = (site_dir / prefix / "index.html").read_text(encoding="utf-8")
        assert 'class="pe-versions"' not in index  # the home page runs no blocks and states no library's behaviour
    variants = (site_dir / "zh" / "variants" / "index.html").read_text(encoding="utf-8")
    assert f"已对照 transformers <code>{pins['transformers'].version}</code>、diffusers" in variants
