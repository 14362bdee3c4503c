"""The book (``make pdf``, site_tools/book/): each language's pages as one PDF, checked on the PDFs built
from the test session's site (built once per run; the PDFs are written to a temporary folder, not into it).

What a reader gets: the chapters in the nav's order with the same numbers in both languages, a title page and a
table of contents whose page numbers are right, bookmarks (part > chapter > section), links that jump inside the
PDF, every font embedded (the CJK font in Chinese, with a glyph for every character), math typeset (no TeX left),
code lines whole, and the page and size budgets. The PDFs are read with poppler-utils (``pdftotext``,
``pdffonts``) and pikepdf.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from site_tools import ROOT, book

LANGS = tuple(book.CONFIGS)
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def _squeeze(text: str) -> str:
    """``text`` without any whitespace: titles and lines wrap differently in the PDF's text and in the HTML."""
    return re.sub(r"\s+", "", text)


def _h1(site_dir: Path, lang: str, chapter: book.Chapter) -> str:
    page = (site_dir / book.language_prefix(lang) / chapter.url / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<article class="md-content__inner md-typeset">.*?<h1\b[^>]*>(.*?)</h1>', page, re.S)
    assert found, f"{lang}/{chapter.url}: no <h1>"
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1).replace("¶", ""))).strip()


def _plan(lang: str) -> list[book.Part | book.Chapter]:
    return book.plan(book.load_config(lang)["nav"])


def _chapters(lang: str) -> list[book.Chapter]:
    return [item for item in _plan(lang) if isinstance(item, book.Chapter)]


def _numbered(chapter: book.Chapter, title: str) -> str:
    return title if chapter.number is None else f"{chapter.number} {title}"


# --- the plan: no site needed ----------------------------------------------------------------------------------------


def test_plan_follows_the_nav_with_its_sections() -> None:
    nav = [
        "index.md",
        {"Learn": ["start-here.md", {"The formula": "formula.md"}, {"Deeper": ["walkthrough.md"]}]},
        {"Reference": ["glossary.md", "api.md", "api-figures.md", {"Elsewhere": "https://example.org/"}]},
        {"Only the API": ["api.md"]},
        "contributing.md",
    ]
    items = book.plan(nav)
    shape = [
        (
            type(item).__name__,
            getattr(item, "title", getattr(item, "src", None)),
            item.depth,
            getattr(item, "number", 0),
        )
        for item in items
    ]
    assert shape == [
        ("Chapter", "index.md", 0, None),  # the home page: the unnumbered introduction
        ("Part", "Learn", 0, 0),
        ("Chapter", "start-here.md", 1, 1),
        ("Chapter", "formula.md", 1, 2),
        ("Part", "Deeper", 1, 0),
        ("Chapter", "walkthrough.md", 2, 3),
        ("Part", "Reference", 0, 0),
        ("Chapter", "glossary.md", 1, 4),  # the API pages and the external link are left out
        ("Chapter", "contributing.md", 0, 5),  # and so is the section they leave empty
    ]
    chapters = [item for item in items if isinstance(item, book.Chapter)]
    assert [c.url for c in chapters] == ["", "start-here/", "formula/", "walkthrough/", "glossary/", "contributing/"]
    assert len({item.id for item in items}) == len(items)


@pytest.mark.parametrize("nav", [{"Home": "index.md"}, ["index.md", {"a": "a.md", "b": "b.md"}], [3]])
def test_plan_rejects_a_nav_it_cannot_follow(nav: Any) -> None:
    with pytest.raises(ValueError, match="nav"):
        book.plan(nav)


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="lang must be one of"):
        book.pdf_name("fr")


def test_both_languages_have_the_same_chapters_with_the_same_numbers() -> None:
    shape = {lang: [(type(i).__name__, getattr(i, "src", None), i.depth, i.id) for i in _plan(lang)] for lang in LANGS}
    assert shape["en"] == shape["zh"]
    assert [c.number for c in _chapters("en")] == [c.number for c in _chapters("zh")]
    assert len(_chapters("en")) >= 10
    assert {book.pdf_path(lang) for lang in LANGS} == {"pe-docs.en.pdf", "zh/pe-docs.zh.pdf"}


def test_a_dangling_link_or_a_missing_page_fails_the_book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link to an anchor no chapter has would be a dead link in the PDF: the book is not built."""

    def page(body: str, url: str) -> str:
        return (
            f'<html lang="en"><head><link rel="canonical" href="https://example.org/{url}"></head>'
            f'<body data-md-color-scheme="default"><article class="md-content__inner md-typeset">{body}</article>'
            "</body></html>"
        )

    for url, body in {"": '<h1 id="home">Home</h1><a href="a/#nowhere">x</a>', "a/": '<h1 id="a">A</h1>'}.items():
        (tmp_path / url).mkdir(parents=True, exist_ok=True)
        (tmp_path / url / "index.html").write_text(page(body, url), encoding="utf-8")
    config = {"site_name": "S", "site_dir": "site", "nav": ["index.md", "a.md"]}
    monkeypatch.setattr(book.assembly, "load_config", lambda lang: config)
    with pytest.raises(book.BookError, match=r"index.md -> #ch-a--nowhere"):
        book.assemble(tmp_path, "en", release="v", date="d")
    config["nav"] = ["index.md", "a.md", "b.md"]
    with pytest.raises(book.BookError, match="b/index.html is missing"):
        book.assemble(tmp_path, "en", release="v", date="d")


# --- the print page, from the session's site (no browser) ------------------------------------------------------------


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_print_page_shows_what_paper_can(site_dir: Path, lang: str) -> None:
    """Light-scheme figures only, boxes open, every tab shown, explorers replaced, every request inside the site."""
    assembled = book.assemble(site_dir, lang, release="v0", date="2026-01-01")
    page = assembled.html
    assert ".light.svg" in page and ".dark.svg" not in page and "#only-dark" not in page
    assert 'loading="lazy"' not in page
    details = re.findall(r"<details\b[^>]*>", page)
    assert details and all(" open" in tag for tag in details)
    assert "tabbed-set" not in page and "<input" not in page and "pe-book-tab-label" in page
    assert 'class="pe-live"' not in page and page.count('class="pe-book-explorer"') >= 2
    assert "<script" not in page and "glightbox" not in page
    for ref in re.findall(r'\b(?:src|href)="(/[^"]*)"', page):  # site paths: answered from the built site
        target = site_dir / ref.lstrip("/").split("#")[0]
        assert target.is_file(), ref
    assert "/assets/katex/katex.min.css" in page
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    assert {link for link in re.findall(r'href="#([^"]+)"', page)} <= ids
    assert all(len(i) <= 80 and i.isascii() for i in ids if i.startswith("ch-"))


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_every_page_links_its_languages_pdf(site_dir: Path, lang: str) -> None:
    """The footer of every page, and the home page's text, link the book where `make pdf` writes it."""
    prefix = book.language_prefix(lang)
    root = site_dir / prefix
    pages = [p for p in root.rglob("index.html") if lang != "en" or p.relative_to(root).parts[0] != "zh"]
    assert len(pages) >= len(_chapters(lang))
    for path in pages:
        text = path.read_text(encoding="utf-8")
        footer = re.search(r'<footer class="md-footer">.*?</footer>', text, re.S)
        assert footer, path
        hrefs = re.findall(r'<a href="([^"]+)" type="application/pdf"', footer.group(0))
        assert len(hrefs) == 1, path
        target = (path.parent / hrefs[0]).resolve()
        assert target == (site_dir / book.pdf_path(lang)).resolve(), (path, hrefs[0])
    home = (root / "index.html").read_text(encoding="utf-8")
    article = home.split('<article class="md-content__inner md-typeset">', 1)[1].split("</article>", 1)[0]
    assert f'<a href="{book.pdf_name(lang)}" type="application/pdf">' in article


# --- the PDFs --------------------------------------------------------------------------------------------------------

RELEASE, DATE = "v9.9-test", "2026-01-01"  # what the test books' title pages say


def test_make_pdf_titles_its_books(site_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``--release``/``--date`` (as ``make pdf`` runs it), the title page has the version ``git describe``
    gives (or says there is no git history) and today's date."""
    seen: list[book.Assembled] = []

    def fake(assembled: book.Assembled, site_dir: Path, out: Path) -> book.Printed:
        seen.append(assembled)
        return book.Printed(assembled.lang, out, 1, 1, 0.0, 0, 0)

    monkeypatch.setattr(book.cli, "cached_print", fake)
    book.main(["--site-dir", str(site_dir), "--out-dir", str(tmp_path), "--lang", "en"])
    (assembled,) = seen
    assert (book.version() or book.TEXT["en"]["no_git"]) in assembled.html and book.build_date() in assembled.html


def test_a_book_is_printed_again_only_when_what_it_reads_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The book cache (``book.printing.cached_print``, keyed by ``book.printing.book_key``): the same page and site
    files reuse the printed file; a changed page, stylesheet or figure prints it again; ``PE_DOCS_NO_CACHE=1`` always
    prints."""
    from site_tools import cache

    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(cache.NO_CACHE_ENV, raising=False)
    site = tmp_path / "site"
    (site / "figures").mkdir(parents=True)
    (site / "figures" / "a.light.svg").write_text("<svg/>", encoding="utf-8")
    (site / "style.css").write_text("p {}", encoding="utf-8")
    printed: list[str] = []

    def fake_print(assembled: book.Assembled, site_dir: Path, out: Path) -> book.Printed:
        printed.append(assembled.html)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(f"%PDF {len(printed)}".encode())
        return book.Printed(assembled.lang, out, 3, out.stat().st_size, 1.0, 0, 0)

    monkeypatch.setattr(book.printing, "print_book", fake_print)

    def run(html: str) -> bytes:
        assembled = book.Assembled(lang="en", html=html, items=[], titles={}, prefix="")
        result = book.printing.cached_print(assembled, site, tmp_path / "out" / "book.pdf")
        assert result.pages == 3 and result.path == tmp_path / "out" / "book.pdf"
        return result.path.read_bytes()

    assert run("<p>one</p>") == b"%PDF 1" and len(printed) == 1
    assert run("<p>one</p>") == b"%PDF 1" and len(printed) == 1  # reused, byte for byte
    assert run("<p>two</p>") == b"%PDF 2" and len(printed) == 2  # the page changed
    (site / "figures" / "a.light.svg").write_text("<svg></svg>", encoding="utf-8")
    assert run("<p>two</p>") == b"%PDF 3" and len(printed) == 3  # a figure changed
    (site / "style.css").write_text("p { color: red }", encoding="utf-8")
    assert run("<p>two</p>") == b"%PDF 4" and len(printed) == 4  # a stylesheet changed
    (site / "other.html").write_text("<p>not printed</p>", encoding="utf-8")
    assert run("<p>two</p>") == b"%PDF 4" and len(printed) == 4  # the page's text comes from the assembled page
    monkeypatch.setenv(cache.NO_CACHE_ENV, "1")
    assert run("<p>two</p>") == b"%PDF 5" and len(printed) == 5  # caching off: printed again


@pytest.fixture(scope="module")
def books(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Both languages' PDFs, built by ``python -m site_tools.book`` (what ``make pdf`` runs) from the session's site
    into a temporary folder, with their text (``pdftotext``). Keys per language: what the build reports (``path``,
    ``pages``, ``bytes``, ``seconds``), ``text`` (in reading order) and ``layout`` (each page's text as laid out,
    one line per printed line)."""
    out = tmp_path_factory.mktemp("books")
    start = time.perf_counter()
    title = ["--release", RELEASE, "--date", DATE]  # fixed, so that a commit that changes no page reuses the books
    done = subprocess.run(
        [sys.executable, "-m", "site_tools.book", "--site-dir", str(site_dir), "--out-dir", str(out), "--json", *title],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    rows = {row["lang"]: row for row in json.loads(done.stdout.strip().splitlines()[-1])}
    for row in rows.values():
        pdf = str(row["path"])
        row["text"] = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", pdf, "-"], capture_output=True, text=True, check=True
        ).stdout
        row["layout"] = subprocess.run(
            ["pdftotext", "-layout", "-enc", "UTF-8", pdf, "-"], capture_output=True, text=True, check=True
        ).stdout.split("\f")
    rows["seconds"] = time.perf_counter() - start  # type: ignore[assignment]
    return rows


def _outline(path: str) -> list[tuple[int, str, int]]:
    """The PDF's bookmarks, depth first: (depth, title, page number)."""
    import pikepdf

    out: list[tuple[int, str, int]] = []
    with pikepdf.open(path) as pdf:
        pages = {page.objgen: number for number, page in enumerate(pdf.pages, start=1)}
        names = pdf.Root.Dests

        def page_of(item: Any) -> int:
            dest = item.destination
            if isinstance(dest, pikepdf.Name | pikepdf.String):
                dest = names[pikepdf.Name("/" + str(dest).lstrip("/"))] if isinstance(dest, pikepdf.Name) else None
            if dest is None and item.action is not None:
                dest = item.action.D
            return pages[dest[0].objgen]

        def walk(items: list[Any], depth: int) -> None:
            for item in items:
                out.append((depth, item.title, page_of(item)))
                walk(item.children, depth + 1)

        with pdf.open_outline() as outline:
            walk(outline.root, 0)
    return out


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_chapters_appear_in_the_navs_order(books: dict[str, Any], site_dir: Path, lang: str) -> None:
    text = _squeeze(books[lang]["text"])
    position = 0
    for chapter in _chapters(lang):
        wanted = _squeeze(_numbered(chapter, _h1(site_dir, lang, chapter)))
        found = text.find(wanted, position)
        assert found >= 0, f"{lang}: {wanted!r} not found after position {position} (out of order, or missing)"
        position = found + len(wanted)


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_title_page_and_contents(books: dict[str, Any], site_dir: Path, lang: str) -> None:
    """Title page: the site's name, the version and date it was built from; contents: every chapter, numbered,
    with the page its bookmark opens."""
    config = book.load_config(lang)
    first = books[lang]["layout"][0]
    assert _squeeze(config["site_name"]) in _squeeze(first)
    assert RELEASE in first and DATE in first  # what `make pdf` prints there: test_make_pdf_titles_its_books
    bookmarks = {_squeeze(title): page for _, title, page in _outline(books[lang]["path"])}
    rows = {}
    for line in "\n".join(books[lang]["layout"][1:4]).splitlines():
        found = re.match(r"^\s*(\S.*?)\s{2,}(\d+)\s*$", line)
        if found:
            rows[_squeeze(found.group(1))] = int(found.group(2))
    for chapter in _chapters(lang):
        label = _squeeze(_numbered(chapter, _h1(site_dir, lang, chapter)))
        assert label in rows, f"{lang}: {label!r} is not in the contents: {sorted(rows)}"
        assert rows[label] == bookmarks[label], f"{lang}: {label}: contents say page {rows[label]}"


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_bookmarks_nest_parts_chapters_and_sections(books: dict[str, Any], site_dir: Path, lang: str) -> None:
    outline = _outline(books[lang]["path"])
    expected = []
    for item in _plan(lang):
        if isinstance(item, book.Part):
            expected.append((item.depth, _squeeze(item.title)))
        else:
            expected.append((item.depth, _squeeze(_numbered(item, _h1(site_dir, lang, item)))))
    found = [(depth, _squeeze(title)) for depth, title, _ in outline]
    assert found[0] == (0, _squeeze(book.TEXT[lang]["contents"]))
    position = 0
    for entry in expected:  # each part and chapter, in order, at its depth
        assert entry in found[position:], f"{lang}: no bookmark {entry} after {found[position - 1 : position]}"
        position = found.index(entry, position) + 1
    # chapters have their sections under them
    with_sections = 0
    for entry in expected:
        index = found.index(entry)
        if index + 1 < len(found) and found[index + 1][0] == entry[0] + 1 and found[index + 1] not in expected:
            with_sections += 1
    assert with_sections >= len(expected) * 2 // 3, f"{lang}: only {with_sections} chapters have section bookmarks"
    pages = [page for _, _, page in outline]
    assert pages[0] == 2 and max(pages) <= books[lang]["pages"]


def _fonts(path: str) -> list[list[str]]:
    out = subprocess.run(["pdffonts", path], capture_output=True, text=True, check=True).stdout.splitlines()
    return [line.split() for line in out[2:] if line.strip()]


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_every_font_is_embedded(books: dict[str, Any], lang: str) -> None:
    fonts = _fonts(books[lang]["path"])
    assert fonts
    # columns: name, type (one or two words), encoding, emb, sub, uni, object number, generation
    missing = [" ".join(row) for row in fonts if row[-5] != "yes"]
    assert not missing, f"{lang}: fonts not embedded: {missing}"
    names = " ".join(row[0] for row in fonts)
    assert "KaTeX_Main" in names and "KaTeX_Math" in names  # the math in KaTeX's own fonts, from the site
    if lang == "zh":
        assert "WenQuanYiMicroHei" in names


@pytest.mark.site
def test_every_chinese_character_has_a_glyph(books: dict[str, Any]) -> None:
    """No missing-glyph boxes: every CJK character of the Chinese book is in the CJK font the machine has (the one
    the PDF embeds: the only one Chromium can fall back to)."""
    from fontTools.ttLib import TTCollection, TTFont

    files = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True, check=True).stdout.split()
    covered: set[int] = set()
    for name in files:
        path = name.rstrip(":")
        fonts = TTCollection(path).fonts if path.endswith(".ttc") else [TTFont(path)]
        for font in fonts:
            covered |= set(font.getBestCmap())
    chars = set(CJK.findall(books["zh"]["text"]))
    assert len(chars) > 500
    assert not sorted(c for c in chars if ord(c) not in covered)


def _tex_commands() -> set[str]:
    """Every TeX command the pages' math uses (``\\frac``, ``\\sin``, ``\\cdot``, …)."""
    commands: set[str] = set()
    for path in (ROOT / "docs").glob("*/*.md"):
        for math in re.findall(r"\$\$.+?\$\$|\$[^$\n]+\$", path.read_text(encoding="utf-8"), re.S):
            commands |= set(re.findall(r"\\[A-Za-z]{2,}", math))
    return commands


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_math_is_typeset_not_tex(books: dict[str, Any], lang: str) -> None:
    text = books[lang]["text"]
    commands = _tex_commands()
    assert {r"\frac", r"\sin", r"\cos"} <= commands
    left = sorted(c for c in commands if re.search(re.escape(c) + r"(?![A-Za-z])", text))
    assert not left, f"{lang}: raw TeX in the PDF's text: {left}"
    assert "$$" not in text
    assert not re.search(r"\$[^$\n]*[\\^_{}][^$\n]*\$", text), "a $-delimited formula"
    assert not re.search(r"\\[(\[]", text)


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_code_lines_are_whole(books: dict[str, Any], lang: str) -> None:
    """The lines of the code page's blocks, each whole on one line of the PDF's text (not cut at the margin)."""
    source = (ROOT / "docs" / lang / "code.md").read_text(encoding="utf-8")
    lines = [
        " ".join(line.split())
        for block in re.findall(r"^```python\n(.*?)^```", source, re.S | re.M)
        for line in block.splitlines()
        if 20 <= len(line.strip()) <= 100
    ]
    assert len(lines) >= 30
    text_lines = {" ".join(line.split()) for page in books[lang]["layout"] for line in page.splitlines()}
    missing = [line for line in lines if line not in text_lines]
    assert not missing, f"{lang}: {len(missing)} code lines not whole, e.g. {missing[:3]}"


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_links_jump_within_the_pdf(books: dict[str, Any], site_dir: Path, site_base: str, lang: str) -> None:
    """Links between chapters are links inside the PDF; links to the site go only to what the book leaves out."""
    import pikepdf

    prefix = site_base + book.language_prefix(lang)
    in_book = {prefix + c.url for c in _chapters(lang)}
    # on purpose: the title page names the site's address, and each explorer links its interactive version
    explorers = {
        prefix + c.url
        for c in _chapters(lang)
        if 'class="pe-live"' in (site_dir / book.language_prefix(lang) / c.url / "index.html").read_text("utf-8")
    }
    assert explorers
    in_book -= {prefix} | explorers
    internal, external = 0, []
    with pikepdf.open(books[lang]["path"]) as pdf:
        names = pdf.Root.Dests
        assert str(pdf.Root.Lang).startswith(lang)
        for page in pdf.pages:
            for annot in page.get("/Annots", []):
                if annot.get("/Subtype") != "/Link":
                    continue
                if "/Dest" in annot:
                    assert pikepdf.Name("/" + str(annot.Dest).lstrip("/")) in names or isinstance(
                        annot.Dest, pikepdf.Array
                    )
                    internal += 1
                elif "/A" in annot and annot.A.get("/S") == "/URI":
                    external.append(str(annot.A.URI))
    assert internal >= 150, f"{lang}: only {internal} links inside the PDF"
    wrong = sorted({url for url in external if url.split("#")[0] in in_book})
    assert not wrong, f"{lang}: links to the site for pages the book has: {wrong[:5]}"
    assert any(url.startswith(site_base) for url in external)  # the API reference, notebooks, the explorers


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_pdf_within_its_budgets(books: dict[str, Any], lang: str) -> None:
    row = books[lang]
    assert 20 <= row["pages"] <= book.BUDGET_PAGES, row["pages"]
    assert Path(row["path"]).stat().st_size == row["bytes"] <= book.BUDGET_BYTES, row["bytes"]
    assert Path(row["path"]).name == book.pdf_name(lang)
