"""Chinese text in HTML: line breaks between two Chinese characters are removed at build time.

Markdown sources wrap long paragraphs over several lines. Between two Latin words the line break is a space,
as intended; between two Chinese characters (or Chinese punctuation) there should be nothing, but Chrome and
Edge render the break as a space (CSS Text 3's segment-break rule for East Asian wide characters is not
implemented there). ``join_wide_lines`` removes such breaks from the text of a page's HTML, leaving code
(``<pre>``, ``<code>``), scripts, styles and math (arithmatex's ``\\( … \\)`` spans) untouched.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Characters whose East Asian Width is Wide or Fullwidth: CJK ideographs, kana, Hangul, CJK punctuation
# (，。、；：？！（）“” are fullwidth or wide), fullwidth forms.
_WIDE_RANGES = (
    "\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3"
    "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6"
)
_WIDE = f"[{_WIDE_RANGES}]"
# A wide character (with any tags closing or opening after it), the line break, then (tags and) a wide
# character: "位置\n编码", "位置</strong>\n编码", "位置\n<a href=…>编码". Only the break is removed.
_TAGS = r"(?:</?[A-Za-z][^<>]*>)*"
_BREAK = re.compile(rf"({_WIDE}{_TAGS})[ \t]*\n[ \t]*(?={_TAGS}{_WIDE})")
# Segments left as they are: code, preformatted text, scripts, styles, and math spans/blocks.
_PROTECTED = re.compile(
    r"<(pre|code|script|style|textarea)\b.*?</\1>|<(span|div)\b[^>]*class=\"[^\"]*arithmatex[^\"]*\"[^>]*>.*?</\2>",
    re.S | re.I,
)


def _outside_protected(html: str, fix: Callable[[str], str]) -> str:
    """Apply ``fix`` to the parts of ``html`` outside code, scripts, styles and math."""
    out, last = [], 0
    for m in _PROTECTED.finditer(html):
        out.append(fix(html[last : m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(fix(html[last:]))
    return "".join(out)


# Thousands written with a space (60 611, 16 777 216): the space may not break the number over two lines.
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?![\d.,]\d)")
NARROW_NBSP = "\u202f"
_TAG_OR_TEXT = re.compile(r"(<[^>]*>)|[^<]+")


def keep_numbers_whole(html: str) -> str:
    """Replace the space between digit groups (``60 611``) by a narrow no-break space outside code and math,
    so that a number is never split over two lines."""

    def glue(m: re.Match[str]) -> str:
        return m.group(0).replace(" ", NARROW_NBSP)

    def text_only(part: str) -> str:  # the text between tags, never a tag's attributes (viewBox="0 0 512 512")
        return _TAG_OR_TEXT.sub(lambda m: m.group(0) if m.group(1) else _GROUPED.sub(glue, m.group(0)), part)

    return _outside_protected(html, text_only)


def join_wide_lines(html: str) -> str:
    """Remove every line break (with the indentation around it) between two wide characters in ``html``'s
    text, outside code, scripts, styles and math."""
    return _outside_protected(html, lambda t: _BREAK.sub(r"\1", t))


def join_wide_text(text: str) -> str:
    """Remove every line break (with the indentation around it) between two wide characters in plain text
    (Markdown prose; the caller keeps code and math out of ``text``)."""
    return _BREAK.sub(r"\1", text)


def wide_line_breaks(html: str) -> list[str]:
    """The places in ``html``'s text (outside code and math) where a line break sits between two wide
    characters, each shown with a little context; empty when ``join_wide_lines`` has been applied."""
    text = _PROTECTED.sub("\x00", html)  # a code span next to a break is not a wide character
    return [text[max(0, m.start() - 8) : m.end() + 8].replace("\n", "⏎") for m in _BREAK.finditer(text)]
