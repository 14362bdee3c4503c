"""Verified prose: every number a page states is asserted by that page's code, in both languages alike.

The per-page tests are the check itself; the mutation test proves it bites: changing any stated number on any
page, in either language, to another value makes the check fail.
"""

from __future__ import annotations

import math
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from site_tools import layout, pages
from site_tools.pages import stated_numbers

PAIRS = [
    (pages.files("en")[name], pages.files("zh")[name])
    for name in sorted(set(pages.files("en")) & set(pages.files("zh")))
]


def _id(pair: tuple[Path, Path]) -> str:
    return pair[0].name


def found(text: str) -> list[tuple[str, float]]:
    return [(written, candidates[0]) for _, written, candidates, _ in stated_numbers.numbers_in(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the longest is 60 611 positions", [("60 611", 60611)]),
        (r"$2\pi \cdot 10000 \approx 62\,832$", [("10000", 10000), (r"62\,832", 62832)]),
        ("1,000 rows and 96.5 % of it", [("1,000", 1000), ("96.5 %", 96.5)]),
        ("from 65 520 on, 0.52–0.56 ulp", [("65 520", 65520), ("0.52", 0.52), ("0.56", 0.56)]),
        ("10⁶ and 2⁻²⁴ and 4.1·2⁻²⁴", [("10⁶", 1e6), ("2⁻²⁴", 2**-24), ("4.1·2⁻²⁴", 4.1 * 2**-24)]),
        (
            r"$1.25\cdot 2^{-24} < 2.5\times10^{-7}$",
            [(r"1.25\cdot 2^{-24}", 1.25 * 2**-24), (r"2.5\times10^{-7}", 2.5e-7)],
        ),
        (r"$\sqrt2\cdot 2^{-24}$", [(r"\sqrt2\cdot 2^{-24}", math.sqrt(2) * 2**-24)]),
        ("1e-3–2e-3, 3.0e-8", [("1e-3", 1e-3), ("2e-3", 2e-3), ("3.0e-8", 3e-8)]),
        ("前 1024 行，约 6 万个位置", [("1024", 1024), ("6 万", 60000)]),
        ("$-9.2$ (1/16)", [("9.2", 9.2), ("16", 16)]),
        ("every 474th position of a d = 768 table 19.6 long", [("474", 474), ("768", 768), ("19.6", 19.6)]),
        # names, references and structure are not quantities
        ("float32, bfloat16, d2l, GPT-2, T5, seed 002, issue 1778, #137774", []),
        ("Vaswani et al., 2017; Press et al. 2022; 第 3.5 节; 第 3.4.2 节; Table 3; §3.5", []),
        ("d/2 − 1, 2i+1, 3 bits, column 0", []),
        (r"$\tfrac12$ and $\frac12$ of 12 rows", [("12", 12)]),  # TeX's \tfrac12 is 1/2 (contributor 40)
        # a Chinese table reference is 表 alone; 编码表 / 正弦表 … 256 is the encoding table and a quantity
        ("论文表 3 中；编码表 256 行、正弦表 1024 列", [("256", 256), ("1024", 1024)]),
        ("论文的表 12、图 21、式 13 和种子 002", []),  # a paper's table, figure and equation; a seed file
    ],
)
def test_what_counts_as_a_stated_number(text: str, expected: list[tuple[str, float]]) -> None:
    got = found(text)
    assert [w for w, _ in got] == [w for w, _ in expected]
    for (_, value), (_, want) in zip(got, expected, strict=True):
        assert math.isclose(value, want, rel_tol=1e-12)


@pytest.mark.parametrize("word", stated_numbers.TABLE_WORDS)
def test_a_number_after_a_word_for_this_sites_table_is_a_quantity(word: str) -> None:
    assert found(f"{word}表 12 行") == [("12", 12)]


def test_code_spans_links_comments_and_fences_are_not_prose(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        '---\nquoted:\n  "25.7": a paper\n---\n# T\n\nSee [issue](https://x.org/a/123) and `arange(1000)`.\n'
        "<!-- 4567 -->\n\n```python\nx = 890\n```\n\nIt gave 25.7 and 0.973.\n",
        encoding="utf-8",
    )
    assert [(s.line, s.text) for s in stated_numbers.stated_numbers(page)] == [(14, "25.7"), (14, "0.973")]
    assert stated_numbers.quoted(page) == {"25.7": "a paper"}
    assert [s.text for s in stated_numbers.unbacked(page)] == ["0.973"]
    # a heading's attribute list is a name, not prose
    page.write_text("# T\n\n## From 2π to 62 832 {#from-2π-to-62-832 .wide}\n", encoding="utf-8")
    assert [s.text for s in stated_numbers.stated_numbers(page)] == ["62 832"]


def test_asserted_values_come_from_assertions_and_expected_output(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        "# T\n\n```python\nd = 512\nx = 0.5\nassert abs(x - 0.5) < 1.25 * 2**-24\n"
        "torch.testing.assert_close(x, 0.5, atol=3e-7, rtol=0)\nassert f'{x:.3f}' == '0.500 (96.5 %)'\n"
        "print(1234)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```text\n1234 6.1e-2\n```\n",
        encoding="utf-8",
    )
    values = stated_numbers.asserted_values(page)
    for v in (0.5, 1.25, 2**-24, 1.25 * 2**-24, 3e-7, 96.5, 1234, 6.1e-2):
        assert stated_numbers.canonical(v) in values, v
    assert stated_numbers.canonical(512) not in values  # a parameter, not an assertion


@pytest.mark.parametrize("pair", PAIRS, ids=_id)
def test_every_stated_number_is_asserted_on_its_page(pair: tuple[Path, Path]) -> None:
    problems = stated_numbers.problems(pair)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.parametrize("pair", PAIRS, ids=_id)
def test_both_languages_state_the_same_numbers(pair: tuple[Path, Path]) -> None:
    problems = stated_numbers.differences(*pair)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


_NEXT_WORD = {
    "one": "two", "two": "three", "three": "four", "four": "five", "five": "six", "six": "seven", "seven": "eight",
    "eight": "nine", "nine": "one", "thirteen": "fourteen", "fourteen": "fifteen", "fifteen": "sixteen",
    "sixteen": "seventeen", "seventeen": "eighteen", "eighteen": "nineteen", "nineteen": "thirteen",
}  # fmt: skip


def _mutated(written: str) -> str:
    """The same number with its last digit changed (superscripts too): 1.0366 -> 1.0367, 2⁻²⁴ -> 2⁻²⁵; a number in
    words likewise: Twenty -> Twenty-one, eighty-eight -> eighty-nine, 二十 -> 二十一, 八十八 -> 八十九."""
    if (word := re.search(r"[A-Za-z]+$", written)) is not None:
        last = word.group(0)
        if last.lower() in _NEXT_WORD:
            return written[: word.start()] + _NEXT_WORD[last.lower()]
        return written + "-one"  # twenty -> twenty-one
    if written[-1] == "十":
        return written + "一"
    han = "三四五六七八九" if len(written) == 2 and written[0] == "十" else "一二三四五六七八九"
    if written[-1] in han:
        return written[:-1] + han[(han.index(written[-1]) + 1) % len(han)]
    digits = "0123456789"
    sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
    for i in range(len(written) - 1, -1, -1):
        ch = written[i]
        for alphabet in (digits, sup):
            if ch in alphabet:
                return written[:i] + alphabet[(alphabet.index(ch) + 1) % 10] + written[i + 1 :]
    raise AssertionError(f"no digit in {written!r}")


def _change(facts: stated_numbers.Facts, s: stated_numbers.Stated, line_text: str) -> stated_numbers.Facts:
    """The facts of the page with stated number ``s`` changed (its line read again, as the check reads it)."""
    changed = line_text[: s.column] + _mutated(s.text) + line_text[s.column + len(s.text) :]
    stated = [t for t in facts.stated if t.line != s.line]
    stated += stated_numbers.stated_in_line(facts.path, s.line, changed)
    return replace(facts, stated=tuple(sorted(stated, key=lambda t: (t.line, t.column))))


@pytest.mark.parametrize("pair", [p for p in PAIRS if p[0].suffix == ".md"], ids=_id)
def test_changing_any_stated_number_fails(pair: tuple[Path, Path], tmp_path: Path) -> None:
    """Change each stated number of the page, one at a time and in each language: the check must fail.

    Each page is read once; a change rereads only its own line (``_change``) and runs the check itself
    (``stated_numbers.check_facts``) on the result. That this is what reading the changed file gives is checked by
    writing the file for the first and the last number of each page and comparing."""
    missed = []
    for lang, (page, other) in (("en", pair), ("zh", pair[::-1])):
        facts, other_facts = stated_numbers.facts(page), stated_numbers.facts(other)
        texts = stated_numbers.prose_text(page)
        lines = page.read_text(encoding="utf-8").split("\n")

        def check(changed: stated_numbers.Facts) -> set[str]:
            pair = (changed, other_facts) if lang == "en" else (other_facts, changed)  # noqa: B023
            return set(stated_numbers.check_facts(*pair))

        before = check(facts)
        candidates = [s for s in facts.stated if s.text not in stated_numbers.EXEMPT and s.key not in facts.quoted]
        for k, s in enumerate(candidates):
            assert lines[s.line - 1][s.column : s.column + len(s.text)] == s.text, (page, s)
            changed = _change(facts, s, texts[s.line])
            if k in (0, len(candidates) - 1):  # the same as writing the changed page and reading it again
                work = tmp_path / lang / page.name
                work.parent.mkdir(exist_ok=True)
                line = lines[s.line - 1]
                edited = line[: s.column] + _mutated(s.text) + line[s.column + len(s.text) :]
                work.write_text("\n".join([*lines[: s.line - 1], edited, *lines[s.line :]]), encoding="utf-8")
                reread = stated_numbers.facts(work)
                assert [(t.line, t.column, t.text) for t in reread.stated] == [
                    (t.line, t.column, t.text) for t in changed.stated
                ]
                assert reread.asserted == facts.asserted and dict(reread.quoted) == dict(facts.quoted)
            if not check(changed) - before:
                missed.append(stated_numbers.unnoticed(s, _mutated(s.text), facts, changed, sorted(before)))
    if missed:
        pytest.fail(
            "numbers the page's code does not pin (the text is not wrong; do not make these edits):\n"
            + "\n".join(missed),
            pytrace=False,
        )


@pytest.mark.parametrize(
    ("text", "value"),
    [("eighty-eight pairs", 88), ("Twenty identical tokens", 20), ("fifteen", 15), ("八十八对", 88), ("二十个", 20),
     ("十五", 15)],
)  # fmt: skip
def test_a_number_in_words_is_stated_and_must_be_asserted(text: str, value: int, tmp_path: Path) -> None:
    """A number from 13 to 99 spelt out is a stated number (contributor 49, N3): unasserted, or asserted as
    another value (N3b: the text says eighty-seven, the code 88), the page fails; 十分, 几十, 一百二十 and words
    below 13 are not numbers of this kind."""
    assert [c for _, _, c, _ in stated_numbers.number_words_in(text)] == [(float(value),)]
    page = tmp_path / "words.md"
    page.write_text(f"# T\n\nIt has {text}.\n\n```python\nn = {value}\nassert n == {value}\n```\n", encoding="utf-8")
    assert stated_numbers.problems_of(stated_numbers.facts(page)) == []
    page.write_text(f"# T\n\nIt has {text}.\n\n```python\nn = 87\nassert n == 87\n```\n", encoding="utf-8")
    assert any(
        "no assertion or expected output on this page contains" in p
        for p in stated_numbers.problems_of(stated_numbers.facts(page))
    ), text
    vague = "十分接近，几十个，一百二十，十二行，twelve lines, seventy-"
    assert list(stated_numbers.number_words_in(vague)) == [(vague.index("seventy"), "seventy", (70.0,), ())]


def test_an_unpinned_number_says_why_and_what_to_do(tmp_path: Path) -> None:
    """When changing a stated number fails no check, the report says why and what to do, and that the text's number
    is not the thing to change: here the Chinese page states 89 where the English one states 88 (the page already
    fails), then a page whose assertion holds for both values."""
    code = "```python\nsteps = 88\nassert steps in (88, 89)\n```\n"
    en, zh = tmp_path / "en.md", tmp_path / "zh.md"
    en.write_text(f"# T\n\nIt took 88 steps.\n\n{code}", encoding="utf-8")
    zh.write_text(f"# 甲\n\n用了 89 步。\n\n{code}", encoding="utf-8")
    facts, other = stated_numbers.facts(en), stated_numbers.facts(zh)
    (s,) = facts.stated
    changed = _change(facts, s, stated_numbers.prose_text(en)[s.line])
    before = stated_numbers.check_facts(facts, other)
    assert len(before) == 2 and not set(stated_numbers.check_facts(changed, other)) - set(before)  # unnoticed
    message = stated_numbers.unnoticed(s, "89", facts, changed, before)
    assert message.startswith(f"{en}:3: the text could say 89 instead of 88 and no check would fail, because this ")
    assert "page already fails the number checks (2 problems, the first: " in message and "Fix those first" in message
    message = stated_numbers.unnoticed(s, "89", facts, changed, [])
    assert message == (
        f"{en}:3: the text could say 89 instead of 88 and no check would fail: 89 is also in an assertion or expected "
        "output of this page, and the two languages would still state each number equally often. Leave 88 in the "
        "text; make the page's code pin it: compute the value this sentence states and compare it with 88 exactly "
        "(assert round(x, 4) == …), so that 89 would fail"
    )


def test_check_names_page_line_and_number(tmp_path: Path) -> None:
    for lang in ("en", "zh"):
        (tmp_path / lang).mkdir()
        shutil.copy(layout.DOCS / lang / "wavelength.md", tmp_path / lang / "wavelength.md")
    en = tmp_path / "en" / "wavelength.md"
    text = en.read_text(encoding="utf-8")
    assert "1.0366" in text and "60 611" in text
    text = text.replace("factor is small: 1.0366", "factor is small: 1.0466").replace(
        "wavelength is 60 611", "wavelength is 61 611"
    )
    assert "1.0466" in text and "61 611" in text  # the two edits took
    en.write_text(text, encoding="utf-8")
    problems = stated_numbers.check_pair(en, tmp_path / "zh" / "wavelength.md")
    line = next(i for i, t in enumerate(en.read_text(encoding="utf-8").splitlines(), 1) if "1.0466" in t)
    assert any(
        f"wavelength.md:{line}: the text states 1.0466, which no assertion or expected output on this page contains: "
        "compute it in a block and assert it" in p
        for p in problems
    ), problems
    assert any("61 611" in p and "no assertion" in p for p in problems)
    assert any("61 611 is stated 1× in en" in p and "but 0× in zh" in p for p in problems), problems
    # 60 611 is now stated once less in en than in zh (the figure's alt text states it too)
    n = sum(t.count("60 611") for _, t in stated_numbers.prose_lines(text))
    assert any(f"60 611 is stated {n}× in en" in p and f"but {n + 1}× in zh" in p for p in problems), problems


def test_weak_assertions_are_rejected(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        "```python\nok = True\nassert True\nassert ok\nassert 0.97\nassert 3 == 3\nassert ok == True\n"
        "assert torch.equal(a, b)\nassert round(10000 ** (2 / 512), 4) == 1.0366\n```\n",
        encoding="utf-8",
    )
    weak = pages.weak_asserts(page)
    # ok = True is a constant, so ok == True restates it
    expected = ["assert True", "assert ok", "assert 0.97", "assert 3 == 3", "assert ok == True"]
    assert [w.split("`")[1] for w in weak] == expected
    assert weak[0].startswith("p.md:3: ")  # the page line of the assertion


# Assertions that hold whatever the page computes (site_tools/pages/asserts.py), each planted in a page of its own.
CANNOT_FAIL = [
    "assert max_gap < 1e-6 or True",
    "assert max_gap < 1e-6 or 1",
    'assert max_gap < 1e-6 or "ok"',
    "assert True or max_gap < 1e-6",
    "assert max_gap == max_gap",
    "assert table.sum() <= table.sum()",
    "assert (table == table).all() and max_gap == max_gap",
    "assert torch.equal(table, table)",
    "assert torch.allclose(table * 2, table * 2, atol=0)",
    "assert math.isclose(max_gap, max_gap)",
    "torch.testing.assert_close(table, table)",
    "np.testing.assert_allclose(table.numpy(), table.numpy())",
    "assert abs(max_gap) >= 0",
    "assert abs(max_gap - 1) >= 0.0",
    "assert 0 <= abs(max_gap)",
    "assert table.abs().max() >= 0",
    "assert (table - table.flip(0)).abs().max().item() >= 0",
    "assert torch.linalg.norm(table) >= 0",
    "assert table.norm(dim=1).min() >= 0",
    "assert np.linalg.norm(table.numpy()) > -1e-9",
    "assert len(table) >= 0",
    "assert float(table.std()) >= 0",
    "assert (max_gap - 1) ** 2 >= 0",
    "assert max_gap < math.inf",
    'assert max_gap <= float("inf")',
    "assert isinstance(3, int)",
    'assert isinstance("text", str)',
    "assert isinstance(max_gap, object)",
    "assert (max_gap < 1e-6, 'gap too large')",
    "assert max_gap in (max_gap, 0.0)",
    "assert math.isnan(max_gap) or not math.isnan(max_gap)",
    "assert max_gap < 1e-6 and abs(max_gap) >= 0",
    "assert torch.equal(table, table.clone())",  # a copy (contributor 31)
    "assert torch.allclose(table.detach().clone(), table)",
    "np.testing.assert_allclose(np.copy(table.numpy()), table.numpy())",
    "assert 24 * 7 == 168",  # arithmetic on constants (contributor 31)
    "assert table is not None",  # contributor 40
]
CAN_FAIL = [
    "assert max_gap < 1e-6",
    "assert max_gap < 1e-6 or max_gap > 2",
    "assert 0 <= abs(max_gap) <= 1",
    "assert abs(max_gap) > 0",
    "assert min(abs(max_gap), -1.0) >= 0",
    "assert table.max() >= 0",
    "assert max_gap - 1 >= 0",
    "assert torch.equal(table, table.flip(0))",
    "torch.testing.assert_close(table, torch.zeros(4, 2))",
    "assert isinstance(max_gap, float)",
    "assert max_gap in (0.0, 1.0)",
    "assert max_gap <= 1e30",
    "assert (L, d) == (4, 2) and table.shape == (L, d)",
    "assert torch.equal(table.clone(), table.flip(0))",
    "assert round(2 * math.pi, 2) == 6.28",
    "assert abs(max_gap - 0.152) < 0.005 or max_gap < 1e-6",  # within ten units of the last digit
    "assert (table[1, 0] - 0.8415).abs() <= 1e-4",
    "assert math.isclose(table[1, 0].item(), 0.8415, rel_tol=1e-3)",
]
# Bounds looser than the digits they name (contributor 40: `abs(x - 0.152) < 1` backed "0.152" on their page)
LOOSE = [
    "assert abs(max_gap - 0.152) < 1",
    "assert 1 > abs(0.152 - max_gap)",
    "assert (table[1, 0] - 0.8415).abs() <= 0.01",
    "assert math.isclose(table[1, 0].item(), 0.8415, abs_tol=0.1)",
    "assert L == 4 and abs(table.sum().item() - 6200) < 2000",
    "assert round(max_gap, 3) == 0.657 or max_gap < 0.9",  # contributor 48: the number escapes through an `or`
]
SETUP = (
    "import math\n\nimport numpy as np\nimport torch\n\nfrom pe_docs import sinusoidal_table\n\nL, d = 4, 2\n"
    "table = sinusoidal_table(L, d)\nmax_gap = (table - sinusoidal_table(L, d, dtype=torch.float64).float())"
    ".abs().max().item()\n"
)


@pytest.mark.parametrize("assertion", CANNOT_FAIL)
def test_assertion_that_cannot_fail_is_rejected(assertion: str, tmp_path: Path) -> None:
    """Each planted case, in both languages of a page that otherwise passes: named, with its line."""
    for lang in ("en", "zh"):
        page = tmp_path / lang / "planted.md"
        page.parent.mkdir()
        page.write_text(f"# Planted\n\n```python\n{SETUP}{assertion}\n```\n", encoding="utf-8")
        found = pages.weak_asserts(page)
        line = 3 + SETUP.count("\n") + 1
        assert len(found) == 1 and found[0].startswith(f"planted.md:{line}: `"), found
        assert "cannot fail" in found[0] or "checks nothing" in found[0], found
    exec(compile(SETUP + assertion, "planted", "exec"), {})  # it holds, as it always would


@pytest.mark.parametrize("assertion", LOOSE)
def test_a_bound_looser_than_its_digits_is_rejected(assertion: str, tmp_path: Path) -> None:
    page = tmp_path / "loose.md"
    page.write_text(f"```python\n{SETUP}{assertion}\n```\n", encoding="utf-8")
    found = pages.weak_asserts(page)
    line = 1 + SETUP.count("\n") + 1
    assert len(found) == 1 and found[0].startswith(f"loose.md:{line}: `"), found
    assert "is too loose" in found[0], found
    assert "more than ten units of its last digit" in found[0] or "sits in an `or`" in found[0], found


@pytest.mark.parametrize("assertion", CAN_FAIL)
def test_assertion_that_can_fail_is_kept(assertion: str, tmp_path: Path) -> None:
    page = tmp_path / "kept.md"
    page.write_text(f"```python\n{SETUP}{assertion}\n```\n", encoding="utf-8")
    assert pages.weak_asserts(page) == []


@pytest.mark.parametrize("path", [p for pair in PAIRS for p in pair], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_page_assertions_can_fail(path: Path) -> None:
    found = pages.weak_asserts(path)
    if found:
        pytest.fail(f"docs/{path.parent.name}/" + f"\ndocs/{path.parent.name}/".join(found), pytrace=False)


def test_a_timed_assertion_is_rejected_through_the_names_it_reads(tmp_path: Path) -> None:
    """A speed claim asserted from the clock, directly or through names computed from it (contributor 40)."""
    page = tmp_path / "timed.md"
    page.write_text(
        "```python\nimport time\n\nstart = time.perf_counter()\ntotal = sum(range(1000))\n"
        "elapsed = time.perf_counter() - start\nper_item = elapsed / 1000\nassert per_item < 1\n"
        "assert total == 499500\n```\n",
        encoding="utf-8",
    )
    found = pages.weak_asserts(page)
    assert found == [
        "timed.md:8: `assert per_item < 1` is a timed assertion: the test machines are noisy; measure in benchmarks/"
    ]


def test_a_block_that_asserts_nothing_is_named(tmp_path: Path) -> None:
    """A test of the page (a block and its continuations) with no assertion and no expected output checks nothing
    (contributor 40); one that shows its expected output, or asserts in a continuation, is kept."""
    page = tmp_path / "silent.md"
    page.write_text(
        "```python\nx = 1 + 1\nprint(x)\n```\n\n"  # line 1: nothing checked
        "```python\ny = sum([1, 1])\n```\n\n<!--pytest-codeblocks:cont-->\n```python\nassert y + 1 == 3\n```\n\n"
        "```python\nprint(3)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```text\n3\n```\n",
        encoding="utf-8",
    )
    found = pages.weak_asserts(page)
    assert len(found) == 1 and found[0].startswith("silent.md:1: this block (and the blocks that continue it) asserts")


def test_a_block_that_works_without_asserting_is_named_though_its_chain_asserts(tmp_path: Path) -> None:
    """A block whose assertions were deleted, continued from a block that asserts (contributor 49, A7), is named;
    a block that only defines (imports, functions, assignments) and one whose chain shows its output are kept."""
    page = tmp_path / "chain.md"
    page.write_text(
        "```python\nimport math\n\n\ndef f(x):\n    return 2 * x\n\n\ny = f(2)\n```\n\n"  # line 1: defines only
        "<!--pytest-codeblocks:cont-->\n```python\nassert y == 4\n```\n\n"
        "<!--pytest-codeblocks:cont-->\n```python\nz = math.sqrt(y)\nprint(f'{z:.3f}')\n```\n\n"  # line 18
        "```python\nfor k in range(2):\n    print(k)\n```\n\n"  # line 22: its output is shown
        "<!--pytest-codeblocks:cont-->\n```python\nassert k == 1\n```\n\n"
        "<!--pytest-codeblocks:expected-output-->\n```text\n0\n1\n```\n",
        encoding="utf-8",
    )
    assert pages.weak_asserts(page) == [
        "chain.md:18: this block runs `print(f'{z:.3f}')` but asserts nothing of its own, and no expected output "
        "shows what it prints; the assertions of the blocks it continues or that continue it do not check it: "
        "assert what it computes here"
    ]


def test_a_constant_restated_through_a_name_is_rejected(tmp_path: Path) -> None:
    """``hours = 24`` then ``assert hours * 7 == 168``, or ``n = 20`` then ``assert n == 20`` in a block that continues
    it: the names only ever hold constants, so the assertion restates them (contributor 50). A name the page also
    computes, or rebinds in a loop, is a value."""
    page = tmp_path / "restated.md"
    page.write_text(
        "```python\nhours = 24\nn, d = 20, 64\nassert hours * 7 == 168\n```\n\n"
        "<!--pytest-codeblocks:cont-->\n```python\nassert n == 20\nk = 1\nfor k in range(3):\n    pass\n"
        "assert k == 2 and d == 64 + 0 * k\nm = len([1, 2])\nassert m == 2\n```\n",
        encoding="utf-8",
    )
    found = pages.weak_asserts(page)
    assert [f.split("`")[1] for f in found] == ["assert hours * 7 == 168", "assert n == 20"], found
    assert found[0].startswith("restated.md:4: ") and found[1].startswith("restated.md:9: "), found
