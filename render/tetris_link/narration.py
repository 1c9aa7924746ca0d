"""The words of a Tetris Link board: the die's faces, the figures a placed piece makes, what
the last decision did and what followed (`narrate`), and the result.

`narrate(view, name)` is the one wording: the board image writes it under the players
(with the seat letters), the Discord message above the board (with mentions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from games.tetris_link import (
    ANY,
    NO_FIT,
    NO_PIECE_LEFT,
    NO_SHAPE_LEFT,
    PlaceEvent,
    SkipEvent,
    StartEvent,
    TetrisLinkEvent,
    TetrisLinkView,
    piece_cells,
)
from locales import DEFAULT, N_, and_list, gettext, ngettext, pgettext
from render.common import seat_label

# What the die shows, in words; a placed S or L is named as the figure it makes.
FACE_NAMES = {"I": "I", "O": "O", "T": "T", "S": "S/Z", "L": "L/J", ANY: N_("the logo")}
# TRANSLATORS: a placed Tetris Link piece, by the letter of its shape.
FIGURES = {
    "I": N_("an I"),
    "O": N_("an O"),
    "T": N_("a T"),
    "S": N_("an S"),
    "Z": N_("a Z"),
    "L": N_("an L"),
    "J": N_("a J"),
}
MIRRORED = {"S": "Z", "L": "J"}
END_WORDS = {
    "resignations": N_("only one player is left"),
    "every piece played": N_("every piece has been played"),
    "tower full": N_("the tower is full"),
    "no piece fits": N_("no piece left in hand fits"),
}


def face_name(face: str, lang: str = DEFAULT) -> str:
    """What the die shows, in words: a shape's letter(s), or the logo."""
    return gettext(lang, FACE_NAMES[face]) if face == ANY else FACE_NAMES[face]


def narrate(view: TetrisLinkView, name: Callable[[int], str], lang: str = DEFAULT) -> list[str]:
    """What the last decision did and what followed, in sentences; `name(seat)` names a seat.

    The board image writes these under the players (with the seat letters), the
    Discord message above the board (with mentions): one wording for both.
    """
    lines = _narrate_event(view["last_event"], name, lang)
    for event in view["events"]:
        if event["type"] == "skip":
            lines.append(_narrate_skip(event, name, lang))
        elif event["type"] == "end":
            reason = event["reason"]
            why = gettext(lang, END_WORDS[reason]) if reason in END_WORDS else reason
            lines.append(gettext(lang, "The game ends: {reason}.", reason=why))
    return lines


def _narrate_event(event: TetrisLinkEvent | None, name: Callable[[int], str], lang: str) -> list[str]:
    if event is None:
        return []
    seat = event["seat"]
    if event["type"] == "start":
        return _narrate_start(event, name, lang)
    if event["type"] == "place":
        return [_narrate_place(event, name(seat), lang)]
    if event["type"] == "resign":
        return [gettext(lang, "{who} resigned.", who=name(seat))]
    return []


def _roll(roll: list[int | str]) -> tuple[int, str]:
    """A starting roll `[seat, face]` as (seat, face)."""
    seat, face = roll
    return int(seat), str(face)


def _narrate_start(event: StartEvent, name: Callable[[int], str], lang: str) -> list[str]:
    rolls, seat = [_roll(roll) for roll in event["rolls"]], event["seat"]
    if not rolls:
        return [gettext(lang, "{who} was drawn to start.", who=name(seat))]
    logo = pgettext(lang, "die face", "logo")
    faces = ", ".join(f"{name(s)} {logo if face == ANY else FACE_NAMES[face]}" for s, face in rolls)
    return [
        gettext(lang, "{who} was drawn to roll first.", who=name(rolls[0][0])),
        gettext(lang, "Starting rolls: {rolls}.", rolls=faces),
        gettext(lang, "{who} rolled the logo and starts.", who=name(seat)),
    ]


def _columns(columns: list[int], lang: str) -> str:
    """Two or more neighbouring columns: "columns 1 and 2", "columns 8–10"."""
    if len(columns) == 2:
        return gettext(lang, "columns {first} and {second}", first=columns[0], second=columns[1])
    return gettext(lang, "columns {first}–{last}", first=columns[0], last=columns[-1])


def _narrate_place(event: PlaceEvent, who: str, lang: str) -> str:
    columns = sorted({column + 1 for _, column in event["cells"]})
    if len(columns) == 1:
        where = gettext(lang, "column {column}", column=columns[0])
    else:
        where = _columns(columns, lang)
    score = []
    if event["gained"]:
        score.append(
            gettext(lang, "+{points} for a group of {size}", points=event["gained"], size=event["group"])
        )
    if event["gap_penalty"]:
        score.append(
            ngettext(
                lang,
                "-{points} for an empty cell under it",
                "-{points} for empty cells under it",
                event["gap_penalty"],
                points=event["gap_penalty"],
            )
        )
    shape = _figure(event["shape"], event["cells"])
    figure = gettext(lang, FIGURES[shape])
    if score:
        return gettext(
            lang,
            "{who} placed {piece} in {where}: {score}.",
            who=who,
            piece=figure,
            where=where,
            score=", ".join(score),
        )
    return gettext(lang, "{who} placed {piece} in {where}.", who=who, piece=figure, where=where)


def _narrate_skip(event: SkipEvent, name: Callable[[int], str], lang: str) -> str:
    who, die, reason = name(event["seat"]), event["die"], event["reason"]
    if reason == NO_PIECE_LEFT:
        return gettext(lang, "{who} has no pieces left: turn skipped.", who=who)
    if die is None:
        return gettext(lang, "{who} has no piece that fits: turn skipped.", who=who)
    face = face_name(die, lang)
    if reason == NO_SHAPE_LEFT:
        return gettext(
            lang, "{who} rolled {face} but has no {face} piece left: turn skipped.", who=who, face=face
        )
    if reason == NO_FIT and die == ANY:
        return gettext(
            lang, "{who} rolled {face} but no piece fits anywhere: turn skipped.", who=who, face=face
        )
    if reason == NO_FIT:
        return gettext(
            lang, "{who} rolled {face} but no {face} piece fits anywhere: turn skipped.", who=who, face=face
        )
    return gettext(lang, "{who} rolled {face}: turn skipped.", who=who, face=face)


def _figure(shape: str, cells: Iterable[Sequence[int]]) -> str:
    """The letter of the figure a placed piece makes: S or Z, L or J, else its shape."""
    if shape not in MIRRORED:
        return shape
    low = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    normal = tuple(sorted((r - low, c - left) for r, c in cells))
    unturned = {piece_cells(shape, rotation, False) for rotation in range(4)}
    return shape if normal in unturned else MIRRORED[shape]


def verdict(winners: Sequence[int], lang: str) -> str:
    letters = and_list(lang, [seat_label(s) for s in winners])
    if len(winners) > 1:
        return gettext(lang, "Draw: {seats}", seats=letters)
    return gettext(lang, "{seat} wins", seat=letters) if letters else gettext(lang, "Nobody wins")
