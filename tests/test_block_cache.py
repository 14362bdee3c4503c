"""When a page block's test may pass without running (``tests/harness/block_cache.py``, ``passed_before``).

A block runs again when its code, the blocks it continues, what it must print, its marks, the library or the
environment change; never when only a comment changed; never when caching is off; and a block that failed is never
remembered. The last test runs pytest on a small page twice over, and watches what actually ran.
"""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from harness import block_cache
from pytest_codeblocks.main import extract_from_buffer

from site_tools import ROOT
from site_tools.build import figures, kernels
from site_tools.cache import ENV as CACHE_ENV
from site_tools.cache import NO_CACHE_ENV

PAGE = """# A page

```python
x = 1
```

<!--pytest-codeblocks:cont-->
```python
assert x + 1 == 2  # one more
```

```python
print(2 * 3)
```

<!--pytest-codeblocks:expected-output-->
```text
6
```
"""


def blocks(text: str) -> list[Any]:
    """The tests pytest-codeblocks makes of a page's python blocks (a block with those that continue it is one)."""
    return [b for b in extract_from_buffer(StringIO(text)) if b.syntax == "python"]


def keys(text: str) -> list[str]:
    return [block_cache.key_of(b) for b in blocks(text)]


@pytest.fixture
def empty_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty cache of the test's own, caching on; the environment digest computed again."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(NO_CACHE_ENV, raising=False)
    kernels.environment_digest.cache_clear()
    yield tmp_path / "cache"
    kernels.environment_digest.cache_clear()


def test_the_page_makes_two_tests() -> None:
    first, second = blocks(PAGE)
    assert first.code == "x = 1\nassert x + 1 == 2  # one more\n" and second.expected_output == "6\n"


def test_a_block_runs_again_when_its_code_changes_not_its_comments(empty_cache: Path) -> None:
    before = keys(PAGE)
    assert keys(PAGE.replace("print(2 * 3)", "print(3 * 2)"))[1] != before[1]
    assert keys(PAGE.replace("# one more", "# 再加一"))[0] == before[0]  # the Chinese page's copy is the same test
    assert keys(PAGE.replace("# A page", "# Another title\n\nProse changed."))[:2] == before


def test_a_block_runs_again_when_a_block_it_continues_changes(empty_cache: Path) -> None:
    """The test of a continued block holds every block of the chain: changing the first changes the test."""
    before = keys(PAGE)
    changed = keys(PAGE.replace("x = 1", "x = 1.0"))
    assert changed[0] != before[0] and changed[1] == before[1]


def test_a_block_runs_again_when_what_it_prints_or_its_marks_change() -> None:
    block = blocks(PAGE)[1]
    key = block_cache.key_of(block)
    assert kernels.block_key(block.code, "7\n", False, block.marks) != key
    assert kernels.block_key(block.code, block.expected_output, True, block.marks) != key
    assert kernels.block_key(block.code, block.expected_output, False, ["pytest.mark.skip"]) != key


def test_a_block_runs_again_when_the_rule_that_passes_it_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """This plugin and the assertions' reader decide that a block passed (every assertion ran, none is weak): a
    change to either (``block_cache.RULES``) runs every block again."""
    before = keys(PAGE)
    monkeypatch.setattr(block_cache, "RULES", "another rule")
    assert set(keys(PAGE)).isdisjoint(before)


def test_a_block_runs_again_when_the_library_changes(empty_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = keys(PAGE)
    monkeypatch.setattr(figures, "source_digest", lambda: "another pe_docs")
    kernels.environment_digest.cache_clear()
    assert set(keys(PAGE)).isdisjoint(before)


@pytest.mark.parametrize(
    "change",
    ["MKL_CBWR", "threads", "python", "pins"],
)
def test_a_block_runs_again_when_the_environment_changes(
    empty_cache: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    import torch

    before = keys(PAGE)
    if change == "MKL_CBWR":
        monkeypatch.setenv("MKL_CBWR", "AVX2" if os.environ.get("MKL_CBWR") != "AVX2" else "COMPATIBLE")
    elif change == "threads":
        monkeypatch.setattr(torch, "get_num_threads", lambda: 64)
    elif change == "python":
        monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    else:
        real = Path.read_text

        def read_text(path: Path, *args: Any, **kwargs: Any) -> str:
            text = real(path, *args, **kwargs)
            return text + "\nanother==1.0\n" if path.name == "requirements.txt" else text

        monkeypatch.setattr(Path, "read_text", read_text)
    kernels.environment_digest.cache_clear()
    assert set(keys(PAGE)).isdisjoint(before), change


def test_the_rule_reads_the_record_only_when_caching_is_on(empty_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    block = blocks(PAGE)[0]
    assert block_cache.passed_before(block) is None
    block_cache.remember(block)
    record = block_cache.passed_before(block)
    assert record is not None and record.is_relative_to(empty_cache)
    monkeypatch.setenv(NO_CACHE_ENV, "1")
    assert block_cache.passed_before(block) is None
    block_cache.remember(blocks(PAGE)[1])  # nothing remembered with caching off
    monkeypatch.delenv(NO_CACHE_ENV)
    assert block_cache.passed_before(blocks(PAGE)[1]) is None


def _run_pytest(folder: Path, cache: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """pytest with only the block cache's plugin, on ``folder/page.md``, with the cache in ``cache``."""
    environ = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}", CACHE_ENV: str(cache)}
    environ.pop(NO_CACHE_ENV, None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(folder / "pytest.ini"), "-p", "harness.block_cache", "-q",
         "--codeblocks", "page.md"],
        cwd=folder, env={**environ, **env}, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def test_a_run_reuses_only_what_passed_with_the_same_code(tmp_path: Path) -> None:
    """pytest on a page, several times: each block writes a line to a log when it actually runs."""
    log = tmp_path / "ran.log"
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    page = tmp_path / "page.md"

    def write(a: str, b: str) -> None:
        page.write_text(
            f"# P\n\n```python\nopen({str(log)!r}, 'a').write('a\\n')\nassert {a}\n```\n\n"
            f"```python\nopen({str(log)!r}, 'a').write('b\\n')\nassert {b}\n```\n",
            encoding="utf-8",
        )

    def ran() -> list[str]:
        lines = log.read_text(encoding="utf-8").split() if log.exists() else []
        log.unlink(missing_ok=True)
        return lines

    cache = tmp_path / "cache"
    write("1 == 1", "2 == 3")
    first = _run_pytest(tmp_path, cache)
    assert first.returncode == 1 and ran() == ["a", "b"]  # both ran; b failed
    second = _run_pytest(tmp_path, cache)
    assert second.returncode == 1 and ran() == ["b"], second.stdout  # a reused; b was not remembered: it runs
    assert "1 page blocks and 0 notebook runs had passed" in second.stdout
    write("1 == 1", "3 == 3")
    assert _run_pytest(tmp_path, cache).returncode == 0 and ran() == ["b"]  # b's code changed
    assert _run_pytest(tmp_path, cache).returncode == 0 and ran() == []  # nothing changed: nothing runs
    off = _run_pytest(tmp_path, cache, **{NO_CACHE_ENV: "1"})  # caching off: every block runs
    assert off.returncode == 0 and ran() == ["a", "b"]


def test_a_failing_block_is_reported_at_its_page_line(tmp_path: Path) -> None:
    """pytest-codeblocks names only a chain's first fence and drops the blank lines of an indented fence;
    ``failing_line`` names the page line the code failed on, in the block that continues it, inside a box."""
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\n```python\nx = 1\n\ny = 2\n```\n\n"
        '??? note "Check"\n    <!--pytest-codeblocks:cont-->\n    ```python\n    z = x + y\n\n    assert z == 4, "z"\n'
        "    ```\n",
        encoding="utf-8",
    )
    (block,) = [b for b in extract_from_buffer(StringIO(page.read_text(encoding="utf-8"))) if b.syntax == "python"]
    try:
        try:
            exec(block.code, {})
        except Exception:  # wrapped as pytest-codeblocks wraps it: the error in __context__
            raise RuntimeError("line 3, line 3: ...")  # noqa: B904
    except RuntimeError as error:
        item: Any = type("Item", (), {"path": page, "obj": block})()
        assert block_cache.failing_line(item, error) == f'{page}:14: assert z == 4, "z"\nAssertionError: z'


def test_a_shell_block_fails_without_running(tmp_path: Path) -> None:
    """pytest-codeblocks runs a ```bash block as shell commands; on a page it fails and its commands never run."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    ran = tmp_path / "ran"
    (tmp_path / "page.md").write_text(f"# P\n\n```bash\ntouch {ran}\n```\n", encoding="utf-8")
    result = _run_pytest(tmp_path, tmp_path / "cache")
    assert result.returncode == 1 and not ran.exists(), result.stdout
    assert "```bash blocks are not run; show commands as ```console" in result.stdout


def test_a_block_fails_when_an_assertion_of_it_never_ran(tmp_path: Path) -> None:
    """An assertion in a function no block calls, or under an ``if`` never true, fails the block at its page line;
    a block whose assertions all ran passes, and so does a call of a function that asserts."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "page.md").write_text(
        "# P\n\n```python\ndef check(x):\n    assert x > 0\n\n\nx = 1\nif x > 5:\n    assert x == 6\n"
        "assert (\n    x == 1\n)\n```\n\n"
        "```python\ndef check(x):\n    assert x > 0\n\n\ncheck(2)\nfor k in []:\n    assert k\n```\n\n"
        "```python\ndef check(x):\n    assert x > 0\n\n\ncheck(2)\n```\n",
        encoding="utf-8",
    )
    result = _run_pytest(tmp_path, tmp_path / "cache")
    assert result.returncode == 1 and "2 failed, 1 passed" in result.stdout, result.stdout
    assert "these never ran" in result.stdout
    for line in ["page.md:5: assert x > 0", "page.md:10: assert x == 6", "page.md:23: assert k"]:
        assert line in result.stdout, (line, result.stdout)
    assert "page.md:11" not in result.stdout  # the assertion over three lines ran
