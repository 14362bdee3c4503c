"""Create a new chapter in both languages: ``python -m site_tools.chapter <slug>`` (``make chapter NAME=<slug>``).

Writes ``docs/en/<slug>.md`` from ``templates/chapter.md`` and ``docs/zh/<slug>.md`` from
``templates/chapter.zh.md`` (a Chinese skeleton with the same code blocks), and adds ``- <slug>.md`` to ``nav:``
in ``mkdocs.yml`` and ``mkdocs.zh.yml`` (its own nav, with Chinese section titles) just before ``api.md``, in the
same section. As created, the pair passes every
check of ``make test``: the blocks run, the stated number is asserted in both languages, the code is the same, the
Chinese page follows the Chinese checks and the strict build finds nothing to warn about.

A bad slug, or one that is already a page, is refused with a message and nothing is written.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "zh")
TEMPLATES = {"en": Path("templates/chapter.md"), "zh": Path("templates/chapter.zh.md")}
CONFIGS = ("mkdocs.yml", "mkdocs.zh.yml")  # each has its own nav: (the Chinese one with Chinese section titles)
NAV_ANCHOR = "api.md"  # new chapters go just before the API reference

# Lower-case ASCII words joined by single hyphens, starting with a letter: the slug is the file name and the URL.
SLUG = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_SLUG = 40
# Names that are taken by the site itself: the Chinese site (zh/), the theme's and the build's folders and files.
RESERVED = frozenset({"zh", "en", "assets", "figures", "search", "404", "sitemap", "stylesheets", "javascripts"})
_NAV_ITEM = re.compile(r"^(?P<indent>[ \t]*)-[ \t]+(?:[^:\n]+:[ \t]*)?(?P<file>[^\s:#]+\.(?:md|ipynb))[ \t]*(?:#.*)?$")


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
    existing = [
        f"docs/{lang}/{slug}{ext}"
        for lang in LANGS
        for ext in (".md", ".ipynb")
        if (root / "docs" / lang / f"{slug}{ext}").exists()
    ]
    if existing:
        raise ChapterError(f"chapter {slug!r} already exists ({', '.join(existing)}); choose another name or edit it")
    for name in CONFIGS:
        if (root / name).exists() and f"{slug}.md" in nav_files(root / name):
            raise ChapterError(
                f"{slug}.md is already listed under nav: in {name}; remove it there or choose another name"
            )
    return slug


def nav_files(config: Path) -> list[str]:
    """The page files listed under ``nav:`` in a config file, in order (read as text: the file has custom tags)."""
    return [m.group("file") for m in map(_NAV_ITEM.match, _nav_block(config.read_text(encoding="utf-8"))[1]) if m]


def _nav_block(text: str) -> tuple[int, list[str]]:
    """The index of the line after ``nav:`` and the lines of the nav list."""
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if re.fullmatch(r"nav:[ \t]*(?:#.*)?", line)) + 1
    except StopIteration:
        raise ChapterError("mkdocs.yml has no top-level nav: list to add the chapter to") from None
    block = []
    for line in lines[start:]:
        if line.strip() and not line[0].isspace() and not line.startswith("-"):
            break
        block.append(line)
    while block and not block[-1].strip():
        block.pop()
    return start, block


def _has_nav(config: Path) -> bool:
    return re.search(r"^nav:[ \t]*(?:#.*)?$", config.read_text(encoding="utf-8"), flags=re.M) is not None


def add_to_nav(config: Path, slug: str) -> None:
    """Insert ``- <slug>.md`` in the nav of ``config`` before ``api.md``, indented as it is (in its section), or at
    the end if there is none."""
    text = config.read_text(encoding="utf-8")
    start, block = _nav_block(text)
    items = [(i, m) for i, m in enumerate(map(_NAV_ITEM.match, block)) if m]
    if not items:
        raise ChapterError(f"{config.name}: the nav: list holds no page to place the chapter next to")
    at, anchor = next(((i, m) for i, m in items if m.group("file") == NAV_ANCHOR), (items[-1][0] + 1, items[0][1]))
    indent = anchor.group("indent")
    lines = text.splitlines(keepends=True)
    lines.insert(start + at, f"{indent}- {slug}.md\n")
    config.write_text("".join(lines), encoding="utf-8")


def title_of(slug: str) -> str:
    """A first English title from the slug (``attention-scores`` → ``Attention scores``)."""
    words = slug.replace("-", " ")
    return words[0].upper() + words[1:]


def create(slug: str, root: Path = ROOT) -> list[Path]:
    """Create the chapter ``slug`` in both languages and add it to the nav; return the files written.

    Raises:
        ChapterError: a bad or existing slug (nothing is written).
        FileNotFoundError: a template is missing.
    """
    slug = check_slug(slug, root)
    texts = {lang: (root / TEMPLATES[lang]).read_text(encoding="utf-8") for lang in LANGS}
    texts["en"] = re.sub(r"\A# .*", f"# {title_of(slug)}", texts["en"], count=1)
    written = []
    for lang in LANGS:
        path = root / "docs" / lang / f"{slug}.md"
        path.write_text(texts[lang], encoding="utf-8")
        written.append(path)
    for name in CONFIGS:
        if (root / name).exists() and _has_nav(root / name):
            add_to_nav(root / name, slug)
            written.append(root / name)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m site_tools.chapter <slug>   (make chapter NAME=<slug>)", file=sys.stderr)
        return 2
    try:
        written = create(args[0].strip())
    except ChapterError as exc:
        print(f"make chapter: {exc}", file=sys.stderr)
        return 2
    slug = args[0].strip()
    for path in written:
        print(f"wrote {path.relative_to(ROOT).as_posix()}")
    print(
        f"Next: write both pages (the Chinese one in Chinese), keep their code blocks identical, then\n"
        f"  make serve   # preview: http://127.0.0.1:8000/{slug}/ and /zh/{slug}/\n"
        f"  make test    # every check; the Contributing page explains each rule"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
