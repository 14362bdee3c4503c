"""The Chinese pages read as Chinese: no spaces from wrapped lines, no italics, curly quotes, one term per idea.

The checks read the Markdown sources of ``docs/zh`` (a page's prose: outside code fences, code spans, math,
link targets, HTML comments and tags; the term rules and the English check also read the comments of its Python
blocks, which a translation writes in Chinese). The term list is the glossary's Chinese column (``docs/zh/glossary.md``:
its headings and their "英文：" lines), read here at test time; ``AVOID`` holds the losing spellings of ideas
that have one term on the site. Each check is a function of a page (and the glossary) returning its
violations as "line N: …", so the same checks can be run on any copy of ``docs/zh``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from site_tools import dom, layout, pages
from site_tools.finish import cjk
from site_tools.pages import stated_numbers

ZH = layout.DOCS / "zh"
ZH_PAGES = [p for p in pages.files("zh").values() if p.suffix == ".md"]
CJK = cjk.HAN.pattern

# One term per idea (the field's usual Chinese terms): a losing spelling (a regular expression, matched in a
# page's prose with ** emphasis removed) -> the term the site uses, and, where the idea has a glossary entry,
# (its anchor, the word its heading must contain): the banned list and the term list must agree (checked below).
_D_MODEL = r"(?:d_\{?(?:\\text\{)?model\}?\}?|d_model)"  # d_model, $d_{model}$, $d_{\text{model}}$
AVOID: dict[str, tuple[str, tuple[str, str] | None]] = {
    "相对位置变换": ("线性相对变换（简称相对变换）", ("relative-transform", "线性相对变换")),
    "笔记": ("Notebook", None),
    "令牌": ("词元（token）", ("token", "词元")),
    "缓存区": ("缓冲区（buffer）", ("buffer", "缓冲区")),
    "询问向量": ("查询（query）", None),
    "关键字向量": ("键（key）", None),
    # issue 19: the house style decided for Chinese
    "书稿": ("书中的一章 / 那一章书（a book chapter）", None),
    "资料": ("素材（the five source texts）", None),
    r"(?:素材|资料|种子)\s*0\d\d": ("the source's name, linked to sources.md#<id> (never 素材 00N)", None),
    "检查器": ("检查工具（a checker）", None),
    "堆栈": ("编码器/解码器（the encoder/decoder stack）", None),
    r"(?<![（(])\bcheckpoints?\b": ("检查点（checkpoint）", None),
    # 维度 is a dimension index (a column); the width d_model is 宽度
    r"(?:d_\{?(?:\\text\{)?model\}?\}?|d_model)[\s$`]*的?维度": (
        "宽度 d_model（维度 is a column）",
        ("d-model", "宽度"),
    ),
    r"维度(?:为|是)?[\s$`]*d_\{?(?:\\text\{)?model": ("宽度 d_model（维度 is a column）", ("d-model", "宽度")),
    "(?:模型|嵌入|隐藏|隐层)维度": ("宽度（the width d_model）", ("d-model", "宽度")),
    r"\d[\d\u202f ]*以内的?(?:每个|所有)?偶数维度": ("偶数宽度（a width, not a column）", ("d-model", "宽度")),
    # the pair index
    "(?<!频率)对的(?:序号|编号|下标)": ("频率对的序号", ("pair", "频率对")),
    # found reading the zh pages beside the en pages
    "可训练的?位置嵌入": ("可学习的位置嵌入", ("learned", "可学习的位置嵌入")),
    "正弦表": ("正弦编码表 / 编码表（the sinusoidal table）", ("table", "编码表")),
    "几何级数": ("等比数列（a geometric progression）", None),
    "base 模型": ("基础模型（the paper's base model）", None),
    # issue 25 (ZH-TERMS.md): fast/slow pairs and columns have one name each ("的对" also reads as the particle 对)
    r"快列|慢列|快的对|慢的对|(?<!快)慢对|高频的对|中频的对|低频的对|慢变的频率对|[快慢]的频率对|慢变列": (
        "高频对 / 低频对，高频列 / 低频列",
        None,
    ),
    r"可学习嵌入|可学习的绝对位置嵌入|(?<!可)学习位置嵌入": ("可学习的位置嵌入", ("learned", "可学习的位置嵌入")),
    "舍入一次成": ("先用 float64 算，最后只舍入一次到 float32（not the calque 舍入一次成 float32）", None),
    # "N times larger/longer": 是…的 N 倍 / 为…的 1/N (not 长 N 倍, 比 X 小 N 倍)
    r"(?<![是为的])长\s*[\d.]+\s*倍|比[^，。；：\n]{0,30}?[小大长短]\s*[\d.≈ ]*倍": ("是…的 N 倍 / 为…的 1/N", None),
    # English a Chinese engineer would not write in prose (code spans, link targets and anchors are not prose)
    r"(?i)(?<![\w`-])bugs?(?![\w`-])": ("错误（title 变体与常见错误；looks right and is not: 看起来对、其实错）", None),
    # issue 25 item 8 (the zh reread): English words with a Chinese term, and calques a native reader notices.
    # Code spans are not prose, so `logits` and `x.reshape(...)` stay; the glossary's headings are checked too.
    r"(?i)(?<![\w`-])logits?(?![\w`-])": ("注意力分数（attention score; `logits` in code is fine）", None),
    r"(?i)(?<![\w`.-])reshape(?![\w`-])": ("变形（`reshape` in backticks when it names the call）", None),
    # a model generalising to longer inputs is 泛化; 推广 only for a formula or method extended to another case
    r"推广不?到[^，。；：\n]{0,12}(?:序列|长度|位置|上下文)": ("泛化到更长的序列（推广: a formula or a method）", None),
    # "ten times slower": say what is N times what (转速是…的 1/N, 周期是…的 N 倍), not 慢十倍 / 快一倍
    r"[快慢]\s*(?:[\d.]+|[一二两三四五六七八九十百千]+|固定的?|若干|几)\s*倍": (
        "转速是…的 1/N / 周期是…的 N 倍（not 慢十倍）",
        None,
    ),
    # start here's picture is a clock hand: 钟表指针 / 指针 on every page
    "表针": ("指针（钟表指针，start here 的画法）", None),
    # issue 35 (the Chinese at 9): the exercise label, a site page, and one term each for ideas that had several
    "检查理解": ("自测（the exercise label “Check your understanding”）", None),
    # a page of this site is 页 (本页、各页、X 一页); 章 is a real book's chapter only: 书中的一章、那一章
    r"本章|各章|(?<!书中的)(?<!那)[一两几]章|章节": (
        "本页 / 各页 / X 一页；a cited work's section number is 节号（章: a real book's chapter）",
        None,
    ),
    # moving k positions along the sequence: 移动 k 个位置 (not 挪 k 格 / 挪 k 步 / 移动 k 格), and 移动 for the shift
    # itself (平移 in any use: 平移 k 格, 平移到位, 平移后, 两个位置同时平移)
    r"挪|平移(?:[ \t]*(?:\d+|[一二两三四五六七八九十]+)?[ \t]*[格步](?!点))?"
    r"|移动[ \t]*(?:\d+|[一二两三四五六七八九十]+)?[ \t]*[格步](?!点)": ("移动、移动 k 个位置", None),
    # RoPE turns pairs of a head's components; 特征 stays only in 特征分解 / 特征值 / 特征向量 (eigen-)
    r"特征(?!分解|值|向量)": ("分量（一对分量：RoPE's pair of features）", None),
    # a column index is 第 j 列 (维度 alone, as in 128 个维度（列）, is fine); math shows here as blanks
    r"维度(?:[ \t]*\d|[ \t]{3,}(?=\S))": ("第 j 列（not 维度 j）", None),
    # the geometric progression of wavelengths is a 阶梯 (每一级 = one step), not a 梯子
    "梯子": ("阶梯（等比的阶梯；一级 = one step）", None),
    # the width of one attention head, head_dim
    r"头维度|头的(?:宽度|维度)|每个头宽": ("头宽度（head_dim）", None),
    # native readers H and I: a tensor's dtype is dtype (the number format itself: 浮点格式); RoPE's half pairing is
    # the glossary's 前后两半配对; a frequency is high or low, and a column is a high- or low-frequency one (快慢 is
    # for what turns: 转得最快的指针、转速)
    "数据类型": ("dtype（说数值格式本身时用浮点格式）", None),
    "对半": ("前后两半配对（RoPE's half pairing, the glossary's #rope-pairing）", None),
    r"(?<!转得)最[快慢]的?(?:那个|一个)?频率(?!对)": ("最高的频率 / 最低的频率", None),
    r"(?<!转得)最[快慢]的?[^，。；：、（）\n]{0,6}?列": ("频率最高的列 / 频率最低的列（转得最快：转速）", None),
    # native readers J and K: a pair is high or low in frequency too; one spelling each for hidden states (zh.d2l.ai's),
    # permutation equivariance (the glossary's heading) and image patches
    r"(?<!转得)最[快慢]的?(?:那|这)?[一两几]对": ("频率最高的一对 / 频率最低的一对（转得最快的那一对：转速）", None),
    "隐藏状态": ("隐状态（hidden state，zh.d2l.ai 的写法）", None),
    "置换等变性": ("置换等变（permutation equivariance）", ("permutation-equivariance", "置换等变")),
    "图像图块": ("图块（patch）", None),
    # contributor 48 (e6): a glossary term's near-synonym passed; the glossary writes 余弦相似度
    "余弦相似性": ("余弦相似度（cosine similarity, the glossary's term）", ("cosine-similarity", "余弦相似度")),
    # contributor 49: three more near-synonyms of the glossary's terms
    "频率组": ("频率对（a (sin, cos) pair, the glossary's term）", ("pair", "频率对")),
    "位置编码矩阵": ("编码表（the table, the glossary's term）", ("table", "编码表")),
    "维数": ("宽度（d_model）/ 头宽度（head_dim）", None),
}

# A link to a page or a glossary entry that names it uses one name: the target (a regular expression on the link's
# target) -> the link texts allowed (a regular expression on the link's text) and the name to use.
LINK_TEXT: dict[str, tuple[str, str]] = {
    # the relative page is 线性相对变换 (the glossary's 相对变换 is the short form in prose, never the page's name)
    r"relative\.md(?:#.*)?": (r"线性相对变换|原因", "[线性相对变换](relative.md)"),
    # the glossary entry for w_i is 角频率; prose after it says 频率
    r"glossary\.md#frequency": (r"角频率", "[角频率](glossary.md#frequency)"),
}


def _id(p: Path) -> str:
    return p.name


def _shown(p: Path) -> str:
    """A page as a failure names it: docs/zh/NAME.md, the file to edit."""
    root = layout.DOCS.parent
    return p.relative_to(root).as_posix() if p.is_relative_to(root) else str(p)


# --- a page's prose, with line numbers kept -------------------------------------------------------------------


def _blank(m: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", m.group(0))


_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\](\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\))")


def prose(path: Path, *, code: bool = False, link_text: bool = True) -> str:
    """The page's text with everything that is not prose blanked, line numbers kept: front matter, code fences,
    HTML comments and tags, math, link targets, URLs, heading attribute lists; code spans unless ``code``
    (``d_model`` written as code still counts next to 维度), link texts unless ``link_text`` (an image's
    description is prose)."""
    text = path.read_text(encoding="utf-8")
    outside = {n for n, _ in stated_numbers.prose_lines(text)}  # outside front matter and code fences
    t = "\n".join(line if n + 1 in outside else "" for n, line in enumerate(text.split("\n")))
    t = re.sub(r"<!--.*?-->", _blank, t, flags=re.S)
    if not code:
        t = _CODE_SPAN.sub(_blank, t)
    t = re.sub(r"\$\$.*?\$\$", _blank, t, flags=re.S)
    t = re.sub(r"(?<![\\$])\$(?!\s)[^$\n]+?(?<![\s\\])\$", _blank, t)

    def link(m: re.Match[str]) -> str:
        if m.group(1) or link_text:
            return m.group(0)[: m.start(3) - m.start()] + re.sub(r"[^\n]", " ", m.group(3))
        return _blank(m)

    t = _LINK.sub(link, t)
    t = re.sub(r"<[^<>\n]+>", _blank, t)
    t = re.sub(r"\{[ \t]*[:#.][^}\n]*\}", _blank, t)
    return re.sub(r"https?://\S+", _blank, t)


def line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def comments(path: Path) -> str:
    """The ``#`` comments of the page's Python blocks (the part of a block a translation writes in Chinese), each on
    its line, everything else blank (line numbers kept)."""
    lines = [""] * (path.read_text(encoding="utf-8").count("\n") + 1)
    for fence in pages.read(path).fences:
        if fence.looks_like_python:
            for n, comment in pages.comments(fence.code):
                lines[fence.line + n] = comment  # fence.line: the opening fence, 1-based
    return "\n".join(lines)


# --- the glossary: the term list ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    anchor: str
    chinese: str  # the heading, as written (math and parentheses included)
    english: tuple[str, ...]  # the "英文：" line's terms


def _entry_headings(zh: Path = ZH) -> list[pages.Heading]:
    """The glossary's entry headings: levels 2 to 4, each setting its id (``### 词元 {#token}``)."""
    return [h for h in pages.read(zh / "glossary.md").headings if h.id and 2 <= h.level <= 4]


def glossary(zh: Path = ZH) -> dict[str, Term]:
    """The glossary's entries by anchor: each entry heading and the first "英文：" line under it, before the next
    heading."""
    page = pages.read(zh / "glossary.md")
    entries: dict[str, Term] = {}
    for heading in _entry_headings(zh):
        below = (re.match(r"英文[：:]\s*(.+?)(?:。|$)", line) for line in page.under(heading))
        m = next((m for m in below if m), None)
        if heading.id and m:
            english = tuple(t.strip() for t in re.split(r"[、，,]", m.group(1)) if t.strip())
            entries[heading.id] = Term(heading.id, heading.text, english)
    return entries


def _english_terms(term: Term) -> list[str]:
    """The multi-word English names of a glossary entry (single words — token, ulp, RoPE — are the house's own
    short forms), without math or parenthesised parts: "tensor2tensor (t2t) spacing" -> "tensor2tensor spacing"."""
    out = []
    for e in term.english:
        e = " ".join(re.sub(r"\$[^$]*\$|\([^)]*\)|（[^）]*）", " ", e).split())
        if len(e.split()) >= 2:
            out.append(e)
    return out


# --- the checks -----------------------------------------------------------------------------------------------


def kept_terms(path: Path) -> dict[str, str]:
    """A page's exceptions to the term rules, from its front matter: ``terms_kept: {特征: "why"}``, each word a
    rule would reject with the reason this page keeps it (the field's own word: 时间特征 in forecasting)."""
    kept = pages.read(path).meta.get("terms_kept") or {}
    assert isinstance(kept, dict) and all(
        isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in kept.items()
    ), f"{_shown(path)}: terms_kept must map each word kept to the reason, e.g. terms_kept: {{特征: 预测领域的叫法}}"
    return kept


def term_violations(path: Path) -> list[str]:
    """Losing spellings (``AVOID``) in the page's prose and in its code comments, and ulp introduced as
    末位单位（ulp）; a word the page's ``terms_kept`` lists is allowed there, and must be one a rule catches."""
    found = []
    texts = {False: prose(path).replace("**", "  "), True: prose(path, code=True).replace("**", "  ")}
    notes = comments(path)
    kept = kept_terms(path)
    used: set[str] = set()
    for bad, (good, _) in AVOID.items():
        text = texts["维度" in bad]  # d_model is often code: `d_model` 维度
        for m in re.finditer(bad, text):
            if m.group(0) in kept:
                used.add(m.group(0))
                continue
            found.append(f"line {line_of(text, m.start())}: {m.group(0)!r} -> {good}")
        for m in re.finditer(bad, notes):
            if m.group(0) in kept:
                used.add(m.group(0))
                continue
            found.append(f"line {line_of(notes, m.start())} (a comment): {m.group(0)!r} -> {good}")
    for word in sorted(set(kept) - used):
        found.append(f"terms_kept lists {word!r}, which no term rule catches on this page: remove it")
    text = texts[False]
    if re.search(r"\bulp\b", text) and "末位单位" not in text:
        found.append("ulp is introduced as 末位单位（ulp）")
    return found


def link_text_violations(path: Path) -> list[str]:
    """Links whose target is in ``LINK_TEXT`` and whose text is not one of the allowed names."""
    text = prose(path, code=True).split("\n")  # line by line: prose() empties the lines of code fences
    source = path.read_text(encoding="utf-8")
    found = []
    for m in _LINK.finditer(source):
        n, column = line_of(source, m.start()), m.start() - source.rfind("\n", 0, m.start()) - 1
        if m.group(1) or not text[n - 1][column : column + 1].strip():  # an image, or a link inside code or math
            continue
        target = m.group(3)[1:-1].split()[0] if m.group(3)[1:-1].split() else ""
        for pattern, (allowed, name) in LINK_TEXT.items():
            if re.fullmatch(pattern, target) and not re.fullmatch(allowed, m.group(2)):
                found.append(f"line {line_of(source, m.start())}: [{m.group(2)}]({target}) -> {name}")
    return found


def percent_violations(path: Path) -> list[str]:
    """Percentages in Chinese prose are written 95% (no space, ASCII %)."""
    text = prose(path)
    return [
        f"line {line_of(text, m.start())}: {m.group(0)!r} -> {m.group(1)}%"
        for m in re.finditer(r"(\d[\d.]*)(?:[ \t\u202f\u00a0]+[%％]|％)", text)
    ]


_HALF_WIDTH = {",": "，", ";": "；", ":": "：", "?": "？", "!": "！"}


def half_width_violations(path: Path) -> list[str]:
    """ASCII punctuation right after a Chinese character in prose (集合,所以 -> 集合，所以), as "line N: …"."""
    text = prose(path)
    return [
        f"line {line_of(text, m.start())}: {text[max(0, m.start() - 6) : m.end() + 6]!r} -> {_HALF_WIDTH[m.group(1)]}"
        for m in re.finditer(rf"(?<={CJK})([,;:?!])", text)
    ]


def known_titles(zh: Path = ZH) -> set[str]:
    """The titles the Chinese pages write in 《》 (papers, books, posts, the source texts), six characters or
    more (a shorter one, such as the notebook 《位置编码》, is also a plain term)."""
    titles = set()
    for page in zh.glob("*.md"):
        titles.update(t.strip() for t in re.findall(r"《([^》\n]+)》", prose(page)) if len(t.strip()) >= 6)
    return titles


def _looks_like_title(quoted: str) -> bool:
    """An English title in Title Case: three words or more, three in four of its words of four letters or more
    capitalised (“Attention Is All You Need”, “… Models without Positional Encodings Still Learn …”)."""
    words = re.findall(r"[A-Za-z][\w'’-]*", quoted)
    capitals = [w[0].isupper() for w in words if len(w) >= 4]
    english = len(words) >= 3 and sum(capitals) >= 2 and 4 * sum(capitals) >= 3 * len(capitals)
    return english and not cjk.HAN.search(quoted)


def title_violations(path: Path, titles: set[str]) -> list[str]:
    """Titles of papers, books and posts are written in 《》, quotations in “”: a known title, or an English
    title in Title Case, inside “” is a title in the wrong marks."""
    text = prose(path)
    found = []
    for m in re.finditer(r"“([^”]*)”", text):
        quoted = " ".join(m.group(1).split())
        if any(quoted == t or quoted.startswith(t) for t in titles) or _looks_like_title(quoted):
            found.append(f"line {line_of(text, m.start())}: “{quoted}” is a title: 《{quoted}》")
    return found


# English left in Chinese prose. Allowed: code, math, links, titles in 《》, the glossary's "英文：" lines, an
# English gloss in parentheses right after the Chinese it glosses (词元（token）, 原话（the paper's words）), an
# English quotation with its translation beside it (“…”（译文）, or （“…”，译文） in one pair of parentheses), a
# blockquote that holds its translation or is followed by one (（译文：……）), and these proper names.
ENGLISH_NAMES = ("Hugging Face transformers", "Hugging Face Hub")
_WORD = r"[A-Za-z][A-Za-z0-9'’.+/-]*"
_ENGLISH_RUN = re.compile(rf"{_WORD}(?:[ \t\n]+{_WORD}){{2,}}")


GLOSS_WORDS = 3  # 词元（token）, 原话（the paper's words）, 旋转位置编码（rotary position embedding）


def _gloss(m: re.Match[str]) -> str:
    """A parenthesised gloss blanked out, unless it is an unquoted English sentence (more than GLOSS_WORDS words)."""
    inside = m.group(0).strip().strip("（）()").strip()
    quoted = inside.startswith("“") and inside.endswith("”")
    words = len(re.findall(_WORD, re.sub(r"\$[^$]*\$", " ", inside)))
    return _blank(m) if quoted or cjk.HAN.search(inside) or words <= GLOSS_WORDS else m.group(0)


def _english_view(path: Path) -> str:
    t = prose(path, link_text=False).replace("**", "")
    t = re.sub(r"《[^》]*》", _blank, t)
    t = re.sub(r"^[ \t]*(?:!!!|\?\?\?\+?|===)[ \t]*[\w-]*(?:[ \t]+inline(?:[ \t]+end)?)?", _blank, t, flags=re.M)
    if path.name == "glossary.md":
        t = re.sub(r"^英文[：:].*$", _blank, t, flags=re.M)
    # a quotation with its translation beside it: “English”（中文）, or （“English”，中文） in one pair of parentheses
    t = re.sub(rf"“[^”]*”(?=\s*(?:（[^（）]*|\([^()]*){CJK})", _blank, t)
    t = re.sub(rf"（[^（）]*“[^”]*”[^（）]*{CJK}[^（）]*）|\([^()]*“[^”]*”[^()]*{CJK}[^()]*\)", _blank, t)
    # a gloss: （…） or (…) right after Chinese, a closing ” or 》 (a space or a line break between, not a link): a term
    # of up to GLOSS_WORDS English words, or the original wording in quotation marks, （“…”）; a longer unquoted gloss
    # is an English sentence left in the prose (contributor 48: 集合（attention is permutation invariant）)
    t = re.sub(r"(?<=[\u3400-\u9fff”》])[ \t]?(?:\n[ \t]*)?(?:（[^（）]*）|\([^()]*\))", _gloss, t)

    def quote_block(m: re.Match[str]) -> str:  # a blockquote holding its translation (a Han per five letters)
        block = m.group(0)  # or followed by it
        han, latin = len(cjk.HAN.findall(block)), len(re.findall(r"[A-Za-z]", block))
        followed = re.match(r"\s*[（(]?译文[：:]", t[m.end() :])
        return _blank(m) if (han and han * 5 >= latin) or followed else block

    t = re.sub(r"(?:^[ \t]*>.*(?:\n|$))+", quote_block, t, flags=re.M)
    for name in ENGLISH_NAMES:
        t = t.replace(name, " " * len(name))
    return t


def english_violations(path: Path, terms: dict[str, Term]) -> list[str]:
    """Runs of three or more English words in Chinese prose, and a glossary term written in English where
    the glossary gives its Chinese (positional encoding -> 位置编码), outside the allowed places above."""
    text = _english_view(path)
    found = []
    for m in _ENGLISH_RUN.finditer(text):
        run = " ".join(m.group(0).split())
        if _looks_like_title(run):
            found.append(
                f"line {line_of(text, m.start())}: an English title: write it in 《》: {run!r} (a model's or a "
                "product's name is no title: break the run with Chinese, Stable Diffusion 的 UNet, or add the name to "
                "ENGLISH_NAMES in tests/test_chinese.py)"
            )
        else:
            found.append(
                f"line {line_of(text, m.start())}: English in Chinese prose: {run!r}: translate it; to keep the"
                " original wording, quote it beside its translation, 译文（“original”） or “original”（译文）"
                f" (a gloss without quotation marks is a term of at most {GLOSS_WORDS} words)"
            )
    for term in terms.values():
        chinese = re.sub(r"（[^）]*）", "", term.chinese)
        for english in _english_terms(term):
            if english.lower() in chinese.lower():
                continue
            pattern = r"(?<![\w-])" + r"[ \t\n]+".join(map(re.escape, english.split())) + r"(?![\w-])"
            for m in re.finditer(pattern, text, flags=re.I):
                found.append(f"line {line_of(text, m.start())}: {m.group(0)!r} -> {chinese} (glossary #{term.anchor})")
    return sorted(set(found), key=lambda s: (int(s.split(":")[0].split()[1]), s))


# A comment left in English: no Chinese, and an English word that is not the shape notation the code pages share
# with PyTorch's docs ((batch, heads, seq, head_dim)), a pragma (fmt: skip) or a function (exp, sin, cos), nor a name
# with a digit or an underscore (float32, d_model).
_NOTATION = {"batch", "heads", "seq", "fmt", "skip", "noqa", "exp", "sin", "cos", "row", "col"}


def english_comment_violations(path: Path) -> list[str]:
    """Python comments of a Chinese page still in English (“# a negative one would …” -> a Chinese comment)."""
    found = []
    for n, comment in enumerate(comments(path).split("\n"), 1):
        words = {w for w in re.findall(r"(?<![\w.])[A-Za-z][a-z]+(?:'[a-z]+)?(?![\w.(])", comment) if len(w) >= 3}
        if comment and not cjk.HAN.search(comment) and words - _NOTATION:
            found.append(f"line {n}: {comment!r}")
    return found


# --- the measure of stray spaces (site_tools.finish.cjk): unit cases -------------------------------------------------


def test_numbers_with_a_thousands_space_never_break() -> None:
    tree = dom.parse(
        '<p>base 82 685, 0.973 100 and 2 048<svg viewBox="0 0 512 512"></svg></p><code>60 611</code>'
        '<span class="arithmatex">\\(10 000\\)</span>'
    )
    cjk.keep_numbers_whole(tree.body)
    assert tree.body.html == (
        '<body><p>base 82\u202f685, 0.973 100 and 2\u202f048<svg viewBox="0 0 512 512"></svg></p><code>60 611</code>'
        '<span class="arithmatex">\\(10 000\\)</span></body>'
    )


def test_a_wrapped_chinese_line_renders_a_stray_space() -> None:
    """A source line break renders as a space: between Chinese characters or next to full-width punctuation it is
    a stray one, found on the page as rendered from its source (what ``make check`` measures); between Chinese and
    Latin, a number, code or math it is the one space wanted."""
    import markdown

    wrapped = "位置编码的\n波长，\n最长为 60 611。\n用\n`x`\n计算 100\n个位置"
    html = markdown.markdown(wrapped)
    assert [s.context for s in cjk.stray_spaces(f"<article>{html}</article>", lang="zh")] == [
        "位置编码的␣波长， 最长为 60 6",
        "位置编码的 波长，␣最长为 60 611。 ",
        " 最长为 60 611。␣用 ▯ 计算 100 个",
    ]


def test_the_page_language_is_told_from_its_text() -> None:
    assert cjk.chinese_page("位置编码的波长 is computed by sinusoidal_table")  # 6 Han, 29 letters
    assert not cjk.chinese_page("The step-by-step notebook “位置编码” walks through the formula")  # 4 Han, 43 letters
    assert not cjk.chinese_page("no Chinese at all") and not cjk.chinese_page("")
    assert cjk.is_chinese("这样写 “just to make it easier when you multiply”", page=True)
    assert not cjk.is_chinese("这样写 “just to make it easier when you multiply”", page=False)
    assert not cjk.is_chinese("it is — the column", page=True)


@pytest.mark.parametrize(
    ("text", "stray"),
    [
        ("位置 编码", ["位置␣编码"]),
        ("它的波长， float32", ["它的波长，␣float32"]),
        ("用 \x00 计算", []),
        ("共 100 个位置", []),
        ("把它接进模型—— 用", ["把它接进模型——␣用"]),
        ("称为 “位置编码”", ["称为␣“位置编码”"]),
        ("“位置编码” 这个词", ["“位置编码”␣这个词"]),
        ("60\u202f611 个", []),
        ("it is — the column", []),  # a block without Chinese is English
        ("默认： \x00", ["默认：␣▯"]),
    ],
)
def test_stray_spaces_are_found(text: str, stray: list[str]) -> None:
    html = f"<article><p>{text.replace(cjk.OBJ, '<code>x</code>')}</p></article>"
    assert [s.context for s in cjk.stray_spaces(html)] == stray


def test_rendered_blocks_are_what_a_browser_lays_out() -> None:
    html = (
        "<nav><p>不 算</p></nav><article>"
        '<h2 id="a">频率<a class="headerlink" href="#a">¶</a></h2>'
        "<ul><li>外层\n<strong>项</strong><ul><li>内层</li></ul></li></ul>"
        '<table><tr><td><span class="arithmatex">\\(x\\)</span> 的值</td></tr></table>'
        "<details><summary>标题</summary><p>段落\n<code>a b</code></p></details>"
        "</article>"
    )
    assert cjk.rendered_blocks(html) == [
        ("h2", "频率"),
        ("li", "内层"),
        ("li", "外层 项"),
        ("td", "\x00 的值"),
        ("summary", "标题"),
        ("p", "段落 \x00"),
    ]


# --- the pages ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_no_italics_on_chinese_text(path: Path) -> None:
    """Chinese has no italic forms (browsers slant the glyphs); emphasis is bold."""
    found = italic_violations(path)
    if found:
        pytest.fail(f"{_shown(path)}: use **bold** for emphasis in Chinese:\n" + "\n".join(found), pytrace=False)


# Italics as Python-Markdown reads them: *…* anywhere, between two ideographs too (一条*斜坡*，: an asterisk
# inside a word still opens emphasis), _…_ only at a word's edge (an underscore between two letters, ideographs
# included, is literal).
_ITALIC = re.compile(r"(?<![*\\])\*(?![*\s])([^*]+?)\*(?!\*)|(?<![_\w\\])_(?![_\s])([^_]+?)_(?![_\w])")


def italic_violations(path: Path) -> list[str]:
    """Italic text with Chinese in it, as "line N: *…*"."""
    found = []
    for n, line in stated_numbers.prose_lines(path.read_text(encoding="utf-8")):
        line = re.sub(r"\*\*[^*]+\*\*|__[^_]+__", "", line)
        found += [f"line {n}: {m.group(0)}" for m in _ITALIC.finditer(line) if re.search(CJK, m.group(0))]
    return found


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_chinese_quotes_are_curly(path: Path) -> None:
    found = []
    for n, line in stated_numbers.prose_lines(path.read_text(encoding="utf-8")):
        line = re.sub(r"^\s*(?:!!!|\?\?\?\+?|===)[^\"]*(?:\"[^\"]*\")?", "", line)  # titles: quoted by syntax
        line = re.sub(r"\]\{[^}]*\}|=\"[^\"]*\"", "", line)  # attribute lists and HTML attributes
        for m in re.finditer(r"\"[^\"]*\"", line):
            if re.search(CJK, m.group(0)):
                found.append(f"line {n}: {m.group(0)}")
        if line.count('"') % 2:
            found.append(f"line {n}: unpaired straight quote")
    if found:
        pytest.fail(f"{_shown(path)}: use “ ” around Chinese text:\n" + "\n".join(found), pytrace=False)


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_no_stray_spaces_on_the_rendered_page(path: Path) -> None:
    """The page as Python-Markdown renders it from its source (``site_tools.pages.render``) has no space a reader
    would see where Chinese wants none. A source line break renders as a space: in Chinese prose, break a line only
    where a space belongs (between Chinese and a Latin word, a number, code or math), or not at all."""
    found = cjk.stray_spaces(f"<article>{pages.render(path)}</article>", lang="zh")
    if found:
        lines = path.read_text(encoding="utf-8").split("\n")
        pytest.fail(
            f"{_shown(path)}: spaces a reader sees where Chinese wants none (shown as ␣; a line break renders as one: "
            "join the lines there):\n" + "\n".join(f"{_source_line(lines, s.context)}{s}" for s in found),
            pytrace=False,
        )


def _source_line(lines: list[str], context: str) -> str:
    """``"line N: "`` for the source line a stray space most likely comes from (a line break between the two
    characters around it, or a space typed between them), or ``""`` when the source does not show it plainly."""
    before, _, after = context.partition("␣")
    if not before or not after:
        return ""
    x, y = before[-1], after[0]
    for number, (line, following) in enumerate(zip(lines, [*lines[1:], ""], strict=True), 1):
        if f"{x} {y}" in line or (line.rstrip().endswith(x) and following.lstrip().startswith(y)):
            return f"line {number}: "
    return ""


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_one_term_per_idea(path: Path) -> None:
    found = term_violations(path)
    hint = (
        "\n(a flagged word your field uses as its own term, such as 时间特征 in forecasting, is kept on this page by "
        "its front matter, with why: terms_kept: {特征: 理由}; docs/en/contributing.md#chinese-terms)"
    )
    if found:
        pytest.fail(f"{_shown(path)}:\n" + "\n".join(found) + hint, pytrace=False)


EXPLORERS = sorted((pages.ROOT / "overrides" / "assets" / "javascripts").glob("*.js"))
_JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|\'(?:[^\'\\\n]|\\.)*\'')


def explorer_chinese(path: Path) -> str:
    """The Chinese strings of an explorer's script (its labels, titles and messages in ``zh``), each on its line,
    everything else blank: what a reader of a Chinese page sees in the live figures."""
    source = path.read_text(encoding="utf-8")
    lines = [""] * (source.count("\n") + 1)
    for m in _JS_STRING.finditer(source):
        if re.search(CJK, m.group(0)):
            first = line_of(source, m.start()) - 1
            for k, part in enumerate(m.group(0).split("\n")):
                lines[first + k] += " " + part
    return "\n".join(lines)


@pytest.mark.parametrize("path", EXPLORERS, ids=lambda p: p.name)
def test_explorers_use_the_terms_of_the_pages(path: Path) -> None:
    """The live figures' Chinese labels follow the same term rules (``AVOID``) as the pages around them."""
    text = explorer_chinese(path)
    found = [
        f"{pages.rel(path)}:{line_of(text, m.start())}: {m.group(0)!r} -> {good}"
        for bad, (good, _) in AVOID.items()
        for m in re.finditer(bad, text)
    ]
    assert not found, "\n".join(found)


def test_explorer_strings_are_read() -> None:
    text = explorer_chinese(pages.ROOT / "overrides" / "assets" / "javascripts" / "pe-live-rope.js")
    assert "前后两半配对" in text and "两个位置同时移动" in text and "pairing.half" not in text


def test_the_term_list_and_the_glossary_agree() -> None:
    """The glossary (the term list) is read whole, and where a banned spelling's idea has an entry, the entry's
    heading uses the winning term; no heading uses a banned spelling."""
    terms = glossary()
    assert len(terms) == len(_entry_headings()) >= 30  # every entry has its "英文：" line
    headings = " ".join(t.chinese for t in terms.values())
    found = [f"the glossary's headings use the banned {bad!r}" for bad in AVOID if re.search(bad, headings)]
    for bad, (good, entry) in AVOID.items():
        if entry is None:
            continue
        anchor, word = entry
        if anchor not in terms:
            found.append(f"{bad!r} -> {good}: no glossary entry #{anchor}")
        elif word not in terms[anchor].chinese:
            found.append(f"{bad!r} -> {good}: glossary #{anchor} is {terms[anchor].chinese!r}, not {word}")
    if found:
        pytest.fail("\n".join(found), pytrace=False)


def caught_on(tmp_path: Path, line: str, code: str) -> list[str]:
    """The losing spellings ``term_violations`` reports on a page of one prose ``line`` and one Python block holding
    ``code`` (whose banned words must be spared)."""
    page = tmp_path / "page.md"
    page.write_text(f"# 标题\n\n{line}\n\n```python\n{code}\n```\n", encoding="utf-8")
    return [v.split(" -> ")[0].split(": ", 1)[1].strip("'") for v in term_violations(page)]


# Every rule of AVOID with a line it must catch and one it must spare, and the banned words in code, which is spared.
@pytest.mark.parametrize(
    ("line", "caught"),
    [
        # English in prose is caught; the same word as code (a span or a block) is not
        ("每个注意力 logit 加上一个偏置", ["logit"]),
        ("`logits[:, 1:]` 是下一个词元的注意力分数", []),
        ("把张量 reshape 成四维", ["reshape"]),
        ("`x.reshape(2, -1)` 把张量变形为两行", []),
        # 推广 for a model and longer inputs is 泛化; for a formula it stays
        ("模型通常推广不到更长的序列", ["推广不到更长的序列"]),
        ("这个公式可以推广到任意底数", []),
        # "N times slower"
        ("每根都比前一根慢十倍", ["慢十倍"]),
        ("每一对都比前一对慢固定的倍数", ["慢固定的倍"]),
        ("转速只有前一根的十分之一，周期是它的 10 倍", []),
        ("转得最快的那根表针", ["表针"]),
        # the exercise label, and a site page called a chapter; a real book's chapter stays 章
        ("1. **检查理解**。先别运行代码", ["检查理解"]),
        ("1. **自测**。先别运行代码", []),
        ("本章的几种方案，[波长](wavelength.md)一章，各章，讲这一点的章节", ["本章", "一章", "各章", "章节"]),
        ("本页的几种方案，[波长](wavelength.md)一页，书中的一章，那一章，节号", []),
        # moving k positions
        ("把编码往后挪 $k$ 格，再平移 5 格，移动三步", ["挪", "平移 5 格", "移动三步"]),
        ("把编码往后移动 $k$ 个位置，落在频率格点上", []),
        # RoPE's pairs of components
        ("把相邻的两个特征配成一对", ["特征"]),
        ("把相邻的两个分量配成一对，再做特征分解", []),
        # a column is 第 j 列
        ("维度 0 每隔 6.3 个位置转一圈，维度 $j$ 也一样", ["维度 0", "维度     "]),
        ("第 0 列每隔 6.3 个位置转一圈；100 个位置 × 128 个维度（列）", []),
        # the ladder, the head width
        ("这架频率梯子", ["梯子"]),
        ("头维度、每个头的宽度、每个头宽 128", ["头维度", "头的宽度", "每个头宽"]),
        ("这组频率阶梯，头宽度 128", []),
        # 平移 in any use; moving k positions is 移动 k 个位置
        ("平移到位，平移后，两个位置同时平移，平移 5 格", ["平移", "平移", "平移", "平移 5 格"]),
        ("移动到位，移动 $k$ 个位置后，两个位置同时移动", []),
        # dtype; a frequency is high or low, a column high- or low-frequency; what turns may turn fastest
        ("设备、数据类型与检查点", ["数据类型"]),
        ("设备、dtype 与检查点；float32 这种浮点格式", []),
        ("相邻配对和对半配对", ["对半"]),
        ("相邻配对和前后两半配对", []),
        ("它决定了最慢的那个频率，最快频率是 1", ["最慢的那个频率", "最快频率"]),
        (
            "最快的一列、最慢的正弦列、最快和最慢的列、最慢的第 510 列",
            ["最快的一列", "最慢的正弦列", "最快和最慢的列", "最慢的第 510 列"],
        ),
        ("它决定了最低的频率；频率最高的一列；转得最快的 $\\sin p$ 这一列", []),
        # a pair is high or low in frequency; what turns may turn fastest
        ("最慢的一对、最快的那一对、最慢的两对", ["最慢的一对", "最快的那一对", "最慢的两对"]),
        ("频率最低的一对、频率最高的那一对、转得最快的那一对", []),
        # one spelling each: hidden states, permutation equivariance, image patches; a section number is 节号
        ("隐藏状态，置换等变性，图像图块网格，章节号", ["章节", "隐藏状态", "置换等变性", "图像图块"]),
        ("隐状态，置换等变，图块（patch）网格，节号", []),
    ],
)
def test_each_term_rule_catches_what_it_says_and_spares_code(tmp_path: Path, line: str, caught: list[str]) -> None:
    code = (
        'logits = x.reshape(2, -1)\nlabel = "表针 logit 慢十倍"  # 字符串是代码\n'
        "x = '挪 k 格 本章 特征 梯子 头维度 平移 数据类型 对半 最慢的频率'\n"
        "y = '最快的一列 最慢的一对 隐藏状态 置换等变性 图像图块 章节号'"
    )
    assert caught_on(tmp_path, line, code) == caught


def test_comments_are_checked_and_code_is_not(tmp_path: Path) -> None:
    """A Python block's comments are Chinese text: the term rules read them, and a comment left in English is
    flagged; the code (names, strings) and shape notation, names and pragmas in comments are not."""
    page = tmp_path / "page.md"
    page.write_text(
        "# 标题\n\n"
        "正文。\n\n"
        '??? note "验证"\n'
        "    ```python\n"
        "    x = '平移 # 表针'  # 两个位置同时平移\n"
        "    y = x.reshape(2, -1)  # (batch, seq, d_model)\n"
        "    z = 1  # float32 fmt: skip\n"
        "    # a negative one would turn cos and sin around\n"
        "    w = 2  # NumPy integers\n"
        "    # 取负值会让 cos 和 sin 同时反号\n"
        "    ```\n",
        encoding="utf-8",
    )
    assert [v.split(" -> ")[0] for v in term_violations(page)] == ["line 7 (a comment): '平移'"]
    assert english_comment_violations(page) == [
        "line 10: '# a negative one would turn cos and sin around'",
        "line 11: '# NumPy integers'",
    ]


def test_link_texts_name_the_page(tmp_path: Path) -> None:
    """A link to the relative page or the frequency entry names it as the site does; other links, images and
    code are left alone."""
    page = tmp_path / "page.md"
    page.write_text(
        "# 标题\n\n"
        "见[相对变换](relative.md)一页和[频率](glossary.md#frequency)；\n"
        "[线性相对变换](relative.md#rope)、[角频率](glossary.md#frequency)、[相对变换](glossary.md#relative-transform)、"
        "[原因](relative.md)都没问题。\n\n"
        "```python\n# [相对变换](relative.md)\n```\n\n"
        "代码块之后也一样：推导见[这里](relative.md#rope)。\n",
        encoding="utf-8",
    )
    assert link_text_violations(page) == [
        "line 3: [相对变换](relative.md) -> [线性相对变换](relative.md)",
        "line 3: [频率](glossary.md#frequency) -> [角频率](glossary.md#frequency)",
        "line 10: [这里](relative.md#rope) -> [线性相对变换](relative.md)",
    ]


def test_the_checks_catch_what_they_say(tmp_path: Path) -> None:
    """Each page check flags a planted violation (and only it) — none of them can pass by matching nothing."""
    page = tmp_path / "page.md"
    page.write_text(
        "# 标题\n\n"
        "那一章书稿里的资料说 `d_model` 维度是 512，准确率是 95 %；\n"
        "论文“Attention Is All You Need”说，each position gets its own vector。\n"
        "词元（token）、书中的一章、素材、宽度 $d_{model}$、95%、《Attention Is All You Need》都没问题，"
        "旋转位置编码（rotary position embedding）和原话（“Please note that this slightly differs”）也没问题。\n"
        "用 positional encoding 的说法不对。\n"
        "它是一个集合（attention is permutation invariant）。\n\n"
        "```python\ntitle = '书稿'  # 95 % “Attention Is All You Need” in a code block is code\n```\n",
        encoding="utf-8",
    )
    terms = glossary()
    assert [v.split(" -> ")[0] for v in term_violations(page)] == [
        "line 3: '书稿'",
        "line 3: '资料'",
        "line 3: 'd_model` 维度'",
    ]
    assert percent_violations(page) == ["line 3: '95 %' -> 95%"]
    assert half_width_violations(page) == []
    comma = tmp_path / "comma.md"  # contributor 48: a half-width comma between two Chinese clauses
    comma.write_text("# 标题\n\n它是一个集合,所以顺序不重要。`a, b` 和 $x, y$、Python: 都不算。\n", encoding="utf-8")
    assert half_width_violations(comma) == ["line 3: '它是一个集合,所以顺序不重' -> ，"]
    assert title_violations(page, set()) == [
        "line 4: “Attention Is All You Need” is a title: 《Attention Is All You Need》"
    ]
    english = english_violations(page, terms)
    assert english[0].startswith("line 4: English in Chinese prose: 'each position gets its own vector': translate it")
    assert english[1].startswith("line 4: an English title: write it in 《》: 'Attention Is All You Need' (a model's")
    assert english[2].startswith("line 6: 'positional encoding' -> 位置编码")
    # contributor 48: a whole English sentence passed as a gloss; a term, or the original in quotation marks, passes
    assert english[3].startswith("line 7: English in Chinese prose: 'attention is permutation invariant'")
    assert "at most 3 words" in english[3]
    assert len(english) == 4

    (tmp_path / "zh").mkdir()
    italic = tmp_path / "zh" / "italic.md"  # rendered with the zh config
    italic.write_text("一条*平滑的斜坡*，一条 *斜坡* 。\n\n**粗体**、a_b_c、词_元_表、`*代码*`都不是斜体。\n", "utf-8")
    assert italic_violations(italic) == ["line 1: *平滑的斜坡*", "line 1: *斜坡*"]
    html = pages.render(italic)
    assert html.count("<em>") == 2 and "<em>平滑的斜坡</em>" in html  # what the check flags is what renders slanted


# CommonMark (Jupyter's Markdown: every chapter's downloadable notebook, which carries the page's prose) closes **
# only after a letter, or before a space or punctuation: "**标题。**正文" stays literal asterisks there
# (Python-Markdown, the site's renderer, is lenient). Write "**标题**。正文".
_WIDE_PUNCT = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff1f"


def unclosed_bold(text: str) -> list[str]:
    """Bold that CommonMark leaves as asterisks: a closing ** after full-width punctuation and before a letter,
    as "line N: **…**"; code fences are skipped."""
    found, fenced = [], False
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        for m in re.finditer(r"\*\*([^*]+)\*\*", line):  # the pairs in order: opening, closing
            after = line[m.end() : m.end() + 1]
            if (
                re.match(f"[{_WIDE_PUNCT}]", m.group(1)[-1])
                and after
                and not re.match(rf"[\s{_WIDE_PUNCT}!-/:-@\[-`{{-~]", after)
            ):
                found.append(f"line {n}: {m.group(0)!r}")
    return found


ZH_CHAPTERS = list(pages.chapters("zh").values())


@pytest.mark.parametrize("path", ZH_CHAPTERS, ids=_id)
def test_notebook_bold_renders(path: Path) -> None:
    """A zh chapter's bold closes under CommonMark, which its notebook follows: "**标题。**正文" stays literal
    asterisks there. Parametrised by page, so that ``make check PAGE=…`` runs it too."""
    found = unclosed_bold(path.read_text(encoding="utf-8"))
    if found:
        pytest.fail(
            f"{_shown(path)}: bold that ends in full-width punctuation and runs into text does not close in the "
            "notebook; move the punctuation out (**标题**。) or put a space after it:\n" + "\n".join(found),
            pytrace=False,
        )


def test_the_bold_check_flags_what_it_says() -> None:
    """The check flags "**标题。**正文" and spares "**标题**。", and "**标题。**" before a space, code or math."""
    assert len(ZH_CHAPTERS) > 5
    planted = "**1. 先预测。**看输出\n**2. 再验证**。看，**广播**：行 **宽度。**$w$"
    assert unclosed_bold(planted) == ["line 1: '**1. 先预测。**'"]


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_links_name_a_page_by_its_name(path: Path) -> None:
    found = link_text_violations(path)
    if found:
        pytest.fail(f"{_shown(path)}:\n" + "\n".join(found), pytrace=False)


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_percentages_have_no_space(path: Path) -> None:
    found = percent_violations(path)
    if found:
        pytest.fail(f"{_shown(path)}: write percentages as 95% in Chinese:\n" + "\n".join(found), pytrace=False)


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_chinese_punctuation_is_full_width(path: Path) -> None:
    found = half_width_violations(path)
    if found:
        pytest.fail(
            f"{_shown(path)}: full-width punctuation after Chinese text (，；：？！):\n" + "\n".join(found),
            pytrace=False,
        )


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_titles_are_in_book_title_marks(path: Path) -> None:
    found = title_violations(path, known_titles())
    if found:
        pytest.fail(f"{_shown(path)}: titles in 《》, quotations in “”:\n" + "\n".join(found), pytrace=False)


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_no_english_left_in_code_comments(path: Path) -> None:
    """A Chinese page's code is the English page's, its comments are Chinese."""
    found = english_comment_violations(path)
    if found:
        pytest.fail(
            f"{_shown(path)}: translate these comments (the code stays as it is):\n" + "\n".join(found), pytrace=False
        )


@pytest.mark.parametrize("path", ZH_PAGES, ids=_id)
def test_no_english_left_in_chinese_prose(path: Path) -> None:
    """Translate English left in prose; quote the original only where its wording matters, with the
    translation beside it: “original”（译文） or 译文（original）."""
    found = english_violations(path, glossary())
    if found:
        pytest.fail(f"{_shown(path)}:\n" + "\n".join(found), pytrace=False)


GUIDES = [layout.DOCS / lang / "contributing.md" for lang in pages.LANGS]


@pytest.mark.parametrize("path", GUIDES, ids=lambda p: p.parent.name)
def test_the_guide_lists_every_term_rule(path: Path) -> None:
    """The contributing guide lists the term rules before they fail: under its heading ``{#chinese-terms}`` (a table
    in English, a text block in Chinese, where the prose checks would flag a listed spelling), every rule of
    ``AVOID`` has an example that the rule catches, and what to write instead."""
    lang = path.parent.name
    guide = pages.read(path)
    (heading,) = [h for h in guide.headings if h.id == "chinese-terms"]
    # the examples as prose would hold them: a code span's backticks (the English table's) are presentation
    listed = "\n".join(guide.under(heading)).replace("`", " ")
    missing = [f"{bad!r} -> {good}" for bad, (good, _) in AVOID.items() if not re.search(bad, listed)]
    if missing:
        pytest.fail(
            f"docs/{lang}/contributing.md#chinese-terms lists no example of these rules; add a line with what each "
            "catches and what to write instead:\n" + "\n".join(missing),
            pytrace=False,
        )


def test_a_page_may_keep_a_term_with_its_reason(tmp_path: Path) -> None:
    """A rule's word the field itself uses (contributor 31: 时间特征 in forecasting) is kept by the page's front
    matter, with why; without the exception it is caught, and an exception no rule needs is reported."""
    body = "# 时间特征\n\n把日期编码成时间特征。\n"
    plain = tmp_path / "plain.md"
    plain.write_text(body, encoding="utf-8")
    assert [v for v in term_violations(plain) if "特征" in v]
    kept = tmp_path / "kept.md"
    kept.write_text("---\nterms_kept: {特征: 预测领域把时间特征叫作特征}\n---\n" + body, encoding="utf-8")
    assert term_violations(kept) == []
    stale = tmp_path / "stale.md"
    stale.write_text("---\nterms_kept: {梯子: 没有用到}\n---\n" + body.replace("特征", "编码"), encoding="utf-8")
    assert term_violations(stale) == ["terms_kept lists '梯子', which no term rule catches on this page: remove it"]
    bare = tmp_path / "bare.md"
    bare.write_text("---\nterms_kept: [特征]\n---\n" + body, encoding="utf-8")
    with pytest.raises(AssertionError, match="terms_kept must map each word kept to the reason"):
        term_violations(bare)
