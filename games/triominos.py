"""My First Triominos: triangular number cards matched corner to corner.

Geometry: grid points are integer pairs (x, y) of a triangular lattice, drawn at
(x + y/2, y·√3/2) with y pointing up. A *cell* (x, y, up) is one triangle of the
grid; its corners are listed clockwise, starting at the apex of an up cell and at the
top-left of a down cell, so a card's clockwise values go onto a cell in 3 rotations.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from itertools import combinations_with_replacement
from typing import Any

from games.base import GameError, IllegalMove, Outcome, chance, check_players, check_seat

Point = tuple[int, int]
Cell = tuple[int, int, int]  # (x, y, 1 for pointing up / 0 for pointing down)
Placed = tuple[int, int, int, int, int]  # (card, x, y, up, rotation)

# Every multiset of three values 1–5, written clockwise in non-decreasing order.
CARDS: tuple[tuple[int, int, int], ...] = tuple(combinations_with_replacement(range(1, 6), 3))
JOKER = len(CARDS)
HAND_SIZE = 6
START_TOKENS = 4
ALL_TOKENS = 60


@dataclass(frozen=True, slots=True)
class TriominosState:
    """A whole match; `pot` (top card first) and other seats' hands are secret."""

    players: int
    seed: int
    open_hands: bool
    with_joker: bool
    pot: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    tokens: tuple[int, ...]
    bank: int
    table: tuple[Placed, ...]
    turn: int
    passes: int = 0
    last_round: tuple[int, ...] | None = None  # seats still to play in the last round
    resigned: tuple[int, ...] = ()
    over: bool = False
    last_move: tuple[int, str] | None = None  # (seat, move type)
    last_card: int | None = None  # index into table
    last_bonus: tuple[int, int, int, int, int] | None = None  # hexagons, bridge, last, earned, paid


# --- geometry -------------------------------------------------------------------------


def cell_points(cell: Cell) -> tuple[Point, Point, Point]:
    """The cell's corners, clockwise from its canonical first corner."""
    x, y, up = cell
    if up:
        return (x, y + 1), (x + 1, y), (x, y)
    return (x, y + 1), (x + 1, y + 1), (x + 1, y)


def side_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The three cells sharing a whole side with `cell`."""
    x, y, up = cell
    if up:
        return (x, y - 1, 0), (x, y, 0), (x - 1, y, 0)
    return (x, y + 1, 1), (x, y, 1), (x + 1, y, 1)


def cells_around(point: Point) -> tuple[Cell, ...]:
    """The six cells that meet at `point` (a hexagon when all are filled)."""
    px, py = point
    return (
        (px, py, 1),
        (px - 1, py, 1),
        (px, py - 1, 1),
        (px, py - 1, 0),
        (px - 1, py - 1, 0),
        (px - 1, py, 0),
    )


def cell_order(cell: Cell) -> tuple[int, int]:
    """Reading order of cells: top row first, then left to right (by centroid)."""
    points = cell_points(cell)
    return -sum(y for _, y in points), sum(2 * x + y for x, y in points)


def corner_values(card: int, rotation: int) -> tuple[int, int, int] | None:
    """The values a card shows at a cell's clockwise corners; None for the joker."""
    if card == JOKER:
        return None
    values = CARDS[card]
    return values[rotation % 3], values[(rotation + 1) % 3], values[(rotation + 2) % 3]


def distinct_rotations(card: int) -> tuple[int, ...]:
    """Rotations that give different faces (a joker or a triple looks the same)."""
    if card == JOKER or len(set(CARDS[card])) == 1:
        return (0,)
    return (0, 1, 2)


def canonical_rotation(card: int, rotation: int) -> int:
    """The smallest rotation that shows the same face as `rotation`."""
    return 0 if distinct_rotations(card) == (0,) else rotation


# --- the table ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Table:
    """Derived look-ups over the placed cards; built once per question."""

    cells: dict[Cell, int]  # cell -> index into state.table
    values: dict[Point, int]  # value every number card shows at that point
    touched: frozenset[Point]  # points where any card lies

    @classmethod
    def of(cls, placed: tuple[Placed, ...], skip: int | None = None) -> Table:
        """Index the table, ignoring the card at index `skip` (the joker being swapped)."""
        cells: dict[Cell, int] = {}
        values: dict[Point, int] = {}
        touched: set[Point] = set()
        for index, (card, x, y, up, rotation) in enumerate(placed):
            if index == skip:
                continue
            cell = (x, y, up)
            cells[cell] = index
            points = cell_points(cell)
            touched.update(points)
            faces = corner_values(card, rotation)
            if faces is not None:
                values.update(zip(points, faces, strict=True))
        return cls(cells, values, frozenset(touched))

    def open_places(self) -> list[Cell]:
        """Empty cells sharing a side with a card, in reading order."""
        found = {near for cell in self.cells for near in side_neighbours(cell) if near not in self.cells}
        return sorted(found, key=cell_order)

    def fits(self, cell: Cell, card: int, rotation: int) -> bool:
        """True when every corner matches every number-card corner at its point."""
        faces = corner_values(card, rotation)
        if faces is None:
            return True
        return all(
            self.values.get(point, value) == value
            for point, value in zip(cell_points(cell), faces, strict=True)
        )

    def bonuses(self, cell: Cell) -> tuple[int, bool]:
        """(hexagons completed, bridge made) by filling `cell`."""
        filled = set(self.cells) | {cell}
        points = cell_points(cell)
        hexagons = sum(all(c in filled for c in cells_around(p)) for p in points)
        sides = [near for near in side_neighbours(cell) if near in self.cells]
        bridge = False
        if len(sides) == 1:
            shared = set(cell_points(sides[0]))
            opposite = next(p for p in points if p not in shared)
            bridge = opposite in self.touched
        return hexagons, bridge


def place_labels(places: list[Cell]) -> dict[str, Cell]:
    """Labels "1", "2", ... in reading order: they depend on the table only."""
    return {str(number): cell for number, cell in enumerate(places, start=1)}


# --- the engine -----------------------------------------------------------------------


class TriominosEngine:
    """The rules of My First Triominos as a pure, seeded engine."""

    name = "triominos"
    title = "My First Triominos"
    min_players = 2
    max_players = 4

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> TriominosState:
        """Shuffle, deal 6 cards and 4 tokens each, lay the first card, pick a starter."""
        check_players(self, players)
        options = dict(options or {})
        unknown = set(options) - {"open_hands", "joker"}
        if unknown:
            raise GameError(f"Unknown option {sorted(unknown)[0]!r}: use open_hands or joker.")
        with_joker = bool(options.get("joker", True))
        pot = list(range(len(CARDS) + (1 if with_joker else 0)))
        chance(seed, 0).shuffle(pot)
        hands = tuple(tuple(pot[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players))
        pot = pot[players * HAND_SIZE :]
        first = pot.pop(0)
        if first == JOKER:
            # The joker goes back into the pot at a random place; the next card is first.
            pot.insert(chance(seed, 1).randrange(len(pot) + 1), first)
            first = pot.pop(0)
        return TriominosState(
            players=players,
            seed=seed,
            open_hands=bool(options.get("open_hands", False)),
            with_joker=with_joker,
            pot=tuple(pot),
            hands=hands,
            tokens=(START_TOKENS,) * players,
            bank=ALL_TOKENS - START_TOKENS * players,
            table=((first, 0, 0, 1, 0),),
            turn=chance(seed, 2).randrange(players),
        )

    def current_seats(self, state: TriominosState) -> tuple[int, ...]:
        """The seat to move, or () once the game is over."""
        return () if state.over else (state.turn,)

    # --- moves ------------------------------------------------------------------------

    def legal_moves(self, state: TriominosState, seat: int) -> list[dict]:
        """Every place/rotation for every hand card, joker swaps, then buy or pass."""
        if seat not in self.current_seats(state):
            return []
        table = Table.of(state.table)
        labels = place_labels(table.open_places())
        hand = state.hands[seat]
        moves: list[dict] = [
            {"type": "place", "card": index, "place": label, "rotation": rotation}
            for index, card in enumerate(hand)
            for label, cell in labels.items()
            for rotation in distinct_rotations(card)
            if table.fits(cell, card, rotation)
        ]
        moves += [
            {"type": "take_joker", "card": index, "rotation": rotation}
            for index, rotation in joker_swaps(state, hand)
        ]
        moves.append({"type": "buy"} if can_buy(state, seat) else {"type": "pass"})
        return moves

    def apply(self, state: TriominosState, seat: int, move: dict) -> TriominosState:
        """Validate `move` for `seat` and return the state after it."""
        if state.over:
            raise IllegalMove("The game is over — start a new one to play again.")
        check_seat(self.current_seats(state), seat)
        kind = move.get("type") if isinstance(move, Mapping) else None
        if kind == "place":
            return self._place(state, seat, move)
        if kind == "take_joker":
            return self._take_joker(state, seat, move)
        if kind == "buy":
            return self._buy(state, seat)
        if kind == "pass":
            return self._pass(state, seat)
        raise IllegalMove("Choose a move: place a card, buy a card, pass or take back the joker.")

    def _place(self, state: TriominosState, seat: int, move: Mapping) -> TriominosState:
        hand = state.hands[seat]
        index = hand_index(hand, move.get("card"))
        card = hand[index]
        rotation = parse_rotation(move.get("rotation", 0))
        table = Table.of(state.table)
        cell = place_labels(table.open_places()).get(str(move.get("place")))
        if cell is None:
            raise IllegalMove("That place is not open — pick a numbered place next to the cards.")
        if not table.fits(cell, card, rotation):
            raise IllegalMove(
                "That card does not match there — every corner must show the same number "
                "as the cards touching it. Try turning it or another place."
            )
        hexagons, bridge = table.bonuses(cell)
        new_hand = hand[:index] + hand[index + 1 :]
        emptied = not new_hand
        earned = 1 + hexagons + int(bridge) + int(emptied)
        paid = min(earned, state.bank)  # the bank pays only what it holds
        placed = (card, *cell, canonical_rotation(card, rotation))
        state = replace(
            state,
            hands=swap(state.hands, seat, new_hand),
            tokens=swap(state.tokens, seat, state.tokens[seat] + paid),
            bank=state.bank - paid,
            table=(*state.table, placed),
            passes=0,
            last_move=(seat, "place"),
            last_card=len(state.table),
            last_bonus=(hexagons, int(bridge), int(emptied), earned, paid),
        )
        return advance(state, seat)

    def _take_joker(self, state: TriominosState, seat: int, move: Mapping) -> TriominosState:
        hand = state.hands[seat]
        index = hand_index(hand, move.get("card"))
        card = hand[index]
        rotation = parse_rotation(move.get("rotation", 0))
        at = joker_index(state)
        if at is None:
            raise IllegalMove("The joker is not on the table — there is nothing to take back.")
        if card == JOKER or not Table.of(state.table, skip=at).fits(table_cell(state, at), card, rotation):
            raise IllegalMove(
                "That card does not fit the joker's place exactly — choose a card whose "
                "corners match every card touching the joker."
            )
        x, y, up = table_cell(state, at)
        table = list(state.table)
        table[at] = (card, x, y, up, canonical_rotation(card, rotation))
        state = replace(
            state,
            hands=swap(state.hands, seat, (*hand[:index], *hand[index + 1 :], JOKER)),
            table=tuple(table),
            passes=0,
            last_move=(seat, "take_joker"),
            last_card=at,
            last_bonus=None,
        )
        return advance(state, seat)

    def _buy(self, state: TriominosState, seat: int) -> TriominosState:
        if not can_buy(state, seat):
            reason = "the pot is empty" if not state.pot else "you have no tokens"
            raise IllegalMove(f"You cannot buy: {reason}. Place a card or pass.")
        drawn, pot = state.pot[0], state.pot[1:]
        state = replace(
            state,
            pot=pot,
            hands=swap(state.hands, seat, (*state.hands[seat], drawn)),
            tokens=swap(state.tokens, seat, state.tokens[seat] - 1),
            bank=state.bank + 1,
            passes=0,
            last_move=(seat, "buy"),
            last_bonus=None,
        )
        if not pot and state.last_round is None:
            # The last round: every active player once more, ending with this one.
            order = tuple((seat + k) % state.players for k in range(1, state.players + 1))
            state = replace(state, last_round=tuple(s for s in order if s not in state.resigned))
            return advance(state, None)
        return advance(state, seat)

    def _pass(self, state: TriominosState, seat: int) -> TriominosState:
        if can_buy(state, seat):
            raise IllegalMove("You can still buy a card — buy one instead of passing.")
        state = replace(state, passes=state.passes + 1, last_move=(seat, "pass"), last_bonus=None)
        return advance(state, seat)

    def resign(self, state: TriominosState, seat: int) -> TriominosState:
        """The seat leaves: its turns are skipped and its cards stay out of play."""
        if state.over:
            raise IllegalMove("The game is already over.")
        if not 0 <= seat < state.players or seat in state.resigned:
            raise IllegalMove("That seat is not playing in this game.")
        resigned = tuple(sorted((*state.resigned, seat)))
        last_round = state.last_round
        if last_round is not None:
            last_round = tuple(s for s in last_round if s != seat)
        state = settle(replace(state, resigned=resigned, last_round=last_round))
        if state.over or state.turn != seat:
            return state
        return replace(state, turn=next_active(state, seat))

    # --- what players see -------------------------------------------------------------

    def view(self, state: TriominosState, seat: int | None) -> dict:
        """What `seat` may know (None: a spectator): the contract plus places and bonuses."""
        table = Table.of(state.table)
        labels = place_labels(table.open_places())
        view: dict[str, Any] = {
            "scores": list(state.tokens),
            "to_move": list(self.current_seats(state)),
            "table": [placed_view(p) for p in state.table],
            "places": [
                {"label": label, "points": [list(p) for p in cell_points(cell)]}
                for label, cell in labels.items()
            ],
            "hand": [],
            "hand_sizes": [len(h) for h in state.hands],
            "pot_size": len(state.pot),
            "bank": state.bank,
            "players": state.players,
            "options": {"open_hands": state.open_hands, "joker": state.with_joker},
            "resigned": list(state.resigned),
            "passes": state.passes,
            "last_round": state.last_round is not None,
            "last_round_to_play": list(state.last_round or ()),
            "over": state.over,
            "last_move": last_move_view(state),
            "last_card": state.last_card,
            "last_bonus": bonus_view(state.last_bonus),
        }
        if state.open_hands:
            view["hands"] = [[card_view(c) for c in h] for h in state.hands]
        if seat is not None and 0 <= seat < state.players:
            hand = state.hands[seat]
            view["hand"] = [card_view(c) for c in hand]
            view["fits"] = [
                [
                    [label, rotation]
                    for label, cell in labels.items()
                    for rotation in distinct_rotations(card)
                    if table.fits(cell, card, rotation)
                ]
                for card in hand
            ]
            view["swaps"] = [list(pair) for pair in joker_swaps(state, hand)]
        return view

    def outcome(self, state: TriominosState) -> Outcome | None:
        """Most tokens among the seats still playing wins; ties share the win."""
        if not state.over:
            return None
        active = [s for s in range(state.players) if s not in state.resigned]
        best = max((state.tokens[s] for s in active), default=0)
        winners = tuple(s for s in active if state.tokens[s] == best)
        return Outcome(
            scores=state.tokens,
            winners=winners,
            draw=len(winners) > 1,
            details={"resigned": list(state.resigned), "cards_left": [len(h) for h in state.hands]},
        )

    def dump(self, state: TriominosState) -> str:
        """The state as JSON text."""
        return json.dumps(asdict(state), separators=(",", ":"))

    def load(self, text: str) -> TriominosState:
        """The state from `dump`'s JSON text."""
        data = json.loads(text)
        return TriominosState(**{key: tupled(value) for key, value in data.items()})


# --- helpers --------------------------------------------------------------------------


def tupled(value: Any) -> Any:
    """JSON lists back to (nested) tuples."""
    return tuple(tupled(v) for v in value) if isinstance(value, list) else value


def swap(items: tuple, index: int, value: Any) -> tuple:
    """`items` with `items[index]` replaced by `value`."""
    return (*items[:index], value, *items[index + 1 :])


def hand_index(hand: tuple[int, ...], card: Any) -> int:
    """Validate a 0-based hand index from a move."""
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < len(hand):
        raise IllegalMove("That card is not in your hand — pick one of the cards you hold.")
    return card


def parse_rotation(rotation: Any) -> int:
    """Validate a rotation 0, 1 or 2 from a move."""
    if isinstance(rotation, bool) or rotation not in (0, 1, 2):
        raise IllegalMove("A card can be turned three ways — choose rotation 0, 1 or 2.")
    return rotation


def can_buy(state: TriominosState, seat: int) -> bool:
    """Buying needs a card in the pot and a token to pay."""
    return bool(state.pot) and state.tokens[seat] > 0


def joker_index(state: TriominosState) -> int | None:
    """Where the joker lies on the table, if it does."""
    return next((i for i, p in enumerate(state.table) if p[0] == JOKER), None)


def table_cell(state: TriominosState, index: int) -> Cell:
    """The cell of the table card at `index`."""
    _, x, y, up, _ = state.table[index]
    return x, y, up


def joker_swaps(state: TriominosState, hand: tuple[int, ...]) -> list[tuple[int, int]]:
    """(hand index, rotation) of every card that fits the joker's place exactly."""
    at = joker_index(state)
    if at is None:
        return []
    table = Table.of(state.table, skip=at)
    cell = table_cell(state, at)
    return [
        (index, rotation)
        for index, card in enumerate(hand)
        if card != JOKER
        for rotation in distinct_rotations(card)
        if table.fits(cell, card, rotation)
    ]


def active_seats(state: TriominosState) -> list[int]:
    """Seats that have not resigned, in seat order."""
    return [s for s in range(state.players) if s not in state.resigned]


def settle(state: TriominosState) -> TriominosState:
    """End the game when too few play, the last round is done or everyone passed."""
    active = active_seats(state)
    over = (
        len(active) < 2
        or (state.last_round is not None and not state.last_round)
        or state.passes >= len(active)
    )
    return replace(state, over=over) if over else state


def next_active(state: TriominosState, seat: int) -> int:
    """The first active seat after `seat` in seat order."""
    active = active_seats(state)
    return next(
        (seat + k) % state.players
        for k in range(1, state.players + 1)
        if (seat + k) % state.players in active
    )


def advance(state: TriominosState, seat: int | None) -> TriominosState:
    """Close the turn and hand it on, or end the game.

    `seat` is the seat whose last-round turn was used, None for the buy that drew the
    last card (that buy starts the last round rather than using a turn of it).
    """
    if seat is not None and state.last_round is not None:
        state = replace(state, last_round=tuple(s for s in state.last_round if s != seat))
    state = settle(state)
    return state if state.over else replace(state, turn=next_active(state, state.turn))


def card_view(card: int) -> dict:
    """A hand card as the contract shows it."""
    return {"joker": True} if card == JOKER else {"values": list(CARDS[card])}


def placed_view(placed: Placed) -> dict:
    """A table card: its corner points and the value at each (null for the joker)."""
    card, x, y, up, rotation = placed
    faces = corner_values(card, rotation)
    return {
        "points": [list(p) for p in cell_points((x, y, up))],
        "values": list(faces) if faces else [None, None, None],
        "joker": card == JOKER,
    }


def last_move_view(state: TriominosState) -> dict | None:
    """Who did what last (public: a bought card stays secret)."""
    if state.last_move is None:
        return None
    seat, kind = state.last_move
    return {"seat": seat, "type": kind}


def bonus_view(bonus: tuple[int, int, int, int, int] | None) -> dict | None:
    """The tokens the last placement earned and why."""
    if bonus is None:
        return None
    hexagons, bridge, last, earned, paid = bonus
    return {
        "hexagons": hexagons,
        "bridge": bool(bridge),
        "last_card": bool(last),
        "earned": earned,
        "paid": paid,
    }


ENGINE = TriominosEngine()
