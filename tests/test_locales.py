"""The translation layer: catalogues complete and valid, the command tree translated into
names Discord accepts, fallbacks to English, Babel's formatting, and the command sync."""

from __future__ import annotations

import hashlib
import json
import random
from datetime import UTC, date, datetime
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

import locales
from locales.catalogues import (
    DESCRIPTION_LIMIT,
    catalogue,
    name_problem,
    placeholders,
    problems,
    template,
    unknown,
)
from locales.translator import CatalogueTranslator, tree_strings
from matches.clock import MOVE_KINDS
from tests.registry import ENGINES

DISCORD_LOCALES = {"de": discord.Locale.german, "fr": discord.Locale.french}


# ------------------------------------------------------------------------ catalogues


@pytest.mark.parametrize("lang", locales.TRANSLATED)
def test_every_message_is_translated_completely_with_the_placeholders_of_the_english(lang):
    assert problems(template(), catalogue(lang)) == []


def test_the_catalogue_check_finds_missing_empty_fuzzy_and_misplaced_entries():
    english = Catalog(locale="en")
    for message in ("Hello {name}", "Bye", "Soon", "Gone", "Later {when}"):
        english.add(message)
    english.add(("{n} win", "{n} wins"))
    english.add("new", context=locales.COMMAND_NAME)
    german = Catalog(locale="de")
    german.add("Hello {name}", "Hallo {nom}")
    german.add("Bye", "")
    german.add("Soon", "Bald", flags=["fuzzy"])
    german.add("Later {when}", "Später {when}")
    german.add(("{n} win", "{n} wins"), ("{n} Sieg",))
    german.add("new", "Neue Partie", context=locales.COMMAND_NAME)

    found = problems(english, german)

    assert "placeholders ['name', 'nom'] differ from the English: 'Hello {name}'" in found
    assert "empty: 'Bye'" in found and "fuzzy: 'Soon'" in found and "missing: 'Gone'" in found
    assert "1 plural forms instead of 2: '{n} win'" in found
    assert any(problem.startswith("'Neue Partie' has the capital 'N'") for problem in found)
    assert not [problem for problem in found if "Later" in problem]


def test_german_and_french_plurals_take_the_form_their_number_asks_for():
    singular = "A player who runs out of time once is now replaced by a computer (normal)."
    plural = "A player who runs out of time {n} times in a row is now replaced by a computer (normal)."

    assert locales.ngettext("de", singular, plural, 1).startswith("Wer einmal")
    assert locales.ngettext("de", singular, plural, 3).startswith("Wer 3 Mal hintereinander")
    assert locales.ngettext("fr", singular, plural, 1).startswith("Un joueur qui dépasse son temps une fois")
    assert locales.ngettext("fr", singular, plural, 2).startswith("Un joueur qui dépasse son temps 2 fois")
    assert locales.ngettext("en", singular, plural, 4) == plural.replace("{n}", "4")


def test_placeholders_are_filled_after_translation():
    assert locales.gettext("de", "Watch #{number}", number=7) == "Zuschauen #7"
    assert locales.gettext("en", "Watch #{number}", number=7) == "Watch #7"
    assert placeholders("`{a}` and {b} but not {{c}}") == {"a", "b"}


# ------------------------------------------------------------------------ languages


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        (discord.Locale.german, "de"),
        (discord.Locale.french, "fr"),
        ("fr-CA", "fr"),
        ("de_AT", "de"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.japanese, "en"),
        ("ja", "en"),
        ("pt-BR", "en"),
        ("", "en"),
        (None, "en"),
        ("--", "en"),
        (42, "en"),
    ],
)
def test_every_locale_speaks_a_language_of_the_bot_and_any_other_speaks_english(locale, lang):
    assert locales.language_of(locale) == lang


def test_an_unsupported_locale_gets_the_english_text_without_an_error():
    assert locales.gettext("ja", "Game table") == "Game table"
    assert locales.pgettext("zh-CN", locales.COMMAND_NAME, "rules") == "rules"
    assert locales.command("es-ES", "tetrislink new") == "/tetrislink new"
    assert locales.number("ja", 1234.5) == "1,234.5"


def test_a_renderer_finds_every_text_its_files_write_in_each_language_and_each_plural_form():
    german = locales.texts("de", "render/rookie/")
    assert "{who} hat sich {cards} von den Ablege-Stapeln von {victim} geholt." in german
    assert {"{n} Karte", "{n} Karten"} <= set(german)
    assert "Deck: {n} card" not in locales.texts("en", "render/rookie/")  # Sequence Numbers' words


async def test_the_translator_leaves_unsupported_locales_and_untranslatable_strings_to_english():
    translator = CatalogueTranslator()
    context = TranslationContext(TranslationContextLocation.command_description, None)
    description = locale_str("The rules of this game, short and clear")

    assert await translator.translate(description, discord.Locale.japanese, context) is None
    assert await translator.translate(description, discord.Locale.american_english, context) is None
    assert (
        await translator.translate(locale_str("Deutsch", translate=False), discord.Locale.french, context)
        is None
    )
    assert (
        await translator.translate(locale_str("not in any catalogue"), discord.Locale.german, context) is None
    )
    assert (
        await translator.translate(description, discord.Locale.german, context)
        == "Die Spielregeln, kurz und klar"
    )


def test_numbers_dates_and_durations_are_written_as_each_language_writes_them():
    assert [locales.number(lang, 1234.5) for lang in ("en", "de", "fr")] == [
        "1,234.5",
        "1.234,5",
        "1\u202f234,5",
    ]
    assert locales.duration("de", 86400 * 3) == "3 Tage"
    assert locales.duration("fr", 120) == "2 minutes"
    assert locales.duration("en", 3600) == "1 hour"
    assert locales.date("de", date(2026, 3, 1), "long") == "1. März 2026"
    assert locales.date("fr", date(2026, 3, 1), "long") == "1 mars 2026"
    assert locales.time("fr", datetime(2026, 3, 1, 18, 5, tzinfo=UTC)) == "18:05"


# ------------------------------------------------------------------------ the command tree


def _localized(payload: dict[str, Any], key: str) -> list[tuple[str, str]]:
    """(Discord locale, text) of every localization under `key`, through the whole payload."""
    found = [(locale, text) for locale, text in (payload.get(key) or {}).items()]
    for child in [*payload.get("options", []), *payload.get("choices", [])]:
        found += _localized(child, key)
    return found


def _descriptions(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """Every part of a payload that has a description: the command, its subcommands, options."""
    return [payload, *(part for option in payload.get("options", []) for part in _descriptions(option))]


def _choices(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        *payload.get("choices", []),
        *(c for option in payload.get("options", []) for c in _choices(option)),
    ]


async def _payloads(simcord_env) -> list[dict[str, Any]]:
    tree = simcord_env.bot.tree
    return [
        await command.get_translated_payload(tree, CatalogueTranslator()) for command in tree.get_commands()
    ]


async def test_every_translated_name_and_description_of_the_command_tree_is_one_discord_accepts(simcord_env):
    payloads = await _payloads(simcord_env)

    names = [pair for payload in payloads for pair in _localized(payload, "name_localizations")]
    descriptions = [pair for payload in payloads for pair in _localized(payload, "description_localizations")]
    assert {locale for locale, _ in names} == {"de", "fr"}  # and no other locale
    assert [
        (locale, text) for locale, text in names if name_problem(text) and not _is_choice(payloads, text)
    ] == []
    assert [(locale, text) for locale, text in descriptions if not 1 <= len(text) <= DESCRIPTION_LIMIT] == []
    for payload in payloads:
        for part in _descriptions(payload):
            assert set(part.get("description_localizations") or {}) == {"de", "fr"}, part["name"]
        for choice in _choices(payload):
            for text in (choice.get("name_localizations") or {}).values():
                assert 1 <= len(text) <= DESCRIPTION_LIMIT, text


def _is_choice(payloads: list[dict[str, Any]], text: str) -> bool:
    """Whether `text` is a choice's name (a label, not held to the rules of names)."""
    return any(text in (c.get("name_localizations") or {}).values() for p in payloads for c in _choices(p))


async def test_the_german_and_french_command_names_are_the_glossarys(simcord_env):
    payloads = {payload["name"]: payload for payload in await _payloads(simcord_env)}

    def localized(path: str, locale: str) -> str:
        node = payloads[path.split()[0]]
        for part in path.split()[1:]:
            node = next(option for option in node["options"] if option["name"] == part)
        return node.get("name_localizations", {}).get(locale, node["name"])

    assert [localized(p, "de") for p in ("help", "leaderboard", "settings language", "tetrislink new")] == [
        "hilfe",
        "rangliste",
        "sprache",
        "neu",
    ]
    assert [localized(p, "fr") for p in ("matches", "history", "settings", "triominos rules")] == [
        "parties",
        "historique",
        "paramètres",
        "règles",
    ]
    assert localized("triominos new open_hands", "fr") == "cartes_visibles"


async def test_every_string_of_the_command_tree_is_in_the_catalogue_template(simcord_env):
    strings = await tree_strings(simcord_env.bot.tree)

    assert unknown(template(), [(found.message, found.context) for found in strings]) == [], (
        "run `python -m locales extract`, then `python -m locales update` and translate"
    )
    assert len(strings) > 80


# ------------------------------------------------------------------------ the command sync


def _digest(payload: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _syncs(simcord_env) -> int:
    return sum(
        1 for request in simcord_env.http_requests if request.method == "PUT" and "/commands" in request.path
    )


async def test_an_installation_synced_before_the_translations_syncs_again_to_publish_them(simcord_env):
    bot = simcord_env.bot
    untranslated = _digest([command.to_dict(bot.tree) for command in bot.tree.get_commands()])
    await bot.storage.settings.set_meta("command_tree:global", untranslated)  # as the bot before them left it
    before = _syncs(simcord_env)

    await bot.sync_commands()

    assert _syncs(simcord_env) == before + 1
    help_command = simcord_env.backend.find_command("help", None)
    assert help_command["name_localizations"] == {"de": "hilfe", "fr": "aide"}
    assert await bot.storage.settings.get_meta("command_tree:global") != untranslated

    await bot.sync_commands()  # nothing changed since: no sync
    assert _syncs(simcord_env) == before + 1


def test_every_move_the_clock_can_play_for_an_absent_player_is_named_in_every_language():
    played = set()
    for name, engine in ENGINES.items():
        for seed in range(6):
            state, rng = engine.new_game(2 if name == "sequence_numbers" else 3, seed), random.Random(seed)
            for _ in range(300):
                seats = engine.current_seats(state)
                if not seats:
                    break
                move = engine.timeout_move(state, seats[0])
                played.add(move["type"])
                chosen = move if rng.random() < 0.5 else rng.choice(engine.legal_moves(state, seats[0]))
                state = engine.apply(state, seats[0], chosen)

    assert {"take", "push", "flip", "place", "turn_down", "buy", "play"} <= played
    assert not played - set(MOVE_KINDS)
    for lang in ("de", "fr"):
        names = [locales.gettext(lang, MOVE_KINDS[kind]) for kind in played]
        assert all(name != MOVE_KINDS[kind] for name, kind in zip(names, played, strict=True)), names
