"""A watch on the engine's successors: build each language with Zensical and ProperDocs, and say what works.

``python -m site_tools.build.successor [--engine zensical] [--engine properdocs] [--out report.md]`` builds both
languages with each engine installed (their newest releases, in ``.github/workflows/successor.yml``, every week), each
in a copy of the repository of its own, then checks the output (:func:`inspect`) for what the site needs: every page,
the hooks' generated files (figures, chapter notebooks), the plugins (mkdocstrings' API pages, GLightbox, the
"Last update" date), one site per language, a search index with Chinese cut
into words, and whether the finishing pass (``site_tools.finish``) runs on its HTML. It writes a Markdown report
(also to ``$GITHUB_STEP_SUMMARY`` when set) and exits 0 whatever the engines did: the report is the result, so the
decision to move is taken on evidence. The same checks on the site MkDocs builds are the control
(``tests/test_successor.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from site_tools import ROOT, copy_repository, dom, finish, layout, pages
from site_tools.build import notebooks

ENGINES: dict[str, list[str]] = {"zensical": ["zensical", "build", "-f"], "properdocs": ["properdocs", "build", "-f"]}


@dataclass
class Check:
    """One thing the site needs, and whether a build has it."""

    name: str
    ok: bool
    note: str = ""


@dataclass
class Trial:
    """One engine's build of one language."""

    engine: str
    lang: str
    version: str
    status: int | None = None  # the build command's exit status (None: not run)
    seconds: float = 0.0
    error: str = ""
    checks: list[Check] = field(default_factory=list)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""


def _search_index(site: Path) -> tuple[str, str]:
    """The search index's file and the text of its entries: Material's ``search/search_index.json`` (``docs``), or
    Zensical's ``search.json`` (``items``)."""
    for rel in ("search/search_index.json", "search.json"):
        if (site / rel).is_file():
            try:
                data = json.loads(_text(site / rel))
            except ValueError:
                return rel, ""
            entries = data.get("docs") or data.get("items") or []
            return rel, " ".join(f"{e.get('title', '')} {e.get('text', '')}" for e in entries if isinstance(e, dict))
    return "", ""


def inspect(site: Path, lang: str, docs_dir: Path | None = None, *, finish_it: bool = True) -> list[Check]:
    """What a language's built ``site`` has of what the site needs (see the module's docstring). ``finish_it``:
    also run the finishing pass on it (in place)."""
    docs_dir = layout.DOCS / lang if docs_dir is None else docs_dir
    sources = finish.site_pages(docs_dir)
    missing = [p.src_uri for p in sources if not (site / p.file).is_file()]
    chapters = [p for p in sources if pages.parse(_text(p.source)).chapter]
    generated = [p for p in chapters if (site / notebooks.notebook_uri(p.src_uri)).is_file()]
    api, formula = (_text(site / f"{name}/index.html") for name in ("api", "formula"))
    index_file, index = _search_index(site)
    han_words = "\u200b" in index
    checks = [
        Check("every page written", not missing, f"missing {missing[:3]}" if missing else f"{len(sources)} pages"),
        Check("hooks: build-time figures", any((site / "figures").glob("*.svg")), "figures/*.svg (on_files)"),
        Check("hooks: chapter notebooks", len(generated) == len(chapters) > 0, f"{len(generated)}/{len(chapters)}"),
        Check("mkdocstrings: API pages", "sinusoidal_table" in api and "doc-" in api),
        Check("GLightbox: figures open large", 'class="glightbox"' in formula),
        Check("git dates: Last update", "git-revision-date-localized-plugin" in formula),
        Check(
            "one site per language (INHERIT)",
            f'<html lang="{lang}"' in _text(site / "index.html"),
            f"html lang={lang} in {site.name or site}",
        ),
        Check("search index", bool(index), index_file or "none"),
        Check("search: Chinese cut into words (jieba)", han_words if lang == "zh" else True, "U+200B in the index"),
    ]
    if finish_it:
        try:
            warnings = finish.finish_site(site, lang, docs_dir=docs_dir, strict=False)
            tree = dom.parse(_text(site / "formula/index.html"))
            typeset = len(tree.css(".arithmatex .katex")) == len(tree.css(".arithmatex")) > 0
            checks.append(Check("finishing pass runs on its HTML", typeset, f"{len(warnings)} warnings"))
        except Exception as exc:  # reported, not raised: the report is the result
            checks.append(Check("finishing pass runs on its HTML", False, f"{type(exc).__name__}: {exc}"[:200]))
    return checks


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return ""


def trial(name: str, lang: str, work: Path, timeout: int = 1800) -> Trial:
    """Build ``lang`` with the engine ``name`` in a copy of the repository under ``work``, and inspect it."""
    result = Trial(name, lang, _version(name))
    if not result.version or shutil.which(ENGINES[name][0]) is None:
        result.error = f"{name} is not installed"
        return result
    repo = work / name
    if not repo.is_dir():
        copy_repository(repo, cache=None)
    config = layout.CONFIGS[lang].relative_to(ROOT)
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(repo), "PE_DOCS_CACHE": str(work / f"{name}-cache")}
    try:
        done = subprocess.run(
            [*ENGINES[name], str(config)], cwd=repo, env=env, capture_output=True, text=True, timeout=timeout
        )
        result.status, result.error = done.returncode, "" if done.returncode == 0 else _tail(done.stderr + done.stdout)
    except subprocess.TimeoutExpired:
        result.error = f"no result after {timeout} s"
    result.seconds = time.perf_counter() - start
    site = repo / layout.read_config_file(repo / config).get("site_dir", "site")
    if site.is_dir():
        try:
            result.checks = inspect(site, lang, repo / "docs" / lang)
        except Exception as exc:  # reported, not raised: the report is the result
            result.error += f" inspecting the output: {type(exc).__name__}: {exc}"
    return result


def _tail(text: str, lines: int = 6) -> str:
    return " / ".join(line.strip() for line in text.strip().splitlines()[-lines:])[:600]


def report(trials: list[Trial]) -> str:
    """The trials as a Markdown report: one column per engine and language, one row per check."""
    heads = [f"{t.engine} {t.version or '(not installed)'} · {t.lang}" for t in trials]
    builds = [f"exit {t.status}, {t.seconds:.0f} s" if t.status is not None else "not run" for t in trials]
    out = [
        "# The successor watch",
        "",
        "Each engine's newest release builds each language of the site (`python -m site_tools.build.successor`); the",
        "rows are what the site needs. MkDocs 1.6 with Material 9.8 passes every row (tests/test_successor.py).",
        "",
        "| | " + " | ".join(heads) + " |",
        "|---|" + "---|" * len(trials),
        "| build | " + " | ".join(builds) + " |",
    ]
    for name in dict.fromkeys(c.name for t in trials for c in t.checks):
        checks = [next((c for c in t.checks if c.name == name), None) for t in trials]
        cells = ["—" if c is None else ("yes" if c.ok else "no") + (f": {c.note}" if c.note else "") for c in checks]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    errors = [f"- **{t.engine} · {t.lang}**: {t.error}" for t in trials if t.error]
    if errors:
        out += ["", "Errors:", "", *errors]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_tools.build.successor", description=__doc__)
    parser.add_argument("--engine", choices=sorted(ENGINES), action="append", help="default: every one")
    parser.add_argument("--lang", choices=sorted(layout.CONFIGS), action="append", help="default: every one")
    parser.add_argument("--out", type=Path, default=Path("successor-report.md"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pe-docs-successor-") as work:
        trials = [
            trial(name, lang, Path(work))
            for name in (args.engine or sorted(ENGINES))
            for lang in (args.lang or list(layout.CONFIGS))
        ]
    text = report(trials)
    args.out.write_text(text, encoding="utf-8")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as fd:
            fd.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
