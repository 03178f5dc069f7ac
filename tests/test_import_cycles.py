"""No two modules of the project import each other as they are imported, directly or around
a longer circle.

Such a circle works only while its modules happen to be imported in one order (another order
meets a half-made module: "partially initialized module"). What counts is what runs when a
module is imported: its top-level imports (inside a top-level `if`, `try` or `with` too) and
`import_module("literal")` calls, not imports inside functions or under `if TYPE_CHECKING:`
(type hints only). Importing `a.b.c` runs the packages `a` and `a.b` first, so they count as
imported too, except the importer's own packages (already under way when it runs).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PACKAGES = ("bot", "games", "runtime", "storage")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    return {
        module_name(path, root): path
        for package in PACKAGES
        if (root / package).is_dir()
        for path in sorted((root / package).rglob("*.py"))
    }


def _type_checking(test: ast.expr) -> bool:
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", "")
    return name == "TYPE_CHECKING"


def _run_at_import(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a module body that run when it is imported (not function bodies)."""
    for node in body:
        if isinstance(node, ast.If):
            if not _type_checking(node.test):
                yield from _run_at_import(node.body)
            yield from _run_at_import(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _run_at_import(block)
            for handler in node.handlers:
                yield from _run_at_import(handler.body)
        elif isinstance(node, ast.With):
            yield from _run_at_import(node.body)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node
        elif isinstance(node, ast.ClassDef):  # a class body runs at import
            yield from _run_at_import(node.body)


def imports_at_import_time(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` (at `path`) imports as it is imported."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in _run_at_import(tree.body):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in modules else source)
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and call.args and _imports(call):
                first = call.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
    ancestors = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    with_packages = {
        ".".join(module.split(".")[:i]) for module in found for i in range(1, module.count(".") + 2)
    }
    return {m for m in with_packages - ancestors if m in modules and m != name}


def _imports(call: ast.Call) -> bool:
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return called in {"import_module", "__import__"}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = project_modules(root)
    return {name: imports_at_import_time(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The circles of the graph: its strongly connected components of two or more modules
    (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.add(frozenset(component))
    return found


def test_the_project_has_modules_to_check() -> None:
    graph = import_graph()
    assert {"bot.client", "runtime.service", "storage.sessions"} <= set(graph)
    assert "runtime.core" in graph["runtime.service"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_modules_import_each_other(package: str) -> None:
    found = {c for c in cycles(import_graph()) if any(m.split(".")[0] == package for m in c)}
    assert sorted(sorted(c) for c in found) == []


def test_the_scan_finds_a_direct_and_a_longer_circle(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "__init__.py").write_text("")
    (bot / "a.py").write_text("from bot import b\n")
    (bot / "b.py").write_text("from . import a\n")
    (bot / "c.py").write_text("import bot.d\n")
    (bot / "d.py").write_text("try:\n    from bot.e import thing\nexcept ImportError:\n    pass\n")
    (bot / "e.py").write_text("if True:\n    from bot.c import other\n")
    (bot / "f.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from bot.g import x\n"
        "def later():\n    from bot.g import y\n"
    )
    (bot / "g.py").write_text("from bot.f import z\n")
    sub = bot / "sub"
    sub.mkdir()
    (sub / "__init__.py").write_text("import importlib\nimportlib.import_module('bot.h')\n")
    (sub / "part.py").write_text("from bot.sub import __name__ as own  # its own package\n")
    (bot / "h.py").write_text("from bot.sub.part import own\n")  # runs bot/sub/__init__ first
    assert cycles(import_graph(tmp_path)) == {
        frozenset({"bot.a", "bot.b"}),
        frozenset({"bot.c", "bot.d", "bot.e"}),
        frozenset({"bot.sub", "bot.h"}),
    }
