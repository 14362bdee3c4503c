"""Math typeset at build time (``site_tools.finish.formulas``): where formulas are found, what replaces them, errors.

The finder must agree with KaTeX's auto-render, which typeset the pages in the browser before: the same delimiters,
the same elements skipped, the same pieces. ``tests/test_browser.py`` checks the built pages (math present with
JavaScript off, no KaTeX script fetched); these tests check the module on small inputs.
"""

from __future__ import annotations

import pytest

from site_tools import dom
from site_tools.finish import formulas
from site_tools.finish.formulas import Katex, MathError, Piece, find_math, render_page, split_at_delimiters


@pytest.fixture(scope="module")
def katex() -> object:
    renderer = Katex()
    yield renderer
    renderer.close()


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("no math here", [Piece("no math here")]),
        (r"a \(x\) b", [Piece("a "), Piece("x", True, r"\(x\)", False), Piece(" b")]),
        (r"\[x^2\]", [Piece("x^2", True, r"\[x^2\]", True)]),
        ("$$y$$ and $z$", [Piece("y", True, "$$y$$", True), Piece(" and "), Piece("z", True, "$z$", False)]),
        # a lone or unclosed delimiter stays text, like auto-render
        ("costs $5", [Piece("costs "), Piece("$5")]),
        (r"\(open", [Piece(r"\(open")]),
        # braces protect a closing delimiter; a backslash escapes the next character
        ("${a$}$", [Piece("${a$}$"[1:-1], True, "${a$}$", False)]),
        (r"$a\$b$", [Piece(r"a\$b", True, r"$a\$b$", False)]),
    ],
)
def test_split_like_auto_render(text: str, pieces: list[Piece]) -> None:
    assert split_at_delimiters(text) == pieces


def test_finds_math_only_where_auto_render_looked() -> None:
    page = (
        "<html><head><title>$t$</title></head><body>"
        '<header class="md-header">\\(h\\)</header><nav class="md-nav">\\(n\\)</nav>'
        "<p>in \\(a &lt; b\\) text</p><pre>\\(pre\\)</pre><code>$c$</code><script>var s = '$s$';</script>"
        '<div class="highlight">$$hl$$</div><div class="x md-search y">$q$</div>'
        '<div class="arithmatex">\\[d\\]</div><!-- $comment$ --><p>$$e$$</p>'
        "</body></html>"
    )
    found = [(p.text, p.display) for run in find_math(dom.parse(page)) for p in run.pieces if p.math]
    # the navigation and table of contents too (headings with math), which auto-render skipped
    assert found == [("n", False), ("a < b", False), ("d", True), ("e", True)]


def test_render_page_replaces_each_formula_as_auto_render_did(katex: Katex) -> None:
    page = '<body><p>x &amp; \\(a^2\\) &lt; y</p><div class="arithmatex">\\[b\\]</div></body>'
    out, warnings = render_page(page, katex, where="docs/en/t.md", lang="zh")
    assert warnings == []
    # text around a formula is kept (escaped), the formula becomes <span> + KaTeX's markup (HTML and MathML)
    assert '<body><p>x &amp; <span><span class="katex"><span class="katex-mathml"><math' in out
    assert "</span></span> &lt; y</p>" in out
    assert '<annotation encoding="application/x-tex">a^2</annotation>' in out
    # a display formula is a focusable region named in the page's language
    assert '<span class="katex-display" tabindex="0" role="region" aria-label="公式">' in out
    assert out.count('class="katex"') == 2 and "\\(" not in out and "\\[" not in out


def test_macros_are_shared_within_a_page_only(katex: Katex) -> None:
    out, _ = render_page(r"<body><p>\(\gdef\pe{PE}\pe\) \(\pe\)</p></body>", katex, where="a")
    assert out.count("<mi>P</mi><mi>E</mi>") == 2
    with pytest.raises(MathError, match=r"docs/en/b\.md: KaTeX cannot parse the formula '\\\\\(\\\\pe\\\\\)'"):
        render_page(r"<body><p>\(\pe\)</p></body>", katex, where="docs/en/b.md")


def test_a_formula_katex_cannot_parse_names_its_page(katex: Katex) -> None:
    with pytest.raises(MathError, match=r"docs/zh/formula\.md: .*\\\\frac\{a\}.*KaTeX parse error"):
        render_page(r'<body><span class="arithmatex">\(\frac{a}\)</span></body>', katex, where="docs/zh/formula.md")
    # unbalanced braces: auto-render's rules find no end of the formula, so nothing is typeset; that fails too
    with pytest.raises(MathError, match=r"docs/en/x\.md: the formula '\\\\\(\\\\frac\{a\\\\\)' was not typeset"):
        render_page(r'<body><span class="arithmatex">\(\frac{a\)</span></body>', katex, where="docs/en/x.md")


def test_strict_mode_warnings_are_returned_with_the_page(katex: Katex) -> None:
    out, warnings = render_page(r"<body><p>\(x = 位置\)</p></body>", katex, where="docs/zh/x.md")
    assert "katex" in out
    assert warnings and all(w.startswith("docs/zh/x.md: formula") for w in warnings), warnings
    assert "unicodeTextInMathMode" in warnings[0]


def test_one_node_process_for_every_page(katex: Katex) -> None:
    render_page(r"<body>\(a\)</body>", katex, where="a")
    first = katex._process.pid  # type: ignore[union-attr]
    for i in range(5):
        render_page(rf"<body>\({i}\)</body>", katex, where=f"p{i}")
    assert katex._process.pid == first  # type: ignore[union-attr]
    render_page("<body>no math</body>", katex, where="none")  # a page without math sends nothing


def test_close_and_restart() -> None:
    renderer = Katex()
    assert renderer.render([]) == []  # nothing to render: no process started
    assert renderer._process is None
    [result] = renderer.render([("x", False)])
    assert "katex" in str(result["html"])
    renderer.close()
    assert renderer._process is None
    assert formulas.FORMULA_LABEL == {"en": "Formula", "zh": "公式"}


def test_a_link_whose_only_text_is_math_is_titled_by_its_tex(katex: Katex) -> None:
    page = (
        '<body><p><a href="g.html#s"><span class="arithmatex">\\(\\sqrt{d}\\)</span></a> and '
        '<a href="g.html#t">the <span class="arithmatex">\\(t\\)</span> term</a>, '
        '<a href="x" aria-label="kept">\\(y\\)</a><a href="z"><code>z</code> \\(z\\)</a></p></body>'
    )
    out, _ = render_page(page, katex, where="a")
    assert '<a href="g.html#s" title="\\sqrt{d}"><span class="arithmatex"><span><span class="katex">' in out
    assert '<a href="g.html#t">the ' in out  # a link with words keeps its name from them
    assert '<a href="x" aria-label="kept">' in out and '<a href="z"><code>' in out
