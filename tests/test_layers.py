"""The layers depend one way: engines use the standard library only, computer players
the standard library and the engines; the bot's entry point above the commands, the launcher,
the local table and the settings above nothing of the bot's."""

from __future__ import annotations

import ast
import json
import subprocess
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
    for path in sorted((ROOT / "games").rglob("*.py")):
        outside = imported_top_level_modules(path) - allowed
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


def test_computer_players_import_nothing_but_the_standard_library_and_the_engines():
    allowed = set(sys.stdlib_module_names) | {"games", "ai", "__future__"}
    for path in sorted((ROOT / "ai").rglob("*.py")):
        outside = imported_top_level_modules(path) - allowed
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


def test_renderers_do_not_reach_into_discord_or_storage():
    for path in sorted((ROOT / "render").rglob("*.py")):
        forbidden = {"discord", "aiosqlite", "asyncpg", "sqlalchemy", "data", "cogs", "matches", "ai", "bot"}
        assert not imported_top_level_modules(path) & forbidden, path.relative_to(ROOT)


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
    interface = {"data.model", "data.repositories", "data.ratings"}  # the ratings' public rules
    for folder in ("matches", "cogs"):
        for path in sorted((ROOT / folder).glob("*.py")):
            storage = {name for name in imported_modules(path) if name == "data" or name.startswith("data.")}
            assert storage <= interface, f"{folder}/{path.name} imports {sorted(storage - interface)}"


def test_the_tournament_rules_import_nothing_but_the_standard_library_and_themselves():
    paths = sorted((ROOT / "matches" / "tournament").glob("*.py"))
    assert paths, "matches/tournament/ holds the tournament rules"
    allowed = set(sys.stdlib_module_names)
    for path in paths:
        outside = {name for name in imported_modules(path) if name.split(".")[0] not in allowed}
        outside -= {name for name in outside if name.startswith("matches.tournament")}
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


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


# Below the entry point (bot.py), each of these imports only those after it, and none of them
# the bot, the commands or the framework: the bot is handed to them.
ENTRY_LAYERS = ("launcher", "local_table", "settings")


def test_the_launcher_the_local_table_and_the_settings_import_nothing_of_the_bot_above_them():
    for index, name in enumerate(ENTRY_LAYERS):
        imported = {module.split(".")[0] for module in imported_modules(ROOT / f"{name}.py")}
        above = {"bot", "cogs", "matches", *ENTRY_LAYERS[: index + 1]}
        assert not imported & above, f"{name}.py imports {sorted(imported & above)}"


def test_the_commands_and_the_framework_never_import_the_launcher_or_the_local_table():
    for folder in ("cogs", "matches"):
        for path in sorted((ROOT / folder).glob("*.py")):
            found = {name.split(".")[0] for name in imported_modules(path)} & {"launcher", "local_table"}
            assert not found, f"{folder}/{path.name} imports {sorted(found)}"


def test_collecting_the_engine_tests_imports_neither_discord_nor_the_bot():
    """SimCord's pytest plugin imports discord.py when pytest starts: it is left out here, so
    that what is left is what the engine tests and the fixtures they meet import."""
    script = (
        "import json, sys, pytest\n"
        "code = pytest.main(['-q', '--co', '-p', 'no:simcord', '-p', 'no:cacheprovider', 'tests/games'])\n"
        "print(json.dumps([code, sorted({name.split('.')[0] for name in sys.modules})]))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    code, modules = json.loads(run.stdout.strip().splitlines()[-1])
    assert code == 0, run.stdout
    found = set(modules) & {"discord", "simcord", "bot", "cogs", "matches", "launcher", "local_table"}
    assert not found, f"collecting tests/games imports {sorted(found)}"
