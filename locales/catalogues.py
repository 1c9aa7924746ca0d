"""The catalogue files and their checks: complete, not fuzzy, same placeholders, valid names.

`python -m locales check` and the tests run these; see locales/__init__.py for the workflow.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from locales import COMMAND_NAME, FOLDER, catalogue_path

TEMPLATE = FOLDER / "messages.pot"
NAME_LIMIT = 32  # characters of a Discord command, option or group name
DESCRIPTION_LIMIT = 100  # characters of a Discord description or choice name
TREE_COMMENT_PREFIX = "Discord: "  # the comment `python -m locales extract` gives the tree's strings
_INDIC_THAI = ((0x0900, 0x097F), (0x0E00, 0x0E7F))  # Devanagari and Thai, which Discord allows


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=lang)


def template() -> Catalog:
    return read(TEMPLATE)


def catalogue(lang: str) -> Catalog:
    return read(catalogue_path(lang), lang)


def shown_by_discord(message: Message) -> bool:
    """Whether Discord shows `message` itself (a description or a choice of the command tree)."""
    return any(comment.startswith(TREE_COMMENT_PREFIX) for comment in message.auto_comments)


def name_problem(name: str) -> str | None:
    """Why Discord would refuse `name` as a command, group or option name, or None: it
    must match ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$ and be lowercase."""
    if not 1 <= len(name) <= NAME_LIMIT:
        return f"{name!r} has {len(name)} characters (1 to {NAME_LIMIT})"
    for char in name:
        if char != char.lower():
            return f"{name!r} has the capital {char!r} (names are lowercase)"
        if not (char in "-_" or unicodedata.category(char)[0] in "LN" or _indic_or_thai(char)):
            return f"{name!r} has {char!r} (letters, digits, '-' and '_' only; no spaces)"
    return None


def _indic_or_thai(char: str) -> bool:
    return any(low <= ord(char) <= high for low, high in _INDIC_THAI)


def placeholders(text: str) -> set[str]:
    """The `{name}` placeholders of a message."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def _forms(message: Message) -> tuple[str, ...]:
    value = message.string
    return tuple(value) if isinstance(value, list | tuple) else (value or "",)


def _ids(message: Message) -> tuple[str, ...]:
    value = message.id
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def problems(template: Catalog, translated: Catalog) -> list[str]:
    """Everything that keeps `translated` from being complete and safe against `template`."""
    found: list[str] = []
    for message in template:
        if not message.id:
            continue
        english = _ids(message)
        label = f"{english[0]!r}" + (f" ({message.context})" if message.context else "")
        entry = translated.get(english[0], message.context)
        if entry is None:
            found.append(f"missing: {label}")
            continue
        forms = _forms(entry)
        if entry.fuzzy:
            found.append(f"fuzzy: {label}")
        if len(english) > 1 and len(forms) != translated.num_plurals:
            found.append(f"{len(forms)} plural forms instead of {translated.num_plurals}: {label}")
        if not all(form.strip() for form in forms):
            found.append(f"empty: {label}")
            continue
        allowed = set().union(*map(placeholders, english))
        for form in forms:
            wrong = placeholders(form) ^ allowed if len(english) == 1 else placeholders(form) - allowed
            if wrong:
                found.append(f"placeholders {sorted(wrong)} differ from the English: {label}")
        if message.context == COMMAND_NAME:
            found += [f"{problem}: {label}" for form in forms if (problem := name_problem(form))]
        elif shown_by_discord(message) and any(len(form) > DESCRIPTION_LIMIT for form in forms):
            found.append(f"longer than {DESCRIPTION_LIMIT} characters: {label}")
    return found


@dataclass(frozen=True, slots=True)
class Statistics:
    lang: str
    messages: int
    translated: int
    fuzzy: int
    words: int  # English words of the messages

    def __str__(self) -> str:
        share = 100 * self.translated / self.messages if self.messages else 100.0
        return (
            f"{self.lang}: {self.translated}/{self.messages} messages translated ({share:.0f}%), "
            f"{self.fuzzy} fuzzy, {self.words} English words"
        )


def statistics(lang: str, template: Catalog, translated: Catalog) -> Statistics:
    wanted = [message for message in template if message.id]
    entries = [translated.get(_ids(m)[0], m.context) for m in wanted]
    done = [e for e in entries if e is not None and not e.fuzzy and all(f.strip() for f in _forms(e))]
    words = sum(len(_ids(m)[0].split()) for m in wanted)
    return Statistics(
        lang, len(wanted), len(done), sum(1 for e in entries if e is not None and e.fuzzy), words
    )


def unknown(template: Catalog, strings: Iterable[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """The (message, context) pairs not in the template: run `python -m locales extract`."""
    return [(text, context) for text, context in strings if template.get(text, context) is None]
