"""The layers depend one way: engines use the standard library only, computer players
the standard library and the engines."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_top_level_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engines_import_nothing_but_the_standard_library_and_each_other():
    allowed = set(sys.stdlib_module_names) | {"games", "__future__"}
    for path in sorted((ROOT / "games").glob("*.py")):
        outside = imported_top_level_modules(path) - allowed
        assert not outside, f"{path.name} imports {sorted(outside)}"


def test_computer_players_import_nothing_but_the_standard_library_and_the_engines():
    allowed = set(sys.stdlib_module_names) | {"games", "ai", "__future__"}
    for path in sorted((ROOT / "ai").glob("*.py")):
        outside = imported_top_level_modules(path) - allowed
        assert not outside, f"{path.name} imports {sorted(outside)}"


def test_renderers_do_not_reach_into_discord_or_storage():
    for path in sorted((ROOT / "render").glob("*.py")):
        assert not imported_top_level_modules(path) & {"discord", "aiosqlite", "data", "cogs"}, path.name


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, by its full dotted name (inside `TYPE_CHECKING` too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_framework_and_the_commands_know_storage_by_its_interface_and_model_only():
    backends = {"data.storage", "data.postgres"}
    for folder in ("matches", "cogs"):
        for path in sorted((ROOT / folder).glob("*.py")):
            assert not imported_modules(path) & backends, f"{folder}/{path.name} imports a storage backend"


def test_the_framework_never_imports_the_commands_or_the_bot():
    for path in sorted((ROOT / "matches").glob("*.py")):
        found = {name.split(".")[0] for name in imported_modules(path)} & {"cogs", "bot"}
        assert not found, f"matches/{path.name} imports {sorted(found)}"


def test_the_framework_has_no_import_cycle_even_for_type_checking():
    modules = {f"matches.{path.stem}": path for path in (ROOT / "matches").glob("*.py")}
    graph = {name: imported_modules(path) & set(modules) for name, path in modules.items()}
    done: set[str] = set()

    def walk(name: str, trail: tuple[str, ...]) -> None:
        assert name not in trail, "import cycle: " + " → ".join((*trail[trail.index(name) :], name))
        if name not in done:
            for imported in sorted(graph[name]):
                walk(imported, (*trail, name))
            done.add(name)

    for name in sorted(graph):
        walk(name, ())
