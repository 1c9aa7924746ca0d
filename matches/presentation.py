"""Move presentation: a game declares how its legal moves are offered; the framework
builds the components, resolves a click back to a move and answers.

A game's `present(view, legal, path, private=...)` is a pure function returning a
`Form`: the choices to show, one per level, given the picks made so far (`path`, small
integers whose meaning the game defines). Each option either makes a move (one of
`legal`) or sets its level's pick (`pick`, by default its position) and drops the picks
below. The form says the path it shows (`Form.path`: the given one, completed with
defaults the game chose), so every level can be on screen at once — e.g. Tetris Link's
shape buttons above the steering row (◀ ▶ ⟳ ⇋ and Drop) of a ghost piece it previews.

A component id carries only the match id, the turn, where the form is shown (on the
board or in a private reply), the level and the path of chosen indexes — small
integers, never move data. On a click the framework recomputes the seat's legal moves
and the form, and resolves the indexes against them: a forged or outdated index does
not resolve and is answered privately.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import discord

BUTTONS_PER_ROW = 5
SELECT_LIMIT = 25  # options of one Discord select
CONTROL_ROWS = 4  # the fifth row holds the framework's own buttons
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
Move_co = TypeVar("Move_co", covariant=True)  # a game's move type: what an option makes
Move = TypeVar("Move")  # the same, where a function hands back the options it is given
Grouped = TypeVar("Grouped", bound=Mapping[str, object])  # moves read by key


@dataclass(frozen=True, slots=True)
class Option(Generic[Move_co]):
    """One labelled option: it makes `move` (one of the game's legal moves), or (no move) sets
    its level's pick to `pick` (its position when None). `selected` marks the current pick,
    for the eye only."""

    label: str
    move: Move_co | None = None
    pick: int | None = None
    emoji: str | None = None
    description: str | None = None
    style: str = "secondary"
    disabled: bool = False
    selected: bool = False


@dataclass(frozen=True, slots=True)
class Choice(Generic[Move_co]):
    """One level of decision. `select`: a menu (paged past 25) rather than buttons;
    None lets the framework choose (buttons while they fit in two rows)."""

    placeholder: str
    options: tuple[Option[Move_co], ...]
    select: bool | None = None
    columns: int = BUTTONS_PER_ROW  # buttons per row (a 3×3 grid: 3)


@dataclass(frozen=True, slots=True)
class Form(Generic[Move_co]):
    """What a seat may choose now, level by level, the picks it shows, what the board
    previews, and (`caption`) a line the private reply adds to say what to choose."""

    choices: tuple[Choice[Move_co], ...] = ()
    path: tuple[int, ...] = ()
    preview: Mapping[str, Any] = field(default_factory=dict)
    caption: str | None = None

    def option(self, level: int, index: int) -> Option[Move_co] | None:
        """The option a click names, if the form still offers it."""
        if not 0 <= level < len(self.choices):
            return None
        options = self.choices[level].options
        if not 0 <= index < len(options) or options[index].disabled:
            return None
        return options[index]


def grouped(moves: Sequence[Grouped], key: str) -> dict[Any, list[Grouped]]:
    """Legal moves by the value of one key (a card, a place), in their order: the options of
    one level and, under each, those of the next."""
    groups: dict[Any, list[Grouped]] = {}
    for move in moves:
        groups.setdefault(move[key], []).append(move)
    return groups


def next_path(form: Form[object], level: int, index: int) -> tuple[int, ...]:
    """The path after choosing option `index` at `level`: the picks above it are kept."""
    option = form.choices[level].options[index]
    return (*form.path[:level], index if option.pick is None else option.pick)


def encode_path(path: tuple[int, ...]) -> str:
    return ".".join(str(index) for index in path)


def decode_path(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")) if text else ()


def as_select(choice: Choice[object]) -> bool:
    if choice.select is not None:
        return choice.select
    return len(choice.options) > 2 * choice.columns


def rows_needed(choice: Choice[object]) -> int:
    if as_select(choice):
        return -(-len(choice.options) // SELECT_LIMIT)
    return -(-len(choice.options) // choice.columns)


def form_rows(form: Form[object]) -> int:
    """The rows a form takes on screen; games keep it within `CONTROL_ROWS`."""
    return sum(rows_needed(choice) for choice in form.choices)


def select_pages(choice: Choice[Move]) -> list[tuple[int, tuple[Option[Move], ...]]]:
    """The options of a select in pages of at most 25, with the index of each page's first."""
    return [
        (start, choice.options[start : start + SELECT_LIMIT])
        for start in range(0, len(choice.options), SELECT_LIMIT)
    ]


def page_placeholder(choice: Choice[object], page: tuple[Option[object], ...], pages: int) -> str:
    """A select's placeholder; with several pages it names the first and last option of its page."""
    if pages == 1:
        return choice.placeholder[:150]
    return f"{choice.placeholder} ({page[0].label} – {page[-1].label})"[:150]
