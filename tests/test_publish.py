"""Publishing without building the site: addresses, configs, source maps, deploy, CI workflows, API pages."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

from site_tools import ROOT, finish, layout, pages
from site_tools.build import engine, publish

PAGES_ADDRESS = "https://pe-docs.github.io/pe-docs/"
REPOSITORY = "https://github.com/pe-docs/pe-docs"


# --- addresses ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.org/some/path/", "https://example.org/some/path/"),
        ("https://example.org/some/path", "https://example.org/some/path/"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000/"),
    ],
)
def test_site_url_gets_a_trailing_slash(url: str, expected: str) -> None:
    assert layout.check_site_url(url) == expected


@pytest.mark.parametrize("url", ["/pe-docs/", "example.org/docs/", "ftp://example.org/", "https://x.org/?a=1", ""])
def test_site_url_must_be_an_absolute_http_address(url: str) -> None:
    with pytest.raises(ValueError, match="site_url must be an absolute http"):
        layout.check_site_url(url)


def test_languages_live_under_the_english_address() -> None:
    assert layout.language_url("https://example.org/some/path/", "en") == "https://example.org/some/path/"
    assert layout.language_url("https://example.org/some/path", "zh") == "https://example.org/some/path/zh/"
    with pytest.raises(ValueError, match="lang must be a language code"):
        layout.language_url("https://example.org/", "../x")


def test_address_comes_from_argument_then_environment_then_mkdocs_yml(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(layout.SITE_URL_ENV, raising=False)
    assert layout.configured_site_url() == PAGES_ADDRESS
    assert layout.public_url() == PAGES_ADDRESS
    monkeypatch.setenv(layout.SITE_URL_ENV, "https://example.org/some/path")
    assert layout.public_url() == "https://example.org/some/path/"
    assert layout.public_url("http://127.0.0.1:9/x/") == "http://127.0.0.1:9/x/"
    monkeypatch.setenv(layout.SITE_URL_ENV, "")  # an empty variable (CI without Pages) means "not set"
    assert layout.public_url() == PAGES_ADDRESS


def test_only_mkdocs_yml_names_the_address() -> None:
    """One source of truth: the Chinese config does not set site_url; site_tools.build.engine.load derives it."""
    assert "site_url" not in yaml.safe_load((ROOT / "mkdocs.zh.yml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("env", "expected"),
    [(None, PAGES_ADDRESS), ("https://example.org/some/path/", "https://example.org/some/path/")],
)
def test_configs_at_their_public_address(monkeypatch: pytest.MonkeyPatch, env: str | None, expected: str) -> None:
    if env is None:
        monkeypatch.delenv(layout.SITE_URL_ENV, raising=False)
    else:
        monkeypatch.setenv(layout.SITE_URL_ENV, env)
    for lang in pages.LANGS:
        config = engine.load(lang)
        assert config.site_url == (expected if lang == "en" else expected + f"{lang}/")
        # "Edit this page" / "View source" without repo_url (its widget calls api.github.com on every page load)
        assert config.repo_url is None
        assert config.edit_uri == f"{REPOSITORY}/edit/main/docs/{lang}/"
        assert Path(config.docs_dir) == ROOT / "docs" / lang
        assert {"content.action.edit", "content.action.view"} <= set(config.theme["features"])
        assert config.plugins["git-revision-date-localized"].config["fallback_to_build_date"] is True


def test_alternates_get_absolute_addresses() -> None:
    alternates = [{"name": "English", "link": "../", "lang": "en"}, {"name": "中文", "link": "./", "lang": "zh"}]
    out = layout.alternate_links("https://example.org/p/zh/", alternates)
    assert [(a["lang"], a["url"], a["path"]) for a in out] == [
        ("en", "https://example.org/p/", "/p/"),
        ("zh", "https://example.org/p/zh/", "/p/zh/"),
    ]
    assert layout.alternate_links(None, alternates) == alternates


# --- page weight ---------------------------------------------------------------------------------------------------


def test_source_maps_and_their_comments_are_dropped(tmp_path: Path) -> None:
    js = tmp_path / "assets/javascripts/bundle.min.js"
    js.parent.mkdir(parents=True)
    js.write_text("var a=1;\n//# sourceMappingURL=bundle.min.js.map\n", encoding="utf-8")
    (tmp_path / "assets/javascripts/bundle.min.js.map").write_text("{}", encoding="utf-8")
    css = tmp_path / "assets/main.css"
    css.write_text("a{}\n/*# sourceMappingURL=main.css.map */", encoding="utf-8")
    keep = tmp_path / "assets/other.js"
    keep.write_text("var sourceMappingURL = 1;\n", encoding="utf-8")
    assert finish.drop_source_maps(tmp_path) == ["assets/javascripts/bundle.min.js.map"]
    assert js.read_text(encoding="utf-8") == "var a=1;\n"
    assert css.read_text(encoding="utf-8") == "a{}\n"
    assert keep.read_text(encoding="utf-8") == "var sourceMappingURL = 1;\n"


# --- make deploy ---------------------------------------------------------------------------------------------------


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def test_deploy_commits_the_site_to_gh_pages_and_pushes_only_when_asked(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    _git(tmp_path, "init", "--bare", "-q", str(remote))
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "start")
    _git(repo, "remote", "add", "origin", str(remote))
    built = tmp_path / "site"
    for rel in ("index.html", "404.html", "zh/index.html", "assets/_mkdocstrings.css"):
        (built / rel).parent.mkdir(parents=True, exist_ok=True)
        (built / rel).write_text(rel, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        for key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
            value = "t@t" if key.endswith("EMAIL") else "t"
            mp.setenv(key, value)
        message = publish.deploy(built, repo=repo)
        tree = set(_git(repo, "ls-tree", "-r", "--name-only", "gh-pages").split())
        assert tree == {".nojekyll", "index.html", "404.html", "zh/index.html", "assets/_mkdocstrings.css"}
        assert message in _git(repo, "log", "-1", "--format=%s", "gh-pages")
        assert _git(remote, "branch", "--list") == ""  # nothing pushed
        publish.deploy(built, repo=repo, push=True)
        assert "gh-pages" in _git(remote, "branch", "--list")
    with pytest.raises(FileNotFoundError, match="build the site first"):
        publish.deploy(tmp_path / "empty", repo=repo)


def test_make_deploy_pushes_only_with_push_1() -> None:
    dry = subprocess.run(["make", "-n", "deploy"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    dry_push = subprocess.run(
        ["make", "-n", "deploy", "PUSH=1"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "-m site_tools.build" in dry and "-m site_tools.build.publish" in dry
    assert "--push" not in dry and "site_tools.build.publish --push" in dry_push
    site_cmd = subprocess.run(["make", "-n", "site"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "-m site_tools.build" in site_cmd


def test_make_pdf_builds_the_site_then_the_books_into_it() -> None:
    """`make pdf` (what the publish job runs after `make site`) writes each language's PDF into the built site,
    which the job uploads whole; the README says where."""
    from site_tools import book

    dry = subprocess.run(["make", "-n", "pdf"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert dry.index("-m site_tools.build") < dry.index("-m site_tools.book")
    assert {book.pdf_path(lang) for lang in pages.LANGS} == {"pe-docs.en.pdf", "zh/pe-docs.zh.pdf"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make pdf" in readme and "site/pe-docs.en.pdf" in readme and "site/zh/pe-docs.zh.pdf" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "poppler-utils" in ci and "poppler-utils" in (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")


# --- the CI workflow -----------------------------------------------------------------------------------------------


def _workflow(name: str = "site.yml") -> dict:
    assert {p.name for p in (ROOT / ".github" / "workflows").glob("*.yml")} == {
        "site.yml",
        "upstream.yml",
        "successor.yml",
    }
    data = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def _uses(job: dict, action: str) -> dict:
    steps = [s for s in job["steps"] if s.get("uses", "").split("@")[0] == action]
    assert len(steps) == 1, f"{action} should appear once in {job['steps']}"
    return steps[0]


def test_workflow_tests_every_push_and_pull_request_with_the_readme_command() -> None:
    wf = _workflow()
    assert {"push", "pull_request"} <= set(wf["on"])
    assert not (wf["on"]["push"] or {}).get("branches") and not (wf["on"]["pull_request"] or {}).get("branches")
    test = wf["jobs"]["test"]
    assert "if" not in test
    assert _uses(test, "actions/checkout").get("with", {}).get("fetch-depth") == 0  # git dates need history
    assert [s["run"] for s in test["steps"] if "run" in s] == ["bash .ci/run"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci and "chromium" in ci and "fonts-wqy-microhei" in ci
    assert "make test" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")], check=False).returncode == 0


def test_workflow_deploys_main_to_github_pages_with_make_site() -> None:
    jobs = _workflow()["jobs"]
    build, deploy = jobs["build"], jobs["deploy"]
    assert "refs/heads/main" in build["if"] and "push" in build["if"] and build["needs"] == "test"
    assert _uses(build, "actions/checkout").get("with", {}).get("fetch-depth") == 0
    pages_step = _uses(build, "actions/configure-pages")
    (make_site,) = [s for s in build["steps"] if "run" in s]
    assert make_site["run"] == "bash .ci/run site pdf"  # the site, then its PDFs into it (site_tools/book/)
    assert make_site["env"]["SITE_URL"] == "${{ steps." + pages_step["id"] + ".outputs.base_url }}"
    assert build["steps"].index(pages_step) < build["steps"].index(make_site)
    assert _uses(build, "actions/upload-pages-artifact")["with"]["path"].rstrip("/") == "site"
    assert deploy["needs"] == "build"
    assert {"pages": "write", "id-token": "write"}.items() <= deploy["permissions"].items()
    _uses(deploy, "actions/deploy-pages")
    assert all("run" not in s for s in deploy["steps"])


def test_upstream_tier_runs_after_make_test_and_weekly_against_the_newest_releases() -> None:
    """.ci/run runs the pinned tier after `make test`; upstream.yml runs it every week with the newest releases,
    torch from PyTorch's CPU wheels as in site.yml; the README says how to run it."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.split("#")[0].strip() for line in ci.splitlines() if line.strip().startswith("make ")]
    assert commands[-2:] == ["make test", "make test-upstream"]
    wf = _workflow("upstream.yml")
    assert set(wf["on"]) == {"schedule", "workflow_dispatch"}  # not on push: the pinned tier runs there
    (schedule,) = wf["on"]["schedule"]
    _minute, _hour, day, month, weekday = schedule["cron"].split()
    assert (day, month) == ("*", "*") and weekday.isdigit()  # once a week
    assert wf["permissions"] == {"contents": "read"}
    assert wf["env"]["PIP_EXTRA_INDEX_URL"] == _workflow()["env"]["PIP_EXTRA_INDEX_URL"]
    assert wf["env"]["PIP_EXTRA_INDEX_URL"] == "https://download.pytorch.org/whl/cpu"
    (job,) = wf["jobs"].values()
    assert job["container"] == _workflow()["jobs"]["test"]["container"] and job["timeout-minutes"] <= 30
    _uses(job, "actions/checkout")
    assert [s["run"] for s in job["steps"] if "run" in s] == ["make test-upstream LATEST=1"]
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "test-upstream:\n\tbash scripts/test-upstream.sh $(if $(LATEST),--latest,)\n" in make
    script = ROOT / "scripts" / "test-upstream.sh"
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
    text = script.read_text(encoding="utf-8")
    assert "HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1" in text and "--no-deps -r requirements-upstream.txt" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test-upstream" in readme and "make test-upstream LATEST=1" in readme


def test_successor_watch_runs_weekly_never_blocks_and_reports() -> None:
    """successor.yml builds both languages with the newest Zensical and ProperDocs every week
    (site_tools.build.successor): not on push, read-only, allowed to fail, its report in the run's summary (the script
    writes it) and artifact; the README says the plan."""
    wf = _workflow("successor.yml")
    assert set(wf["on"]) == {"schedule", "workflow_dispatch"}
    (schedule,) = wf["on"]["schedule"]
    _minute, _hour, day, month, weekday = schedule["cron"].split()
    assert (day, month) == ("*", "*") and weekday.isdigit()
    assert wf["permissions"] == {"contents": "read"}
    (job,) = wf["jobs"].values()
    assert job["continue-on-error"] is True and job["timeout-minutes"] <= 60
    assert job["container"] == _workflow()["jobs"]["test"]["container"]
    runs = [s["run"] for s in job["steps"] if "run" in s]
    assert runs[0] == "bash .ci/run setup"
    install = next(r for r in runs if "pip install" in r)
    assert "--upgrade zensical properdocs" in install and "==" not in install  # the newest releases
    assert runs[-1].startswith(".venv/bin/python -m site_tools.build.successor --out ")
    report = runs[-1].split("--out ", 1)[1].strip()
    upload = _uses(job, "actions/upload-artifact")
    assert upload["if"] == "always()" and upload["with"]["path"] == report
    source = (ROOT / "site_tools" / "build" / "successor.py").read_text(encoding="utf-8")
    assert "GITHUB_STEP_SUMMARY" in source and set(("zensical", "properdocs")) <= set(
        re.findall(r'"(\w+)": \[', source)
    )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "successor.yml" in readme and "Zensical" in readme and "5 May 2027" in readme


def test_upstream_pins_are_exact_and_torch_is_the_sites() -> None:
    """requirements-upstream.txt pins every package exactly (read_pins refuses anything else), torch at the same
    version as requirements.txt (the CPU wheel; a looser spec pulls a CUDA build)."""
    from site_tools.versions import read_pins

    pins = read_pins()
    site = dict(
        line.split("==", 1) for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.startswith("#")
    )  # fmt: skip
    assert pins["torch"].version == site["torch"] == "2.13.0"
    tier = {name for name, pin in pins.items() if pin.tier}
    assert {"torch", "transformers", "diffusers", "openai-whisper", "keras-hub", "x-transformers", "pytest"} <= tier
    assert pins["keras-hub"].no_deps and pins["keras-hub"].without == ("tensorflow-text",)
    assert pins["openai-whisper"].no_deps and pins["openai-whisper"].without == ("triton",)


# --- pins and API pages -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "package", ["mkdocs-git-revision-date-localized-plugin", "mkdocs-glightbox", "GitPython", "selectolax"]
)
def test_new_packages_are_pinned_exactly(package: str) -> None:
    from importlib.metadata import version

    pins = dict(
        line.split("==", 1)
        for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.startswith("#")
    )
    assert pins.get(package) == version(package), f"requirements.txt should pin {package}=={version(package)}"


API_DIRECTIVE = re.compile(r"^::: (pe_docs(?:\.\w+)*)\s*$", re.M)


def test_every_public_name_is_on_exactly_one_api_page() -> None:
    """The API reference is split over several pages (each page under 300 KB): nothing may fall through."""
    import pe_docs

    documented: dict[str, list[str]] = {}
    for lang in pages.LANGS:
        found = []
        for path in sorted((ROOT / "docs" / lang).glob("api*.md")):
            found += [(name, path.name) for name in API_DIRECTIVE.findall(path.read_text(encoding="utf-8"))]
        documented[lang] = sorted(found)
    assert documented["en"] == documented["zh"], "both languages document the same names on the same pages"
    names = [name for name, _ in documented["en"]]
    assert "pe_docs.plotting" in names
    members = [name.removeprefix("pe_docs.") for name in names if name != "pe_docs.plotting"]
    duplicated = sorted({n for n in members if members.count(n) > 1})
    # the public face by its own name; pe_docs.analysis's names and pe_docs.variants' own by theirs
    import pe_docs.analysis
    import pe_docs.variants

    public = set(pe_docs.__all__)
    expected = public | {f"analysis.{n}" for n in pe_docs.analysis.__all__}
    expected |= {f"variants.{n}" for n in set(pe_docs.variants.__all__) - public}
    missing = sorted(expected - set(members))
    assert not missing, f"add `::: pe_docs.<name>` to one of docs/{{en,zh}}/api*.md for: {missing}"
    assert not duplicated and set(members) <= expected, (duplicated, set(members) - expected)
    api = {name.removeprefix("pe_docs."): page for name, page in documented["en"]}
    assert all(api[name] == "api.md" for name in public), "the public face is the reference's first page"


# --- the contributor's front door on GitHub -----------------------------------------------------------------------


def test_contributing_md_points_to_the_guide_and_the_one_page_check() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert "docs/en/contributing.md" in links and "docs/zh/contributing.md" in links
    assert all((ROOT / link).is_file() for link in links if not link.startswith("http"))
    assert f"{PAGES_ADDRESS}contributing/" in links
    assert "make check PAGE=<slug>" in text and "make test" in text and "make serve" in text
    from site_tools.browser import PHONE

    assert f"{PHONE['width']} px" in text  # the phone width the browser tests use


def test_pull_request_template_holds_the_checklist() -> None:
    text = (ROOT / ".github" / "PULL_REQUEST_TEMPLATE.md").read_text(encoding="utf-8")
    boxes = re.findall(r"^- \[ \] (.+?)(?=^- \[ \]|^\S|\Z)", text, flags=re.M | re.S)
    joined = [" ".join(box.split()) for box in boxes]
    for needed in ("docs/en/", "docs/zh/", "make check PAGE=<slug>", "asserted", "Screenshots", "make test"):
        assert any(needed in box for box in joined), needed
    assert any("site_tools/build/engine.py" in box for box in joined)


def _form(name: str) -> dict:
    return yaml.safe_load((ROOT / ".github" / "ISSUE_TEMPLATE" / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("name", "title"),
    [("number-or-claim.yml", "A number or claim looks wrong"), ("chinese-reads-wrong.yml", "The Chinese reads wrong")],
)
def test_issue_forms_ask_for_the_page_and_the_line(name: str, title: str) -> None:
    """GitHub's issue forms: a name, a description, labels, and required fields for the page and the line."""
    form = _form(name)
    assert form["name"] == title and form["description"] and form["labels"]
    fields = {item["id"]: item for item in form["body"] if "id" in item}
    assert len(fields) == len([item for item in form["body"] if item["type"] != "markdown"])  # every field has an id
    for field in ("page", "line"):
        assert fields[field]["type"] == "input" and fields[field]["validations"]["required"] is True, field
    assert all(item["type"] in {"markdown", "input", "textarea", "dropdown", "checkboxes"} for item in form["body"])
    assert all(item["attributes"].get("label") for item in fields.values())
    assert any(item["type"] == "textarea" and item["validations"]["required"] for item in fields.values())


def test_issue_chooser_links_the_guide() -> None:
    config = _form("config.yml")
    assert {link["url"] for link in config["contact_links"]} == {f"{PAGES_ADDRESS}contributing/"}
    assert sorted(p.name for p in (ROOT / ".github" / "ISSUE_TEMPLATE").iterdir()) == [
        "chinese-reads-wrong.yml",
        "config.yml",
        "number-or-claim.yml",
    ]
