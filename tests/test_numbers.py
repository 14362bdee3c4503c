"""Verified prose: every number a page states is asserted by that page's code, in both languages alike.

The per-page tests are the check itself; the mutation test proves it bites: changing any stated number on any
page, in either language, to another value makes the check fail.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from site_tools import numbers, pages

PAIRS = [
    (pages.pages("en")[name], pages.pages("zh")[name])
    for name in sorted(set(pages.pages("en")) & set(pages.pages("zh")))
]


def _id(pair: tuple[Path, Path]) -> str:
    return pair[0].name


def found(text: str) -> list[tuple[str, float]]:
    return [(written, candidates[0]) for _, written, candidates, _ in numbers.numbers_in(text)]


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
        ("Vaswani et al., 2017; Press et al. 2022; 第 3.5 节; Table 3; §3.5", []),
        ("d/2 − 1, 2i+1, 3 bits, column 0", []),
    ],
)
def test_what_counts_as_a_stated_number(text: str, expected: list[tuple[str, float]]) -> None:
    got = found(text)
    assert [w for w, _ in got] == [w for w, _ in expected]
    for (_, value), (_, want) in zip(got, expected, strict=True):
        assert math.isclose(value, want, rel_tol=1e-12)


def test_code_spans_links_comments_and_fences_are_not_prose(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        '---\nquoted:\n  "25.7": a paper\n---\n# T\n\nSee [issue](https://x.org/a/123) and `arange(1000)`.\n'
        "<!-- 4567 -->\n\n```python\nx = 890\n```\n\nIt gave 25.7 and 0.973.\n",
        encoding="utf-8",
    )
    assert [(s.line, s.text) for s in numbers.stated_numbers(page)] == [(14, "25.7"), (14, "0.973")]
    assert numbers.quoted(page) == {"25.7": "a paper"}
    assert [s.text for s in numbers.unbacked(page)] == ["0.973"]


def test_asserted_values_come_from_assertions_and_expected_output(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        "# T\n\n```python\nd = 512\nx = 0.5\nassert abs(x - 0.5) < 1.25 * 2**-24\n"
        "torch.testing.assert_close(x, 0.5, atol=3e-7, rtol=0)\nassert f'{x:.3f}' == '0.500 (96.5 %)'\n"
        "print(1234)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```text\n1234 6.1e-2\n```\n",
        encoding="utf-8",
    )
    values = numbers.asserted_values(page)
    for v in (0.5, 1.25, 2**-24, 1.25 * 2**-24, 3e-7, 96.5, 1234, 6.1e-2):
        assert numbers.canonical(v) in values, v
    assert numbers.canonical(512) not in values  # a parameter, not an assertion


@pytest.mark.parametrize("pair", PAIRS, ids=_id)
def test_every_stated_number_is_asserted_on_its_page(pair: tuple[Path, Path]) -> None:
    problems = numbers.problems(pair)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("pair", PAIRS, ids=_id)
def test_both_languages_state_the_same_numbers(pair: tuple[Path, Path]) -> None:
    problems = numbers.differences(*pair)
    assert problems == [], "\n".join(problems)


def _mutated(written: str) -> str:
    """The same number with its last digit changed (superscripts too): 1.0366 -> 1.0367, 2⁻²⁴ -> 2⁻²⁵."""
    digits = "0123456789"
    sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
    for i in range(len(written) - 1, -1, -1):
        ch = written[i]
        for alphabet in (digits, sup):
            if ch in alphabet:
                return written[:i] + alphabet[(alphabet.index(ch) + 1) % 10] + written[i + 1 :]
    raise AssertionError(f"no digit in {written!r}")


@pytest.mark.parametrize("pair", [p for p in PAIRS if p[0].suffix == ".md"], ids=_id)
def test_changing_any_stated_number_fails(pair: tuple[Path, Path], tmp_path: Path) -> None:
    """Change each stated number of the page, one at a time and in each language: the check must fail."""
    missed = []
    for lang, (page, other) in (("en", pair), ("zh", pair[::-1])):
        lines = page.read_text(encoding="utf-8").split("\n")
        work = tmp_path / lang / page.name
        work.parent.mkdir(exist_ok=True)
        work.write_text("\n".join(lines), encoding="utf-8")
        before = set(numbers.check_pair(*((work, other) if lang == "en" else (other, work))))
        for s in numbers.stated_numbers(page):
            if s.text in numbers.EXEMPT or s.key in numbers.quoted(page):
                continue
            line = lines[s.line - 1]
            assert line[s.column : s.column + len(s.text)] == s.text, (page, s)
            changed = line[: s.column] + _mutated(s.text) + line[s.column + len(s.text) :]
            work.write_text("\n".join([*lines[: s.line - 1], changed, *lines[s.line :]]), encoding="utf-8")
            pair_now = (work, other) if lang == "en" else (other, work)
            if not set(numbers.check_pair(*pair_now)) - before:
                missed.append(f"{page.parent.name}/{page.name}:{s.line}: {s.text} -> {_mutated(s.text)}")
    assert missed == [], "changing these numbers went unnoticed:\n" + "\n".join(missed)


def test_check_names_page_line_and_number(tmp_path: Path) -> None:
    for lang in ("en", "zh"):
        (tmp_path / lang).mkdir()
        shutil.copy(pages.DOCS / lang / "wavelength.md", tmp_path / lang / "wavelength.md")
    en = tmp_path / "en" / "wavelength.md"
    text = en.read_text(encoding="utf-8")
    assert "1.0366" in text and "60 611" in text
    text = text.replace("the factor 1.0366", "the factor 1.0466").replace("is 60 611", "is 61 611")
    en.write_text(text, encoding="utf-8")
    problems = numbers.check_pair(en, tmp_path / "zh" / "wavelength.md")
    line = next(i for i, t in enumerate(en.read_text(encoding="utf-8").splitlines(), 1) if "1.0466" in t)
    assert any(
        p.endswith(
            f"wavelength.md:{line}: the text states 1.0466, which no assertion or expected output on this page contains"
        )
        for p in problems
    ), problems
    assert any("61 611" in p and "no assertion" in p for p in problems)
    assert any("61 611 is stated 1× in en" in p and "but 0× in zh" in p for p in problems), problems
    assert any("60 611 is stated 0× in en (lines -) but 1× in zh" in p for p in problems), problems


def test_weak_assertions_are_rejected(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        "```python\nok = True\nassert True\nassert ok\nassert 0.97\nassert 3 == 3\nassert ok == True\n"
        "assert torch.equal(a, b)\nassert round(10000 ** (2 / 512), 4) == 1.0366\n```\n",
        encoding="utf-8",
    )
    weak = pages.weak_asserts(page)
    assert [w.split("`")[1] for w in weak] == ["assert True", "assert ok", "assert 0.97", "assert 3 == 3"]


@pytest.mark.parametrize("path", [p for pair in PAIRS for p in pair], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_page_assertions_can_fail(path: Path) -> None:
    assert pages.weak_asserts(path) == []
