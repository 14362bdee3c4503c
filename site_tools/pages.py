"""Reading the pages as data: their code fences, their python blocks, and what each language lacks.

Used by the tests (fence and parity checks) and by contributors: ``python -m site_tools.pages`` prints, for
every page, what the other language is missing or has differently.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LANGS = ("en", "zh")
PAGE_SUFFIXES = (".md", ".ipynb")

# A fence opener: indentation, ``` or ~~~ (3+), then the info string.
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<tick>`{3,}|~{3,})(?P<info>.*)$")
_SKIP_MARK = re.compile(r"<!--\s*pytest\.mark\.skip")


@dataclass(frozen=True)
class Fence:
    """One fenced code block of a Markdown page."""

    path: Path
    line: int  # 1-based line of the opening fence
    tick: str
    info: str  # the info string as written, stripped
    code: str
    marker: str  # the HTML comment on the line before the fence, if any

    @property
    def lang(self) -> str:
        return self.info.split()[0] if self.info.split() else ""

    @property
    def runs(self) -> bool:
        """Whether pytest-codeblocks executes it: a bare ```python fence not marked skip."""
        return self.tick.startswith("`") and self.info == "python" and not self.skipped

    @property
    def skipped(self) -> bool:
        return bool(_SKIP_MARK.search(self.marker))

    @property
    def looks_like_python(self) -> bool:
        """Python in any spelling (py, python3, python title=…, ~~~python)."""
        return self.lang.lstrip("{.").rstrip("}") in {"py", "python", "python3", "pycon"}


def fences(path: Path) -> list[Fence]:
    """All fenced code blocks of a Markdown file, in order (nested fences inside a fence are content)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Fence] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, tick, info = m.group("indent"), m.group("tick"), m.group("info").strip()
        marker = lines[i - 1].strip() if i > 0 and lines[i - 1].strip().startswith("<!--") else ""
        closer = re.compile(rf"^[ \t]*{re.escape(tick[0])}{{{len(tick)},}}\s*$")
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not closer.match(lines[j]):
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        out.append(Fence(path, i + 1, tick, info, "\n".join(body), marker))
        i = j + 1
    return out


def notebook_code_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def strip_comments(code: str) -> str:
    """Code with ``#`` comments and blank lines removed (a ``#`` inside a string literal is kept)."""
    import io
    import tokenize

    try:
        readline = io.StringIO(code).readline
        tokens = [t for t in tokenize.generate_tokens(readline) if t.type != tokenize.COMMENT]
        code = tokenize.untokenize(tokens)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        code = "\n".join(re.sub(r"\s+#.*$|^\s*#.*$", "", line) for line in code.splitlines())
    return "\n".join(line.rstrip() for line in code.splitlines() if line.strip())


def pages(lang: str) -> dict[str, Path]:
    """Pages of one language, keyed by their path relative to ``docs/<lang>``."""
    base = DOCS / lang
    return {
        p.relative_to(base).as_posix(): p
        for p in sorted(base.rglob("*"))
        if p.suffix in PAGE_SUFFIXES and ".ipynb_checkpoints" not in p.parts
    }


def code_signature(path: Path) -> list[str]:
    """What must match between languages: python blocks (comments stripped) and pytest markers."""
    if path.suffix == ".ipynb":
        return [strip_comments(c) for c in notebook_code_cells(path)]
    sig = []
    for f in fences(path):
        if f.looks_like_python:
            sig.append(f"{f.marker}\n{f.info}\n{strip_comments(f.code)}")
        elif "expected-output" in f.marker:
            sig.append(f"{f.marker}\n{f.code}")
    return sig


def weak_asserts(path: Path) -> list[str]:
    """Assertions in a page's executed blocks that cannot fail or check nothing.

    An ``assert`` must compare or call something (``assert x == 3``, ``assert torch.equal(a, b)``), and must
    involve the page's values: ``assert True``, ``assert 0.97``, ``assert ok`` (a bare name) and
    ``assert 3 == 3`` are rejected.
    """
    import ast

    sources = notebook_code_cells(path) if path.suffix == ".ipynb" else [f.code for f in fences(path) if f.runs]
    found = []
    for code in sources:
        for node in ast.walk(ast.parse(code)):
            if not isinstance(node, ast.Assert):
                continue
            parts = list(ast.walk(node.test))
            checks = any(isinstance(n, ast.Compare | ast.Call) for n in parts)
            uses_values = any(isinstance(n, ast.Name | ast.Attribute | ast.Subscript | ast.BinOp) for n in parts)
            if not checks or not uses_values:
                found.append(f"{path.name}: `assert {ast.unparse(node.test)}` checks nothing; compare or call")
    return found


def parity_problems() -> list[str]:
    """Everything one language has that the other lacks, as sentences a contributor can act on."""
    problems: list[str] = []
    by_lang = {lang: pages(lang) for lang in LANGS}
    names = sorted(set().union(*by_lang.values()))
    for name in names:
        have = [lang for lang in LANGS if name in by_lang[lang]]
        if len(have) < len(LANGS):
            missing = [lang for lang in LANGS if lang not in have]
            problems.append(f"{name}: exists in {have[0]} only; add docs/{missing[0]}/{name}")
            continue
        sigs = {lang: code_signature(by_lang[lang][name]) for lang in LANGS}
        a, b = sigs["en"], sigs["zh"]
        if len(a) != len(b):
            problems.append(f"{name}: {len(a)} code blocks in en, {len(b)} in zh (markers included)")
        for k, (x, y) in enumerate(zip(a, b, strict=False), 1):
            if x != y:
                problems.append(f"{name}: code block {k} differs between en and zh (after removing comments)")
    return problems


def main() -> int:
    problems = parity_problems()
    for lang in LANGS:
        print(f"{lang}: {len(pages(lang))} pages")
    if not problems:
        print("en and zh have the same pages and the same code blocks.")
        return 0
    print("\n".join(problems))
    return 1


if __name__ == "__main__":
    sys.exit(main())
