"""Running the pages' code as a reader would, and remembering what passed: the chapter notebooks and the page blocks.

Used by the tests (``tests/test_notebooks.py``, ``tests/harness/``), so by ``make test`` and ``make check``.
:func:`run` executes one generated notebook (``site_tools.build.notebooks``) and returns what the tests check.

- **Like a reader's machine.** The kernel sees ``pe_docs`` through a folder that holds only a link to this
  checkout's package, first on its path (as an installed package would be), and nothing else of the repository;
  its working directory is a new empty folder. A last cell reports ``pe_docs.__file__``, the working directory
  and ``sys.path``, which the result records.
- **On every x86 code path.** PyTorch's float32 ``exp``/``sin``/``cos`` come from Intel MKL, whose last bit
  differs between its code paths (AVX-512 here; AMD CPUs take the generic one). The page blocks run in the test
  process on this machine's path; the English notebooks run with ``MKL_CBWR=COMPATIBLE`` (the path AMD CPUs get)
  and the Chinese ones with ``MKL_CBWR=AVX2`` (:data:`MKL_PATHS`). The two languages carry the same code, so
  every page's code is checked on all three paths without running anything twice.
- **Cached by content** (``PE_DOCS_NO_CACHE=1`` turns it off). A notebook run that passed is kept under
  ``<cache>/notebooks/<page>.<lang>.<key>.json`` (:func:`key`), a page block that passed is remembered under
  ``<cache>/blocks/<key>`` (:func:`block_key`: its tokens, so the English and Chinese copies of a block are one);
  a run that failed is never kept. Change a page's code, the library, a pin or the harness and it runs again;
  change nothing (or only prose, or only a comment) and the result is reused.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import platform
import re
import shutil
import sys
import tempfile
import time
import tokenize
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from site_tools import ROOT, cache, layout
from site_tools.build import figures

# The MKL code path each language's notebooks run on (see the module docstring).
MKL_PATHS = {"en": "COMPATIBLE", "zh": "AVX2"}
MKL_NAMES = {"COMPATIBLE": "the generic path AMD CPUs take", "AVX2": "the AVX2 path"}

CHECK = """\
import json as _json, os as _os, sys as _sys
import pe_docs as _pe_docs
print(_json.dumps({"pe_docs": _pe_docs.__file__, "cwd": _os.getcwd(), "path": _sys.path}))
"""
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _digest(*parts: str) -> str:
    """The SHA-256 (hex) of ``parts``, each ended by a NUL byte (so that parts cannot run into each other)."""
    return hashlib.sha256(b"".join(part.encode("utf-8") + b"\0" for part in parts)).hexdigest()


def key(notebook_text: str, lang: str) -> str:
    """The content key of a run: its code cells as written (what runs; the Markdown cells do not change a run, so an
    edit of the prose reuses it), and what the outputs depend on besides: ``figures.source_digest()`` (the ``pe_docs``
    sources, the figure registry, the NumPy/matplotlib/torch versions, the CJK font), this file, the MKL path, the
    Python version, the CPU and the checkout's folder."""
    cells = [c for c in json.loads(notebook_text)["cells"] if c["cell_type"] == "code"]
    code = json.dumps([["".join(c["source"]), c.get("metadata", {})] for c in cells], ensure_ascii=False)
    parts = (code, figures.source_digest(), Path(__file__).read_text(encoding="utf-8"), MKL_PATHS.get(lang, ""))
    return _digest(*parts, sys.version, _cpu(), str(ROOT))[:24]


def stored_path(notebook_text: str, lang: str, name: str = "notebook") -> Path:
    """Where a successful run of this notebook is kept: ``<cache>/notebooks/<page>.<lang>.<key>.json``."""
    stem = re.sub(r"[^\w.-]", "_", name)
    return cache.folder("notebooks") / f"{stem}.{lang}.{key(notebook_text, lang)}.json"


def environment(lang: str) -> dict[str, str]:
    """The kernel's environment: ``pe_docs`` importable as if installed, one torch thread, the language's MKL path."""
    installed = Path(tempfile.mkdtemp(prefix="pe-docs-site-packages-"))
    (installed / "pe_docs").symlink_to(ROOT / "pe_docs", target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "MKL_CBWR"}}
    env.update(PYTHONPATH=str(installed), OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    if lang in MKL_PATHS:
        env["MKL_CBWR"] = MKL_PATHS[lang]
    return env


def _facts(printed: str, workdir: Path) -> dict[str, Any]:
    """What the last cell reported, as facts about this checkout (kept in the cache)."""
    env = json.loads(printed)
    venv = Path(sys.prefix).resolve()  # the environment pe_docs is installed in (.venv/ inside a checkout)
    on_path = [Path(p).resolve() for p in env["path"] if p]
    return {
        "pe_docs_is_this_checkout": Path(env["pe_docs"]).resolve() == (ROOT / "pe_docs" / "__init__.py").resolve(),
        "pe_docs": env["pe_docs"],
        "cwd_was_empty_folder": Path(env["cwd"]).resolve() == workdir.resolve(),
        "repository_on_path": [str(p) for p in on_path if p.is_relative_to(ROOT) and not p.is_relative_to(venv)],
    }


def run(
    notebook_text: str, lang: str, *, name: str = "notebook", use_cache: bool = True, timeout: int = 600
) -> dict[str, Any]:
    """Execute a notebook (its ``.ipynb`` text) as a reader would (see the module docstring); return the result.

    Keys: ``ok``; ``notebook`` (executed, the check cell last); ``facts`` (where ``pe_docs`` came from, the working
    folder, repository paths on ``sys.path``); ``error`` and ``cell`` (index of the failing cell) when not ok;
    ``mkl`` (``MKL_CBWR``); ``seconds``; ``cached``.
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    stored = stored_path(notebook_text, lang, name)
    k = stored.name.rsplit(".", 2)[-2]
    use_cache = use_cache and cache.enabled()
    if use_cache and stored.is_file():
        try:
            return {**json.loads(stored.read_text(encoding="utf-8")), "cached": True}
        except (OSError, ValueError):
            pass
    nb = nbformat.reads(notebook_text, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(CHECK, id="environment-check", metadata={"pe_docs": {"check": True}}))
    workdir = Path(tempfile.mkdtemp(prefix="pe-docs-notebook-"))
    env = environment(lang)
    start = time.perf_counter()

    def execute() -> None:
        NotebookClient(
            nb,
            kernel_name="python3",
            timeout=timeout,
            allow_errors=False,
            resources={"metadata": {"path": str(workdir)}},
            # the kernel's own log: only errors (not ipykernel 7's notice that loopback TCP is unencrypted)
            extra_arguments=["--IPKernelApp.log_level=ERROR"],
        ).execute(env=env)

    result: dict[str, Any] = {"ok": True, "mkl": env.get("MKL_CBWR", ""), "key": k}
    try:
        try:
            execute()
        except RuntimeError as exc:
            # A kernel that dies while it starts, before any cell ran (jupyter/jupyter_client#154; kernels started
            # side by side can race for the ports they were given, jupyter/nbconvert#1066): started once more.
            if "before replying to kernel_info" not in str(exc):
                raise
            execute()
        printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("name") == "stdout")
        result["facts"] = _facts(printed, workdir)  # before the folders go: resolving follows the link
    except CellExecutionError as exc:
        failing = next(
            (i for i, c in enumerate(nb.cells) if any(o.get("output_type") == "error" for o in c.get("outputs", []))),
            None,
        )
        result.update(ok=False, error=_ANSI.sub("", str(exc)), cell=failing)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        shutil.rmtree(Path(env["PYTHONPATH"]), ignore_errors=True)
    result["seconds"] = time.perf_counter() - start
    result["notebook"] = json.loads(nbformat.writes(nb))
    if result["ok"] and use_cache:
        for stale in stored.parent.glob(f"{stored.name.rsplit('.', 2)[0]}.*.json"):
            stale.unlink(missing_ok=True)
        cache.write(stored, json.dumps(result))
    return {**result, "cached": False}


def executed(result: dict[str, Any]) -> Any:
    """The executed notebook of a :func:`run` result, as an ``nbformat`` notebook (multi-line strings joined)."""
    import nbformat

    return nbformat.reads(json.dumps(result["notebook"]), as_version=4)


# --- running many, in the background ---------------------------------------------------------------------------


def result_path(out_dir: Path, chapter: tuple[str, str]) -> Path:
    lang, name = chapter
    return Path(out_dir) / f"{lang}__{name.replace('/', '__')}.json"


class Runner:
    """Runs chapter notebooks (``(lang, page)`` pairs) ``workers`` at a time in background threads, writing each
    result to :func:`result_path` in ``out_dir``, where any process can wait for it (:func:`wait`): the tests
    start the runner as soon as they know which notebooks are selected, in the process that steers the run (the
    pytest-xdist controller, or the only pytest process), and the notebook tests collect the results."""

    def __init__(self, out_dir: Path, workers: int = 2) -> None:
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="notebook")
        self.started: set[tuple[str, str]] = set()

    def start(self, chapters: list[tuple[str, str]]) -> None:
        todo = [c for c in dict.fromkeys(chapters) if c not in self.started]
        if not todo:
            return
        # nbclient (and jupyter_client under it) imported here, in the calling thread, before the pool's threads
        # need it: a test importing jupyter_client in this thread while a pool thread imports nbclient saw a
        # partially initialised module (one pytest process, empty notebook cache)
        import nbclient  # noqa: F401

        from site_tools.build import notebooks

        texts = {}
        for lang, name in list(todo):
            page = (layout.DOCS / lang / name).read_text(encoding="utf-8")
            try:
                texts[(lang, name)] = notebooks.notebook_text(page, name, notebooks.site_of(lang))
            except ValueError as exc:  # a page no notebook can be made of: its test reports why, the others run
                todo.remove((lang, name))
                self.started.add((lang, name))
                error = {"ok": False, "error": f"docs/{lang}/{name}: {exc}", "cell": None, "notebook": None}
                cache.write(result_path(self.out_dir, (lang, name)), json.dumps({**error, "chapter": [lang, name]}))
        cached = {c for c in todo if stored_path(texts[c], *c).is_file()}
        # reuse first (instant), then the longest notebooks, so that the last one to finish is a short one
        for chapter in sorted(todo, key=lambda c: (c not in cached, -len(texts[c]))):
            self.started.add(chapter)
            self.pool.submit(self._one, chapter, texts[chapter])

    def _one(self, chapter: tuple[str, str], text: str) -> None:
        try:
            result = run(text, chapter[0], name=chapter[1])
        except BaseException as exc:  # reported by the test that waits for it
            result = {"ok": False, "error": f"{type(exc).__name__}: {exc}", "cell": None, "notebook": None}
        result["chapter"] = list(chapter)
        cache.write(result_path(self.out_dir, chapter), json.dumps(result))

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def wait(out_dir: Path, chapter: tuple[str, str], timeout: float = 1800) -> dict[str, Any]:
    """The result of ``chapter``'s run, once a :class:`Runner` has written it.

    Raises:
        TimeoutError: no result after ``timeout`` seconds.
    """
    path = result_path(out_dir, chapter)
    deadline = time.monotonic() + timeout
    while not path.is_file():
        if time.monotonic() > deadline:
            raise TimeoutError(f"no result for the notebook of {chapter[0]}/{chapter[1]} after {timeout:.0f} s")
        time.sleep(0.1)
    return json.loads(path.read_text(encoding="utf-8"))


# --- page blocks: the same content cache --------------------------------------------------------------------------


@functools.cache
def environment_digest() -> str:
    """What a page block's outcome depends on besides its own code: the library and figure sources and versions
    (``figures.source_digest()``), every pinned package (requirements.txt), Python, the CPU, MKL's code path and
    torch's thread count."""
    import torch

    requirements = ROOT / "requirements.txt"
    return _digest(
        figures.source_digest(),
        requirements.read_text(encoding="utf-8") if requirements.is_file() else "",
        sys.version,
        _cpu(),
        os.environ.get("MKL_CBWR", ""),
        str(torch.get_num_threads()),
        Path(__file__).read_text(encoding="utf-8"),
    )


def code_tokens(code: str) -> str:
    """The code as Python executes it: its tokens without comments and blank lines (a string literal, its blank
    lines included, is kept exactly). Two blocks with the same tokens run the same way, whatever their comments
    say — the English and the Chinese page carry such blocks."""
    try:
        tokens = tokenize.generate_tokens(io.StringIO(code).readline)
        kept = [(t.type, t.string) for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL)]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return code  # not valid Python: only the same text is the same block
    return json.dumps(kept, ensure_ascii=False)


def block_key(code: str, expected_output: str | None, ignore_whitespace: bool, marks: list[str]) -> str:
    """The content key of a page block's test (pytest-codeblocks): its tokens (:func:`code_tokens`), what it must
    print, its marks, and :func:`environment_digest`."""
    parts = (code_tokens(code), repr(expected_output), repr(ignore_whitespace), repr(sorted(marks)))
    return _digest(environment_digest(), *parts)[:32]


def block_passed(key_: str) -> Path:
    """The file that records that the block with this key passed (``<cache>/blocks/<key>``)."""
    return cache.folder("blocks") / key_
