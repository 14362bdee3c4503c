"""The layers of the two packages: each stands on the ones below it, with no import cycle.

``site_tools``: the page reader, the HTML steps, the finishing pass, the engine, the build. ``pe_docs``: the core
a model imports (its top level and the modules it uses) below the teaching packages ``pe_docs.analysis``,
``pe_docs.variants`` and ``pe_docs.plotting``, which import from it.
"""

from __future__ import annotations

import subprocess
import sys

from site_tools import ROOT


def _import_graph(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (a folder of the repository) and the modules of it that it imports (imports inside
    functions counted; a name imported from a package counts as its module when it is one, else as the package)."""
    import ast

    modules = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
        for p in (ROOT / package).rglob("*.py")
        if p.name != "__main__.py"
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(package):
                for alias in node.names:  # a module imported from a package, else the module the name is in
                    deps.add(f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in modules else node.module)
        graph[name] = deps & set(modules) - {name}
    return graph


def _assert_no_cycle(graph: dict[str, set[str]]) -> None:
    order: list[str] = []
    visiting: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        assert name not in visiting, "import cycle: " + " -> ".join([*visiting[visiting.index(name) :], name])
        visiting.append(name)
        for dep in sorted(graph[name]):
            visit(dep)
        visiting.pop()
        order.append(name)

    for name in sorted(graph):
        visit(name)
    assert len(order) == len(graph)


def test_the_site_tools_import_no_one_back() -> None:
    """No back arrows: the modules of site_tools import one another without a cycle (imports inside functions
    counted), so each layer — the page reader, the HTML steps, the pass, the engine, the build — stands on the ones
    below it only."""
    graph = _import_graph("site_tools")
    assert graph["site_tools.finish"] >= {"site_tools.finish.formulas", "site_tools.finish.assets", "site_tools.dom"}
    assert graph["site_tools.build.site"] >= {"site_tools.build.engine", "site_tools.finish"}
    _assert_no_cycle(graph)
    # and the packages, one way: the floor (site_tools' own modules) <- pages <- finish <- build <- book
    order = ("site_tools", "site_tools.pages", "site_tools.finish", "site_tools.build", "site_tools.book")
    rank = {name: max(k for k, p in enumerate(order) if name == p or name.startswith(p + ".")) for name in graph}
    upward = sorted(f"{name} -> {dep}" for name, deps in graph.items() for dep in deps if rank[dep] > rank[name])
    assert upward == [], "a package imports one above it: " + ", ".join(upward)
    assert rank["site_tools.layout"] == rank["site_tools.dom"] == 0


def test_pe_docs_core_stands_below_the_teaching_packages() -> None:
    """``pe_docs``' core — its top level and the modules it imports, what a model uses — imports nothing from
    ``pe_docs.analysis``, ``pe_docs.variants`` or ``pe_docs.plotting`` (imports inside functions counted), which
    import from it; the package has no import cycle; a fresh ``import pe_docs`` loads the core alone; and its
    ``__all__`` has at most 30 names (issue 34)."""
    graph = _import_graph("pe_docs")
    _assert_no_cycle(graph)
    teaching = ("pe_docs.analysis", "pe_docs.variants", "pe_docs.plotting")
    core = {name for name in graph if not name.startswith(teaching)}
    assert {"pe_docs", "pe_docs.rotary", "pe_docs.rope_scaling", "pe_docs.identify", "pe_docs.layouts"} <= core
    back = {name: sorted(dep for dep in graph[name] if dep.startswith(teaching)) for name in sorted(core)}
    assert not any(back.values()), {name: deps for name, deps in back.items() if deps}
    assert graph["pe_docs.analysis"] & core and graph["pe_docs.variants"] & core  # they stand on it
    probe = "import sys, pe_docs; print(' '.join(sorted(m for m in sys.modules if m.startswith('pe_docs'))))"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert set(loaded.stdout.split()) == core
    import pe_docs

    assert len(pe_docs.__all__) <= 30, sorted(pe_docs.__all__)  # a public face an engineer reads in one screen
