"""The engine's floor plan: one package per job, imports pointing down only, no cycle however written.

Imports are read from the source with :mod:`ast`, at module level and inside
functions alike (a lazy import is still a dependency).  ``from .pkg import name``
depends on the submodule ``pkg.name`` when there is one, else on the package.
The rules (the README's layout picture):

* ``core`` <- ``evaluator`` <- ``isomorphism`` <- ``ranges`` <- ``equity`` <-
  ``strength`` <- ``holdem`` <- ``ga``: each package imports only packages to
  its left; ``videopoker`` sits on ``core``, ``evaluator`` and ``isomorphism``; ``shortdeck`` on ``core``,
  ``evaluator``, ``isomorphism`` and ``equity`` (the short deck is a deck of theirs: it holds only its
  classes and tables);
  ``exploit`` on ``holdem`` and the packages below it; ``plots`` and ``batch`` on ``core`` alone; ``ga`` also
  draws with ``plots`` and measures with ``exploit``;
  ``solver`` sits on ``holdem`` and ``abstraction`` and measures with ``exploit`` (the exact best response
  and the terminal kernels both walk);
* only ``datasets`` joins the domain and ``batch``; no package of the engine
  imports ``jobs``, and only ``batch`` imports ``dask`` or ``distributed``;
* no cycle between packages, and none between modules;
* the root of ``pipeline/`` holds only ``__init__.py``.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "pipeline"
DOMAIN_ORDER = ("core", "evaluator", "isomorphism", "ranges", "equity", "strength", "holdem", "ga")
ALLOWED = {name: set(DOMAIN_ORDER[:i]) for i, name in enumerate(DOMAIN_ORDER)}
ALLOWED["ga"] |= {"plots", "exploit"}
ALLOWED.update({
    "videopoker": {"core", "evaluator", "isomorphism"},
    "omaha": {"core", "evaluator", "ranges", "equity"},
    "shortdeck": {"core", "evaluator", "isomorphism", "equity"},
    "abstraction": {"core", "evaluator", "isomorphism", "equity", "strength", "plots"},
    "exploit": {"core", "evaluator", "isomorphism", "ranges", "equity", "strength", "holdem"},
    "solver": {"core", "evaluator", "isomorphism", "ranges", "equity", "strength", "holdem", "abstraction", "exploit"},
    "plots": {"core"},
    "batch": {"core"},
    "datasets": set(DOMAIN_ORDER) | {"videopoker", "omaha", "shortdeck", "abstraction", "exploit", "solver", "plots",
                                     "batch"},
})
CLUSTER = {"dask", "distributed"}


def module_names(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Dotted name -> file of every module of the package (a package is its ``__init__``)."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imported_names(name: str, path: Path) -> list[tuple[str, list[str]]]:
    """What ``name``'s source imports, anywhere in the file: ``(module, names imported from it)`` with
    relative imports resolved (``import x.y`` gives ``("x.y", [])``)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found.append((stem, [a.name for a in node.names]))
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its source."""
    found = set()
    for stem, names in imported_names(name, path):
        for t in [f"{stem}.{n}" if f"{stem}.{n}" in modules else stem for n in names] or [stem]:
            while t and t not in modules:          # ``import pipeline.core.cards.x`` -> the deepest module
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    modules = module_names(root, package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def package_of(module: str) -> str:
    """The first-level package of a module of ``pipeline`` (``pipeline.equity.exact`` -> ``equity``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Package -> the other packages its modules import (the root ``pipeline`` module left out)."""
    out: dict[str, set[str]] = {}
    for module, deps in graph.items():
        if package_of(module):
            out.setdefault(package_of(module), set()).update(
                package_of(d) for d in deps if package_of(d) and package_of(d) != package_of(module))
    return out


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


def test_the_root_of_pipeline_holds_only_its_init():
    loose = sorted(p.name for p in (ROOT / PACKAGE).glob("*.py") if p.name != "__init__.py")
    assert not loose, f"modules outside any package: {loose}"
    packages = {p.name for p in (ROOT / PACKAGE).iterdir() if (p / "__init__.py").exists()}
    assert packages == set(ALLOWED), packages ^ set(ALLOWED)


def test_packages_import_only_the_packages_below_them():
    graph = package_graph(import_graph())
    bad = {pkg: sorted(deps - ALLOWED[pkg]) for pkg, deps in graph.items() if deps - ALLOWED[pkg]}
    assert not bad, f"imports against the layout: {bad}"


def test_no_cycle_between_packages_or_modules():
    graph = import_graph()
    assert len(graph) > 60 and "pipeline.core.hand_classes" in graph["pipeline.ranges.syntax"]
    cycle = find_cycle(package_graph(graph))
    assert not cycle, "package cycle: " + " -> ".join(cycle)
    cycle = find_cycle(graph)
    assert not cycle, "module cycle: " + " -> ".join(cycle)


def test_only_batch_talks_to_dask_and_nothing_imports_the_command_line():
    modules = module_names()
    for name, path in modules.items():
        roots = {stem.split(".")[0] for stem, _ in imported_names(name, path)}
        assert "jobs" not in roots, f"{name} imports the command line"
        if package_of(name) != "batch":
            assert not roots & CLUSTER, f"{name} imports {sorted(roots & CLUSTER)}: only pipeline.batch may"


def test_lazy_and_relative_imports_are_seen():
    graph = import_graph()
    assert "pipeline.core.cache" in graph["pipeline.equity.matchups"]            # inside canonical_matchups()
    assert "pipeline.evaluator.tables" in graph["pipeline.equity.calculator"]   # from ..evaluator.tables
    assert "pipeline.core.cards" in graph["pipeline.evaluator"]                 # a package's __init__


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


def test_a_package_import_against_the_layout_is_found(tmp_path):
    """The package rule on a made-up engine: ``core`` reaching up to ``equity`` inside a function."""
    pkg = tmp_path / "pipeline"
    for sub in ("core", "equity"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "equity" / "exact.py").write_text("from ..core import cards\n")
    (pkg / "core" / "cards.py").write_text("def f():\n    from ..equity.exact import x\n")
    graph = package_graph(import_graph(tmp_path, "pipeline"))
    assert graph == {"core": {"equity"}, "equity": {"core"}}
    assert find_cycle(graph) == ["core", "equity", "core"]
