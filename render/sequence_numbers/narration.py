"""The one wording of a Sequence Numbers board: what happened, who is to do what, and how
teams and chips are named. The board writes it with seat letters, the bot's message with
mentions."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.sequence_numbers import SequenceEvent, SequenceView
from locales import DEFAULT, N_, gettext, ngettext, pgettext
from render.common import seat_label

Name = Callable[[int], str]


def team_of(view: SequenceView, seat: int) -> int:
    return next(t for t, seats in enumerate(view["teams"]) if seat in seats)


def alone(teams: Sequence[Sequence[int]]) -> bool:
    """Whether every team is one player (2 or 3 players): then a team is named by its seat."""
    return all(len(seats) == 1 for seats in teams)


def solo(view: SequenceView) -> bool:
    """Whether every team of `view` is one player (see `alone`)."""
    return alone(view["teams"])


def team_glyph(teams: Sequence[Sequence[int]], team: int) -> str:
    """What a chip shows: its player's letter when players play alone, else the team number."""
    return seat_label(teams[team][0]) if alone(teams) else str(team + 1)


def run_name(cells: list[str]) -> str:
    """`A3–E3` for the cells of a run."""
    return f"{cells[0]}–{cells[-1]}"


def narrate(view: SequenceView, name: Name, lang: str = DEFAULT) -> list[str]:
    """The sentences saying what the last move (or the start) did and what the mover
    must decide now; `name(seat)` names a seat. The board writes them with seat letters,
    the bot's message with mentions."""
    lines: list[str] = []
    event = view["last_event"]
    if event is not None:
        kind = event["type"]
        seat = event["seat"]
        who = "" if seat is None else name(seat)
        if kind in ("place", "lock"):
            lines.append(_played(event, who, lang))
            lines += _completed(view, event, name, lang)
        else:
            lines += _other_event(event, who, lang)
    if view["lock_choices"] and view["to_move"]:
        runs = gettext(lang, " or ").join(run_name(run) for run in view["lock_choices"])
        text = N_("{who} made more than five in a row and chooses which five chips to lock: {runs}.")
        lines.append(gettext(lang, text, who=name(view["to_move"][0]), runs=runs))
    lines += [
        gettext(lang, "{who} could not play a card and was skipped.", who=name(seat))
        for seat in view["skipped"]
    ]
    return lines


def _other_event(event: SequenceEvent, who: str, lang: str) -> list[str]:
    kind = event["type"]
    if kind == "start":
        return [gettext(lang, "{who} was drawn to start.", who=who)]
    if kind == "trade":
        return [gettext(lang, "{who} traded a dead card ({card}).", who=who, card=event["card"]["text"])]
    if kind == "remove":
        return [
            gettext(lang, "{who} removed a chip from {cell} with a minus card.", who=who, cell=event["cell"])
        ]
    if kind == "resign":
        return [gettext(lang, "{who} resigned.", who=who)]
    return []


def _played(event: SequenceEvent, who: str, lang: str) -> str:
    card, cell = event["card"], event["cell"]
    played = card["text"] if card["kind"] == "problem" else gettext(lang, "a plus card")
    if event["type"] == "lock":
        text = N_("{who} played {card} on {cell} and chose to lock {run}.")
        return gettext(lang, text, who=who, card=played, cell=cell, run=run_name(event["locked"][0]))
    return gettext(lang, "{who} played {card} on {cell}.", who=who, card=played, cell=cell)


def _completed(view: SequenceView, event: SequenceEvent, name: Name, lang: str) -> list[str]:
    runs, team = event["locked"], event.get("team")
    if not runs or team is None:
        return []
    side = name(view["teams"][team][0]) if solo(view) else gettext(lang, "Team {team}", team=team + 1)
    count = f"{view['sequences'][team]}/{view['sequences_to_win']}"
    joined = gettext(lang, " and ").join(run_name(run) for run in runs)
    text = ngettext(
        lang,
        "{side} completed a sequence ({count}): {runs}.",
        "{side} completed {n} sequences ({count}): {runs}.",
        len(runs),
        side=side,
        count=count,
        runs=joined,
    )
    return [text]


def status(view: SequenceView, viewer: int | None = None, lang: str = DEFAULT) -> str:
    """Who is to do what, or how the game ended, as the board's panel says it."""

    def who(seat: int) -> str:
        you = pgettext(lang, "score panel", " (you)") if seat == viewer else ""
        team = "" if solo(view) else gettext(lang, " (team {team})", team=team_of(view, seat) + 1)
        return f"{seat_label(seat)}{you}{team}"

    winners = view["winners"]
    if winners is not None:
        if not winners:
            return gettext(lang, "Draw: no one could play a card for a whole round.")
        if solo(view):
            return gettext(lang, "{seat} wins!", seat=seat_label(winners[0]))
        return gettext(lang, "Team {team} wins!", team=team_of(view, winners[0]) + 1)
    if not view["to_move"]:
        return ""
    seat = view["to_move"][0]
    if view["lock_choices"]:
        return gettext(lang, "{who} to choose which five to lock", who=who(seat))
    return gettext(lang, "{who} to move", who=who(seat))
