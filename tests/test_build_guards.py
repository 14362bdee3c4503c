"""The quiet failure modes of the toolchain each make the build fail (or a check go red).

Each test builds a throwaway site from the real mkdocs.yml (same plugins, hooks and validation) with one
defect planted: a link to a missing anchor, a figure drawn with a missing glyph.
The broken links and anchors go through the very path of ``make site`` and ``make test``
(``python -m site_tools.build``: ``build.main([])`` → ``build.build()`` with its defaults), never
with ``strict`` passed by the test, so a build path that stopped being strict turns these tests red.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from site_tools import ROOT
from site_tools.build import engine, preview
from site_tools.build import site as site_build

pytestmark = pytest.mark.site


def plant(tmp_path: Path, pages: dict[str, str], nav: list[str]) -> dict[str, object]:
    """Write a throwaway docs dir; return the config options that point a build at it (never ``strict``)."""
    docs = tmp_path / "docs"
    docs.mkdir(parents=True)
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")
    return {"docs_dir": str(docs), "site_dir": str(tmp_path / "site"), "nav": nav}


BROKEN_LINK = {"index.md": "# Home\n\nSee [missing](missing.md).\n"}
BROKEN_ANCHOR = {"index.md": "# Home\n\nSee [there](other.md#no-such-heading).\n", "other.md": "# Other\n\n## Real\n"}


@pytest.mark.parametrize(
    ("pages", "nav"), [(BROKEN_LINK, ["index.md"]), (BROKEN_ANCHOR, ["index.md", "other.md"])], ids=["link", "anchor"]
)
def test_default_build_aborts_on_a_broken_link(tmp_path: Path, pages: dict[str, str], nav: list[str]) -> None:
    """``build.build()`` with its defaults (strict not passed) is the build of ``make site``: it must abort."""
    with pytest.raises(Abort, match="in strict mode"):
        site_build.build(("en",), overrides=plant(tmp_path, pages, nav))


def test_make_site_command_aborts_on_a_broken_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m site_tools.build`` itself: only where the config points is changed, not its strictness."""
    import mkdocs.config

    options = plant(tmp_path, BROKEN_LINK, ["index.md"])
    real_load_config = mkdocs.config.load_config
    seen: list[dict[str, object]] = []

    def redirected(config_file: str | None = None, **kwargs: object) -> object:
        assert config_file == str(ROOT / "mkdocs.yml")
        assert not set(options) & set(kwargs)
        seen.append(dict(kwargs))
        return real_load_config(config_file, **kwargs, **options)

    monkeypatch.setattr(mkdocs.config, "load_config", redirected)
    with pytest.raises(Abort, match="in strict mode"):
        site_build.main(["--lang", "en"])
    assert len(seen) == 1 and seen[0].get("strict") is not False


def test_make_site_runs_the_default_build() -> None:
    """``make site`` is the command the two tests above run: no flag that could change the strictness."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^site: .*\n\t\$\(PY\) -m site_tools\.build\n", makefile, flags=re.M)


@pytest.mark.parametrize("config", ["mkdocs.yml", "mkdocs.zh.yml"])
def test_config_files_are_strict(config: str) -> None:
    """Strict in the files too, so that a plain ``mkdocs build -f mkdocs.yml`` is strict as well."""
    assert load_config(config_file=str(ROOT / config))["strict"] is True


def test_build_does_not_let_overrides_set_strict(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="overrides must not set strict"):
        site_build.build(("en",), overrides={"strict": False, **plant(tmp_path, BROKEN_LINK, ["index.md"])})


def test_serve_builds_without_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``make serve`` keeps serving while a page is edited: its builds (the first, full rebuilds and page-only
    rebuilds, all done by its per-language workers) are not strict and are for the address it serves (like
    ``mkdocs serve``), and a non-strict build of a broken link writes the site instead of aborting."""
    import mkdocs.livereload

    class StoppedError(Exception):
        pass

    loads: list[tuple[str, dict[str, object]]] = []

    def fake_load(lang: str, **kwargs: object) -> object:
        loads.append((lang, kwargs))
        raise StoppedError

    monkeypatch.setattr(engine, "load", fake_load)
    local = "http://127.0.0.1:8000/"
    for dirty in (False, True):  # what a worker runs for a full and for a page-only rebuild
        with pytest.raises(StoppedError):
            preview._LanguageState("zh", local).build(dirty=dirty)
    assert [(lang, kwargs["strict"], kwargs["site_url"]) for lang, kwargs in loads] == [("zh", False, local)] * 2

    requests: list[tuple[str, dict[str, object]]] = []
    addresses: list[tuple[str, str]] = []

    class FakeWorker:
        def __init__(self, lang: str, site_url: str) -> None:
            self.lang = lang
            addresses.append((lang, site_url))

        def send(self, **request: object) -> None:
            requests.append((self.lang, request))

        def receive(self) -> tuple[str, object]:
            return ("error", "not built in this test")

        def stop(self) -> None:
            pass

    class FakeServer:
        url = "http://127.0.0.1:0/"

        def __init__(self, *, builder: object, **kwargs: object) -> None:
            self.builder = builder

        def watch(self, path: str) -> None:
            pass

        def serve(self) -> None:
            self.builder()  # what a change to a watched file does

        def shutdown(self) -> None:
            pass

    monkeypatch.setattr(preview, "_Worker", FakeWorker)
    monkeypatch.setattr(mkdocs.livereload, "LiveReloadServer", FakeServer)
    preview.serve()
    assert requests == [("en", {"dirty": False}), ("zh", {"dirty": False})]  # the first build: both, in full
    assert addresses == [("en", local), ("zh", local)]  # built for the address it serves
    monkeypatch.undo()
    site_build.build(("en",), strict=False, overrides=plant(tmp_path, BROKEN_LINK, ["index.md"]))
    assert (tmp_path / "site" / "index.html").exists()


def test_chinese_headings_get_readable_anchors(tmp_path: Path) -> None:
    """Also the control of the tests above: a site without a defect passes the same default build."""
    site_build.build(
        ("en",), overrides=plant(tmp_path, {"index.md": "# 首页\n\n## 为什么需要位置编码\n"}, ["index.md"])
    )
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'id="为什么需要位置编码"' in html


def test_parallel_build_is_strict_in_every_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``make site`` builds the Chinese site in another process (``build()``'s default ``parallel=True``). That
    build gets the same defaults — strict, the one resolved address (Chinese at ``<address>zh/``), the output
    folder given — and a broken build of both languages aborts and leaves the previous site exactly as it was."""
    import concurrent.futures

    submitted: list[tuple[str, dict[str, object]]] = []

    class RecordingPool(concurrent.futures.ProcessPoolExecutor):  # the real pool; only the requests are noted
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
            submitted.append((args[0], {**getattr(fn, "keywords", {}), **kwargs}))  # a partial's arguments too
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", RecordingPool)
    out = tmp_path / "site"
    address = "https://example.org/sub/path/"
    good = plant(tmp_path / "good", {"index.md": "# Home\n\n## Part\n"}, ["index.md"])
    good.pop("site_dir")
    timings = site_build.build(site_url=address, site_dir=out, overrides=good)
    assert sorted(timings) == ["en", "zh"]
    assert [(lang, kwargs["strict"], kwargs["site_url"], kwargs["site_dir"]) for lang, kwargs in submitted] == [
        ("zh", True, address, out)
    ]
    zh_home = (out / "zh" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{address}zh/">' in zh_home
    before = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    broken = plant(tmp_path / "broken", BROKEN_LINK, ["index.md"])
    broken.pop("site_dir")
    with pytest.raises(Abort, match="in strict mode"):
        site_build.build(site_url=address, site_dir=out, overrides=broken)
    assert submitted[-1][1]["strict"] is True
    after = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before  # the failed build changed nothing, and left no staging folder behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken", "good", "site"]


@pytest.mark.browser
def test_a_tarball_without_git_still_builds(release_site: dict[str, Any]) -> None:
    """A copy of the sources without .git (a release tarball, `git archive`: ``release_copy``,
    tests/harness/scratch.py, which also holds a new chapter) builds strictly: the "Last update" date falls back to
    the build date instead of failing (git-revision-date-localized, fallback_to_build_date)."""
    import datetime as dt
    import subprocess

    from babel.dates import format_date

    src, out, result = release_site["dir"], release_site["site"], release_site["build"]
    assert subprocess.run(["git", "rev-parse"], cwd=src, capture_output=True, check=False).returncode != 0
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    html = (out / "formula" / "index.html").read_text(encoding="utf-8")
    today = dt.datetime.now(dt.UTC).date()
    shown = {format_date(d, format="long", locale="en") for d in (today, today - dt.timedelta(days=1))}
    dates = [d for d in shown if f">{d}</span>" in html]
    assert dates, "the page shows the build date as its last update"
    assert '<link rel="canonical" href="https://pe-docs.github.io/pe-docs/formula/">' in html

    # Served somewhere else than its public address (a local preview, a mirror), it still loads nothing from there:
    # the absolute canonical link is not fetched, and Material's sitemap requests (to each language's home, relative)
    # find the copy's sitemaps.
    from site_tools.browser import browser, serve_site

    with serve_site(out) as base, browser() as chromium:
        page = chromium.new_page()  # type: ignore[attr-defined]
        requests: list[str] = []
        errors: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(base + "formula/", wait_until="networkidle")
    assert [u for u in requests if not u.startswith((base, "data:"))] == [] and errors == [], (requests, errors)
