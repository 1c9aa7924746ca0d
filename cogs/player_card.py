"""What `/stats` adds to the numbers: the player card (a picture, with its alt text) and the
head-to-head record of two members, both read from the server's stored results.

The card's best game is the one with the highest shown rating (ties: more wins, then the game's
name); its streak counts the player's latest rated matches alike, in every game (a draw ends it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import discord
from discord.utils import escape_markdown

from data.model import Award, HeadToHead, RatedResult
from data.ratings import OVERALL, streak
from games.feats import Achievement
from locales import and_list, gettext, ngettext, number, pgettext
from matches.cards import Card
from matches.match import ALT_LIMIT, alt_text
from matches.spec import Games
from render.player_card import GameChart, PlayerCard, render

HISTORY_LIMIT = 500  # rated matches of each game a card charts at most: the latest
CARD_FILE = "card.png"
Badge = tuple[str, str]  # an achievement as the card shows it: (emoji, name)


def badges(catalogue: Mapping[str, Achievement], earned: Sequence[Award], lang: str) -> list[Badge]:
    """The achievements a member holds (`earned`, oldest first) as the card shows them, the
    latest first."""
    held = [catalogue[award.key] for award in reversed(earned) if award.key in catalogue]
    return [(achievement.emoji, gettext(lang, achievement.name)) for achievement in held]


def card(
    games: Games,
    name: str,
    ratings: Sequence[dict[str, Any]],
    history: Sequence[RatedResult],
    achievements: Sequence[Badge],
    lang: str,
) -> tuple[PlayerCard, str]:
    """A player's card in `lang` and its alt text, from their ratings (`player_ratings`), rating
    history (`rating_history`) and latest achievements."""
    played = [entry for entry in ratings if entry["game"] != OVERALL]
    charts = [_chart(games.title_of(entry["game"]), entry, history, lang) for entry in played]
    facts = [fact for fact in (_streak(streak(history), lang), _best(games, played, lang)) if fact]
    drawn = PlayerCard(
        name=name,
        facts=tuple(facts),
        games=tuple(charts),
        achievements_title=gettext(lang, "Latest achievements"),
        achievements=tuple(achievements[:6]),
        empty=gettext(lang, "No rated match on this server yet."),
    )
    return drawn, _alt(drawn, lang)


async def card_file(
    games: Games,
    name: str,
    ratings: Sequence[dict[str, Any]],
    history: Sequence[RatedResult],
    achievements: Sequence[Badge],
    lang: str,
) -> discord.File:
    """The card as an attachment (drawn off the event loop), described by its alt text."""
    drawn, alt = card(games, name, ratings, history, achievements, lang)
    png = await asyncio.to_thread(render, drawn)
    return discord.File(io.BytesIO(png), filename=CARD_FILE, description=alt)


def _chart(title: str, entry: dict[str, Any], history: Sequence[RatedResult], lang: str) -> GameChart:
    mine = [result for result in history if result.game == entry["game"]]
    shown = tuple([mine[0].before, *(result.after for result in mine)]) if mine else (entry["rating"],)
    return GameChart(
        title=title,
        rating=number(lang, entry["rating"]),
        record=record(lang, entry["wins"], entry["games"]),
        ratings=shown,
        lowest=number(lang, min(shown)),
        highest=number(lang, max(shown)),
    )


def record(lang: str, wins: int, games: int) -> str:
    """ "3 wins / 5 games" in `lang`, each count in the form its number asks for."""
    won = ngettext(lang, "{n} win", "{n} wins", wins)
    return ngettext(lang, "{wins} / {n} game", "{wins} / {n} games", games, wins=won)


def _streak(length: int, lang: str) -> str | None:
    if length > 0:
        return ngettext(lang, "Current streak: {n} win", "Current streak: {n} wins in a row", length)
    if length < 0:
        return ngettext(lang, "Current streak: {n} loss", "Current streak: {n} losses in a row", -length)
    return None


def _best(games: Games, played: Sequence[dict[str, Any]], lang: str) -> str | None:
    """The best game (see the module docstring), when the player has two games or more."""
    if len(played) < 2:
        return None
    best = max(played, key=lambda entry: (entry["rating"], entry["wins"], games.title_of(entry["game"])))
    return gettext(lang, "Best game: {game} (highest rating)", game=games.title_of(best["game"]))


def _alt(drawn: PlayerCard, lang: str) -> str:
    """The card in words: each game's rating, its course over the matches charted, and record;
    within the alt text's limit, the last games' courses left out first where all do not fit."""
    head = [gettext(lang, "Player card of {name}.", name=drawn.name)]
    if not drawn.games:
        head.append(drawn.empty)
    tail = [f"{fact}." for fact in drawn.facts]
    if drawn.achievements:
        names = and_list(lang, [achievement for _, achievement in drawn.achievements])
        tail.append(gettext(lang, "Latest achievements: {names}.", names=names))
    games = [_game_in_words(chart, lang, course=True) for chart in drawn.games]
    for index in reversed(range(len(games))):
        if len(alt_text(" ".join([*head, *games, *tail]), lang)) < ALT_LIMIT:
            break
        games[index] = _game_in_words(drawn.games[index], lang, course=False)
    return alt_text(" ".join([*head, *games, *tail]), lang)


def _game_in_words(chart: GameChart, lang: str, *, course: bool) -> str:
    """A game's rating and record, and (`course`) how the rating went over the matches charted."""
    matches = len(chart.ratings) - 1
    if not course or not matches:
        return gettext(
            lang,
            "{game}: rating {rating}; {record}.",
            game=chart.title,
            rating=chart.rating,
            record=chart.record,
        )
    return ngettext(
        lang,
        "{game}: rating {rating}; over the last rated match it went from {first} to {last}; {record}.",
        "{game}: rating {rating}; over the last {n} rated matches it went from {first} to {last} "
        "(lowest {lowest}, highest {highest}); {record}.",
        matches,
        game=chart.title,
        rating=chart.rating,
        first=number(lang, chart.ratings[0]),
        last=number(lang, chart.ratings[-1]),
        lowest=chart.lowest,
        highest=chart.highest,
        record=chart.record,
    )


def versus_card(
    games: Games, member: discord.abc.User, other: discord.abc.User, played: Sequence[HeadToHead], lang: str
) -> Card:
    """Two members' record against each other, per game, from `member`'s side."""
    title = gettext(
        lang,
        "Head-to-head — {member} against {other}",
        member=escape_markdown(member.display_name),
        other=escape_markdown(other.display_name),
    )
    card = Card(heading=title, accent=discord.Colour.blurple())
    if not played:
        said = gettext(
            lang,
            "{member} and {other} have not played against each other on this server yet.",
            member=member.mention,
            other=other.mention,
        )
        return dataclasses.replace(card, body=said)
    total = sum(game.played for game in played)
    said = ngettext(
        lang,
        "{n} finished match against each other on this server (abandoned ones are not counted).",
        "{n} finished matches against each other on this server (abandoned ones are not counted).",
        total,
    )
    parts = tuple((games.title_of(game.game), _versus_line(game, member, other, lang)) for game in played)
    return dataclasses.replace(card, body=said, parts=parts)


def _versus_line(game: HeadToHead, member: discord.abc.User, other: discord.abc.User, lang: str) -> str:
    """One game of a head-to-head: the score, the draws and others' wins, when they last played."""
    parts = [
        pgettext(
            lang,
            "head-to-head score",
            "{member} **{wins}** – **{losses}** {other}",
            member=member.mention,
            wins=number(lang, game.wins),
            losses=number(lang, game.losses),
            other=other.mention,
        ),
        ngettext(lang, "{n} match", "{n} matches", game.played),
    ]
    if game.draws:
        parts.append(ngettext(lang, "{n} draw", "{n} draws", game.draws))
    if game.others:
        parts.append(ngettext(lang, "{n} won by another player", "{n} won by other players", game.others))
    when = int(datetime.fromisoformat(game.last_played).timestamp())
    parts.append(gettext(lang, "last played {when}", when=f"<t:{when}:R>"))
    return " · ".join(parts)
