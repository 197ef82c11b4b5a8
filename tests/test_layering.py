"""The package's imports follow the data flow (DESIGN.md "Layers"): no back-edge, no cycle.

An import walk over the source (no module is imported): every ``import`` and
``from ... import`` anywhere in a module (inside functions and ``if TYPE_CHECKING:``
blocks too, since a type-only import is a dependency as well) and every
``importlib.import_module("literal")``. A module may import modules of its own layer
or of the layers before it, and the graph of imports has no cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("webarena_gym", "trainers")

#: The layers, in data-flow order: a module belongs to the entry whose name is its
#: longest prefix, and imports only its own layer and the ones above it. DESIGN.md's list,
#: made precise, with no exception: the task data contract (Task, the families' base, what an
#: oracle sees) comes before the sites; a site is one folder, its app, data and task families
#: (``webarena_gym.sites.<name>.families``) together in the sites layer, since the families read
#: only the contract and their site's data, and export their ``func:`` helpers as data (plain
#: functions of the page the evaluators give them) instead of registering them on import; the
#: suites (loading, splits, official data, the multi-site families) come after the evaluators,
#: and it is they that register the sites' helpers with the evaluators when the suite loads.
#: The command line comes last.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("webarena_gym.errors", "webarena_gym.arguments", "webarena_gym.settings"),
    ("webarena_gym.spaces", "webarena_gym.observation", "webarena_gym.actions", "webarena_gym.webarena_sites",
     "webarena_gym.dom"),
    ("webarena_gym.tasks",),
    ("webarena_gym.sites",),
    ("webarena_gym.backends",),
    ("webarena_gym.evaluators",),
    ("webarena_gym.suites",),
    ("webarena_gym.env",),
    ("webarena_gym.prompts", "webarena_gym.wrappers", "webarena_gym.vector", "webarena_gym.vector_workers",
     "webarena_gym.vector_ray", "webarena_gym.worker_loop", "webarena_gym.integrations"),
    ("webarena_gym.demos", "webarena_gym.oracle_runner", "webarena_gym.evaluation", "webarena_gym.report",
     "webarena_gym.docker_sites"),
    ("trainers",),
    # the command line (`webarena-gym eval` loads a local model through trainers) and the
    # package's front door (registration, make_vec) may reach anything
    ("webarena_gym.cli", "webarena_gym.eval_commands", "webarena_gym"),
)


def module_files() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its ``__init__``)."""
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _absolute(importer: str, is_package: bool, module: str | None, level: int) -> str:
    if not level:
        return module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of ours that ``name`` imports (a ``from pkg import sub`` names ``pkg.sub``)."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield alias.name
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(name, is_package, node.module, node.level)
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    yield f"{source}.{alias.name}"
                elif source in modules:
                    yield source
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            target = node.args[0].value
            level = len(target) - len(target.lstrip("."))
            target = _absolute(name, is_package, target.lstrip(".") or None, level) if level else target
            if target in modules:
                yield target


@cache
def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: {t for t in imports_of(name, path, modules) if t != name} for name, path in modules.items()}


def layer_of(module: str) -> int | None:
    best, best_len = None, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    return best


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_every_module_has_a_layer_and_every_layer_entry_a_module():
    modules = module_files()
    unplaced = sorted(m for m in modules if layer_of(m) is None)
    assert not unplaced, f"Put these modules in a layer of LAYERS: {unplaced}"
    stale = [p for layer in LAYERS for p in layer if not any(m == p or m.startswith(p + ".") for m in modules)]
    assert not stale, f"LAYERS names modules that do not exist: {stale}"


def test_imports_only_point_up_the_data_flow():
    graph = import_graph()
    back_edges = sorted(
        (importer, imported)
        for importer, targets in graph.items()
        for imported in targets
        if layer_of(imported) > layer_of(importer)
    )
    assert not back_edges, "Imports against the data flow (importer -> imported):\n" + "\n".join(
        f"  {a} (layer {layer_of(a)}) -> {b} (layer {layer_of(b)})" for a, b in back_edges
    )


def test_no_import_cycles():
    found = cycles(import_graph())
    assert not found, "Import cycles:\n" + "\n".join("  " + " <-> ".join(c) for c in found)


def test_the_walk_sees_what_the_rules_forbid():
    """The walk finds a type-only import, a function-local import and a cycle (so the rules can bite)."""
    graph = import_graph()
    assert "webarena_gym.errors" in graph["webarena_gym.actions"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_site_is_one_layer_and_its_families_register_nothing_on_import():
    """A site's families sit with its app, before the backends and evaluators, and import neither: the
    suites layer (after the evaluators) is what hands their func: helpers to the evaluators."""
    graph = import_graph()
    families = [m for m in graph if m.startswith("webarena_gym.sites.") and ".families" in m]
    assert "webarena_gym.sites.shopping.families.common" in families
    assert "webarena_gym.sites.map.families" in families
    assert {layer_of(m) for m in families} == {layer_of("webarena_gym.sites")}
    assert layer_of("webarena_gym.tasks.families") < layer_of("webarena_gym.sites.gitlab.families")
    assert layer_of("webarena_gym.sites") < layer_of("webarena_gym.evaluators") < layer_of("webarena_gym.suites")
    assert not any(t.startswith("webarena_gym.evaluators") for m in families for t in graph[m])
    assert "webarena_gym.evaluators.functions" in graph["webarena_gym.suites.embedded"]


def test_no_file_imports_from_examples_or_edits_sys_path():
    """The recipe lives in ``trainers.recipe``: the scripts in ``examples/`` and ``benchmarks/`` import the
    installed packages (and, from the checkout's root with ``python -m``, the tests' helpers), never through a
    ``sys.path`` edit, and nothing imports a module of ``examples/``."""
    offenders = []
    for folder in ("webarena_gym", "trainers", "examples", "benchmarks", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                target = node.func if isinstance(node, ast.Call) else node.targets[0] if isinstance(node, ast.Assign) else None
                edited = isinstance(target, ast.Attribute) and ast.unparse(target).startswith("sys.path")
                edited |= isinstance(target, ast.Subscript) and ast.unparse(target.value) == "sys.path"
                imported = isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "examples"
                if edited or imported:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert offenders == []
