"""Each language's glossary (locales/<lang>/glossary.toml) and the texts it is checked against.

A glossary says how the bot addresses a player, its approach to gender, its typography, one
word per game or interface term, and the patterns its texts must not use. Each forbidden
pattern applies to some of three kinds of text:

- "catalogue": every entry of the language's catalogue (for English, the English of the code);
- "rules": the language's rules texts (cogs/rules/*.md for English);
- "labels": the entries Discord shows as plain text, where markdown is not rendered: button
  and select labels, select placeholders and option descriptions (found in the code by
  `label_messages`), and the descriptions and choices of the command tree.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Message

from locales import DEFAULT, FOLDER
from locales.catalogues import catalogue, shown_by_discord, template

ROOT = FOLDER.parent
WHERE = ("catalogue", "rules", "labels")
KEYS = {
    "style": {"address", "gender", "notes"},
    "terms": set(),
    "forbidden": {"pattern", "where", "reason", "examples"},
}
# Where Discord shows text as it is: the calls and keywords that take a label.
LABEL_CALLS = {"Option", "Button", "GameButton", "SelectOption", "Choice"}
LABEL_KEYWORDS = {"label", "placeholder", "description"}
MESSAGE_ARGUMENT = {"gettext": 1, "ngettext": 1, "pgettext": 2, "N_": 0, "NP_": 1}
LABEL_FOLDERS = ("cogs", "matches")


@dataclass(frozen=True, slots=True)
class Forbidden:
    """A pattern a language's texts must not use, where, why, and texts it must catch."""

    pattern: re.Pattern[str]
    where: tuple[str, ...]
    reason: str
    examples: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Glossary:
    lang: str
    raw: dict[str, object]
    forbidden: tuple[Forbidden, ...]


@dataclass(frozen=True, slots=True)
class Text:
    """One text a glossary checks: its kind, where it comes from, and what it says."""

    kind: str
    source: str
    text: str


def glossary_path(lang: str) -> Path:
    return FOLDER / lang / "glossary.toml"


def glossaries() -> list[str]:
    """The languages that have a glossary."""
    return sorted(path.parent.name for path in FOLDER.glob("*/glossary.toml"))


def load(lang: str) -> Glossary:
    with glossary_path(lang).open("rb") as source:
        raw = tomllib.load(source)
    forbidden = tuple(
        Forbidden(
            re.compile(entry["pattern"]),
            tuple(entry["where"]),
            entry["reason"],
            tuple(entry["examples"]),
        )
        for entry in raw.get("forbidden", [])
    )
    return Glossary(lang, raw, forbidden)


def shape_problems(raw: dict[str, object]) -> list[str]:
    """What a glossary lacks or has too much of, against the agreed keys."""
    found = []
    for table, keys in KEYS.items():
        if table not in raw:
            found.append(f"no [{table}]")
            continue
        value = raw[table]
        entries = value if isinstance(value, list) else [value]
        for entry in entries:
            if not isinstance(entry, dict):
                found.append(f"[{table}] is not a table")
                continue
            if keys and set(entry) != keys:
                found.append(f"[{table}] has keys {sorted(entry)}, agreed: {sorted(keys)}")
            if table == "forbidden" and not set(entry.get("where", [])) <= set(WHERE):
                found.append(f"{entry['pattern']!r}: where {entry['where']} is not among {list(WHERE)}")
            if table == "terms" and not all(isinstance(v, str) for v in entry.values()):
                found.append("[terms] maps English terms to words (strings)")
    return found


def label_messages(folders: Iterable[str] = LABEL_FOLDERS) -> set[str]:
    """The English messages of the code that end up in a label, a placeholder or a select
    option's description: those written inside such an argument, or reaching it through the
    names of its function, the module's constants (`N_` tables) and the module's functions."""
    found: set[str] = set()
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found |= _Module(ast.parse(path.read_text(encoding="utf-8"))).labels()
    return found


class _Module:
    """One module's label messages, followed through its constants and functions."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        self.constants: dict[str, ast.expr] = {}
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                self.constants.update((t.id, node.value) for t in targets if isinstance(t, ast.Name))

    def labels(self) -> set[str]:
        found: set[str] = set()
        scopes = [self.tree, *(n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef))]
        for scope in scopes:
            assigned = _assignments(scope)
            passed: list[ast.expr] = [a for node in _own_nodes(scope) for a in _label_arguments(node)]
            passed += [value for names, value in assigned if any(n.endswith("label") for n in names)]
            seen: set[str] = set()
            while passed:
                expression = passed.pop()
                found |= self.messages(expression, set())
                for name in {n.id for n in ast.walk(expression) if isinstance(n, ast.Name)} - seen:
                    seen.add(name)
                    passed += [value for names, value in assigned if name in names]
        return found

    def messages(self, expression: ast.AST, visited: set[str]) -> set[str]:
        """The literal messages in `expression`, in the constants it reads and in what the
        module's functions it calls return."""
        found = _messages(expression)
        for node in ast.walk(expression):
            if not isinstance(node, ast.Name) or node.id in visited:
                continue
            visited.add(node.id)
            if node.id in self.constants:
                found |= self.messages(self.constants[node.id], visited)
            elif node.id in self.functions:
                for inner in ast.walk(self.functions[node.id]):
                    if isinstance(inner, ast.Return) and inner.value is not None:
                        found |= self.messages(inner.value, visited)
        return found


def _assignments(scope: ast.AST) -> list[tuple[set[str], ast.expr]]:
    """The names assigned in a function (or a module's top level), each with its value."""
    found = []
    for node in _own_nodes(scope):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.append(
                ({n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}, node.value)
            )
        elif isinstance(node, ast.For):
            found.append(({n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}, node.iter))
    return found


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function (or a module) outside the functions nested in it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            stack.extend(ast.iter_child_nodes(node))


def _label_arguments(node: ast.AST) -> list[ast.expr]:
    """The arguments of a call that Discord shows as plain text."""
    if not isinstance(node, ast.Call):
        return []
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    keywords = LABEL_KEYWORDS if name in LABEL_CALLS else LABEL_KEYWORDS - {"description"}
    arguments = [k.value for k in node.keywords if k.arg in keywords]
    if name in LABEL_CALLS and node.args:
        arguments.append(node.args[0])
    return arguments


def _messages(expression: ast.AST) -> set[str]:
    """The literal messages of the translation calls in `expression`."""
    found = set()
    for node in ast.walk(expression):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in MESSAGE_ARGUMENT
        ):
            first = MESSAGE_ARGUMENT[node.func.id]
            for argument in node.args[first : first + 2 if node.func.id == "ngettext" else first + 1]:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    found.add(argument.value)
    return found


def texts(lang: str) -> list[Text]:
    """Every text of `lang` a glossary checks, by kind."""
    english = template()
    labels = label_messages()
    found = [
        Text("rules", f"rules/{path.name}", path.read_text(encoding="utf-8")) for path in rules_files(lang)
    ]
    if lang == DEFAULT:
        for message in english:
            for text in _ids(message):
                found.append(Text("catalogue", repr(text), text))
                if _is_label(message, labels):
                    found.append(Text("labels", repr(text), text))
        return found
    for message in catalogue(lang):
        known = english.get(message.id, message.context)
        for text in _strings(message):
            found.append(Text("catalogue", repr(_ids(message)[0]), text))
            if known is not None and _is_label(known, labels):
                found.append(Text("labels", repr(_ids(message)[0]), text))
    return found


def rules_files(lang: str) -> list[Path]:
    folder = ROOT / "cogs" / "rules" if lang == DEFAULT else FOLDER / lang / "rules"
    return sorted(folder.glob("*.md"))


def _is_label(message: Message, labels: set[str]) -> bool:
    return shown_by_discord(message) or any(text in labels for text in _ids(message))


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)


def _strings(message: Message) -> tuple[str, ...]:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return tuple(s for s in strings if s)


def violations(glossary: Glossary, checked: Iterable[Text]) -> list[str]:
    """Every text that uses a pattern its glossary forbids: which text, the pattern, and why."""
    found = []
    for text in checked:
        for rule in glossary.forbidden:
            if text.kind in rule.where and (hit := rule.pattern.search(text.text)):
                found.append(
                    f"{glossary.lang} {text.kind} {text.source}: {hit.group(0)!r} ({rule.pattern.pattern}) "
                    f"— {rule.reason}"
                )
    return found
