"""Tremember: a memory game on a 6×6 board that shifts under the players' feet.

A turn is four moves: take a face-down card (only the taker sees it), push it back
in from an end of its row or column, then turn two face-down cards. A pair stays
face up and scores 3, 2 or 1 by how the two cards touch; a joker pair also turns the
whole board 90° clockwise. Binding rules: `rules/tremember.md`.

Cells are numbered 0..35 row-major (`row * 6 + col`, row 0 is `1`, col 0 is `A`).
Cards are numbered 0..35 too; card `k` shows `MOTIFS[k // 2]`, so the deal is just
the arrangement of card numbers on the board.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from itertools import pairwise
from typing import Any

from games.base import GameError, IllegalMove, Outcome, chance, check_players, check_seat

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
SIDES = ("left", "right", "top", "bottom")
HOLE = -1
NOBODY = -1
NO_CARD = -1

# Chance steps: every draw of the game has its own fixed step number.
DEAL_STEP = 0
START_SEAT_STEP = 1


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
    phase: str  # "take", "push", "flip" or "over"
    taken: int  # the card in the taker's hand during "push", else NO_CARD
    first_flip: int  # the card turned first in this "flip" phase, else NO_CARD
    last_flip: tuple[tuple[int, int], ...]  # ((cell, card), (cell, card)) or ()
    last_pair: tuple[int, ...]  # (seat, card, cell, cell, points, rotated) or ()
    last_move: tuple[Any, ...]  # (seat, type, *public details) or ()


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


def legal_push_sides(hole: int) -> list[str]:
    """The ends a card may be pushed in from: every end except the one at the hole."""
    row, col = divmod(hole, SIZE)
    allowed = {"left": col > 0, "right": col < SIZE - 1, "top": row > 0, "bottom": row < SIZE - 1}
    return [side for side in SIDES if allowed[side]]


def push(grid: tuple[int, ...], side: str, card: int) -> tuple[int, ...]:
    """`grid` with `card` pushed in from `side` along the hole's line, closing the hole."""
    hole = grid.index(HOLE)
    row, col = divmod(hole, SIZE)
    if side == "left":
        line = [row * SIZE + c for c in range(col, -1, -1)]
    elif side == "right":
        line = [row * SIZE + c for c in range(col, SIZE)]
    elif side == "top":
        line = [r * SIZE + col for r in range(row, -1, -1)]
    else:
        line = [r * SIZE + col for r in range(row, SIZE)]
    # `line` runs from the hole to the pushing end: each cell takes its outer neighbour.
    cells = list(grid)
    for inner, outer in pairwise(line):
        cells[inner] = grid[outer]
    cells[line[-1]] = card
    return tuple(cells)


def rotate(grid: tuple[int, ...]) -> tuple[int, ...]:
    """`grid` turned 90° clockwise: new[r][c] = old[5 - c][r]."""
    return tuple(grid[(SIZE - 1 - c) * SIZE + r] for r in range(SIZE) for c in range(SIZE))


def parse_cell(move: Mapping[str, Any]) -> int:
    """The cell index named by a move's `cell: [row, col]`, or `IllegalMove`."""
    cell = move.get("cell")
    if (
        not isinstance(cell, list | tuple)
        or len(cell) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
        or not all(0 <= x < SIZE for x in cell)
    ):
        raise IllegalMove("Name a cell as [row, column], both from 0 to 5.")
    return cell[0] * SIZE + cell[1]


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
            raise GameError(f"{self.title} has no options — start it without {sorted(options)}.")
        grid = list(range(CELLS))
        chance(seed, DEAL_STEP).shuffle(grid)
        return TrememberState(
            players=players,
            seed=seed,
            grid=tuple(grid),
            found_by=(NOBODY,) * CELLS,
            scores=(0,) * players,
            active=(True,) * players,
            turn=chance(seed, START_SEAT_STEP).randrange(players),
            phase="take",
            taken=NO_CARD,
            first_flip=NO_CARD,
            last_flip=(),
            last_pair=(),
            last_move=(),
        )

    # --- asking -------------------------------------------------------------------

    def current_seats(self, state: TrememberState) -> tuple[int, ...]:
        """The seat to move, or () when the game is over."""
        return () if state.phase == "over" else (state.turn,)

    def legal_moves(self, state: TrememberState, seat: int) -> list[dict]:
        """Every move `seat` may make now (empty when it is not their turn)."""
        if seat not in self.current_seats(state):
            return []
        if state.phase == "push":
            return [{"type": "push", "from": side} for side in legal_push_sides(state.grid.index(HOLE))]
        kind = "take" if state.phase == "take" else "flip"
        return [{"type": kind, "cell": list(divmod(cell, SIZE))} for cell in _face_down_cells(state)]

    def outcome(self, state: TrememberState) -> Outcome | None:
        """Scores and winners once the game is over: most points among seats still in."""
        if state.phase != "over":
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

    def view(self, state: TrememberState, seat: int | None) -> dict:
        """What `seat` may know (None: a spectator). Only the taker ever sees `peek`."""
        hole = state.grid.index(HOLE) if state.phase == "push" else None
        outcome = self.outcome(state)
        return {
            "players": state.players,
            "scores": list(state.scores),
            "to_move": list(self.current_seats(state)),
            "phase": state.phase,
            "board": _rows(state, lambda card: motif_of(card) if _face_up(state, card) else None),
            "found": _rows(state, lambda card: None if card == HOLE else _owner(state, card)),
            "hole": None if hole is None else list(divmod(hole, SIZE)),
            "peek": motif_of(state.taken) if hole is not None and seat == state.turn else None,
            "legal_pushes": [] if hole is None else legal_push_sides(hole),
            "first_flip": _first_flip_cell(state),
            "last_flip": [
                {"cell": list(divmod(cell, SIZE)), "motif": motif_of(card)} for cell, card in state.last_flip
            ]
            or None,
            "last_pair": _last_pair_view(state),
            "last_move": _last_move_view(state),
            "face_down": len(_face_down_cells(state)) + (1 if hole is not None else 0),
            "resigned": [s for s in range(state.players) if not state.active[s]],
            "winners": [] if outcome is None else list(outcome.winners),
        }

    # --- changing -----------------------------------------------------------------

    def apply(self, state: TrememberState, seat: int, move: dict) -> TrememberState:
        """The state after `seat` makes `move`; raises `IllegalMove` / `NotYourTurn`."""
        if state.phase == "over":
            raise IllegalMove("This game is over — start a new one to play again.")
        check_seat(self.current_seats(state), seat)
        if not isinstance(move, Mapping):
            raise IllegalMove("A move must be a dict with a 'type' key: take, push or flip.")
        kind = move.get("type")
        if kind != state.phase:
            raise IllegalMove(_phase_hint(state))
        if kind == "take":
            return self._take(state, seat, parse_cell(move))
        if kind == "push":
            return self._push(state, seat, move.get("from"))
        return self._flip(state, seat, parse_cell(move))

    def resign(self, state: TrememberState, seat: int) -> TrememberState:
        """`seat` leaves: its turns are skipped, its points stay; under two seats left, it ends."""
        if state.phase == "over":
            raise IllegalMove("This game is already over.")
        if not 0 <= seat < state.players or not state.active[seat]:
            raise IllegalMove("That seat is not playing in this game.")
        active = tuple(on and s != seat for s, on in enumerate(state.active))
        state = replace(state, active=active, last_move=(seat, "resign"))
        if sum(active) < 2:
            return replace(_abandon_turn(state), phase="over")
        if seat != state.turn:
            return state
        return replace(_abandon_turn(state), turn=_next_seat(state), phase="take")

    # --- saving -------------------------------------------------------------------

    def dump(self, state: TrememberState) -> str:
        """The state as JSON text."""
        return json.dumps(asdict(state), separators=(",", ":"), sort_keys=True)

    def load(self, text: str) -> TrememberState:
        """The state `dump` wrote."""
        data = json.loads(text)
        return TrememberState(**{key: _tuples(value) for key, value in data.items()})

    # --- the four moves ---------------------------------------------------------------

    def _take(self, state: TrememberState, seat: int, cell: int) -> TrememberState:
        if state.grid[cell] not in _face_down_cards(state):
            raise IllegalMove(f"{cell_name(cell)} is face up — take a face-down card.")
        grid = list(state.grid)
        card, grid[cell] = grid[cell], HOLE
        return replace(state, grid=tuple(grid), taken=card, phase="push", last_move=(seat, "take", cell))

    def _push(self, state: TrememberState, seat: int, side: Any) -> TrememberState:
        legal = legal_push_sides(state.grid.index(HOLE))
        if side not in legal:
            raise IllegalMove(
                f"Push from {' or '.join(f'the {s}' for s in legal)}: a push must move at "
                "least one other card and close the hole."
            )
        return replace(
            state,
            grid=push(state.grid, side, state.taken),
            taken=NO_CARD,
            phase="flip",
            last_move=(seat, "push", side, state.grid.index(HOLE)),
        )

    def _flip(self, state: TrememberState, seat: int, cell: int) -> TrememberState:
        card = state.grid[cell]
        if card not in _face_down_cards(state):
            raise IllegalMove(f"{cell_name(cell)} is face up — turn a face-down card.")
        if state.first_flip == NO_CARD:
            return replace(state, first_flip=card, last_move=(seat, "flip", cell, card))
        first = state.first_flip
        first_cell = state.grid.index(first)
        state = replace(
            state,
            first_flip=NO_CARD,
            last_flip=((first_cell, first), (cell, card)),
            last_move=(seat, "flip", cell, card),
            phase="take",
        )
        if motif_of(first) != motif_of(card):
            return replace(state, turn=_next_seat(state))
        return _score_pair(state, seat, (first_cell, first), (cell, card))


def _score_pair(state: TrememberState, seat: int, a: tuple[int, int], b: tuple[int, int]) -> TrememberState:
    """Score the pair at cells a, b now; a joker pair then turns the board."""
    (cell_a, card_a), (cell_b, card_b) = a, b
    points = pair_points(cell_a, cell_b)
    found_by = list(state.found_by)
    found_by[card_a] = found_by[card_b] = seat
    scores = list(state.scores)
    scores[seat] += points
    rotated = is_joker(card_a)
    state = replace(
        state,
        grid=rotate(state.grid) if rotated else state.grid,
        found_by=tuple(found_by),
        scores=tuple(scores),
        last_pair=(seat, card_a, cell_a, cell_b, points, int(rotated)),
    )
    if NOBODY not in found_by:
        return replace(state, phase="over")
    return state  # the finder goes again


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


def _rows(state: TrememberState, show: Any) -> list[list[Any]]:
    """A 6×6 list of `show(card)` for every cell."""
    return [[show(state.grid[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)]


def _first_flip_cell(state: TrememberState) -> list[int] | None:
    if state.first_flip == NO_CARD:
        return None
    return list(divmod(state.grid.index(state.first_flip), SIZE))


def _last_pair_view(state: TrememberState) -> dict | None:
    if not state.last_pair:
        return None
    seat, card, cell_a, cell_b, points, rotated = state.last_pair
    return {
        "seat": seat,
        "motif": motif_of(card),
        "cells": [list(divmod(cell_a, SIZE)), list(divmod(cell_b, SIZE))],
        # where the two cards lie now: a joker turn or later pushes move them
        "cells_now": [list(divmod(state.grid.index(c), SIZE)) for c in (card, card ^ 1)],
        "points": points,
        "rotated": bool(rotated),
    }


def _last_move_view(state: TrememberState) -> dict | None:
    if not state.last_move:
        return None
    seat, kind, *details = state.last_move
    move: dict[str, Any] = {"seat": seat, "type": kind}
    if kind in ("take", "flip"):
        move["cell"] = list(divmod(details[0], SIZE))
    if kind == "flip":
        move["motif"] = motif_of(details[1])
    if kind == "push":
        move["from"] = details[0]
        move["cell"] = list(divmod(details[1], SIZE))  # the hole it closed
    return move


def _phase_hint(state: TrememberState) -> str:
    """What the player should do now, for an out-of-phase move."""
    if state.phase == "take":
        return "First take a face-down card."
    if state.phase == "push":
        return "Push the card you took back in from one of the marked sides first."
    return "Turn a face-down card now."


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
    return replace(state, grid=grid, taken=NO_CARD, first_flip=NO_CARD)


def _tuples(value: Any) -> Any:
    """JSON lists back into the tuples the state is made of."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


ENGINE = Tremember()
