"""The hand-written walkthrough notebook runs with nothing but torch installed.

A reader who downloads ``walkthrough.ipynb`` alone must be able to run it to the end: its last check compares
the table with ``pe_docs`` when the package is importable and otherwise with the formula written out entry by
entry. Both languages' notebooks are executed twice on fresh kernels in empty folders: once where ``pe_docs``
is importable (as an installed package), and once in a kernel whose path holds this environment's installed
packages but not ``pe_docs`` — Python started with ``-S`` skips the ``.pth`` files, among them the one of the
editable install, and the site-packages folder is put on ``PYTHONPATH`` as a plain folder.
"""

from __future__ import annotations

import json
import os
import site
import sys
from pathlib import Path

import nbformat
import pytest

from site_tools import ROOT

NOTEBOOKS = [ROOT / "docs" / lang / "walkthrough.ipynb" for lang in ("en", "zh")]

_PROBE = """\
import importlib.util as _util, json as _json, sys as _sys
print(_json.dumps({"pe_docs": _util.find_spec("pe_docs") is not None, "torch": _util.find_spec("torch") is not None,
                   "flags": [_sys.flags.no_site]}))
"""


def _site_packages() -> str:
    """The site-packages folder holding torch and ipykernel (this test's own environment)."""
    import torch

    folder = Path(torch.__file__).resolve().parent.parent
    assert str(folder) in [str(Path(p).resolve()) for p in site.getsitepackages()], folder
    return str(folder)


def _run(path: Path, tmp_path: Path, *, with_pe_docs: bool) -> tuple[nbformat.NotebookNode, dict]:
    """Execute a copy of the notebook, plus a last cell reporting what the kernel could import."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(_PROBE, id="probe"))
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME"}}
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    if with_pe_docs:
        installed = tmp_path / "site-packages"  # pe_docs alone, as an installed package
        installed.mkdir()
        (installed / "pe_docs").symlink_to(ROOT / "pe_docs", target_is_directory=True)
        env["PYTHONPATH"] = str(installed)
    else:
        argv.insert(1, "-S")  # no site: the editable install's .pth finder is not loaded
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
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.parent.name)
def test_walkthrough_finishes_with_torch_alone(path: Path, tmp_path: Path) -> None:
    nb, probe = _run(path, tmp_path, with_pe_docs=False)
    assert probe == {"pe_docs": False, "torch": True, "flags": [1]}, probe
    assert "matches the formula, entry by entry (pe_docs is not installed)" in _printed(nb)


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.parent.name)
def test_walkthrough_compares_with_pe_docs_when_installed(path: Path, tmp_path: Path) -> None:
    nb, probe = _run(path, tmp_path, with_pe_docs=True)
    assert probe["pe_docs"] and probe["torch"], probe
    assert "matches pe_docs.sinusoidal_table" in _printed(nb)


def test_only_the_last_check_imports_pe_docs() -> None:
    """Everything before the final check runs without pe_docs, and the fallback catches only its absence."""
    for path in NOTEBOOKS:
        code = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
        assert all("pe_docs" not in source for source in code[:-1]), path
        assert "except ModuleNotFoundError as err:" in code[-1] and 'if err.name != "pe_docs":' in code[-1]
        assert "pip install" not in "".join(c.source for c in nbformat.read(path, as_version=4).cells), path


def _cells_until_error(cells: list[str]) -> tuple[int, BaseException | None]:
    """Run code cells in one namespace, as a kernel would; the index of the cell that raised, and its error.

    The cells set torch's print options for the whole process: they are put back to torch's defaults after, as a
    fresh process has them (doctests in the same worker print tensors)."""
    import torch

    namespace: dict[str, object] = {}
    try:
        for index, source in enumerate(cells):
            try:
                exec(compile(source, f"<cell {index}>", "exec"), namespace)  # the notebook's own cells
            except Exception as err:  # which error, and where: what the exercise states
                return index, err
        return len(cells), None
    finally:
        torch.set_printoptions(profile="default", sci_mode=None)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.parent.name)
def test_exercise_1_forget_the_column(path: Path) -> None:
    """Exercise 1's story: without ``.unsqueeze(1)``, ``pos * w`` raises nothing, step 4's ``phase[:, :4]`` raises
    IndexError; printing ``phase`` whole, only step 6's check fails (every row the same); with ``max_len`` other
    than ``d_model / 2`` the product itself raises."""
    code = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    step1 = next(i for i, s in enumerate(code) if ".unsqueeze(1)" in s)
    step4 = next(i for i, s in enumerate(code) if "phase = pos * w" in s)
    assert "phase[:, :4]" in code[step4]
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
