"""No two modules of the project import each other, directly or around a longer circle
(DESIGN.md: "No import circles, not even through an import moved into a function").

A circle works only while its modules happen to be imported in one order (another order
meets a half-made module: "partially initialized module"), and moving one of its imports into
a function only hides it. So every import counts, wherever it is: at the top, in a function,
and `import_module("literal")` calls; only those under `if TYPE_CHECKING:` (type hints, never
run) do not. Importing `a.b.c` runs the packages `a` and `a.b` first, so they count as
imported too, except the importer's own packages (under way already when it runs), unless it
names them.
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


def _run_sometime(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a body, nested ones too, but those under `if TYPE_CHECKING:`."""
    for node in body:
        if isinstance(node, ast.If) and _type_checking(node.test):
            yield from _run_sometime(node.orelse)
            continue
        yield node
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                yield from _run_sometime([n for n in block if isinstance(n, ast.stmt)])
        for handler in getattr(node, "handlers", ()):
            yield from _run_sometime(handler.body)
        for case in getattr(node, "cases", ()):
            yield from _run_sometime(case.body)


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` (at `path`) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in _run_sometime(tree.body):
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
        for call in _expressions(node):
            if isinstance(call, ast.Call) and call.args and _imports(call):
                first = call.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
    ancestors = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    packages = {".".join(m.split(".")[:i]) for m in found for i in range(1, m.count(".") + 1)}
    return {m for m in found | (packages - ancestors) if m in modules and m != name}


def _expressions(node: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of a statement that are not statements of their own (those come separately)."""
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
            yield from ast.walk(child)


def _imports(call: ast.Call) -> bool:
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return called in {"import_module", "__import__"}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = project_modules(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


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


def test_the_scan_finds_circles_of_every_kind(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    (bot / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a.py": "from bot import b\n",
        "b.py": "from . import a\n",  # a and b: directly
        "c.py": "import bot.d\n",
        "d.py": "try:\n    from bot.e import thing\nexcept ImportError:\n    pass\n",
        "e.py": "if True:\n    from bot.c import other\n",  # c, d, e: around
        "f.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.g import x\n",
        "g.py": "from bot.f import y\n",  # f and g: not (a type hint only)
        "i.py": "def later():\n    from bot.j import z\n",
        "j.py": "from bot.i import later\n",  # i and j: an import moved into a function
        "sub/__init__.py": "import importlib\nimportlib.import_module('bot.h')\n",
        "sub/part.py": "from bot.sub.other import w\n",  # its own package: under way already
        "sub/other.py": "",
        "h.py": "from bot.sub.part import w\n",  # runs bot/sub/__init__ first
    }
    for name, text in files.items():
        (bot / name).write_text(text)
    assert cycles(import_graph(tmp_path)) == {
        frozenset({"bot.a", "bot.b"}),
        frozenset({"bot.c", "bot.d", "bot.e"}),
        frozenset({"bot.i", "bot.j"}),
        frozenset({"bot.sub", "bot.h"}),
    }
