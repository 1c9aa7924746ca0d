"""The translators' commands (see locales/__init__.py):

python -m locales extract     the English messages of the code and the command tree → messages.pot
python -m locales init LANG   a new catalogue for LANG, from messages.pot
python -m locales update      merge messages.pot into every catalogue (changed ones become fuzzy)
python -m locales check       every catalogue complete and valid, every text true to its language's
                              glossary (locales/<lang>/glossary.toml); prints the statistics
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import write_po

from locales import FOLDER, TRANSLATED, catalogue_path
from locales.catalogues import TEMPLATE, TREE_COMMENT_PREFIX, catalogue, problems, statistics, template
from locales.glossary import glossaries, load, texts, violations
from locales.translator import TreeString, tree_strings

ROOT = FOLDER.parent
KEYWORDS = {
    "gettext": (2,),
    "_": (2,),
    "ngettext": (2, 3),
    "pgettext": ((2, "c"), 3),
    "N_": None,
    "NP_": ((1, "c"), 2),
    "locale_str": None,
}
COMMENT_TAGS = ("TRANSLATORS:",)
VERSION = "0.1.0"
TREE_COMMENT = TREE_COMMENT_PREFIX + "{location}"
NAME_COMMENT = "A Discord name: lowercase, no spaces, at most 32 characters."


def extract() -> Catalog:
    """messages.pot: the marked messages of the code, then the command tree's strings."""
    pot = Catalog(
        project="game-table", version=VERSION, copyright_holder="the game-table authors", fuzzy=False
    )
    with (FOLDER / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
    ):
        pot.add(message, locations=[(filename, lineno)], auto_comments=comments, context=context)
    for found in asyncio.run(_command_tree()):
        comments = [TREE_COMMENT.format(location=found.location)]
        if found.context is not None:
            comments.append(NAME_COMMENT)
        known = pot.get(found.message, found.context)
        if known is None:
            pot.add(found.message, auto_comments=comments, context=found.context)
        elif comments[0] not in known.auto_comments:
            known.auto_comments.append(comments[0])
    for message in _storage_messages():
        if pot.get(message) is None:
            pot.add(message, auto_comments=["Said to a player when the database refuses a call."])
    _write(pot, TEMPLATE)
    return pot


def _storage_messages() -> tuple[str, ...]:
    """What the storage layer says to players (it speaks English; the framework translates it):
    its refusal, and why a stored match was set aside, for every column it can name."""
    from data.model import StorageUnavailable
    from data.rows import MATCH_COLUMNS, UnreadableColumn

    columns = (column.strip() for column in MATCH_COLUMNS.split(","))
    return (StorageUnavailable.MESSAGE, *dict.fromkeys(UnreadableColumn(c, "").reason for c in columns))


async def _command_tree() -> list[TreeString]:
    """The command tree of the bot, built as it starts (on the local table's simulated Discord)."""
    import simcord

    from bot import create_bot  # the whole bot: this is a developer's command, not the library

    logging.getLogger("discord").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="locales-") as folder:
        bot = create_bot(database=Path(folder) / "extract.db")
        try:
            async with simcord.run(bot):
                return await tree_strings(bot.tree)
        finally:
            await bot.close()


def init(lang: str) -> None:
    path = catalogue_path(lang)
    if path.exists():
        raise SystemExit(f"{path} exists already — use `python -m locales update`.")
    new = Catalog(
        locale=lang,
        project="game-table",
        version=VERSION,
        copyright_holder="the game-table authors",
        fuzzy=False,
    )
    new.update(template())
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(new, path)
    print(f"Created {path.relative_to(ROOT)}: translate its entries, then `python -m locales check`.")


def update() -> None:
    pot = template()
    for lang in TRANSLATED:
        current = catalogue(lang)
        current.update(pot, update_header_comment=False)
        _write(current, catalogue_path(lang))
        print(statistics(lang, pot, current))


def check() -> int:
    pot, failed = template(), 0
    for lang in TRANSLATED:
        if not catalogue_path(lang).is_file():
            print(f"{lang}: no catalogue yet — run `python -m locales init {lang}`.")
            failed += 1
            continue
        current = catalogue(lang)
        print(statistics(lang, pot, current))
        for problem in problems(pot, current):
            print(f"  {lang}: {problem}")
            failed += 1
    for lang in glossaries():
        for problem in violations(load(lang), texts(lang)):
            print(f"  {lang}: {problem}")
            failed += 1
    return 1 if failed else 0


def _write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as target:
        write_po(target, catalog, width=100, include_lineno=False, ignore_obsolete=True, omit_header=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m locales", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("extract", help="collect the English messages into locales/messages.pot")
    commands.add_parser("init", help="start a new language's catalogue").add_argument("lang")
    commands.add_parser("update", help="merge messages.pot into every catalogue")
    commands.add_parser("check", help="check every catalogue; print the statistics")
    args = parser.parse_args(argv)
    if args.command == "extract":
        print(f"{len(extract())} messages in {TEMPLATE.relative_to(ROOT)}")
    elif args.command == "init":
        init(args.lang)
    elif args.command == "update":
        update()
    else:
        return check()
    return 0


if __name__ == "__main__":
    sys.exit(main())
