"""``make sync PAGE=<slug>``: the Chinese page's code blocks rewritten from the English page's.

A page's code is the same in both languages, comments aside (:func:`site_tools.pages.parity_problems_of` checks
it). Edit the English page's blocks, then sync: each Chinese block becomes its English twin line by line, except
that the lines whose code (comments removed) the Chinese block already has, in the same order, stay as they are,
with their Chinese comments. A new or changed line arrives with its English comment, which the Chinese style check
(``make check``) then names for translation; an expected output is copied as it is. Blocks are paired in order, as
parity pairs them (python fences and expected outputs), so both pages must have the same blocks: add a new block to
both pages first.
"""

from __future__ import annotations

import difflib
import sys

from site_tools import pages


def _groups(code: str) -> list[tuple[str, list[str]]]:
    """The lines of ``code`` as (key, lines): a line of code by its code without the comment; a run of comment lines
    by their indentation alone (a translation may wrap a comment on fewer or more lines); a blank line by nothing."""
    coded, commented = dict(pages.code_lines(code)), dict(pages.comments(code))
    groups: list[tuple[str, list[str]]] = []
    for n, line in enumerate(code.split("\n")):
        if n in coded:
            groups.append((coded[n], [line]))
        elif n in commented:
            key = line[: len(line) - len(line.lstrip())] + "#"
            if groups and groups[-1][0] == key:
                groups[-1][1].append(line)
            else:
                groups.append((key, [line]))
        else:
            groups.append(("", [line]))
    return groups


def synced_code(en: str, zh: str) -> str:
    """``zh`` rewritten as ``en``, keeping each line of ``zh`` whose code is unchanged (see the module).

    >>> synced_code("x = 1  # one\\ny = 2  # two", "x = 1  # 一\\ny = 3  # 三")
    'x = 1  # 一\\ny = 2  # two'
    """
    a, b = _groups(en), _groups(zh)
    matcher = difflib.SequenceMatcher(None, [key for key, _ in a], [key for key, _ in b], autojunk=False)
    out: list[str] = []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        out += [line for _, lines in (b[b0:b1] if op == "equal" else a[a0:a1]) for line in lines]
    return "\n".join(out)


def planned(name: str) -> list[tuple[int, pages.Fence, pages.Fence, str]]:
    """(number, English block, Chinese block, the Chinese block's new code) of each block a sync of page ``name``
    (``formula.md``) would rewrite: none when the two pages are in sync.

    Raises:
        ValueError: the page is not a Markdown page of both languages, or the two have different numbers of blocks.
    """
    paths = {lang: pages.files(lang).get(name) for lang in pages.LANGS}
    if None in paths.values():
        raise ValueError(f"{name}: not a Markdown page of both languages (docs/en/{name}, docs/zh/{name})")
    en, zh = (pages.read(path).compared for path in paths.values())  # type: ignore[arg-type]  # no None: refused above
    if len(en) != len(zh):
        raise ValueError(
            f"{name}: {len(en)} code blocks in en, {len(zh)} in zh; add or remove blocks in both first "
            f"(make check PAGE={name.removesuffix('.md')} names them)"
        )
    plan = []
    for k, (e, z) in enumerate(zip(en, zh, strict=True), 1):
        new = e.code if e.role == "expected-output" else synced_code(e.code, z.code)
        if new != z.code and z.hidden_by:  # its lines start with > or a list's indentation: edited by hand
            raise ValueError(f"{pages.rel(z.path)}:{z.line}: block {k} sits in a {z.hidden_by}; edit it by hand")
        if new != z.code:
            plan.append((k, e, z, new))
    return plan


def sync(name: str) -> list[str]:
    """Rewrite ``docs/zh/<name>``'s code blocks from ``docs/en/<name>``'s (:func:`planned`); return a line per block
    rewritten."""
    plan = planned(name)
    if not plan:
        return []
    target = plan[0][2].path
    assert target is not None
    lines = target.read_text(encoding="utf-8").split("\n")
    for _, _, z, new in reversed(plan):  # from the end, so that the line numbers hold
        fence = lines[z.line - 1]
        indent = fence[: len(fence) - len(fence.lstrip())]
        lines[z.line : z.end - 1] = [indent + line if line else "" for line in new.split("\n")]
    target.write_text("\n".join(lines), encoding="utf-8")
    return [f"{pages.rel(z.path)}:{z.line}: block {k} now follows {pages.rel(e.path)}:{e.line}" for k, e, z, _ in plan]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not args[0]:
        print("usage: make sync PAGE=<slug>   (for example PAGE=formula)", file=sys.stderr)
        return 2
    name = args[0].removesuffix(".md") + ".md"
    try:
        changed = sync(name)
    except ValueError as error:
        print(f"make sync: {error}", file=sys.stderr)
        return 1
    for line in changed:
        print(line)
    print(f"{name}: {len(changed) or 'no'} Chinese code block{'' if len(changed) == 1 else 's'} rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
