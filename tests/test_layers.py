"""The layers only depend downwards (DESIGN.md, "Layers"): games, storage, runtime, bot.

`games/` is pure rules and AI: it imports nothing of Discord, databases, `storage`, `runtime` or
`bot`, and nothing that runs concurrently (asyncio, threads, processes), does I/O (files,
sockets, the OS) or reads the time of day. `storage/` may use the engine but not Discord, the
runtime or the bot. `runtime/` (the session runtime) may use the engine and storage's
protocols, not a database driver, Discord or the bot. Every .py file is parsed with `ast`;
relative imports are resolved to absolute names, and `importlib.import_module("x")` /
`__import__("x")` calls with a literal name count as imports too.

Shared code (the engine, storage, the runtime, `bot/` outside `bot/games/<id>/`) names no game
id: a game is its two packages plus its line in `games.registry.GAME_IDS`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.registry import GAME_IDS

ROOT = Path(__file__).resolve().parent.parent

DRIVERS = {"discord", "aiosqlite", "sqlite3", "asyncpg", "psycopg", "aiohttp"}
CONCURRENCY = {"asyncio", "concurrent", "multiprocessing", "threading", "_thread", "subprocess"}
OS_IO = {"os", "io", "pathlib", "shutil", "tempfile", "socket", "ssl", "select", "selectors"}
OS_IO |= {"signal", "mmap", "fcntl"}
TIME_OF_DAY = {"time", "datetime", "zoneinfo", "calendar"}

FORBIDDEN = {
    "games": DRIVERS | CONCURRENCY | OS_IO | TIME_OF_DAY | {"storage", "runtime", "bot"},
    "storage": {"discord", "runtime", "bot"},
    "runtime": DRIVERS | {"bot"},
}
STORAGE_PROTOCOLS = {"storage.session_store", "storage.protocols"}
"""What `runtime/` may import of storage: the protocols it types against, not a backend."""


def python_files(layer: str, root: Path = ROOT) -> list[Path]:
    directory = root / layer
    return sorted(directory.rglob("*.py")) if directory.is_dir() else []


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    """Absolute names of every module `path` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    # The package relative imports start from: the file's directory, as a dotted path.
    package = list(path.relative_to(root).parent.parts)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                prefix = ".".join(base)
                module = f"{prefix}.{node.module}" if node.module else prefix
                if not node.module:
                    names.update(f"{prefix}.{alias.name}".lstrip(".") for alias in node.names)
                names.add(module.lstrip("."))
            elif node.module:
                names.add(node.module)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if called in {"import_module", "__import__"} and literal:
                names.add(first.value)  # type: ignore[attr-defined]
    return names


def forbidden(layer: str, name: str) -> bool:
    top = name.split(".")[0]
    if layer == "runtime" and top == "storage":
        return name not in STORAGE_PROTOCOLS
    return top in FORBIDDEN[layer]


def violations(layer: str, root: Path = ROOT) -> list[str]:
    found = []
    for path in python_files(layer, root):
        for name in sorted(imported_modules(path, root)):
            if forbidden(layer, name):
                found.append(f"{path.relative_to(root).as_posix()} imports {name}")
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_has_python_files(layer):
    assert python_files(layer), f"{layer}/ has no Python files: the layer test would be vacuous"


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_what_it_may(layer):
    assert violations(layer) == []


def test_the_import_scan_sees_imports_of_every_form(tmp_path):
    package = tmp_path / "games" / "sub"
    package.mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("from .. import storage\n")
    (package / "mod.py").write_text(
        "import os\n"
        "import asyncio\n"
        "from time import time\n"
        "from runtime import SessionService\n"
        "import discord.ui\n"
        "from aiosqlite import connect\n"
        "from ..engine import contract\n"
        "import importlib\n"
        "importlib.import_module('bot.cogs')\n"
        "def f():\n"
        "    import sqlite3\n"
    )
    assert imported_modules(package / "mod.py", tmp_path) == {
        "os",
        "asyncio",
        "time",
        "runtime",
        "discord.ui",
        "aiosqlite",
        "games.engine",
        "importlib",
        "bot.cogs",
        "sqlite3",
    }
    assert imported_modules(package / "__init__.py", tmp_path) == {"games", "games.storage"}
    assert violations("games", tmp_path) == [
        "games/sub/mod.py imports aiosqlite",
        "games/sub/mod.py imports asyncio",
        "games/sub/mod.py imports bot.cogs",
        "games/sub/mod.py imports discord.ui",
        "games/sub/mod.py imports os",
        "games/sub/mod.py imports runtime",
        "games/sub/mod.py imports sqlite3",
        "games/sub/mod.py imports time",
    ]


def test_the_runtime_may_import_storage_protocols_but_not_a_backend_or_the_bot(tmp_path):
    (tmp_path / "runtime").mkdir()
    (tmp_path / "runtime" / "service.py").write_text(
        "import asyncio\n"
        "from storage.session_store import SessionStore\n"
        "from storage.sessions import SqliteSessionStore\n"
        "from storage import open_storage\n"
        "from bot.tables import Tables\n"
        "from games.engine import Rules\n"
    )
    assert violations("runtime", tmp_path) == [
        "runtime/service.py imports bot.tables",
        "runtime/service.py imports storage",
        "runtime/service.py imports storage.sessions",
    ]


IO_BUILTINS = {"open", "print", "input", "breakpoint"}


def builtin_io(layer: str, root: Path = ROOT) -> list[str]:
    """Calls of the builtins that read or write files or the terminal."""
    return [
        f"{path.relative_to(root).as_posix()}:{node.lineno} calls {node.func.id}"
        for path in python_files(layer, root)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in IO_BUILTINS
    ]


def test_games_call_no_builtin_that_does_io(tmp_path):
    assert builtin_io("games") == []
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "cli.py").write_text("def main():\n    print(open('f').read())\n")
    assert builtin_io("games", tmp_path) == [
        "games/cli.py:2 calls print",
        "games/cli.py:2 calls open",
    ]


def shared_files(root: Path = ROOT) -> list[Path]:
    """The code every game shares: the engine, storage, the runtime, and the bot outside
    `bot/games/<id>/`."""
    files = python_files("games/engine", root) + python_files("storage", root)
    files += python_files("runtime", root)
    games = root / "bot" / "games"
    files += [p for p in python_files("bot", root) if games not in p.parents]
    games_init = root / "bot" / "games" / "__init__.py"
    return files + ([games_init] if games_init.exists() else [])


def naming_a_game(root: Path = ROOT) -> list[str]:
    pattern = re.compile(r"\b(" + "|".join(GAME_IDS) + r")\b")
    return [
        f"{path.relative_to(root).as_posix()}:{number}: {line.strip()}"
        for path in shared_files(root)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]


def test_shared_code_names_no_game():
    assert shared_files(), "no shared files found: the check would be vacuous"
    assert naming_a_game() == []


def test_the_game_name_scan_finds_a_game_id_in_shared_code(tmp_path):
    (tmp_path / "bot" / "games" / GAME_IDS[0]).mkdir(parents=True)
    (tmp_path / "bot" / "games" / "__init__.py").write_text("")
    (tmp_path / "bot" / "play.py").write_text(f'if game == "{GAME_IDS[0]}":\n    pass\n')
    (tmp_path / "bot" / "games" / GAME_IDS[0] / "ui.py").write_text(f'GAME = "{GAME_IDS[0]}"\n')
    assert naming_a_game(tmp_path) == [f'bot/play.py:1: if game == "{GAME_IDS[0]}":']
