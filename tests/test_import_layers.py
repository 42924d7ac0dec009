"""Imports between ctxaction's modules: no circle, and the pipeline's layers only point down.

The graph is read from the source (every ``import`` statement, those inside functions included),
never by importing it. Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first, so an
import names every package on the way as well as the module. The packages that enclose the
importing module itself are left out of those implied names: they are already running when it
is imported, so they add no dependency (an explicit ``from ctxaction.render import X`` of a name
the package defines still counts).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import ctxaction

PACKAGE = Path(ctxaction.__file__).parent
ROOT = "ctxaction"

# The pipeline's stages, highest first: each may import the stages below it, never one above,
# directly or through modules outside the table (config, model, secure, …).
LAYERS = {"github": 5, "render": 4, "pack": 3, "rank": 2, "repo": 1}
# The shared plain-text jobs sit below everything: they import nothing of ctxaction but themselves.
FOUNDATION = "text"


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if package else parts)
        out[name] = (path, package)
    return out


def _imported(module: str, is_package: bool, tree: ast.AST, known: set[str]) -> Iterator[str]:
    """The dotted names ``module`` imports (the named module or attribute's module)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: None if is_package else -1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in known]
            if len(subs) < len(node.names):
                yield target  # names defined by the module (or package) itself
            yield from subs


def import_graph() -> dict[str, set[str]]:
    """module → the ctxaction modules its import statements run."""
    modules = _modules()
    known = set(modules)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        enclosing = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for target in _imported(name, is_package, tree, known):
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                implied = i < len(parts)
                if prefix in known and prefix != name and not (implied and prefix in enclosing):
                    graph[name].add(prefix)
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan), plus self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(root: str) -> None:
        # Iterative, so a deep chain of imports cannot hit the recursion limit.
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.append(frozenset(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Import chains from a layered module up to a higher layer (through unlayered modules)."""
    out = []
    for start in sorted(graph):
        level = _layer(start)
        if level is None:
            continue
        seen = {start}
        todo = [(start, [start])]
        while todo:
            node, path = todo.pop()
            for target in sorted(graph[node]):
                if target in seen:
                    continue
                seen.add(target)
                other = _layer(target)
                if other is not None and other > level:
                    out.append(" -> ".join([*path, target]))
                elif other is None:
                    todo.append((target, [*path, target]))
    return out


def test_the_graph_sees_function_level_and_package_imports() -> None:
    graph = import_graph()
    # render() imports the Jinja2 side inside the function; it still counts.
    assert "ctxaction.render.templated" in graph["ctxaction.render"]
    # ``from ctxaction.repo.files import X`` runs ctxaction/repo/__init__ too.
    assert {"ctxaction.repo", "ctxaction.repo.files"} <= graph["ctxaction.rank"]
    # A module does not depend on the packages that enclose it.
    assert "ctxaction.rank" not in graph["ctxaction.rank.callees"]


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}
    assert sorted(map(sorted, circles(graph))) == [["a", "b", "c"], ["d"]]


def test_no_import_circles() -> None:
    found = sorted(sorted(c) for c in circles(import_graph()))
    assert found == [], f"import circles: {found}"


def test_layers_only_point_down() -> None:
    graph = import_graph()
    assert set(LAYERS) <= {m.split(".")[1] for m in graph if m.count(".") == 1}
    assert upward_imports(graph) == []


def test_the_text_foundation_imports_nothing_above_it() -> None:
    graph = import_graph()
    foundation = f"{ROOT}.{FOUNDATION}"
    for module in (m for m in graph if m == foundation or m.startswith(foundation + ".")):
        outside = {t for t in graph[module] if t != foundation and not t.startswith(foundation + ".")}
        assert not outside, f"{module} imports {sorted(outside)}"
