"""A tournament's standings as players see them: the table, its picture with alt text, the
podium at the end; and the stored tournament as the pure rules (`matches.tournament`) read it."""

from __future__ import annotations

import io
from fractions import Fraction

import discord

from data.model import TournamentRow
from locales import N_, gettext, number
from matches.match import computer_level, who
from matches.tournament.model import Entrant, Round, Table
from matches.tournament.scoring import Scoring
from matches.tournament.standings import Standing, standings
from render.podium import Place, podium_alt, render_podium
from render.standings import StandingsTable, standings_png

STANDINGS_FILE = "standings.png"
PODIUM_FILE = "podium.png"
ALT_LIMIT = 1024  # Discord's longest image description
FORMATS: dict[str, str] = {
    "swiss": N_("Swiss"),
    "knockout": N_("knockout"),
    "roundrobin": N_("round robin"),
}


def tournament_title(row: TournamentRow, game: str, lang: str) -> str:
    """ "Tournament #3 — Tetris Link (Swiss)" in `lang`."""
    return gettext(
        lang,
        "Tournament #{id} — {game} ({format})",
        id=row.id,
        game=game,
        format=gettext(lang, FORMATS.get(row.format, row.format)),
    )


def entrants_of(row: TournamentRow) -> list[Entrant]:
    """The tournament's entrants as the pure rules read them."""
    return [
        Entrant(entrant.user_id, entrant.rating, entrant.joined, entrant.left) for entrant in row.entrants
    ]


def rounds_of(row: TournamentRow) -> list[Round]:
    """The tournament's rounds as the pure rules read them."""
    return [
        Round(
            index,
            tuple(Table(table.seats, table.ranks) for table in row.tables if table.round == index),
            row.byes.get(index, ()),
        )
        for index in range(1, row.round + 1)
    ]


def round_done(row: TournamentRow) -> bool:
    """Whether every table of the current round is decided."""
    return all(table.ranks is not None for table in row.tables if table.round == row.round)


def standings_of(row: TournamentRow) -> list[Standing]:
    """The tournament's table now."""
    return standings(row.format, entrants_of(row), rounds_of(row), Scoring(row.seats))  # type: ignore[arg-type]


def name_of(row: TournamentRow, user: int, lang: str) -> str:
    """A player's name on the picture: as the server showed it when they joined."""
    if computer_level(user) is not None:
        return who(user, lang).removeprefix("🤖 ")
    entrant = next((entrant for entrant in row.entrants if entrant.user_id == user), None)
    return entrant.name if entrant is not None and entrant.name else str(user)


def standings_picture(row: TournamentRow, game: str, lang: str) -> tuple[discord.File, str]:
    """The standings of a tournament of `game` (its title) as a picture, and its alt text (made off
    the event loop)."""
    table, headers = standings_of(row), _headers(row.format, lang)
    rows = tuple(
        (
            str(line.place),
            name_of(row, line.player, lang) + (gettext(lang, " (withdrawn)") if line.withdrawn else ""),
            *_figures(row, line, lang),
        )
        for line in table
    )
    state = _state(row, lang)
    data = StandingsTable(
        title=tournament_title(row, game, lang),
        subtitle=state,
        headers=headers,
        rows=rows,
        withdrawn=tuple(line.withdrawn for line in table),
    )
    png = standings_png(data)
    alt = "; ".join(", ".join(cell for cell in row_ if cell) for row_ in rows[:20])
    alt = gettext(lang, "Standings of tournament #{id}, {state}: {lines}", id=row.id, state=state, lines=alt)
    return discord.File(io.BytesIO(png), filename=STANDINGS_FILE, description=alt[:ALT_LIMIT]), alt


def _state(row: TournamentRow, lang: str) -> str:
    """How far the tournament is, under the picture's title."""
    if row.status == "finished":
        return gettext(lang, "final standings")
    played = row.round - (0 if round_done(row) else 1)
    if played < 1:
        return gettext(lang, "before round 1")
    return gettext(lang, "after round {round}", round=played)


def _headers(format_: str, lang: str) -> tuple[str, ...]:
    if format_ == "knockout":
        return ("#", gettext(lang, "Player"), gettext(lang, "Round reached"))
    first = gettext(lang, "Buchholz") if format_ == "swiss" else gettext(lang, "Head-to-head")
    return ("#", gettext(lang, "Player"), gettext(lang, "Points"), first, gettext(lang, "S-B"))


def _figures(row: TournamentRow, line: Standing, lang: str) -> tuple[str, ...]:
    if row.format == "knockout":
        reached = int(line.tiebreaks[0])
        return (gettext(lang, "winner") if reached > (row.rounds or 0) else str(reached),)
    return tuple(_figure(value, lang) for value in (line.points, *line.tiebreaks))


def podium_picture(row: TournamentRow, game: str, table: list[Standing], lang: str) -> discord.File:
    """The top three on a podium, with its alt text."""
    title = tournament_title(row, game, lang)
    places = [
        Place(line.place, name_of(row, line.player, lang), _detail(row, line, lang)) for line in table[:3]
    ]
    png = render_podium(title, places)
    return discord.File(io.BytesIO(png), filename=PODIUM_FILE, description=podium_alt(title, places))


def _detail(row: TournamentRow, line: Standing, lang: str) -> str:
    if row.format != "knockout":
        return gettext(lang, "Points: {points}", points=_figure(line.points, lang))
    reached = int(line.tiebreaks[0])
    if reached > (row.rounds or 0):
        return gettext(lang, "winner")
    return gettext(lang, "reached round {round}", round=reached)


def _figure(value: Fraction, lang: str) -> str:
    """A score as players write it: 2, 2.5 (2,5), 1.25; a third rounded to two decimals."""
    return number(lang, round(float(value), 2)) if value.denominator != 1 else number(lang, int(value))
