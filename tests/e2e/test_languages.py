"""The bot in German and French: a German server, a French server, a French member in an
English server, and `/settings language`."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
import simcord

from locales.audience import dm_language, public_language
from tests.e2e.helpers import (
    all_text,
    board_image,
    body,
    button_labels,
    fields,
    title,
    told,
)

RULES = Path(__file__).resolve().parents[2] / "locales"


@pytest.fixture
def german_server(simcord_env, client_locales):
    """A server whose language is German, with two German members and a games channel."""
    guild = simcord_env.create_guild("Spieleabend", preferred_locale="de")
    members = [
        client_locales.speak(guild.add_member(simcord_env.create_user(n)), "de") for n in ("anna", "ben")
    ]
    return guild, guild.create_text_channel("spiele"), members


def manager(env, guild, name: str = "admin"):
    role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[role])


async def test_a_german_server_gets_help_in_german_with_the_german_command_names(german_server):
    _, channel, (anna, _) = german_server

    result = await anna.slash(channel, "help")

    shown = result.response
    assert result.ephemeral and title(shown) == "Spieltisch"
    assert "Starte eine Partie" in body(shown) and "`neu`" in body(shown)
    games = " ".join(field.value for field in fields(shown))
    assert "`/tetrislink neu`" in games and "`/tremember regeln`" in games
    names = [field.name for field in fields(shown)]
    assert "Sequence Numbers (2, 3, 4 oder 6 Personen)" in names and "Alles Weitere" in names
    assert (
        "`/rangliste [spiel] [saison]`" in fields(shown)[-1].value
        and "`/statistik [mitglied] [gegen]`" in fields(shown)[-1].value
    )


async def test_a_german_server_reads_the_rules_of_tremember_in_german(german_server):
    _, channel, (anna, _) = german_server

    result = await anna.slash(channel, "tremember rules")

    shown = result.response
    assert result.ephemeral and title(shown) == "Tremember – Spielregeln"
    german = (RULES / "de" / "rules" / "tremember.md").read_text(encoding="utf-8").strip()
    assert body(shown) == german and "Kartenpaar" in body(shown)
    picture = board_image(result.response)
    assert picture.filename == "rules.png" and result.response.embeds[0].image.url.endswith("rules.png")
    assert picture.description.startswith("Eine Reihe des Spielfelds, deren leeres Feld ganz rechts liegt.")


async def test_the_rules_show_a_picture_of_a_bridge_described_in_the_members_language(table, client_locales):
    chloe = client_locales.speak(table.bob, "fr")

    english = (await table.alice.slash(table.channel, "triominos rules")).response
    french = (await chloe.slash(table.channel, "triominos rules")).response

    assert [a.filename for a in english.attachments] == ["rules.png"]
    assert board_image(english).description.startswith("A bridge: the new card")
    assert board_image(french).description.startswith("Un pont\u00a0: la nouvelle carte")
    assert await board_image(english).read() == await board_image(french).read()


async def test_a_french_member_of_an_english_server_reads_privately_in_french_while_the_lobby_stays_english(
    table, client_locales
):
    chloe = client_locales.speak(table.bob, "fr")

    rules = await chloe.slash(table.channel, "rookie rules")
    helped = await chloe.slash(table.channel, "help")
    lobby = await chloe.slash(table.channel, "tetrislink new")
    english = await table.alice.slash(table.channel, "help")

    assert title(rules.response) == "Rookie – règles du jeu"
    assert body(rules.response).startswith(
        (RULES / "fr" / "rules" / "rookie.md").read_text(encoding="utf-8").strip()[:40]
    )
    assert title(helped.response) == "Table de jeu"
    assert "`/tetrislink nouvelle-partie`" in all_text(helped.response)
    assert not lobby.ephemeral and "Tetris Link" in title(lobby.response.message)
    assert "Join" in button_labels(lobby.response.message)
    assert title(english.response) == "Game table"


async def test_a_canadian_french_member_hears_in_french_that_no_match_is_being_played(table, client_locales):
    chloe = client_locales.speak(table.bob, "fr-CA")

    shown = await chloe.slash(table.channel, "matches")

    assert "Aucune partie en cours ici" in told(shown) and "`/aide`" in told(shown)


async def test_a_member_with_a_language_the_bot_does_not_speak_reads_english(table, client_locales):
    kenji = client_locales.speak(table.carol, "ja")

    helped = await kenji.slash(table.channel, "help")
    rules = await kenji.slash(table.channel, "sequence rules")

    assert title(helped.response) == "Game table"
    assert title(rules.response) == "Sequence Numbers — rules"


async def test_settings_language_switches_the_public_language_of_a_server(table, client_locales):
    env, bot = table.env, table.env.bot
    admin = manager(env, table.guild)
    assert await public_language(bot.storage.settings, bot.get_guild(table.guild.id)) == "en"

    chosen = await admin.slash(table.channel, "settings language", language="de")
    shown = await admin.slash(table.channel, "settings show")

    assert chosen.ephemeral and chosen.response.content.startswith(
        "Boards and lobbies now speak **Deutsch**."
    )
    assert "Boards and lobbies speak **Deutsch**." in shown.response.content
    assert await public_language(bot.storage.settings, bot.get_guild(table.guild.id)) == "de"

    client_locales.speak(admin, "fr")
    following = await admin.slash(table.channel, "settings language", language="server")
    shown = await admin.slash(table.channel, "settings show")

    assert following.response.content.startswith(
        "Plateaux et salles d’attente suivent désormais la langue du serveur (actuellement **English**)."
    )
    assert "Plateaux et salles d’attente suivent la langue du serveur (actuellement **English**)." in (
        shown.response.content
    )
    assert await public_language(bot.storage.settings, bot.get_guild(table.guild.id)) == "en"


async def test_a_server_following_its_own_language_is_public_in_it_until_a_manager_chooses(
    german_server, simcord_env
):
    guild, channel, _ = german_server
    admin = manager(simcord_env, guild)
    settings = simcord_env.bot.storage.settings

    assert await public_language(settings, simcord_env.bot.get_guild(guild.id)) == "de"
    shown = await admin.slash(channel, "settings show")
    assert "Boards and lobbies speak the server's language (now **Deutsch**)." in shown.response.content

    await admin.slash(channel, "settings language", language="fr")

    assert await public_language(settings, simcord_env.bot.get_guild(guild.id)) == "fr"


async def test_members_without_manage_server_cannot_choose_the_language(german_server):
    _, channel, (anna, _) = german_server

    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await anna.slash(channel, "settings language", language="en")  # hidden from her, as in Discord


async def test_dms_speak_the_language_a_member_last_used(table, client_locales):
    settings = table.env.bot.storage.settings
    assert await dm_language(settings, table.dave.user.id) == "en"

    await client_locales.speak(table.dave, "fr").slash(table.channel, "help")
    assert await dm_language(settings, table.dave.user.id) == "fr"
    assert await settings.member_locale(table.dave.user.id) == "fr"

    await client_locales.speak(table.dave, "de").slash(table.channel, "help")
    assert await dm_language(settings, table.dave.user.id) == "de"


async def test_a_members_locale_is_written_only_when_it_changed(table, client_locales, monkeypatch):
    settings = table.env.bot.storage.settings
    written: list[tuple[int, str]] = []
    store = settings.set_member_locale

    async def counted(user_id: int, locale: str) -> None:
        written.append((user_id, locale))
        await store(user_id, locale)

    monkeypatch.setattr(settings, "set_member_locale", counted)
    for locale in ("de", "de", "de", "fr", "fr"):
        await client_locales.speak(table.dave, locale).slash(table.channel, "help")

    assert written == [(table.dave.user.id, "de"), (table.dave.user.id, "fr")]


async def test_a_tie_break_is_named_in_the_language_of_the_board(table):
    from cogs.game import GameCog
    from games import Outcome

    games = [c for c in table.env.bot.cogs.values() if isinstance(c, GameCog)]
    cog = next(c for c in games if type(c).result_lines is GameCog.result_lines)
    tie = Outcome(scores=(3, 3), winners=(0,), tiebreak="largest group")

    assert cog.result_lines(None, tie, "en") == ["Decided by the tie-break: the largest group."]
    assert cog.result_lines(None, tie, "de") == ["Bei Gleichstand entschied: die größte Gruppe."]
    assert cog.result_lines(None, tie, "fr") == ["Égalité départagée par\u00a0: le plus grand groupe."]
