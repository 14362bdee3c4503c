"""Numbers the pages state, and the code that backs them.

The site's promise is that every number a page states is computed by that page's own code. This module makes
the promise checkable:

- ``stated_numbers(path)`` reads a page and returns every
  number written in its prose, headings, tables, admonitions, image descriptions and math — not in code.
- ``asserted_values(path)`` returns every numeric value that the page's executed code *asserts*: constants and
  constant sub-expressions (``2**-24``, ``1.25 * 2**-24``) inside ``assert`` statements and inside calls of
  ``assert*`` functions (``torch.testing.assert_close``), numbers in strings compared there, and numbers in
  ``expected-output`` blocks (pytest-codeblocks compares those with what the code printed).
- ``unbacked(path)`` lists the stated numbers that no assertion of the page contains. Changing a number in the
  text therefore fails the tests, naming the page, the line and the number, unless the new value is also
  asserted on that page.
- ``differences(en, zh)`` lists the numbers the two languages do not state equally often.

What counts as a number, and what is exempt (each exemption is explicit):

- ``60 611``, ``62\\,832``, ``1,000`` (thousands separated by a space, a thin or no-break space, a comma or TeX
  ``\\,``), ``0.973``, ``2.5e-7``, ``96.5 %`` (also matched as 0.965), ``6 万`` (60 000), ``10⁶``, ``2⁻²⁴``,
  ``2^{24}``, ``10^{-12}``, ``\\sqrt2``, and products written ``1.25·2⁻²⁴`` or ``3 \\times 10^{-7}`` (matched as
  the product, or as both factors). A sign is ignored.
- A number from 13 to 99 written in words (``eighty-eight``, ``Twenty``, ``八十八``, ``十五``;
  :func:`number_words_in`): spelt out, it is still a claim.
- Single-digit integers (``d/2 − 1``, "3 bits", the 2 of ``2\\pi``) are structure, not claims, and are skipped.
- Numbers that name something rather than measure it are skipped: right after ``#`` (issues), ``§``,
  "Section", "Table", "Figure", "Eq.", "issue", "seed", "et al." (a citation's year) or their Chinese forms
  ("第 … 节", "表", "图", "等"); with leading zeros (seed 002); inside a word (``float32``, ``d2l``, ``T5``,
  ``GPT-2``); in inline code spans (code, not prose), link targets and HTML comments.
- ``EXEMPT`` below: the paper's base, written ``10000``, stated everywhere and computed nowhere.
- A page may quote numbers it cannot compute (a paper's BLEU score, a library version) in its front matter::

      ---
      quoted:
        "25.7": Vaswani et al. (2017), Table 3, row E — development-set BLEU with learned positions
      ---

  Each quoted number must occur in the page's prose and be quoted identically in both languages.
"""

from __future__ import annotations

import ast
import math
import operator
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from site_tools import pages
from site_tools.pages import asserts

# Stated everywhere, computed nowhere: exempt on every page, as written (a count of 10 000 positions, written
# with its thousands space or as 10⁴, is a quantity and is checked).
EXEMPT: dict[str, str] = {
    "10000": "the base of the paper's formula",
}

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUP = "⁰¹²³⁴⁵⁶⁷⁸⁹"
# A mantissa: digits with optional thousands groups (space, thin/no-break space, narrow nbsp or TeX \,),
# an optional decimal part and an optional exponent.
_SEP = r"(?: |,|\u2009|\u00a0|\u202f|\\,)"
_MANTISSA = rf"\d{{1,3}}(?:{_SEP}\d{{3}})+(?!\d)|\d+(?:\.\d+)?(?:[eE][-−+]?\d+)?"
_POWER = rf"(?:\^\{{\s*[-−]?\s*\d+\s*\}}|\^[-−]?\d+|[⁻⁺]?[{_SUP}]+)"
_TIMES = r"(?:\s*(?:·|×|\\times|\\cdot|\*)\s*)"
_ROOT = r"(?:\\sqrt\s*\{?\s*|√)"
_NUMBER = re.compile(
    rf"(?P<aroot>{_ROOT})?(?P<a>{_MANTISSA})(?P<apow>{_POWER})?(?:\}}?{_TIMES}(?P<b>{_MANTISSA})(?P<bpow>{_POWER}))?(?P<cjk>\s*[万亿])?(?P<pct>\s*%)?"
)
# Words that end in 表 and name a table of this site, not a paper's "Table n": the number after them is a quantity
# (编码表 256 行). Each is tested (tests/test_numbers.py); a page that needs another adds it here.
TABLE_WORDS = ("编码", "正弦", "位置", "嵌入", "查找", "波长", "频率", "数值", "对照")
# Context that makes a number a name or a reference, not a quantity: issue and section numbers, tables and
# figures of a paper, citations' years, seed file names (002), identifiers (float32, d2l, GPT-2).
_REFERENCE_BEFORE = re.compile(
    r"(?:[#§]\s*|\b(?:Section|Table|Fig(?:ure|\.)|Eq(?:uation|\.)|PR|[Ii]ssues?|[Ss]eed|et al\.?,?)\s*\(?"
    rf"|(?:(?<!{'|'.join(TABLE_WORDS)})表|图|式|种子|素材|等人?[，,]?\s*[（(]?)\s*)$"
)
_REFERENCE_AROUND = (re.compile(r"第\s*$"), re.compile(r"^(?:\.\d+)*\s*(?:节|章|条)"))  # 第 3.4.2 节
_WORDLIKE_BEFORE = re.compile(r"[A-Za-z_\d.\\]$|[A-Za-z]-$")
_WORDLIKE_AFTER = re.compile(r"^[A-Za-z_]")
_MATH_BEFORE = re.compile(r"(?:\\[a-z]+|[=(,{$])\s*$")


@dataclass(frozen=True)
class Stated:
    """A number written in a page's text."""

    path: Path
    line: int  # 1-based line in the source file
    column: int  # 0-based column of the number in that line
    text: str  # as written, e.g. "60 611" or "2⁻²⁴"
    candidates: tuple[float, ...]  # values it may be asserted as (any one suffices)
    parts: tuple[float, ...] = ()  # for a product a·b^c: the factors, which together also suffice

    @property
    def key(self) -> str:
        """A canonical spelling, used to compare the two languages."""
        return canonical(self.candidates[0])


def canonical(value: float) -> str:
    return f"{abs(value):.10g}"


def _power(base: float, exponent: str | None) -> float:
    """``base`` to the power written (``⁻²⁴``, ``^{-7}``, ``^3``); ``base`` itself where none is."""
    if not exponent:
        return base
    return base ** float(re.sub(r"[\^{}\s]", "", exponent.translate(_SUPERSCRIPT).replace("−", "-")))


def _mantissa(text: str) -> float:
    return float(re.sub(_SEP, "", text).replace("−", "-"))


def _value(m: re.Match[str]) -> tuple[tuple[float, ...], tuple[float, ...], bool]:
    """(candidates, parts, is_single_digit_structure) of one match."""
    a = _mantissa(m.group("a"))
    first = _power(math.sqrt(a) if m.group("aroot") else a, m.group("apow"))
    candidates: tuple[float, ...] = (first,)
    parts: tuple[float, ...] = ()
    if m.group("b") is not None:
        second = _power(_mantissa(m.group("b")), m.group("bpow"))
        candidates, parts = (first * second,), (first, second)
    if m.group("cjk"):
        candidates = (candidates[0] * (1e4 if m.group("cjk").strip() == "万" else 1e8),)
    if m.group("pct"):
        candidates = (candidates[0], candidates[0] / 100)
    single = not any(m.group(g) for g in ("b", "apow", "aroot", "cjk")) and bool(re.fullmatch(r"\d", m.group("a")))
    return candidates, parts, single


_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_LINK_TARGET = re.compile(r"\]\([^)]*\)|\]\[[^\]]*\]|<https?://[^>]*>|https?://\S+")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HTML_TAG = re.compile(r"<[^>]+>")
_ATTR_LIST = re.compile(r"\{\s*[#.:][^}]*\}")  # attribute lists ({#id}, {.class}, {: …}): names, not prose


def _blank(m: re.Match[str]) -> str:
    """Replace a span with spaces (keeps columns and line numbers)."""
    return re.sub(r"[^\n]", " ", m.group(0))


def prose_lines(markdown: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of the lines outside code (as ``site_tools.pages`` reads the page: fences, indented
    code, front matter), with code spans, link targets, HTML comments and tags blanked out."""
    lines = _HTML_COMMENT.sub(_blank, markdown).split("\n")
    for n, _ in pages.parse(markdown).prose_lines():
        line = lines[n - 1]
        for span in (_INLINE_CODE, _LINK_TARGET, _ATTR_LIST, _HTML_TAG):  # in this order: a code span may hold a tag
            line = span.sub(_blank, line)
        yield n, line


# TeX's \frac12 (\tfrac, \dfrac) is 1/2, not the number 12 (contributor 40)
_BRACELESS_FRACTION = re.compile(r"(\\[dt]?frac)\s*(\d)(\d)")


def _two_digits(m: re.Match[str]) -> str:
    """``\\tfrac12`` read as its two one-digit operands, the line's length kept: ``\\tfra1 2``."""
    return m.group(1)[:-1] + m.group(2) + " " + m.group(3)


Found = tuple[int, str, tuple[float, ...], tuple[float, ...]]


def numbers_in(text: str, *, skip_structure: bool = True) -> Iterator[Found]:
    """(column, text, candidates, parts) of every quantity in one line of prose."""
    text = _BRACELESS_FRACTION.sub(_two_digits, text)
    for m in _NUMBER.finditer(text):
        before, after = text[: m.start()], text[m.end() :]
        if not m.group("aroot") and _WORDLIKE_BEFORE.search(before) and not _MATH_BEFORE.search(before):
            continue  # part of a word or identifier (float32, d2l, GPT-2, x.5); "\\,", "$", "{" open math
        if _WORDLIKE_AFTER.search(after) and not re.match(r"^(?:[a-z](?![A-Za-z])|(?:st|nd|rd|th)\b)", after):
            continue  # float32's "float" is before; "3rd", "2D", "16k"… are names. "2i", "2w" are math.
        if _REFERENCE_BEFORE.search(before) or (
            _REFERENCE_AROUND[0].search(before) and _REFERENCE_AROUND[1].search(after)
        ):
            continue
        if re.match(r"0\d", m.group("a")):
            continue  # a name with leading zeros (seed 002), not a quantity
        candidates, parts, single = _value(m)
        if skip_structure and single:
            continue
        start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
        yield start, m.group(0).strip(), candidates, parts


_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_TEENS = {"thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
          "nineteen": 19}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_WORD_NUMBER = re.compile(
    rf"\b(?:(?P<tens>{'|'.join(_TENS)})(?:[-\s](?P<unit>{'|'.join(_UNITS)}))?|(?P<teen>{'|'.join(_TEENS)}))\b", re.I
)
_HAN = "一二三四五六七八九"
# 二十 … 九十九 and 十三 … 十九, not inside a larger numeral (一百二十) nor a vaguer one (几十, 数十)
_HAN_NUMBER = re.compile(
    rf"(?<![{_HAN}十百千万两几数])(?:(?P<tens>[{_HAN[1:]}])十(?P<unit>[{_HAN}])?|十(?P<teen>[{_HAN[2:]}]))(?![十百千万])"
)


def number_words_in(text: str) -> Iterator[Found]:
    """(column, text, value) of every number from 13 to 99 written in words in one line of prose: ``eighty-eight``,
    ``Twenty``, ``八十八``, ``十五``. Each is a stated number like ``88`` (a number spelt out is still a claim).
    Below 13 a word names structure (two languages, twelve lines), as a single digit does."""
    for m in _WORD_NUMBER.finditer(text):
        tens, unit, teen = (m.group(g) for g in ("tens", "unit", "teen"))
        value = _TEENS[teen.lower()] if teen else _TENS[tens.lower()] + (_UNITS[unit.lower()] if unit else 0)
        yield m.start(), m.group(0), (float(value),), ()
    for m in _HAN_NUMBER.finditer(text):
        tens, unit, teen = (m.group(g) for g in ("tens", "unit", "teen"))
        value = (
            10 + _HAN.index(teen) + 1 if teen else 10 * (_HAN.index(tens) + 1) + (_HAN.index(unit) + 1 if unit else 0)
        )
        yield m.start(), m.group(0), (float(value),), ()


def quoted(path: Path) -> dict[str, str]:
    """The page's front-matter ``quoted`` numbers: canonical value -> where it is quoted from."""
    meta = pages.read(path).meta
    return {canonical(_mantissa(str(k))): str(v) for k, v in (meta.get("quoted") or {}).items()}


def stated_numbers(path: Path) -> list[Stated]:
    """Every quantity a page states outside its code (see the module docstring for what is skipped)."""
    return [
        stated
        for line, text in prose_lines(path.read_text(encoding="utf-8"))
        for stated in stated_in_line(path, line, text)
    ]


# ---- what the code asserts -------------------------------------------------------------------------------


# The arithmetic :func:`_fold` evaluates.
_ARITHMETIC = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}  # fmt: skip


def _fold(node: ast.AST) -> float | None:
    """The value of a constant arithmetic expression (``2**-24``, ``1.25 * 2**-24``, ``-9.2``), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        v = _fold(node.operand)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "sqrt" and not node.keywords:  # math.sqrt(x)
        v = _fold(node.args[0]) if len(node.args) == 1 else None
        return None if v is None or v < 0 else math.sqrt(v)
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _fold(node.left), _fold(node.right)
        if left is None or right is None:
            return None
        try:
            return float(_ARITHMETIC[type(node.op)](left, right))
        except (ZeroDivisionError, OverflowError, TypeError):  # TypeError: a complex power, (-8) ** 0.5
            return None
    return None


def _values_in(node: ast.AST) -> Iterator[float]:
    for sub in ast.walk(node):
        if (v := _fold(sub)) is not None:
            yield v
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            for _, _, candidates, parts in numbers_in(sub.value, skip_structure=False):
                yield from candidates
                yield from parts


def asserted_values(path: Path) -> set[str]:
    """Canonical spellings of every value the page's code asserts (see the module docstring)."""
    fences = pages.read(path).fences
    code = [f.code for f in fences if f.runs]
    outputs = [f.code for f in fences if f.role == "expected-output"]
    values: set[str] = set()
    for block in code:
        for node in ast.walk(ast.parse(block)):
            if isinstance(node, ast.Assert) or asserts.is_assert_call(node):
                values.update(canonical(v) for v in _values_in(node))
    for text in outputs:
        for line in text.splitlines():
            for _, _, candidates, parts in numbers_in(line, skip_structure=False):
                values.update(canonical(v) for v in (*candidates, *parts))
    return values


# ---- the check ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What the check reads from one page: the numbers its text states, the values its code asserts and the
    numbers it quotes. The check itself (:func:`check_facts`) works on these alone, so a test can change one
    stated number and check again without reading the page again (``tests/test_numbers.py``)."""

    path: Path
    stated: tuple[Stated, ...]
    asserted: frozenset[str]
    quoted: Mapping[str, str]


def facts(path: Path) -> Facts:
    """The facts of the page at ``path``."""
    return Facts(path, tuple(stated_numbers(path)), frozenset(asserted_values(path)), quoted(path))


def unbacked_in(page: Facts) -> list[Stated]:
    """Numbers the page states that none of its assertions, expected outputs or quotes contains."""
    backing = page.asserted | set(page.quoted)  # a product is backed by its value, or by all of its factors
    return [
        s
        for s in page.stated
        if s.text not in EXEMPT
        and not any(canonical(v) in backing for v in s.candidates)
        and not (s.parts and all(canonical(v) in backing for v in s.parts))
    ]


def _as_number(s: Stated) -> str:
    """`` (88)`` for a number written in words (no digit in it: ``eighty-eight``, ``八十八``), else nothing."""
    return "" if re.search(r"\d", s.text) else f" ({canonical(s.candidates[0])})"


def problems_of(page: Facts) -> list[str]:
    """Every unbacked number and stale quote of one page, one sentence each, naming the page and line."""
    out = [
        f"{pages.rel(page.path)}:{s.line}: the text states {s.text}{_as_number(s)}, which no assertion or expected "
        "output on this page contains: compute it in a block and assert it (a number the page cannot compute, such "
        "as a paper's score, goes under quoted: in the front matter, with its source)"
        for s in unbacked_in(page)
    ]
    stated = {s.key for s in page.stated}
    out += [
        f"{pages.rel(page.path)}: quoted number {k} (front matter) is not in the text any more"
        for k in page.quoted
        if k not in stated
    ]
    return out


def differences_of(en: Facts, zh: Facts) -> list[str]:
    """Numbers the two languages of a page do not state equally often, naming the lines of each.

    Counting occurrences, not just values, is what catches an edit that turns one stated number into another
    one the page also states (11 -> 12 where both appear): the counts of both change in one language only.
    """
    where: dict[str, dict[str, list[Stated]]] = {"en": {}, "zh": {}}
    for lang, page in (("en", en), ("zh", zh)):
        for s in page.stated:
            where[lang].setdefault(s.key, []).append(s)
    out = []
    for key in sorted(set(where["en"]) | set(where["zh"]), key=float):
        a, b = where["en"].get(key, []), where["zh"].get(key, [])
        if len(a) != len(b):
            text = (a or b)[0].text
            lines = {lang: ", ".join(str(s.line) for s in found) or "-" for lang, found in (("en", a), ("zh", b))}
            out.append(
                f"{pages.rel(en.path)} / {pages.rel(zh.path)}: {text} is stated {len(a)}× in en (lines {lines['en']}) "
                f"but {len(b)}× in zh (lines {lines['zh']})"
            )
    if set(en.quoted) != set(zh.quoted):
        out.append(
            f"{pages.rel(en.path)}: quoted numbers differ between en {sorted(en.quoted)} and zh {sorted(zh.quoted)}"
        )
    return out


def check_facts(en: Facts, zh: Facts) -> list[str]:
    """The check of one page in its two languages: unbacked numbers, stale quotes, numbers stated unequally."""
    return problems_of(en) + problems_of(zh) + differences_of(en, zh)


def unnoticed(s: Stated, new: str, page: Facts, changed: Facts, before: Iterable[str]) -> str:
    """Why the text of ``page`` could say ``new`` where it says ``s`` and fail no check (``changed``: the page's
    facts with that edit; ``before``: what the check already reports for the pair), and what to do — one sentence
    naming the page and the line. The mutation test (``tests/test_numbers.py``) reports with it: the number in the
    text is not wrong, the page's code does not pin it.
    """
    where = f"{pages.rel(page.path)}:{s.line}"
    head = f"{where}: the text could say {new} instead of {s.text} and no check would fail"
    before = list(before)
    if before:
        return (
            f"{head}, because this page already fails the number checks ({len(before)} problem"
            f"{'s' if len(before) > 1 else ''}, the first: {before[0]}). Fix those first; the text's {s.text} "
            "needs no change for this one"
        )
    edited = next((t for t in changed.stated if (t.line, t.column) == (s.line, s.column)), None)
    if edited is None:
        return f"{head}: the check does not read {new} there as a number. Leave {s.text}; write it so it is read"
    why = []
    if edited.text in EXEMPT:
        why.append(f"{new} is exempt ({EXEMPT[edited.text]})")
    if edited.key in page.quoted:
        why.append(f"{new} is quoted in the front matter ({page.quoted[edited.key]})")
    if {canonical(v) for v in edited.candidates} & page.asserted:
        why.append(f"{new} is also in an assertion or expected output of this page")
    reason = "; ".join(why) or f"the check cannot tell {new} from {s.text}"
    return (
        f"{head}: {reason}, and the two languages would still state each number"
        f" equally often. Leave {s.text} in the text; make the page's code pin it: compute the value this "
        f"sentence states and compare it with {s.text} exactly (assert round(x, 4) == …), so that {new} would fail"
    )


def check_pair(en: Path, zh: Path) -> list[str]:
    """Everything wrong with the numbers of one page in its two languages."""
    return check_facts(facts(en), facts(zh))


def unbacked(path: Path) -> list[Stated]:
    """Numbers the page states that none of its assertions or expected outputs contains."""
    return unbacked_in(facts(path))


def differences(en: Path, zh: Path) -> list[str]:
    """Numbers the two languages of a page do not state equally often (see :func:`differences_of`)."""
    return differences_of(facts(en), facts(zh))


def problems(paths: Iterable[Path]) -> list[str]:
    """Every unbacked number and stale quote of the given pages, one sentence each."""
    return [p for path in paths for p in problems_of(facts(path))]


def prose_text(path: Path) -> dict[int, str]:
    """{line: text as the check reads it} for the prose lines of a Markdown page (see :func:`prose_lines`)."""
    return dict(prose_lines(path.read_text(encoding="utf-8")))


def stated_in_line(path: Path, line: int, text: str) -> list[Stated]:
    """The numbers stated by one prose line whose text (as the check reads it) is ``text``."""
    found = sorted((*numbers_in(text), *number_words_in(text)), key=lambda f: f[0])
    return [Stated(path, line, *f) for f in found]


def main() -> int:
    en, zh = pages.files("en"), pages.files("zh")
    found = [p for name in sorted(en.keys() & zh.keys()) for p in check_pair(en[name], zh[name])]
    print("\n".join(found) if found else "every stated number is asserted, and both languages state the same ones")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
