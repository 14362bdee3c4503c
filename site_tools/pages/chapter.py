"""Create a new chapter in both languages: ``python -m site_tools.pages.chapter <slug> --section <title>``
(``make chapter NAME=<slug> SECTION=<title>``; without a section, it asks for one).

Writes ``docs/en/<slug>.md`` from ``templates/chapter.md`` and ``docs/zh/<slug>.md`` from
``templates/chapter.zh.md`` (a Chinese skeleton with the same code blocks), and adds ``- <slug>.md`` to ``nav:``
in ``mkdocs.yml`` and ``mkdocs.zh.yml`` (its own nav, with Chinese section titles), at the end of the section
asked for (before the API reference in its section) — the same section in both navs, which list the same sections in
the same order. The Learn section is not offered: it is the reading path start here and the home page walk through
(``tests/test_learn_track.py``), so a Learn page is written elsewhere first and then moved there with them.

As created, the pair passes every check of ``make test`` (``tests/test_chapter.py`` runs it through them): the blocks
run, the stated number is asserted in both languages, the code is the same, the page is in both navs, the Chinese
page follows the Chinese checks, the strict build finds nothing to warn about and the book prints it.

A bad slug or section, or a slug that is already a page, is refused with a message and nothing is written.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from pathlib import Path

from site_tools import ROOT, layout, pages

TEMPLATES = {"en": Path("templates/chapter.md"), "zh": Path("templates/chapter.zh.md")}
# The config files' names: each has its own nav: (the Chinese one with Chinese section titles).
CONFIGS = tuple(path.name for path in layout.CONFIGS.values())
NAV_ANCHOR = "api.md"  # in its section, new chapters go just before the API reference
# Sections a new chapter does not go in, and why (their titles in mkdocs.yml).
CLOSED = {
    "Learn": "Learn is the reading path that start here and the home page walk through, in order and in about an "
    "hour (tests/test_learn_track.py): write the chapter in another section, then move it there with them"
}

# Lower-case ASCII words joined by single hyphens, starting with a letter: the slug is the file name and the URL.
SLUG = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_SLUG = 40
# Names that are taken by the site itself: the Chinese site (zh/), the theme's and the build's folders and files.
RESERVED = frozenset({"zh", "en", "assets", "figures", "search", "404", "sitemap", "stylesheets", "javascripts"})
_NAV = re.compile(r"^nav:[ \t]*(?:#.*)?$", re.M)  # the top-level nav: key
_NAV_ITEM = re.compile(r"^(?P<indent>[ \t]*)-[ \t]+(?:[^:\n]+:[ \t]*)?(?P<file>[^\s:#]+\.md)[ \t]*(?:#.*)?$")
_NAV_SECTION = re.compile(r"^(?P<indent>[ \t]*)-[ \t]+(?P<title>[^:\n#]+?)[ \t]*:[ \t]*(?:#.*)?$")


class ChapterError(ValueError):
    """A slug that cannot become a chapter (the message says why and what to do)."""


def check_slug(slug: object, root: Path = ROOT) -> str:
    """Return ``slug`` if a chapter can be created under that name.

    Raises:
        ChapterError: ``slug`` is not a lower-case hyphenated ASCII name, is reserved by the site, or a page of
            that name already exists in either language or in the nav.
    """
    if not isinstance(slug, str) or not slug:
        raise ChapterError(
            f"give the chapter a name: make chapter NAME=<slug>, e.g. NAME=attention-scores (got {slug!r})"
        )
    if not SLUG.fullmatch(slug) or len(slug) > MAX_SLUG:
        raise ChapterError(
            f"slug must be lower-case ASCII words joined by single hyphens, starting with a letter, at most "
            f"{MAX_SLUG} characters (it is the file name and the URL), e.g. attention-scores; got {slug!r}"
        )
    if slug in RESERVED:
        raise ChapterError(f"slug {slug!r} is reserved: the site uses /{slug}/ itself; choose another name")
    existing = [f"docs/{lang}/{slug}.md" for lang in pages.LANGS if (root / "docs" / lang / f"{slug}.md").exists()]
    if existing:
        raise ChapterError(f"chapter {slug!r} already exists ({', '.join(existing)}); choose another name or edit it")
    for name in CONFIGS:
        if (root / name).exists() and f"{slug}.md" in pages.nav_places(root / name):
            raise ChapterError(
                f"{slug}.md is already listed under nav: in {name}; remove it there or choose another name"
            )
    return slug


def _nav_block(text: str, name: str) -> tuple[int, list[str]]:
    """The index of the line after ``nav:`` and the lines of the nav list of config file ``name``."""
    lines = text.splitlines()
    start = next((i + 1 for i, line in enumerate(lines) if _NAV.fullmatch(line)), None)
    if start is None:
        raise ChapterError(f"{name} has no top-level nav: list to add the chapter to")
    # the list ends at the next top-level key (a line that starts with neither a space nor "-")
    block = list(itertools.takewhile(lambda s: not s.strip() or s[0].isspace() or s[0] == "-", lines[start:]))
    while block and not block[-1].strip():
        block.pop()
    return start, block


def sections(config: Path) -> list[str]:
    """The titles of the top-level sections of the nav in ``config``, in order: read from the file's text, where
    :func:`add_to_nav` counts them (a section's number here is its number there)."""
    return [title for title, _, _ in _sections(_nav_block(config.read_text(encoding="utf-8"), config.name)[1])]


def _sections(block: list[str]) -> list[tuple[str, int, int]]:
    """(title, index of its line, index after its last non-blank line) of each top-level section of a nav block."""
    entries = [(i, line) for i, line in enumerate(block) if re.match(r"[ \t]*-[ \t]", line)]
    top = min((len(line) - len(line.lstrip()) for _, line in entries), default=0)
    heads = [(i, m) for i, line in entries if (m := _NAV_SECTION.match(line)) and len(m.group("indent")) == top]
    tops = [i for i, line in entries if len(line) - len(line.lstrip()) == top] + [len(block)]
    out = []
    for i, m in heads:
        end = next(t for t in tops if t > i)
        while end > i + 1 and not block[end - 1].strip():
            end -= 1
        out.append((m.group("title").strip().strip("\"'"), i, end))
    return out


def section_pairs(root: Path = ROOT) -> list[tuple[str, str]]:
    """(English title, Chinese title) of each top-level section of the nav: the two configs list the same sections
    in the same order (``tests/test_learn_track.py`` holds them to it).

    Raises:
        ChapterError: the two navs do not have the same number of sections.
    """
    en, zh = (sections(root / name) for name in CONFIGS)
    if len(en) != len(zh):
        raise ChapterError(f"{CONFIGS[0]} has the nav sections {en} and {CONFIGS[1]} {zh}: make them match first")
    return list(zip(en, zh, strict=True))


def open_sections(root: Path = ROOT) -> list[tuple[str, str]]:
    """The sections a new chapter may go in (all but :data:`CLOSED`), as (English title, Chinese title)."""
    return [pair for pair in section_pairs(root) if pair[0] not in CLOSED]


def check_section(section: object, root: Path = ROOT) -> int:
    """The position of ``section`` (its English or Chinese title, any case) among the nav's sections.

    Raises:
        ChapterError: no section of that title, or one that is :data:`CLOSED` to new chapters.
    """
    pairs = section_pairs(root)
    choices = ", ".join(f"{en!r}" for en, _ in open_sections(root))
    if not isinstance(section, str) or not section.strip():
        raise ChapterError(
            f"say which section of the nav the chapter goes in: make chapter NAME=<slug> SECTION=<title>, one of "
            f"{choices} (got {section!r})"
        )
    wanted = section.strip().casefold()
    for k, (en, zh) in enumerate(pairs):
        if wanted in (en.casefold(), zh.casefold()):
            if en in CLOSED:
                raise ChapterError(f"a new chapter does not go in {en}: {CLOSED[en]}; sections: {choices}")
            return k
    raise ChapterError(f"the nav has no section {section!r}; SECTION must be one of {choices}")


def add_to_nav(config: Path, slug: str, section: int | None = None) -> None:
    """Insert ``- <slug>.md`` in the nav of ``config``: at the end of its top-level section number ``section``
    (0-based), before ``api.md`` if the section holds it, indented as the section's pages; without a section, before
    ``api.md``, or at the end of the nav if there is none."""
    text = config.read_text(encoding="utf-8")
    start, block = _nav_block(text, config.name)
    items = [(i, m) for i, m in enumerate(map(_NAV_ITEM.match, block)) if m]
    if section is not None:
        found = _sections(block)
        if not 0 <= section < len(found):
            raise ChapterError(f"{config.name}: the nav has {len(found)} sections, not a section number {section + 1}")
        _, first, end = found[section]
        items = [(i, m) for i, m in items if first < i < end]
    if not items:
        raise ChapterError(f"{config.name}: the nav: list holds no page to place the chapter next to")
    last = items[-1][0] + 1 if section is None else end
    at, anchor = next(((i, m) for i, m in items if m.group("file") == NAV_ANCHOR), (last, items[0][1]))
    indent = anchor.group("indent")
    lines = text.splitlines(keepends=True)
    lines.insert(start + at, f"{indent}- {slug}.md\n")
    config.write_text("".join(lines), encoding="utf-8")


def create(slug: str, section: str | None = None, root: Path = ROOT) -> list[Path]:
    """Create the chapter ``slug`` in both languages and add it to both navs, in ``section`` (its English or Chinese
    title; see :func:`check_section`); return the files written. Without a section (a config without sections),
    the nav entry goes before ``api.md`` or at the end.

    Raises:
        ChapterError: a bad or existing slug, or a bad section (nothing is written).
        FileNotFoundError: a template is missing.
    """
    slug = check_slug(slug, root)
    configs = [
        root / name for name in CONFIGS if (root / name).exists() and _NAV.search((root / name).read_text("utf-8"))
    ]
    at = check_section(section, root) if section is not None else None
    texts = {lang: (root / TEMPLATES[lang]).read_text(encoding="utf-8") for lang in pages.LANGS}
    texts["en"] = re.sub(r"\A# .*", f"# {slug.replace('-', ' ').capitalize()}", texts["en"], count=1)  # a first title
    written = [root / "docs" / lang / f"{slug}.md" for lang in pages.LANGS]
    for lang, path in zip(pages.LANGS, written, strict=True):
        path.write_text(texts[lang], encoding="utf-8")
    for config in configs:
        add_to_nav(config, slug, at)
        written.append(config)
    return written


def skeleton_left(slug: str, root: Path = ROOT) -> list[str]:
    """What of the template the chapter ``slug`` still carries: the template's comment, and its title where
    ``create`` keeps it (the Chinese page's "页面标题"; the English page's is made from the slug, and can stay).

    Both pass every check (a chapter as created passes ``make test``), so ``make check`` lists them as reminders,
    one ``file:line: what`` per item, to replace before the pull request.

    >>> skeleton_left("formula")
    []
    """
    left = []
    for lang in pages.LANGS:
        path, template = root / "docs" / lang / f"{slug}.md", root / TEMPLATES[lang]
        if not path.is_file() or not template.is_file():
            continue
        skeleton = template.read_text(encoding="utf-8").split("\n")
        comment = next((line for line in skeleton[1:] if line.strip() not in ("", "<!--")), None)  # its first line
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if number == 1 and line == skeleton[0]:  # the Chinese skeleton's title (the English one is the slug's)
                left.append(f"docs/{lang}/{slug}.md:{number}: the title is still the skeleton's: {line}")
            elif line == comment:
                left.append(f"docs/{lang}/{slug}.md:{number}: the template's comment is still there: delete it")
    return left


def ask_section(root: Path = ROOT) -> str:
    """Ask on the terminal which section the chapter goes in; the English title of the answer."""
    choices = open_sections(root)
    print("Which section of the nav does the chapter go in?")
    for k, (en, zh) in enumerate(choices, 1):
        print(f"  {k}. {en} ({zh})")
    for why in CLOSED.values():
        print(f"  (Not offered: {why}.)")
    while True:
        answer = input(f"Section [1-{len(choices)}]: ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(choices):
            return choices[int(answer) - 1][0]
        if any(answer.casefold() in (en.casefold(), zh.casefold()) for en, zh in choices):
            return answer
        print(f"  a number from 1 to {len(choices)}, or a title")


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    """``python -m site_tools.pages.chapter <slug> [--section <title>]``: 0 when written, 2 when refused."""
    parser = argparse.ArgumentParser(
        prog="python -m site_tools.pages.chapter",
        description="A new chapter in both languages, in a section of the nav "
        "(make chapter NAME=<slug> SECTION=<title>).",
    )
    parser.add_argument("slug", help="the file name and URL: lower-case ASCII words joined by hyphens")
    parser.add_argument("--section", default=None, help="the nav section, English or Chinese title (asked if omitted)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    slug = args.slug.strip()
    try:
        check_slug(slug, root)
        section = args.section
        if section is None or not section.strip():
            if not sys.stdin.isatty():
                check_section(section, root)  # refused, with the list of sections
            section = ask_section(root)
        written = create(slug, section, root)
    except ChapterError as exc:
        print(f"make chapter: {exc}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print("\nmake chapter: no section chosen; nothing written", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path.relative_to(root).as_posix()}")
    steps = [
        (f"make check PAGE={slug}", "this page's checks, both languages, in seconds: blocks, numbers, parity, nav, "
         "Chinese, notebooks"),
        ("make serve", f"preview: http://127.0.0.1:8000/{slug}/ and /zh/{slug}/"),
        ("make lint", "ruff and the spell check, on new files too"),
        ("make test", "every check, before the pull request (docs/en/contributing.md explains each)"),
    ]  # fmt: skip
    width = max(len(command) for command, _ in steps)
    print("Next: write both pages (the Chinese one in Chinese) with the same code blocks, and check them as you go:")
    for command, what in steps:
        print(f"  {command:<{width}}   # {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
