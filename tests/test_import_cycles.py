"""No import circles in `games/`: the modules' top-level imports form no cycle.

A cycle works only while the modules happen to be imported in one order, so it gets broken by
an import inside a function, which hides the dependency; neither is allowed. Every .py file
under games/ is parsed with `ast`: the imports a module runs when it is imported (those at its
top level, `if TYPE_CHECKING:` blocks left out) are its edges; `from a import b` is an edge to
`a.b` when that is a module, else to `a`.
"""

from __future__ import annotations

import ast
from collections.abc import Container, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(path: Path, root: Path) -> list[str]:
    """The package a relative import in `path` starts from, as its dotted parts."""
    return list(path.relative_to(root).parent.parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", "")
    return name == "TYPE_CHECKING"


def _top_level(nodes: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module is imported: not in a function."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _type_checking(node):
                yield from _top_level(node.body)
            yield from _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _top_level(block)
            for handler in node.handlers:
                yield from _top_level(handler.body)
        elif isinstance(node, ast.With | ast.ClassDef):
            yield from _top_level(node.body)


def _imported(
    node: ast.Import | ast.ImportFrom, package: list[str], modules: Container[str]
) -> set[str]:
    """Absolute names of the modules `node` imports: for `from a import b`, `a.b` if that is a
    module, else `a` (where `b` is defined)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if node.level:
        base = ".".join(package[: len(package) - (node.level - 1)])
        module = f"{base}.{node.module}" if node.module else base
    else:
        module = node.module or ""
    names = (f"{module}.{alias.name}" for alias in node.names)
    return {name if name in modules else module for name in names}


def import_graph(layer: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of `layer` and the modules of `layer` it imports at its top level."""
    paths = sorted((root / layer).rglob("*.py"))
    modules = {module_name(path, root): path for path in paths}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        package = _package(path, root)
        found: set[str] = set()
        for node in _top_level(tree.body):
            found |= _imported(node, package, modules)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan), as a path that
    starts and ends at the same module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.add(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_path_within(graph, group) for group in groups]


def _path_within(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A cycle inside `group` (strongly connected), from its first module back to it."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for nxt in sorted(graph[node] & group):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                frontier.append(nxt)
    raise AssertionError(f"not strongly connected: {group}")


def function_imports(layer: str, root: Path = ROOT) -> list[str]:
    """Imports of `layer`'s own modules made inside a function (hiding a dependency)."""
    paths = sorted((root / layer).rglob("*.py"))
    modules = {module_name(path, root) for path in paths}
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        package = _package(path, root)
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    names = _imported(node, package, modules)
                    if any(name.split(".")[0] == layer for name in names):
                        found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return found


def test_the_games_modules_import_each_other_without_a_cycle() -> None:
    graph = import_graph("games")
    assert len(graph) > 40, "games/ was not found: the test would be vacuous"
    assert cycles(graph) == []


def test_no_games_module_imports_games_code_inside_a_function() -> None:
    assert function_imports("games") == []


def write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_cycle_through_a_package_and_a_relative_import_is_found(tmp_path: Path) -> None:
    write(tmp_path, "pkg/__init__.py", "from pkg.rules import RULES\n")
    write(tmp_path, "pkg/rules.py", "from . import strong\nRULES = 1\n")
    write(tmp_path, "pkg/strong.py", "from pkg import RULES\n")
    write(tmp_path, "pkg/alone.py", "import pkg.rules\n")
    assert cycles(import_graph("pkg", tmp_path)) == [["pkg", "pkg.rules", "pkg.strong", "pkg"]]


def test_imports_in_functions_and_type_checking_blocks_make_no_edge(tmp_path: Path) -> None:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/a.py", "import pkg.b\n")
    write(
        tmp_path,
        "pkg/b.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n"
        "def late():\n    import pkg.a\n",
    )
    assert cycles(import_graph("pkg", tmp_path)) == []
    assert function_imports("pkg", tmp_path) == ["pkg/b.py:5"]
