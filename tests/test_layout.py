"""The engine reads downward: no import cycle among ``pipeline`` modules.

Imports are read from the source with :mod:`ast`, at module level and inside
functions alike (a lazy import is still a dependency).  ``from .pkg import name``
depends on the submodule ``pkg.name`` when there is one, else on the package.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "pipeline"


def module_names(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Dotted name -> file of every module of the package (a package is its ``__init__``)."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its source."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in modules else stem for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in modules:          # ``import pipeline.core.cards.x`` -> the deepest module
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    modules = module_names(root, package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle as ``[a, b, ..., a]``, or ``[]`` when the graph has none (depth-first search)."""
    state: dict[str, int] = {}          # 1 on the current path, 2 finished
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return []

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return []


def test_no_import_cycle_in_pipeline():
    graph = import_graph()
    assert len(graph) > 20 and "pipeline.core.hand_classes" in graph["pipeline.ranges.syntax"]
    cycle = find_cycle(graph)
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def test_lazy_and_relative_imports_are_seen():
    graph = import_graph()
    assert "pipeline.core.cache" in graph["pipeline.equity.matchups"]            # inside canonical_matchups()
    assert "pipeline.evaluator.tables" in graph["pipeline.equity.calculator"]   # from ..evaluator.tables
    assert "pipeline.core.cards" in graph["pipeline.evaluator"]          # a package's __init__


def test_a_cycle_is_found(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("def f():\n    from .sub import c\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("import pkg.a\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.b"] == {"pkg.sub.c"} and graph["pkg.sub.c"] == {"pkg.a"}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]
    (pkg / "sub" / "c.py").write_text("X = 1\n")
    assert find_cycle(import_graph(tmp_path, "pkg")) == []
