"""Tremember: a memory game on a 6×6 board that shifts under the players' feet.

A turn is four moves: take a face-down card (only the taker sees it), push it back
in from an end of its row or column, then turn two face-down cards. A pair stays
face up and scores 3, 2 or 1 by how the two cards touch; a joker pair also turns the
whole board 90° clockwise. Binding rules: `rules/tremember.md`.

Cells are numbered 0..35 row-major (`row * 6 + col`, row 0 is `1`, col 0 is `A`).
Cards are numbered 0..35 too; card `k` shows `MOTIFS[k // 2]`, so the deal is just
the arrangement of card numbers on the board.

The game is over exactly when every card is face up or fewer than two seats still
play (`_over`); `phase` is only the step of the turn.

Views and moves are JSON-able dicts typed below: `TrememberView`, `TrememberEvent` (its
`last_event`) and `TrememberMove`; `Tremember.view` documents every key.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from itertools import pairwise
from typing import Any, Literal, TypedDict, TypeVar

from games.base import (
    CommonView,
    Engine,
    GameError,
    IllegalMove,
    Outcome,
    Term,
    chance,
    check_players,
    check_seat,
    common_view,
    first_seat,
    load_json,
)

SIZE = 6
CELLS = SIZE * SIZE
PICTURES = (
    "sun",
    "moon",
    "star",
    "heart",
    "drop",
    "leaf",
    "bolt",
    "diamond",
    "fish",
    "cross",
    "hexagon",
    "ring",
    "arrow",
    "flower",
    "crown",
    "tree",
)
JOKERS = ("joker1", "joker2")
MOTIFS = PICTURES + JOKERS
Side = Literal["left", "right", "top", "bottom"]  # the end a pushed card comes in from
Phase = Literal["take", "push", "flip"]
SIDES: tuple[Side, ...] = ("left", "right", "top", "bottom")
SIDE_TERMS: dict[Side, Term] = {
    "left": Term("from the left"),
    "right": Term("from the right"),
    "top": Term("from the top"),
    "bottom": Term("from the bottom"),
}
PHASES: tuple[Phase, ...] = ("take", "push", "flip")
HOLE = -1
NOBODY = -1
NO_CARD = -1

# --- what leaves the engine: views and moves (JSON-able dicts) ------------------------------
# A cell is `[row, col]` (row 0 is `1`, col 0 is `A`); a motif is a name of `MOTIFS`.


class TakeMove(TypedDict):
    """Take the face-down card at `cell` into the hand."""

    type: Literal["take"]
    cell: list[int]


# `from` is a keyword, hence the functional form.
PushMove = TypedDict("PushMove", {"type": Literal["push"], "from": Side})
"""Push the card in hand back in from the end `from` of the hole's row or column."""


class FlipMove(TypedDict):
    """Turn the face-down card at `cell`."""

    type: Literal["flip"]
    cell: list[int]


TrememberMove = TakeMove | PushMove | FlipMove


class StartEvent(TypedDict):
    """The deal: `seat` was drawn to start."""

    type: Literal["start"]
    seat: int


class TakeEvent(TypedDict):
    """`seat` took the card at `cell` (its face is the taker's `peek` alone)."""

    type: Literal["take"]
    seat: int
    cell: list[int]


PushEvent = TypedDict(
    "PushEvent",
    {"type": Literal["push"], "seat": int, "from": Side, "cell": list[int], "lands": list[int]},
)
"""`seat` pushed in from `from`, closing the hole at `cell`; the taken card lies at `lands`."""


class FlipEvent(TypedDict):
    """`seat` turned the first card of two: `motif` at `cell`."""

    type: Literal["flip"]
    seat: int
    cell: list[int]
    motif: str


class MissEvent(TypedDict):
    """`seat` turned two cards that differ (`motifs` at `cells`): both turn face down again."""

    type: Literal["miss"]
    seat: int
    cells: list[list[int]]
    motifs: list[str]


class PairEvent(TypedDict):
    """`seat` found a pair of `motif` at `cells` (where they lay when turned) for `points`;
    `rotated` when it was a joker pair, which turned the board: the pair lies at `cells_now`."""

    type: Literal["pair"]
    seat: int
    motif: str
    cells: list[list[int]]
    cells_now: list[list[int]]
    points: int
    rotated: bool


class ResignEvent(TypedDict):
    """`seat` left the game; its points stay."""

    type: Literal["resign"]
    seat: int


TrememberEvent = StartEvent | TakeEvent | PushEvent | FlipEvent | MissEvent | PairEvent | ResignEvent


class ShownCard(TypedDict):
    """A card of the last turn's second flip, where it lay when turned."""

    cell: list[int]
    motif: str


class TrememberView(CommonView[TrememberEvent]):
    """What a seat (or a spectator) sees: the keys are documented on `Tremember.view`."""

    phase: Literal["take", "push", "flip", "over"]
    board: list[list[str | None]]
    found: list[list[int | None]]
    hole: list[int] | None
    peek: str | None
    legal_pushes: list[Side]
    first_flip: list[int] | None
    last_flip: list[ShownCard] | None
    face_down: int


Shown = TypeVar("Shown")

# Chance steps: the deal has its own fixed step (the first seat is `first_seat`'s).
DEAL_STEP = 0
OLD_START_STEP = 1  # saves from before `first_seat` drew the starter here

# What the last move (or the deal) did, as kept in the state: (type, seat, *details).
# Cells and cards are indexes; `_event_view` says them the way the view does.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "start": (),  # the seat drawn to start
    "take": ("cell",),
    "push": ("side", "hole"),
    "flip": ("cell", "card"),  # the first card of the two
    "pair": ("cell_a", "card_a", "cell_b", "card_b", "points", "rotated"),
    "miss": ("cell_a", "card_a", "cell_b", "card_b"),
    "resign": (),
}


@dataclass(frozen=True, slots=True)
class TrememberState:
    """A whole match; only `view` lets anything out of it."""

    players: int
    seed: int
    grid: tuple[int, ...]  # card by cell; HOLE where the taken card was
    found_by: tuple[int, ...]  # by card: the seat that found its pair, NOBODY if face down
    scores: tuple[int, ...]
    active: tuple[bool, ...]  # False once a seat has resigned
    turn: int  # the seat whose turn it is
    phase: Phase  # the step of the turn
    taken: int  # the card in the taker's hand during "push", else NO_CARD
    first_flip: int  # the card turned first in this "flip" phase, else NO_CARD
    last_event: tuple[Any, ...]  # (type, seat, *details): see EVENT_FIELDS


def cell_name(cell: int) -> str:
    """`B3` for cell 13."""
    row, col = divmod(cell, SIZE)
    return f"{'ABCDEF'[col]}{row + 1}"


def motif_of(card: int) -> str:
    """The motif printed on `card`."""
    return MOTIFS[card // 2]


def is_joker(card: int) -> bool:
    """True for the cards of both joker pairs."""
    return motif_of(card) in JOKERS


def pair_points(a: int, b: int) -> int:
    """3 for side neighbours, 2 for corner neighbours, 1 for cells that do not touch."""
    (ra, ca), (rb, cb) = divmod(a, SIZE), divmod(b, SIZE)
    dr, dc = abs(ra - rb), abs(ca - cb)
    if dr + dc == 1:
        return 3
    if dr == 1 and dc == 1:
        return 2
    return 1


def legal_push_sides(hole: int) -> list[Side]:
    """The ends a card may be pushed in from: every end except the one at the hole."""
    row, col = divmod(hole, SIZE)
    allowed: dict[Side, bool] = {
        "left": col > 0,
        "right": col < SIZE - 1,
        "top": row > 0,
        "bottom": row < SIZE - 1,
    }
    return [side for side in SIDES if allowed[side]]


def push_line(hole: int, side: Side) -> list[int]:
    """The cells a push from `side` moves, from the hole to the end the card comes in at."""
    row, col = divmod(hole, SIZE)
    if side == "left":
        return [row * SIZE + c for c in range(col, -1, -1)]
    if side == "right":
        return [row * SIZE + c for c in range(col, SIZE)]
    if side == "top":
        return [r * SIZE + col for r in range(row, -1, -1)]
    return [r * SIZE + col for r in range(row, SIZE)]


def push(grid: tuple[int, ...], side: Side, card: int) -> tuple[int, ...]:
    """`grid` with `card` pushed in from `side` along the hole's line, closing the hole."""
    line = push_line(grid.index(HOLE), side)
    # `line` runs from the hole to the pushing end: each cell takes its outer neighbour.
    cells = list(grid)
    for inner, outer in pairwise(line):
        cells[inner] = grid[outer]
    cells[line[-1]] = card
    return tuple(cells)


def rotate(grid: tuple[int, ...]) -> tuple[int, ...]:
    """`grid` turned 90° clockwise: new[r][c] = old[5 - c][r]."""
    return tuple(grid[(SIZE - 1 - c) * SIZE + r] for r in range(SIZE) for c in range(SIZE))


def parse_cell(move: Mapping[str, object]) -> int:
    """The cell index named by a move's `cell: [row, col]`, or `IllegalMove`."""
    cell = move.get("cell")
    if (
        not isinstance(cell, list | tuple)
        or len(cell) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
        or not all(0 <= x < SIZE for x in cell)
    ):
        raise IllegalMove("Choose a cell of the board, from A1 to F6.")
    index: int = cell[0] * SIZE + cell[1]
    return index


class Tremember:
    """The Tremember engine (see `games.base.Engine`)."""

    name = "tremember"
    title = "Tremember"
    min_players = 2
    max_players = 6

    # --- setting up -----------------------------------------------------------------

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> TrememberState:
        """A shuffled board and a starting seat drawn by lot, both from `seed`."""
        check_players(self, players)
        if options:
            raise GameError(
                "{game} has no options — start it without {options}.",
                game=self.title,
                options=str(sorted(options)),
            )
        grid = list(range(CELLS))
        chance(seed, DEAL_STEP).shuffle(grid)
        starter = first_seat(seed, players)
        return TrememberState(
            players=players,
            seed=seed,
            grid=tuple(grid),
            found_by=(NOBODY,) * CELLS,
            scores=(0,) * players,
            active=(True,) * players,
            turn=starter,
            phase="take",
            taken=NO_CARD,
            first_flip=NO_CARD,
            last_event=("start", starter),
        )

    # --- asking -------------------------------------------------------------------

    def current_seats(self, state: TrememberState) -> tuple[int, ...]:
        """The seat to move, or () when the game is over."""
        return () if _over(state) else (state.turn,)

    def legal_moves(self, state: TrememberState, seat: int) -> list[TrememberMove]:
        """Every move `seat` may make now (empty when it is not their turn)."""
        if seat not in self.current_seats(state):
            return []
        if state.phase == "push":
            return [{"type": "push", "from": side} for side in legal_push_sides(state.grid.index(HOLE))]
        cells = [_rc(cell) for cell in _face_down_cells(state)]
        if state.phase == "take":
            return [{"type": "take", "cell": cell} for cell in cells]
        return [{"type": "flip", "cell": cell} for cell in cells]

    def timeout_move(self, state: TrememberState, seat: int) -> TrememberMove:
        """The move the turn clock plays for an absent seat: the least consequential one.

        - take: the first face-down card in reading order (A1, B1, … F6) — a take scores
          nothing, and nobody but the taker ever learns which card it was;
        - push: the first legal end in the order left, right, top, bottom — every push
          is legal and none scores;
        - first flip: the first face-down card in reading order;
        - second flip: the first face-down card in reading order that does **not** pair
          with the first, so the clock never scores (nor earns another turn) for the
          absent player. Only when the first card's twin is the last face-down card
          left is the twin turned, because the rules leave no other choice.
        """
        check_seat(self.current_seats(state), seat)
        moves = self.legal_moves(state, seat)
        if state.phase != "flip" or state.first_flip == NO_CARD:
            return moves[0]
        twin = state.first_flip ^ 1  # the two cards of a pair are 2k and 2k + 1
        return next((m for m in moves if state.grid[parse_cell(m)] != twin), moves[0])

    def outcome(self, state: TrememberState) -> Outcome | None:
        """Scores and winners once the game is over: most points among seats still in."""
        if not _over(state):
            return None
        contenders = [seat for seat in range(state.players) if state.active[seat]]
        best = max(state.scores[seat] for seat in contenders)
        winners = tuple(seat for seat in contenders if state.scores[seat] == best)
        resigned = [seat for seat in range(state.players) if not state.active[seat]]
        return Outcome(
            scores=state.scores,
            winners=winners,
            draw=len(winners) > 1,
            details={"resigned": resigned},
        )

    def view(self, state: TrememberState, seat: int | None) -> TrememberView:
        """What `seat` may know (None: a spectator): a `TrememberView`.

        Besides the common keys of `games.base` (`players`, `to_move`, `scores`,
        `last_event`, `winners`, `resigned`), cells as `[row, col]`, motifs by name:

        `phase`         str: "take", "push" or "flip", the step of the turn; "over" at the end
        `board`         6×6 list by [row][col]: the motif of a face-up card (a found pair or
                        the first card of this turn's two), else None (face down, or the hole)
        `found`         6×6 list by [row][col]: the seat that found the card's pair, else None
        `hole`          [row, col] of the taken card's empty cell while it is pushed, else None
        `peek`          str or None: the motif of the card in hand — only in the view of the
                        seat that took it, during its push; None for every other seat and for
                        spectators. The one key a seat sees that a spectator does not.
        `legal_pushes`  list of the ends ("left", "right", "top", "bottom") the card in hand
                        may come in from; [] outside a push
        `first_flip`    [row, col] of this turn's first turned card until the second, else None
        `last_flip`     after a second flip (pair or miss), until the next move: the two cards
                        as [{"cell", "motif"}], where they lay when turned; else None. A miss
                        shows its faces here only, as at the table before they turn back.
        `face_down`     int: the cards still face down (the one in hand counts)

        `last_event` is one of `TrememberEvent`, each with `type` and `seat`: "start" ·
        "take" (`cell`) · "push" (`from`, `cell`: the hole it closed, `lands`: where the taken
        card lies) · "flip" (`cell`, `motif`: the first card) · "miss" (`cells`, `motifs`) ·
        "pair" (`motif`, `cells`: where they lay when turned, `cells_now`, `points`,
        `rotated`: a joker pair turned the board) · "resign". No face-down card is named.
        """
        pushing = state.phase == "push" and not _over(state)
        hole = state.grid.index(HOLE) if pushing else None
        view: CommonView[TrememberEvent] = common_view(
            players=state.players,
            to_move=self.current_seats(state),
            scores=state.scores,
            last_event=_event_view(state),
            outcome=self.outcome(state),
            resigned=[s for s in range(state.players) if not state.active[s]],
        )
        return {
            **view,
            "phase": "over" if _over(state) else state.phase,
            "board": _rows(state, lambda card: motif_of(card) if _face_up(state, card) else None),
            "found": _rows(state, lambda card: None if card == HOLE else _owner(state, card)),
            "hole": None if hole is None else list(divmod(hole, SIZE)),
            "peek": motif_of(state.taken) if hole is not None and seat == state.turn else None,
            "legal_pushes": [] if hole is None else legal_push_sides(hole),
            "first_flip": _first_flip_cell(state),
            "last_flip": _last_flip_view(state),
            "face_down": len(_face_down_cells(state)) + (1 if hole is not None else 0),
        }

    # --- changing -----------------------------------------------------------------

    def apply(self, state: TrememberState, seat: int, move: TrememberMove) -> TrememberState:
        """The state after `seat` makes `move`; raises `IllegalMove` / `NotYourTurn`."""
        if _over(state):
            raise IllegalMove("This game is over — start a new one to play again.")
        check_seat(self.current_seats(state), seat)
        if not isinstance(move, Mapping):
            raise IllegalMove("A move must say what to do: take a card, push it back in, or turn one.")
        kind = move.get("type")
        if kind != state.phase:
            raise _out_of_phase(state)
        if kind == "take":
            return self._take(state, seat, parse_cell(move))
        if kind == "push":
            return self._push(state, seat, move.get("from"))
        return self._flip(state, seat, parse_cell(move))

    def reveals(self, state: TrememberState, seat: int, move: TrememberMove, after: TrememberState) -> bool:
        """A take shows the taker a card and a flip shows everyone one; a push shows nothing."""
        return move.get("type") != "push"

    def resign(self, state: TrememberState, seat: int) -> TrememberState:
        """`seat` leaves: its turns are skipped, its points stay; under two seats left, it ends."""
        if _over(state):
            raise IllegalMove("This game is already over.")
        if not isinstance(seat, int) or not 0 <= seat < state.players or not state.active[seat]:
            raise IllegalMove("That seat is not playing in this game.")
        active = tuple(on and s != seat for s, on in enumerate(state.active))
        state = replace(state, active=active, last_event=("resign", seat))
        if sum(active) < 2:
            return _abandon_turn(state)
        if seat != state.turn:
            return state
        return replace(_abandon_turn(state), turn=_next_seat(state), phase="take")

    # --- saving -------------------------------------------------------------------

    def dump(self, state: TrememberState) -> str:
        """The state as JSON text."""
        return json.dumps(asdict(state), separators=(",", ":"), sort_keys=True)

    def load(self, text: str) -> TrememberState:
        """The state `dump` wrote; anything damaged is a `GameError`."""
        return load_json(text, _state_from_json, self.title)

    # --- the four moves ---------------------------------------------------------------

    def _take(self, state: TrememberState, seat: int, cell: int) -> TrememberState:
        if state.grid[cell] not in _face_down_cards(state):
            raise IllegalMove("{cell} is face up — take a face-down card.", cell=cell_name(cell))
        grid = list(state.grid)
        card, grid[cell] = grid[cell], HOLE
        return replace(state, grid=tuple(grid), taken=card, phase="push", last_event=("take", seat, cell))

    def _push(self, state: TrememberState, seat: int, side: object) -> TrememberState:
        hole = state.grid.index(HOLE)
        legal = legal_push_sides(hole)
        if side not in legal:
            raise IllegalMove(
                "Push {sides}: a push must move at least one other card and close the hole.",
                sides=tuple(SIDE_TERMS[s] for s in legal),
            )
        return replace(
            state,
            grid=push(state.grid, side, state.taken),
            taken=NO_CARD,
            phase="flip",
            last_event=("push", seat, side, hole),
        )

    def _flip(self, state: TrememberState, seat: int, cell: int) -> TrememberState:
        card = state.grid[cell]
        if card not in _face_down_cards(state):
            raise IllegalMove("{cell} is face up — turn a face-down card.", cell=cell_name(cell))
        if state.first_flip == NO_CARD:
            return replace(state, first_flip=card, last_event=("flip", seat, cell, card))
        first = state.first_flip
        first_cell = state.grid.index(first)
        state = replace(state, first_flip=NO_CARD, phase="take")
        if motif_of(first) != motif_of(card):
            return replace(
                state, turn=_next_seat(state), last_event=("miss", seat, first_cell, first, cell, card)
            )
        return _score_pair(state, seat, (first_cell, first), (cell, card))


def _score_pair(state: TrememberState, seat: int, a: tuple[int, int], b: tuple[int, int]) -> TrememberState:
    """Score the pair at cells a, b now; a joker pair then turns the board. The finder goes again."""
    (cell_a, card_a), (cell_b, card_b) = a, b
    points = pair_points(cell_a, cell_b)
    found_by = list(state.found_by)
    found_by[card_a] = found_by[card_b] = seat
    scores = list(state.scores)
    scores[seat] += points
    rotated = is_joker(card_a)
    return replace(
        state,
        grid=rotate(state.grid) if rotated else state.grid,
        found_by=tuple(found_by),
        scores=tuple(scores),
        last_event=("pair", seat, cell_a, card_a, cell_b, card_b, points, int(rotated)),
    )


def _over(state: TrememberState) -> bool:
    """The one test of the end: every card is face up, or fewer than two seats play on."""
    return NOBODY not in state.found_by or sum(state.active) < 2


def _face_down_cards(state: TrememberState) -> set[int]:
    """Cards on the board that are face down (the first flip of a turn is face up)."""
    return {
        card
        for card in state.grid
        if card != HOLE and state.found_by[card] == NOBODY and card != state.first_flip
    }


def _face_down_cells(state: TrememberState) -> list[int]:
    down = _face_down_cards(state)
    return [cell for cell, card in enumerate(state.grid) if card in down]


def _face_up(state: TrememberState, card: int) -> bool:
    return card != HOLE and (state.found_by[card] != NOBODY or card == state.first_flip)


def _owner(state: TrememberState, card: int) -> int | None:
    seat = state.found_by[card]
    return None if seat == NOBODY else seat


def _rows(state: TrememberState, show: Callable[[int], Shown]) -> list[list[Shown]]:
    """A 6×6 list of `show(card)` for every cell."""
    return [[show(state.grid[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)]


def _rc(cell: int) -> list[int]:
    return list(divmod(cell, SIZE))


def _first_flip_cell(state: TrememberState) -> list[int] | None:
    if state.first_flip == NO_CARD:
        return None
    return _rc(state.grid.index(state.first_flip))


def _last_flip_view(state: TrememberState) -> list[ShownCard] | None:
    """The two cards of the second flip, where they lay when turned — until the next move."""
    kind, _, *details = state.last_event
    if kind not in ("pair", "miss"):
        return None
    cell_a, card_a, cell_b, card_b = details[:4]
    return [
        {"cell": _rc(cell_a), "motif": motif_of(card_a)},
        {"cell": _rc(cell_b), "motif": motif_of(card_b)},
    ]


def _event_view(state: TrememberState) -> TrememberEvent:
    """`last_event` as the view shows it: no face-down card is ever named."""
    kind, seat, *details = state.last_event
    named = dict(zip(EVENT_FIELDS[kind], details, strict=True))
    if kind == "take":
        return {"type": "take", "seat": seat, "cell": _rc(named["cell"])}
    if kind == "push":
        row, col = divmod(named["hole"], SIZE)
        lands = {"left": [row, 0], "right": [row, SIZE - 1], "top": [0, col], "bottom": [SIZE - 1, col]}
        side = named["side"]
        return {"type": "push", "seat": seat, "from": side, "cell": [row, col], "lands": lands[side]}
    if kind == "flip":
        return {"type": "flip", "seat": seat, "cell": _rc(named["cell"]), "motif": motif_of(named["card"])}
    if kind == "miss":
        return {
            "type": "miss",
            "seat": seat,
            "cells": [_rc(named["cell_a"]), _rc(named["cell_b"])],
            "motifs": [motif_of(named["card_a"]), motif_of(named["card_b"])],
        }
    if kind == "pair":
        return {
            "type": "pair",
            "seat": seat,
            "motif": motif_of(named["card_a"]),
            "cells": [_rc(named["cell_a"]), _rc(named["cell_b"])],
            # where the two cards lie now: after a joker pair, on the turned board
            "cells_now": [_rc(state.grid.index(named[card])) for card in ("card_a", "card_b")],
            "points": named["points"],
            "rotated": bool(named["rotated"]),
        }
    if kind == "resign":
        return {"type": "resign", "seat": seat}
    return {"type": "start", "seat": seat}


def _out_of_phase(state: TrememberState) -> IllegalMove:
    """The refusal of an out-of-phase move: what the player should do now."""
    if state.phase == "take":
        return IllegalMove("First take a face-down card.")
    if state.phase == "push":
        return IllegalMove("Push the card you took back in from one of the marked sides first.")
    return IllegalMove("Turn a face-down card now.")


def _next_seat(state: TrememberState) -> int:
    """The next seat clockwise that is still playing."""
    seat = state.turn
    for _ in range(state.players):
        seat = (seat + 1) % state.players
        if state.active[seat]:
            return seat
    return state.turn


def _abandon_turn(state: TrememberState) -> TrememberState:
    """Undo a turn left half-done: the taken card goes back, a lone flip turns down."""
    grid = state.grid
    if state.taken != NO_CARD:
        grid = tuple(state.taken if card == HOLE else card for card in grid)
    return replace(state, grid=grid, taken=NO_CARD, first_flip=NO_CARD, phase="take")


# --- reading a save ---------------------------------------------------------------------


def _damaged(what: str) -> GameError:
    return GameError("This saved Tremember game is damaged ({what}).", what=what)


def _whole(value: Any, low: int, high: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _damaged(what)
    return value


def _wholes(value: Any, low: int, high: int, what: str, size: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != size:
        raise _damaged(what)
    return tuple(_whole(item, low, high, what) for item in value)


def _state_from_json(data: Any) -> TrememberState:
    """A state from `dump`'s JSON, checked so that a damaged save fails here, not later.

    Saves from before `last_event` (with `last_move`, `last_pair`, `last_flip` and a
    phase "over") are read too.
    """
    if not isinstance(data, dict):
        raise _damaged("not a saved game")
    if "last_event" not in data and "last_move" in data:
        data = _upgrade(data)
    names = {f.name for f in fields(TrememberState)}
    if set(data) != names:
        raise _damaged(f"fields {sorted(set(data) ^ names)}")
    players = _whole(data["players"], Tremember.min_players, Tremember.max_players, "players")
    seats = players - 1
    seed = data["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise _damaged("seed")
    phase = data["phase"]
    if phase not in PHASES:
        raise _damaged("phase")
    grid = _wholes(data["grid"], HOLE, CELLS - 1, "grid", CELLS)
    taken = _whole(data["taken"], NO_CARD, CELLS - 1, "taken card")
    cards = sorted(taken if card == HOLE else card for card in grid)
    if cards != list(range(CELLS)) or (grid.count(HOLE) == 1) != (phase == "push"):
        raise _damaged("grid")
    if (taken != NO_CARD) != (phase == "push"):
        raise _damaged("taken card")
    found_by = _wholes(data["found_by"], NOBODY, seats, "pairs found", CELLS)
    if any(found_by[card] != found_by[card ^ 1] for card in range(CELLS)):
        raise _damaged("pairs found")
    active = data["active"]
    if not isinstance(active, list) or len(active) != players or not all(isinstance(a, bool) for a in active):
        raise _damaged("seats")
    first_flip = _whole(data["first_flip"], NO_CARD, CELLS - 1, "first flip")
    if first_flip != NO_CARD and (phase != "flip" or found_by[first_flip] != NOBODY):
        raise _damaged("first flip")
    state = TrememberState(
        players=players,
        seed=seed,
        grid=grid,
        found_by=found_by,
        scores=_wholes(data["scores"], 0, 3 * CELLS, "scores", players),
        active=tuple(active),
        turn=_whole(data["turn"], 0, seats, "turn"),
        phase=phase,
        taken=taken,
        first_flip=first_flip,
        last_event=_event_from_json(data["last_event"], seats),
    )
    if not _over(state) and not state.active[state.turn]:
        raise _damaged("turn")
    kind, _, *details = state.last_event
    if kind == "pair" and any(card not in grid or found_by[card] == NOBODY for card in details[1:4:2]):
        raise _damaged("last event")
    return state


def _event_from_json(value: Any, seats: int) -> tuple[Any, ...]:
    if not isinstance(value, list) or len(value) < 2 or value[0] not in EVENT_FIELDS:
        raise _damaged("last event")
    kind, seat, *details = value
    keys = EVENT_FIELDS[kind]
    if len(details) != len(keys):
        raise _damaged("last event")
    checked: list[Any] = [kind, _whole(seat, 0, seats, "last event")]
    for key, item in zip(keys, details, strict=True):
        if key == "side":
            if item not in SIDES:
                raise _damaged("last event")
            checked.append(item)
        elif key == "points":
            checked.append(_whole(item, 1, 3, "last event"))
        elif key == "rotated":
            checked.append(_whole(item, 0, 1, "last event"))
        else:  # a cell or a card
            checked.append(_whole(item, 0, CELLS - 1, "last event"))
    return tuple(checked)


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A save of the first format (last_move, last_pair, last_flip; phase "over") in today's."""
    data = dict(data)
    move, pair = data.pop("last_move", None), data.pop("last_pair", None)
    flips = data.pop("last_flip", None)
    if data.get("phase") == "over":
        data["phase"] = "take"
    if not move:
        players, seed = data.get("players"), data.get("seed")
        starter = 0
        if isinstance(players, int) and isinstance(seed, int) and players > 0:
            starter = chance(seed, OLD_START_STEP).randrange(players)
        data["last_event"] = ["start", starter]
    elif move[1] == "flip" and data.get("first_flip") == NO_CARD and flips:
        (cell_a, card_a), (cell_b, card_b) = flips
        if pair and pair[1] == card_a and pair[2:4] == [cell_a, cell_b]:
            data["last_event"] = ["pair", move[0], cell_a, card_a, cell_b, card_b, pair[4], pair[5]]
        else:
            data["last_event"] = ["miss", move[0], cell_a, card_a, cell_b, card_b]
    else:
        data["last_event"] = [move[1], move[0], *move[2:]]
    return data


ENGINE: Engine[TrememberState, TrememberView, TrememberMove] = Tremember()
