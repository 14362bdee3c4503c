"""How long the site takes to build, and how long an edit takes to show in the preview.

    python benchmarks/bench_site.py build     # cold (fresh process, empty .cache/) then warm `make site`
    python benchmarks/bench_site.py preview   # `make serve`, edit a paragraph of formula.md (zh, then en)
    python benchmarks/bench_site.py all

``build`` runs ``python -m site_tools.build`` (the recipe of ``make site``) in a fresh process, first with
``.cache/`` removed (cold), then again (warm), and reports wall-clock seconds and the CPU seconds of the build
and every process it started (notebook kernels, the other language's build).

``preview`` starts ``python -m site_tools.build.preview`` on a free port, waits for the first build, then for each
language appends a marker word to the first paragraph of ``docs/<lang>/formula.md`` and polls the served page
every 50 ms until its HTML contains the marker; the time from the write to that moment is the preview latency.
The page is restored afterwards (also on error or Ctrl-C) and the restore is timed the same way.

The machine's load average is printed with each result: these are wall-clock times on a shared machine.
Nothing here asserts a time; the numbers are for people.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import socket
import statistics
import string
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def timed_run(args: list[str]) -> tuple[float, float, int]:
    """Run ``args`` in ROOT; return (wall seconds, CPU seconds of it and its descendants, exit status)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode:
        print(err[-3000:], file=sys.stderr)
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode


def bench_build(rounds: int) -> None:
    command = [sys.executable, "-m", "site_tools.build"]
    for n in range(rounds):
        shutil.rmtree(ROOT / ".cache", ignore_errors=True)
        before = load()
        wall, cpu, rc = timed_run(command)
        print(f"cold build {n + 1}: {wall:6.1f} s wall, {cpu:6.1f} s CPU, exit {rc}   ({before} -> {load()})")
        before = load()
        wall, cpu, rc = timed_run(command)
        print(f"warm build {n + 1}: {wall:6.1f} s wall, {cpu:6.1f} s CPU, exit {rc}   ({before} -> {load()})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, OSError):
        return None


def wait_for(url: str, predicate: Callable[[str], bool], timeout: float) -> float:
    """Poll ``url`` every 50 ms until ``predicate(html)``; return the seconds waited."""
    start = time.perf_counter()
    while True:
        html = fetch(url)
        if html is not None and predicate(html):
            return time.perf_counter() - start
        if time.perf_counter() - start > timeout:
            raise TimeoutError(f"{url}: not updated after {timeout:.0f} s")
        time.sleep(0.05)


def first_paragraph_line(text: str) -> int:
    """Index of the last line of the first prose paragraph after the title."""
    lines = text.splitlines()
    in_front = lines[:1] == ["---"]
    for i, line in enumerate(lines):
        if in_front:
            in_front = not (i > 0 and line == "---")
            continue
        if line and re.match(r"[A-Za-z\u4e00-\u9fff*“]", line):
            j = i
            while j + 1 < len(lines) and lines[j + 1].strip():
                j += 1
            return j
    raise ValueError("no paragraph found")


def bench_preview(rounds: int, page: str = "formula") -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen(
        [sys.executable, "-m", "site_tools.build.preview", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    originals: dict[Path, bytes] = {}
    try:
        started = wait_for(base + f"zh/{page}/", lambda html: True, 900)
        wait_for(base + f"{page}/", lambda html: True, 60)
        time.sleep(2)  # let the watcher settle
        print(f"serve: first page served after {started:.1f} s   ({load()})")
        results: dict[str, list[float]] = {"zh": [], "en": []}
        for _ in range(rounds):
            for lang in ("zh", "en"):
                path = ROOT / "docs" / lang / f"{page}.md"
                original = originals.setdefault(path, path.read_bytes())
                marker = "previewmark" + "".join(random.choices(string.ascii_lowercase, k=8))
                lines = original.decode("utf-8").splitlines(keepends=True)
                i = first_paragraph_line(original.decode("utf-8"))
                lines[i] = lines[i].rstrip("\n") + f" {marker}\n"
                url = base + ("" if lang == "en" else "zh/") + f"{page}/"
                path.write_text("".join(lines), encoding="utf-8")
                seconds = wait_for(url, lambda html, m=marker: m in html, 300)
                results[lang].append(seconds)
                path.write_bytes(original)
                restore = wait_for(url, lambda html, m=marker: m not in html, 300)
                print(f"{lang}: edit shown after {seconds:5.2f} s, restore after {restore:5.2f} s   ({load()})")
                time.sleep(1)
        for lang, values in results.items():
            print(
                f"preview {lang}: median {statistics.median(values):.2f} s, "
                f"min {min(values):.2f} s, max {max(values):.2f} s over {len(values)} edits"
            )
    finally:
        for path, data in originals.items():
            path.write_bytes(data)
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["build", "preview", "all"])
    parser.add_argument("--rounds", type=int, default=3, help="edits per language (preview), builds (build)")
    args = parser.parse_args()
    if args.what in ("build", "all"):
        bench_build(1 if args.what == "all" else args.rounds)
    if args.what in ("preview", "all"):
        bench_preview(args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
