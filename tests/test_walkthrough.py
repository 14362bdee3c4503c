"""The walkthrough's notebook runs with nothing but torch installed.

A reader who downloads the walkthrough's notebook (``notebooks/walkthrough.ipynb``, generated from ``walkthrough.md``
by ``site_tools.build.notebooks``, as every chapter's is) alone must be able to run it to the end: its last check
compares the table with ``pe_docs`` when the package is importable and otherwise with the formula written out entry
by entry, and its first cell says that ``pe_docs`` is optional (the page's front matter: ``pe_docs: optional``).
With ``pe_docs`` installed, the notebook runs as every chapter's does (``tests/test_notebooks.py``: a fresh kernel
in an empty folder, ``pe_docs`` importable as an installed package, the page's expected output — "matches
pe_docs.sinusoidal_table" — printed). Here both languages' notebooks run once more on a fresh kernel in an empty
folder whose path holds this environment's installed packages but not ``pe_docs``: Python started with ``-S`` skips
the ``.pth`` files, among them the one of the editable install, and the site-packages folder is put on
``PYTHONPATH`` as a plain folder.
"""

from __future__ import annotations

import json
import os
import site
import sys
import traceback
from pathlib import Path

import nbformat
import pytest

from site_tools import layout, pages
from site_tools.build import notebooks

PAGES = [layout.DOCS / lang / "walkthrough.md" for lang in ("en", "zh")]

_PROBE = """\
import importlib.util as _util, json as _json, sys as _sys
print(_json.dumps({"pe_docs": _util.find_spec("pe_docs") is not None, "torch": _util.find_spec("torch") is not None,
                   "flags": [_sys.flags.no_site]}))
"""


def generated(path: Path) -> nbformat.NotebookNode:
    """The notebook the site serves for the page at ``path`` (``docs/<lang>/walkthrough.md``)."""
    text = notebooks.notebook_text(path.read_text(encoding="utf-8"), path.name, notebooks.site_of(path.parent.name))
    return nbformat.reads(text, as_version=4)


def code_cells(path: Path) -> list[str]:
    return [c.source for c in generated(path).cells if c.cell_type == "code"]


def _site_packages() -> str:
    """The site-packages folder holding torch and ipykernel (this test's own environment)."""
    import torch

    folder = Path(torch.__file__).resolve().parent.parent
    assert str(folder) in [str(Path(p).resolve()) for p in site.getsitepackages()], folder
    return str(folder)


def _run_without_pe_docs(path: Path, tmp_path: Path) -> tuple[nbformat.NotebookNode, dict]:
    """Execute the page's notebook with torch but not pe_docs importable, plus a last cell reporting what the kernel
    could import."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = generated(path)
    nb.cells.append(nbformat.v4.new_code_cell(_PROBE, id="probe"))
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME"}}
    argv = [sys.executable, "-S", "-m", "ipykernel_launcher", "-f", "{connection_file}"]  # -S: no .pth finders
    env["PYTHONPATH"] = _site_packages()
    specs = tmp_path / "kernels"
    (specs / "walkthrough").mkdir(parents=True)
    (specs / "walkthrough" / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "walkthrough", "language": "python", "env": env}), encoding="utf-8"
    )
    km = KernelManager(kernel_name="walkthrough", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(specs)]))
    workdir = tmp_path / "work"  # an empty folder: nothing of the repository next to the notebook
    workdir.mkdir()
    client = NotebookClient(nb, km=km, timeout=300, allow_errors=False, resources={"metadata": {"path": str(workdir)}})
    client.execute(env=env)
    probe = json.loads("".join(o.text for o in nb.cells[-1].outputs if o.output_type == "stream"))
    return nb, probe


def _printed(nb: nbformat.NotebookNode) -> str:
    return "".join(o.text for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "stream")


@pytest.mark.notebook
@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name)
def test_walkthrough_finishes_with_torch_alone(path: Path, tmp_path: Path) -> None:
    nb, probe = _run_without_pe_docs(path, tmp_path)
    assert probe == {"pe_docs": False, "torch": True, "flags": [1]}, probe
    assert "matches the formula, entry by entry (pe_docs is not installed)" in _printed(nb)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name)
def test_only_the_last_check_imports_pe_docs(path: Path) -> None:
    """Everything before the final check runs without pe_docs, and the fallback catches only its absence; no code
    cell installs anything, and the first cell says that pe_docs is optional (the page's ``pe_docs: optional``)."""
    nb = generated(path)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert all("pe_docs" not in source for source in code[:-1]), path
    assert "except ModuleNotFoundError as err:" in code[-1] and 'if err.name != "pe_docs":' in code[-1]
    assert "pip install" not in "".join(code), path
    lang = path.parent.name
    assert pages.read(path).meta["pe_docs"] == "optional"
    intro = notebooks.intro(notebooks.site_of(lang), path.name, pages.read(path).title or "", False, optional=True)
    assert nb.cells[0].source == intro and nb.cells[0].metadata["pe_docs"] == {"intro": True}
    assert {"en": "It needs only PyTorch.", "zh": "运行它只需要 PyTorch。"}[lang] in intro


def _cells_until_error(
    cells: list[str], namespace: dict[str, object] | None = None
) -> tuple[int, BaseException | None]:
    """Run code cells in one namespace, as a kernel would; the index of the cell that raised, and its error.

    The cells may set torch's print options for the whole process: they are put back to torch's defaults after, as
    a fresh process has them (doctests in the same worker print tensors)."""
    import torch

    namespace = {} if namespace is None else namespace
    try:
        for index, source in enumerate(cells):
            try:
                exec(compile(source, f"<cell {index}>", "exec"), namespace)  # the notebook's own cells
            except Exception as err:  # which error, and where: what the exercise states
                return index, err
        return len(cells), None
    finally:
        torch.set_printoptions(profile="default", sci_mode=None)


def _failing_line(err: BaseException, source: str) -> str:
    """The line of a cell's ``source`` where ``err`` was raised."""
    (frame,) = [f for f in traceback.extract_tb(err.__traceback__) if f.filename.startswith("<cell ")][-1:]
    return source.splitlines()[(frame.lineno or 1) - 1]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name)
def test_exercise_1_forget_the_column(path: Path) -> None:
    """Exercise 1's story: without ``.unsqueeze(1)``, ``pos * w`` raises nothing, step 4's ``phase[3, 1]`` raises
    IndexError; without that look-up, only step 6's check fails (every row the same); with ``max_len`` other than
    ``d_model / 2`` the product itself raises."""
    code = code_cells(path)
    step1 = next(i for i, s in enumerate(code) if ".unsqueeze(1)" in s)
    step4 = next(i for i, s in enumerate(code) if "phase = pos * w" in s)
    assert "phase[3, 1]" in code[step4]
    code[step1] = code[step1].replace(".unsqueeze(1)", "")
    at, err = _cells_until_error(code)
    assert (at, type(err)) == (step4, IndexError), (at, err)
    whole = [*code[:step4], "phase = pos * w\nassert phase.shape == (8,)\nphase", *code[step4 + 1 :]]
    at, err = _cells_until_error(whole)
    assert (at, type(err)) == (len(code) - 1, AssertionError), (at, err)  # the final check
    first = next(i for i, s in enumerate(code) if "max_len, d_model = 8, 16" in s)
    other = list(code)
    other[first] = code[first].replace("max_len, d_model = 8, 16", "max_len, d_model = 10, 16")
    at, err = _cells_until_error(other)
    assert (at, type(err)) == (step4, RuntimeError), (at, err)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name)
def test_exercise_2_plant_the_common_mistake(path: Path) -> None:
    """Exercise 2's story: a doubled exponent in step 3 is caught at once by step 3's second assert (the last
    frequency becomes the square of 10000^(-14/16)); without that assert, the values stay in [-1, 1] and every pair
    on the unit circle, and only step 6's comparison with the reference fails."""
    import torch

    code = code_cells(path)
    step3 = next(i for i, s in enumerate(code) if "w = 10000.0 ** (-two_i / d_model)" in s)
    planted = list(code)
    planted[step3] = code[step3].replace("-two_i / d_model", "-2 * two_i / d_model")
    at, err = _cells_until_error(planted)
    assert (at, type(err)) == (step3, AssertionError), (at, err)
    assert err is not None and "10000.0 ** (-14 / 16)" in _failing_line(err, planted[step3])
    namespace: dict[str, object] = {}
    planted[step3] = "\n".join(line for line in planted[step3].splitlines() if "10000.0 ** (-14 / 16)" not in line)
    at, err = _cells_until_error(planted[:-1], namespace)
    assert (at, err) == (len(code) - 1, None), (at, err)
    pe = namespace["pe"]
    assert isinstance(pe, torch.Tensor) and pe.abs().max().item() <= 1
    pair_length = pe[:, 0::2] ** 2 + pe[:, 1::2] ** 2
    assert torch.allclose(pair_length, torch.ones_like(pair_length))
    at, err = _cells_until_error(planted)
    assert (at, type(err)) == (len(code) - 1, AssertionError), (at, err)
    assert err is not None and "torch.allclose(pe, reference" in _failing_line(err, planted[-1])
