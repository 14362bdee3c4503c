"""How long the test suite takes, per test file and in total, in wall-clock and CPU seconds.

    python benchmarks/bench_tests.py run --out after.json                 # `make test`'s pytest run, here
    python benchmarks/bench_tests.py run --checkout /tmp/old --out before.json -- -p no:randomly
    python benchmarks/bench_tests.py compare before.json after.json       # side by side, per file and total

``run`` runs ``.venv/bin/python -m pytest`` (plus the arguments after ``--``; nothing else, so pytest's own
configuration decides as in ``make test``) in a checkout (default: this one), with a small plugin loaded
(``-p bench_tests``, this file) that records, for every test, its wall time (setup + call + teardown, as
pytest reports it) and the CPU seconds spent meanwhile by the test process and the processes it reaped (notebook
kernels, builds, Chromium). Under pytest-xdist every worker records its own tests. The whole run's wall time and
CPU time (the pytest process and all its descendants) are measured around it, and so is the machine: its load
average and the CPU seconds other processes used during the run (from ``/proc/stat``), since these are times on a
shared machine.

Per-file CPU is approximate where work runs in the background: a session fixture's cost (the site build) is
counted in the first test that uses it, and a process is counted when it is reaped. The totals are exact.

``compare`` prints two such results side by side. Nothing here asserts a time; the numbers are for people.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT_ENV = "PE_DOCS_BENCH_OUT"


# --- the pytest plugin (loaded in the test processes with -p bench_tests) ---------------------------------------


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _record(item: Any, wall: float, cpu: float) -> None:
    out = os.environ.get(OUT_ENV)
    if not out:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(Path(out) / f"{worker}.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps({"nodeid": item.nodeid, "wall": wall, "cpu": cpu, "worker": worker}) + "\n")


try:
    import pytest
except ImportError:  # the command line below does not need pytest
    pytest = None  # type: ignore[assignment]

if pytest is not None:

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item: Any, nextitem: Any) -> Any:
        start_cpu = _cpu()
        item._bench_wall = 0.0
        yield
        _record(item, item._bench_wall, _cpu() - start_cpu)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item: Any, call: Any) -> Any:
        outcome = yield
        report = outcome.get_result()
        item._bench_wall = getattr(item, "_bench_wall", 0.0) + report.duration


# --- the command line -------------------------------------------------------------------------------------------


def _proc_stat() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot."""
    fields = [float(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return (sum(fields) - idle) / tick, sum(fields) / tick


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def run(checkout: Path, pytest_args: list[str], out: Path | None) -> dict[str, Any]:
    import tempfile

    records_dir = Path(tempfile.mkdtemp(prefix="bench-tests-"))
    python = checkout / ".venv" / "bin" / "python"
    if not python.exists():
        python = Path(sys.executable)
    env = dict(os.environ)
    env[OUT_ENV] = str(records_dir)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), env.get("PYTHONPATH", "")]))
    args = [str(python), "-m", "pytest", "-p", "bench_tests", *pytest_args]
    loads: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(5):
            loads.append(os.getloadavg()[0])

    sampler = threading.Thread(target=sample, daemon=True)
    busy0, _ = _proc_stat()
    load0 = os.getloadavg()
    sampler.start()
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=checkout, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    busy1, _ = _proc_stat()
    cpu = usage.ru_utime + usage.ru_stime
    tests: list[dict[str, Any]] = []
    for path in sorted(records_dir.glob("*.jsonl")):
        tests += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    files: dict[str, dict[str, float]] = {}
    for t in tests:
        f = files.setdefault(file_of(t["nodeid"]), {"tests": 0, "wall": 0.0, "cpu": 0.0})
        f["tests"] += 1
        f["wall"] += t["wall"]
        f["cpu"] += t["cpu"]
    result = {
        "checkout": str(checkout),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True, check=False
        ).stdout.strip(),
        "args": pytest_args,
        "exit": os.waitstatus_to_exitcode(status),
        "wall": wall,
        "cpu": cpu,
        "tests": len(tests),
        "load_before": load0[0],
        "load_mean": sum(loads) / len(loads) if loads else os.getloadavg()[0],
        "others_cpu": max(0.0, (busy1 - busy0) - cpu),
        "cores": os.cpu_count(),
        "files": files,
    }
    print(summary(result))
    if out:
        out.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return result


def summary(r: dict[str, Any]) -> str:
    return (
        f"{r['commit']} {' '.join(r['args'])}: exit {r['exit']}, {r['tests']} tests, wall {r['wall']:.1f} s, "
        f"CPU {r['cpu']:.1f} s; machine: load {r['load_before']:.1f} at start, {r['load_mean']:.1f} on average, "
        f"other processes used {r['others_cpu']:.0f} CPU s ({r['others_cpu'] / r['wall']:.2f} of {r['cores']} cores)"
    )


def compare(paths: list[Path]) -> str:
    results = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    names = sorted(
        set().union(*(r["files"] for r in results)),
        key=lambda n: -max(r["files"].get(n, {}).get("wall", 0.0) for r in results),
    )
    head = "".join(f" | {p.stem[:22]:>22} tests   wall    CPU" for p in paths)
    lines = [f"{'file':<52}{head}", "-" * (52 + 43 * len(paths))]
    for name in names:
        row = f"{name[:52]:<52}"
        for r in results:
            f = r["files"].get(name)
            row += " | " + (f"{'':>22} {f['tests']:>5} {f['wall']:>6.1f} {f['cpu']:>6.1f}" if f else f"{'-':>43}"[1:])
        lines.append(row)
    lines.append("-" * (52 + 43 * len(paths)))
    row = f"{'sum of the tests':<52}"
    for r in results:
        row += f" | {'':>22} {r['tests']:>5} {sum(f['wall'] for f in r['files'].values()):>6.1f} "
        row += f"{sum(f['cpu'] for f in r['files'].values()):>6.1f}"
    lines.append(row)
    row = f"{'whole run (pytest and every process it started)':<52}"
    for r in results:
        row += f" | {'':>22} {'':>5} {r['wall']:>6.1f} {r['cpu']:>6.1f}"
    lines.append(row)
    lines.append("")
    lines += [f"{p.stem}: {summary(r)}" for p, r in zip(paths, results, strict=True)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_tests.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run the suite and record per-file wall and CPU seconds")
    r.add_argument("--checkout", type=Path, default=ROOT, help="the checkout to test (default: this one)")
    r.add_argument("--out", type=Path, help="write the result as JSON here")
    r.add_argument("pytest_args", nargs="*", help="arguments for pytest (after --)")
    c = sub.add_parser("compare", help="print results side by side")
    c.add_argument("results", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(args.checkout.resolve(), args.pytest_args, args.out)["exit"]
    print(compare(args.results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
