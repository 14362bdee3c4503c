"""The finishing pass (``site_tools.finish``): every step on a page's tree, on a page no engine rendered and on
Material's markup.

The page that Python-Markdown alone renders from a real source (``docs/zh/formula.md``, with the site's Markdown
extensions and no MkDocs, no theme, no plugin) shows that the build needs nothing of the engine but Python-Markdown,
HTML and the source: the pass keeps its thousands whole, typesets its math, adds its versions line, makes its figures
lazy and sized.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_tools import dom, finish, layout, pages, versions
from site_tools.finish import cjk

ZH_FORMULA = layout.DOCS / "zh" / "formula.md"
ALTERNATES = [
    {"name": "English", "link": "./", "lang": "en", "url": "https://example.org/docs/"},
    {"name": "中文", "link": "zh/", "lang": "zh", "url": "https://example.org/docs/zh/"},
]
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="504pt" height="302.4pt" viewBox="0 0 504 302.4"></svg>'


@pytest.fixture(scope="module")
def finisher() -> finish.Finisher:
    with finish.Finisher("zh", alternates=ALTERNATES) as f:
        yield f


def python_markdown(source: Path) -> str:
    """The page rendered by Python-Markdown with the site's extensions (``pages.render``), in a bare HTML document."""
    body = pages.render(source)
    head = '<link rel="alternate" href="../" hreflang="en"><link rel="alternate" href="./" hreflang="zh">'
    return f"<!doctype html><html><head>{head}</head><body>{body}</body></html>"


def body_html(html: str) -> str:
    return dom.parse(html).body.html or ""


def test_a_page_python_markdown_rendered_is_finished(tmp_path: Path, finisher: finish.Finisher) -> None:
    """No engine: the source rendered by Python-Markdown, written where MkDocs would write it, finished in place."""
    page = next(p for p in finish.site_pages(layout.DOCS / "zh") if p.src_uri == "formula.md")
    raw = python_markdown(ZH_FORMULA)
    assert "\\(" in raw  # unfinished: TeX
    assert re.search(r"\d 000", raw)  # 1 000 positions, with a plain space
    assert cjk.stray_spaces(f"<article>{body_html(raw)}</article>", lang="zh") == []  # the source breaks no Chinese
    path = tmp_path / page.file
    path.parent.mkdir(parents=True)
    path.write_text(raw, encoding="utf-8")
    for ref in pages.read(ZH_FORMULA).figures:  # the figures' files (for their sizes), where the links point
        svg = tmp_path / page.url / "figures" / f"{ref.name}.{ref.theme}.svg"
        svg.parent.mkdir(exist_ok=True)
        svg.write_text(SVG, encoding="utf-8")

    assert finisher.pages(tmp_path, [page]) == []
    html = path.read_text(encoding="utf-8")
    tree = dom.parse(html)
    # math: every formula typeset by KaTeX, no TeX left
    assert len(tree.css(".arithmatex .katex")) == len(tree.css(".arithmatex")) > 10
    assert "\\(" not in (tree.body.text() or "").replace(".katex-mathml", "")
    # thousands on one line
    assert "1\u202f000" in html and not re.search(r"\d 000", tree.body.text(deep=True, separator=""))
    # versions: the chapter's line, last in the content (the body: no theme)
    line = versions.version_line(pages.read(ZH_FORMULA).meta, chapter=True, lang="zh")
    assert tree.body.css("p.pe-versions")[-1].html == dom.parse_fragment(line).root.html
    # figures: lazy and sized (504 pt × 302.4 pt = 672 × 403 CSS pixels)
    figures = [img for img in tree.css("img") if "figures/" in (img.attributes.get("src") or "")]
    assert figures and all(img.attributes.get("loading") == "lazy" for img in figures)
    assert {(img.attributes["width"], img.attributes["height"]) for img in figures} == {("672", "403")}
    # head: as the engine wrote it (the twins are named in the sitemap: test_the_sitemap_names_each_page_s_twins)
    hreflang = [(link.attributes["hreflang"], link.attributes["href"]) for link in tree.css("link[hreflang]")]
    assert hreflang == [("en", "../"), ("zh", "./")]


def test_the_sitemap_names_each_page_s_twins(tmp_path: Path, finisher: finish.Finisher) -> None:
    """Once per language: each page of the sitemap (and of its gzipped copy, whose timestamp stays the engine's)
    names its twin in each language, absolute, and ``x-default`` (English); a page elsewhere is left alone."""
    import gzip

    sitemap = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.org/docs/zh/formula/</loc><lastmod>2026-11-29</lastmod></url>"
        "<url><loc>https://example.org/docs/zh/</loc></url><url><loc>https://example.org/other/</loc></url></urlset>"
    )
    (tmp_path / "sitemap.xml").write_text(sitemap, encoding="utf-8")
    (tmp_path / "sitemap.xml.gz").write_bytes(gzip.compress(sitemap.encode(), mtime=1_700_000_000))
    finisher.site(tmp_path)
    written = (tmp_path / "sitemap.xml").read_text(encoding="utf-8")
    assert gzip.decompress((tmp_path / "sitemap.xml.gz").read_bytes()).decode() == written
    assert (tmp_path / "sitemap.xml.gz").read_bytes()[4:8] == (1_700_000_000).to_bytes(4, "little")
    links = re.findall(r'<loc>([^<]+)</loc>|<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)" />', written)
    assert links == [
        ("https://example.org/docs/zh/formula/", "", ""),
        ("", "en", "https://example.org/docs/formula/"),
        ("", "x-default", "https://example.org/docs/formula/"),
        ("", "zh", "https://example.org/docs/zh/formula/"),
        ("https://example.org/docs/zh/", "", ""),
        ("", "en", "https://example.org/docs/"),
        ("", "x-default", "https://example.org/docs/"),
        ("", "zh", "https://example.org/docs/zh/"),
        ("https://example.org/other/", "", ""),
    ]
    finisher.site(tmp_path)
    assert (tmp_path / "sitemap.xml").read_text(encoding="utf-8") == written  # done once


MATERIAL_PAGE = """<!doctype html><html><head><link rel="alternate" href="../" hreflang="en"></head><body>
<article class="md-content__inner md-typeset">
<a href="e" title="编辑此页" class="md-content__button md-icon">编辑\n此页</a>
<h1 id="t">标题</h1>
<p>位置编码的\n波长，最长为 60 611。</p>
<aside class="md-source-file">
  <span>最后\n更新</span>
</aside>
</article></body></html>"""


def test_material_markup_the_content_and_its_chrome(tmp_path: Path, finisher: finish.Finisher) -> None:
    """In Material's page the content is the article; the versions line goes before its "Last update" box; the pass
    leaves the text as the engine wrote it, but for keeping a thousands number on one line."""
    source = tmp_path / "docs" / "t.md"
    source.parent.mkdir()
    source.write_text("---\nchecked_against: [transformers]\n---\n# 标题\n", encoding="utf-8")
    page = finish.BuiltPage("t.md", source, "t/index.html", "t/")
    html, warnings = finisher.html(MATERIAL_PAGE, page, tmp_path)
    assert warnings == []
    assert "<p>位置编码的\n波长，最长为 60\u202f611。</p>" in html
    assert "编辑\n此页" in html and "最后\n更新" in html
    article = dom.parse(html).css_first("article")
    kids = [node.tag for node in dom.children(article) if node.is_element_node]
    assert kids == ["a", "h1", "p", "p", "aside"]
    assert "transformers" in article.css("p")[-1].text()


def test_finishing_a_finished_page_changes_nothing(tmp_path: Path, finisher: finish.Finisher) -> None:
    source = tmp_path / "t.md"
    source.write_text("# 标题\n", encoding="utf-8")
    page = finish.BuiltPage("t.md", source, "t/index.html", "t/")
    once, _ = finisher.html(
        '<html><head></head><body><p>公式\n<span class="arithmatex">\\(x^2\\)</span>，共\n1 000 个</p></body></html>',
        page,
        tmp_path,
    )
    twice, _ = finisher.html(once, page, tmp_path)
    assert twice == once and once.count('class="katex"') == 1
    assert "pe-versions" not in once  # not a chapter, nothing checked against: no versions line


def test_printed_output_is_told_from_code(tmp_path: Path, finisher: finish.Finisher) -> None:
    """The block after pytest-codeblocks' expected-output marker gets ``pe-output`` (the stylesheet labels it), in the
    main text and in a box, where Markdown wraps the marker in a paragraph; another text block does not."""
    source = tmp_path / "zh" / "t.md"
    source.parent.mkdir()
    source.write_text(
        "# 标题\n\n```python\nprint(1)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```text\n1\n```\n\n"
        "```text\n不是输出\n```\n\n"
        '??? note "框"\n    ```python\n    print(2)\n    ```\n\n'
        "    <!--pytest-codeblocks:expected-output-->\n    ```text\n    2\n    ```\n",
        encoding="utf-8",
    )
    page = finish.BuiltPage("t.md", source, "t/index.html", "t/")
    html, _ = finisher.html(f"<html><body>{pages.render(source)}</body></html>", page, tmp_path)
    tree = dom.parse(html)
    assert [block.text().strip() for block in tree.css(".pe-output")] == ["1", "2"]
    assert len(tree.css(".highlight")) == 5  # two blocks of code, two outputs, one text block
    assert finish.mark_outputs(tree.body) == 2  # again: the same blocks, one class each
    assert [block.attributes["class"] for block in tree.css(".pe-output")] == ["highlight pe-output"] * 2


def test_every_source_page_is_where_the_engine_writes_it() -> None:
    found = {p.src_uri: (p.file, p.url) for p in finish.site_pages(layout.DOCS / "en")}
    assert found["index.md"] == ("index.html", "")
    assert found["formula.md"] == ("formula/index.html", "formula/")
    assert found["walkthrough.md"] == ("walkthrough/index.html", "walkthrough/")
    assert set(found) == set(pages.files("en"))


def test_a_strict_build_fails_on_finishing_warnings(caplog: pytest.LogCaptureFixture) -> None:
    finish.report(["docs/zh/x.md: formula '\\(位\\)': unicodeTextInMathMode"], strict=False)
    assert "unicodeTextInMathMode" in caplog.text
    with pytest.raises(finish.FinishError, match="1 warnings in strict mode"):
        finish.report(["docs/zh/x.md: formula"], strict=True)
    finish.report([], strict=True)


@pytest.mark.site
@pytest.mark.parametrize("lang", pages.LANGS)
def test_the_built_site_is_finished(site_dir: Path, lang: str) -> None:
    """The session's build ran the pass on every page: no TeX left (the sitemap's twins:
    ``tests/test_site_build.py``)."""
    prefix = site_dir if lang == "en" else site_dir / lang
    for page in finish.site_pages(layout.DOCS / lang):
        tree = dom.parse((prefix / page.file).read_text(encoding="utf-8"))
        untypeset = [n for n in tree.css(".arithmatex") if not n.css_first(".katex")]
        assert untypeset == [], page.src_uri
