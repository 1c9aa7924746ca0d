"""My First Triominos: triangular number cards matched corner to corner.

Geometry: grid points are integer pairs (x, y) of a triangular lattice, drawn at
(x + y/2, y·√3/2) with y pointing up. A *cell* (x, y, up) is one triangle of the
grid; its corners are listed clockwise, starting at the apex of an up cell and at the
top-left of a down cell, so a card's clockwise values go onto a cell in 3 rotations.

Speed: a state keeps the look-ups derived from its table (`Table`: filled cells, the
number at every point, the open places in reading order), built once on first use
(`table_of`) or carried over from the state before a placement (`Table.plus`); they are
never saved (`dump` leaves them out).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from itertools import combinations_with_replacement
from typing import Any, Literal, NotRequired, TypedDict, TypeVar

from games.base import (
    CommonView,
    Engine,
    Event,
    GameError,
    IllegalMove,
    Outcome,
    chance,
    check_players,
    check_seat,
    common_view,
    first_seat,
    load_json,
)

Point = tuple[int, int]
Cell = tuple[int, int, int]  # (x, y, 1 for pointing up / 0 for pointing down)
Placed = tuple[int, int, int, int, int]  # (card, x, y, up, rotation)
Item = TypeVar("Item")

# Every multiset of three values 1–5, written clockwise in non-decreasing order.
CARDS: tuple[tuple[int, int, int], ...] = tuple(combinations_with_replacement(range(1, 6), 3))
JOKER = len(CARDS)
HAND_SIZE = 6
START_TOKENS = 4
ALL_TOKENS = 60


# --- what a view and a move look like ---------------------------------------------------

GridPoint = list[int]  # [x, y], as JSON writes a grid point


class TriominosEvent(Event):
    """The view's `last_event`: `type` is one of the kinds below, `seat` who acted.

    start       `seat` was drawn to start
    place       `joker` (the card was the joker), the tokens `earned` and `paid` (the
                bank pays only what it holds) and why: `hexagons`, `bridge`, `last_card`
    take_joker  a card took the joker's place (`last_card` in the view says where)
    buy         `pot_emptied`: that purchase took the last card, so the last round began
    pass        `reason`: "empty_pot" or "no_tokens" (no card of the seat fitted)
    resign      the seat left the game
    """

    joker: NotRequired[bool]
    hexagons: NotRequired[int]
    bridge: NotRequired[bool]
    last_card: NotRequired[bool]
    earned: NotRequired[int]
    paid: NotRequired[int]
    pot_emptied: NotRequired[bool]
    reason: NotRequired[Literal["empty_pot", "no_tokens"]]


class TableCard(TypedDict):
    """A card on the table: its cell's corner points clockwise (see `cell_points`) and
    the value at each (all None for the joker)."""

    points: list[GridPoint]
    values: list[int | None]
    joker: bool


class OpenPlace(TypedDict):
    """An empty cell next to the table, numbered in reading order: `label` ("1", "2", ...)
    and its corner points clockwise."""

    label: str
    points: list[GridPoint]


class HandCard(TypedDict, total=False):
    """A card in a hand: `{"values": [a, b, c]}` (clockwise, non-decreasing) or `{"joker": True}`."""

    values: list[int]
    joker: bool


class TriominosOptions(TypedDict):
    """The match's options as the view shows them."""

    open_hands: bool
    joker: bool


PlaceFit = list[str | int]  # [place label, rotation]: one way a hand card fits


class TriominosView(CommonView[TriominosEvent]):
    """What a seat or a spectator sees; the keys are described in `TriominosEngine`'s docstring."""

    table: list[TableCard]
    places: list[OpenPlace]
    hand: list[HandCard]
    hand_sizes: list[int]
    pot_size: int
    bank: int
    options: TriominosOptions
    passes: int
    last_round: bool
    last_round_to_play: list[int]
    last_card: int | None
    hands: NotRequired[list[list[HandCard]]]
    fits: NotRequired[list[list[PlaceFit]]]
    swaps: NotRequired[list[list[int]]]
    can_buy: NotRequired[bool]
    can_pass: NotRequired[bool]


class PlaceMove(TypedDict):
    """Lay hand card `card` (0-based) on the open place `place` (its label), turned
    `rotation` (0, 1 or 2) clockwise steps."""

    type: Literal["place"]
    card: int
    place: str
    rotation: int


class TakeJokerMove(TypedDict):
    """Put hand card `card`, turned `rotation`, in the joker's place and take the joker."""

    type: Literal["take_joker"]
    card: int
    rotation: int


class BuyMove(TypedDict):
    """Pay a token and draw the pot's top card."""

    type: Literal["buy"]


class PassMove(TypedDict):
    """Pass: offered only when no card fits and buying is impossible."""

    type: Literal["pass"]


TriominosMove = PlaceMove | TakeJokerMove | BuyMove | PassMove


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
    starter: int = 0  # the seat drawn to start
    passes: int = 0
    last_round: tuple[int, ...] | None = None  # seats still to play in the last round
    resigned: tuple[int, ...] = ()
    over: bool = False
    last_move: tuple[int, str] | None = None  # (seat, "place"/"take_joker"/"buy"/"pass"/"resign")
    last_card: int | None = None  # index into table
    last_bonus: tuple[int, int, int, int, int] | None = None  # hexagons, bridge, last, earned, paid
    # Look-ups derived from `table` alone, filled in on first use (`table_of`); never stored.
    derived: Table | None = field(default=None, init=False, repr=False, compare=False)


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


# Each number card's clockwise values at a cell's corners, by rotation.
FACES: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((v[r], v[(r + 1) % 3], v[(r + 2) % 3]) for r in range(3)) for v in CARDS
)


# --- the table ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Table:
    """Derived look-ups over the placed cards; built once per state (see `table_of`)."""

    cells: dict[Cell, int]  # cell -> index into state.table
    values: dict[Point, int]  # value every number card shows at that point
    touched: frozenset[Point]  # points where any card lies
    places: tuple[Cell, ...] = ()  # empty cells sharing a side with a card, in reading order

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
        found = {near for cell in cells for near in side_neighbours(cell) if near not in cells}
        return cls(cells, values, frozenset(touched), tuple(sorted(found, key=cell_order)))

    def plus(self, placed: Placed, index: int) -> Table:
        """The table after `placed` is laid as card `index` on one of the open places."""
        card, x, y, up, rotation = placed
        cell = (x, y, up)
        cells = {**self.cells, cell: index}
        points = cell_points(cell)
        values = dict(self.values)
        faces = corner_values(card, rotation)
        if faces is not None:
            values.update(zip(points, faces, strict=True))
        found = {*self.places, *side_neighbours(cell)} - cells.keys()
        return Table(cells, values, self.touched.union(points), tuple(sorted(found, key=cell_order)))

    def open_places(self) -> list[Cell]:
        """Empty cells sharing a side with a card, in reading order."""
        return list(self.places)

    def fits(self, cell: Cell, card: int, rotation: int) -> bool:
        """True when every corner matches every number-card corner at its point."""
        if card == JOKER:
            return True
        return fits_pattern(self.pattern(cell), FACES[card][rotation % 3])

    def pattern(self, cell: Cell) -> tuple[int, int, int]:
        """The value every number card shows at the cell's corners, 0 where none does."""
        get = self.values.get
        a, b, c = cell_points(cell)
        return get(a, 0), get(b, 0), get(c, 0)

    def bonuses(self, cell: Cell) -> tuple[int, bool]:
        """(hexagons completed, bridge made) by filling `cell`."""
        cells = self.cells
        points = cell_points(cell)
        hexagons = sum(all(c == cell or c in cells for c in cells_around(p)) for p in points)
        sides = [near for near in side_neighbours(cell) if near in cells]
        bridge = False
        if len(sides) == 1:
            shared = set(cell_points(sides[0]))
            opposite = next(p for p in points if p not in shared)
            bridge = opposite in self.touched
        return hexagons, bridge


def fits_pattern(pattern: tuple[int, int, int], faces: tuple[int, int, int]) -> bool:
    """True when `faces` agree with every number (non-zero) of `pattern`."""
    a, b, c = pattern
    x, y, z = faces
    return (not a or a == x) and (not b or b == y) and (not c or c == z)


def table_of(state: TriominosState) -> Table:
    """The state's `Table`, built on first use and kept with the state (the table never
    changes within one state)."""
    table = state.derived
    if table is None:
        table = Table.of(state.table)
        object.__setattr__(state, "derived", table)
    return table


def with_table(state: TriominosState, table: Table) -> TriominosState:
    """`state` with its `Table` already known (`table` must be `Table.of(state.table)`)."""
    object.__setattr__(state, "derived", table)
    return state


def place_labels(places: list[Cell] | tuple[Cell, ...]) -> dict[str, Cell]:
    """Labels "1", "2", ... in reading order: they depend on the table only."""
    return {str(number): cell for number, cell in enumerate(places, start=1)}


# --- the engine -----------------------------------------------------------------------


class TriominosEngine:
    """The rules of My First Triominos as a pure, seeded engine.

    Moves (`TriominosMove`): `{"type": "place", "card", "place", "rotation"}`,
    `{"type": "take_joker", "card", "rotation"}`, `{"type": "buy"}`, `{"type": "pass"}`.

    A view (`TriominosView`) carries the common keys (`scores` are the seats' tokens,
    `last_event` a `TriominosEvent`) and these, the same for every viewer:

    `table`               list of `TableCard`: every card on the table in the order laid,
                          `points` its cell's three grid points clockwise, `values` the
                          number at each (`[None, None, None]` for the joker), `joker`
    `places`              list of `OpenPlace`: the open places in reading order, `label`
                          ("1", "2", ...: what a place move names) and `points`
    `hand_sizes`          list of ints by seat: the cards each seat holds
    `pot_size`            int: the cards left in the pot (its order stays secret)
    `bank`                int: the tokens the bank still holds
    `options`             `{"open_hands": bool, "joker": bool}`
    `passes`              int: passes in a row so far
    `last_round`          bool: the pot was emptied, so the last round is being played
    `last_round_to_play`  list of the seats still to play in the last round
    `last_card`           int or None: the index in `table` of the card laid or swapped last
    `hand`                list of `HandCard`: `[]` in a spectator's view, see below
    `hands`               only with open hands: every seat's list of `HandCard`

    A seat sees, besides, what a spectator does not (a spectator's `hand` is empty and
    these other keys are absent from its view):

    `hand`                its own cards (the 0-based index is what a move's `card` names)
    `fits`                per hand card, the `[place label, rotation]` pairs where it fits
    `swaps`               `[hand index, rotation]` pairs of the cards that fit the joker's place
    `can_buy`             bool: it is this seat's turn and it may buy
    `can_pass`            bool: it is this seat's turn, nothing fits and it may not buy
    """

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
            raise GameError(
                "Unknown option {option}: use open_hands or joker.", option=repr(sorted(unknown)[0])
            )
        with_joker = bool(options.get("joker", True))
        pot = list(range(len(CARDS) + (1 if with_joker else 0)))
        chance(seed, 0).shuffle(pot)
        hands = tuple(tuple(pot[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players))
        pot = pot[players * HAND_SIZE :]
        first = pot.pop(0)
        if first == JOKER:
            # « Remettez-le dans la cagnotte et prenez une autre carte »: another card is
            # laid first (there is one joker, so it is a number card), and only then does
            # the joker go back into the pot, at a random place.
            first = pot.pop(0)
            pot.insert(chance(seed, 1).randrange(len(pot) + 1), JOKER)
        starter = first_seat(seed, players)
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
            turn=starter,
            starter=starter,
        )

    def current_seats(self, state: TriominosState) -> tuple[int, ...]:
        """The seat to move, or () once the game is over."""
        return () if state.over else (state.turn,)

    # --- moves ------------------------------------------------------------------------

    def legal_moves(self, state: TriominosState, seat: int) -> list[TriominosMove]:
        """Every place/rotation for every hand card, joker swaps, then buy or pass.

        Not placing always costs a purchase: the pass is offered only to a player who
        can neither place a card nor buy one (empty pot, or no tokens).
        """
        if seat not in self.current_seats(state):
            return []
        hand = state.hands[seat]
        placing = place_moves(state, hand)
        moves: list[TriominosMove] = [*placing]
        moves.extend(
            TakeJokerMove(type="take_joker", card=index, rotation=rotation)
            for index, rotation in joker_swaps(state, hand)
        )
        if can_buy(state, seat):
            moves.append(BuyMove(type="buy"))
        elif not placing:
            moves.append(PassMove(type="pass"))
        return moves

    def timeout_move(self, state: TriominosState, seat: int) -> TriominosMove:
        """The move for an absent player: buy, or pass, before anything that changes the table.

        Buying is what the rules give a player who does not place (« vous ne voulez pas
        poser de carte »): it scores nothing and leaves the table alone, and the pass is
        offered exactly when buying is impossible and nothing fits, so at most one of
        the two is legal. When neither is (a card fits, but the pot is empty or the
        player has no tokens), taking back the joker still scores nothing. Only when a
        placement is the one thing left is a card placed: the one that earns the
        fewest tokens, a number card before the joker, the first such in
        `legal_moves` order.
        """
        moves = self.legal_moves(state, seat)
        neutral: list[TriominosMove] = [m for m in moves if m["type"] in ("buy", "pass")] or [
            m for m in moves if m["type"] == "take_joker"
        ]
        if neutral:
            return neutral[0]
        table = table_of(state)
        labels = place_labels(table.places)
        hand = state.hands[seat]

        def cost(move: PlaceMove) -> tuple[int, bool]:
            hexagons, bridge = table.bonuses(labels[move["place"]])
            return hexagons + int(bridge) + int(len(hand) == 1), hand[move["card"]] == JOKER

        # Nothing neutral is legal: every legal move is a placement.
        return min(place_moves(state, hand), key=cost)

    def apply(self, state: TriominosState, seat: int, move: TriominosMove) -> TriominosState:
        """Validate `move` for `seat` and return the state after it."""
        if state.over:
            raise IllegalMove("The game is over — start a new one to play again.")
        check_seat(self.current_seats(state), seat)
        asked: Mapping[str, object] = move if isinstance(move, Mapping) else {}  # anything may be sent
        kind = asked.get("type")
        if kind == "place":
            return self._place(state, seat, asked)
        if kind == "take_joker":
            return self._take_joker(state, seat, asked)
        if kind == "buy":
            return self._buy(state, seat)
        if kind == "pass":
            return self._pass(state, seat)
        raise IllegalMove("Choose a move: place a card, buy a card, pass or take back the joker.")

    def _place(self, state: TriominosState, seat: int, move: Mapping[str, object]) -> TriominosState:
        hand, index, rotation = chosen_card(state, seat, move)
        card = hand[index]
        table = table_of(state)
        cell = place_labels(table.places).get(str(move.get("place")))
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
        return with_table(advance(state, seat), table.plus(placed, len(state.table) - 1))

    def _take_joker(self, state: TriominosState, seat: int, move: Mapping[str, object]) -> TriominosState:
        hand, index, rotation = chosen_card(state, seat, move)
        card = hand[index]
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
            raise _no_purchase(state, seat)
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
            raise IllegalMove(
                "You cannot pass while you can buy — not placing a card costs a purchase: "
                "place a card or buy one."
            )
        if placements(state, state.hands[seat]):
            raise IllegalMove(
                "You cannot pass: a card of yours fits, and only a player who can neither "
                "place nor buy may pass. Place a card."
            )
        state = replace(state, passes=state.passes + 1, last_move=(seat, "pass"), last_bonus=None)
        return advance(state, seat)

    def reveals(self, state: TriominosState, seat: int, move: TriominosMove, after: TriominosState) -> bool:
        """A purchase shows the buyer a card from the pot; laying a card, taking back the joker
        (which everyone saw) and passing show nothing new."""
        return move.get("type") == "buy"

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
        state = replace(
            state, resigned=resigned, last_round=last_round, last_move=(seat, "resign"), last_bonus=None
        )
        state = settle(state)
        if state.over or state.turn != seat:
            return state
        return replace(state, turn=next_active(state, seat))

    # --- what players see -------------------------------------------------------------

    def view(self, state: TriominosState, seat: int | None) -> TriominosView:
        """What `seat` may know (None: a spectator): the common keys plus the table,
        its numbered places, hand sizes, pot and bank; the seat's own hand, where each
        card fits, the joker swaps and whether it may buy or pass (see the class docstring)."""
        table = table_of(state)
        labels = place_labels(table.places)
        common = common_view(
            players=state.players,
            to_move=self.current_seats(state),
            scores=state.tokens,
            last_event=last_event(state),
            outcome=self.outcome(state),
            resigned=state.resigned,
        )
        view: TriominosView = {
            # The common keys one by one: unpacking `common` would let mypy fear a subtype's keys.
            "players": common["players"],
            "to_move": common["to_move"],
            "scores": common["scores"],
            "last_event": common["last_event"],
            "winners": common["winners"],
            "resigned": common["resigned"],
            "table": [placed_view(p) for p in state.table],
            "places": [OpenPlace(label=label, points=grid_points(cell)) for label, cell in labels.items()],
            "hand": [],
            "hand_sizes": [len(h) for h in state.hands],
            "pot_size": len(state.pot),
            "bank": state.bank,
            "options": TriominosOptions(open_hands=state.open_hands, joker=state.with_joker),
            "passes": state.passes,
            "last_round": state.last_round is not None,
            "last_round_to_play": list(state.last_round or ()),
            "last_card": state.last_card,
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
            on_turn = seat in view["to_move"]
            buying = on_turn and can_buy(state, seat)
            view["can_buy"] = buying
            view["can_pass"] = on_turn and not buying and not any(view["fits"])
        return view

    def outcome(self, state: TriominosState) -> Outcome | None:
        """Most tokens among the seats still playing wins; ties share the win."""
        if not state.over:
            return None
        active = active_seats(state)
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
        stored = asdict(replace(state))  # a copy without the derived look-ups
        del stored["derived"]
        return json.dumps(stored, separators=(",", ":"))

    def load(self, text: str) -> TriominosState:
        """The state from `dump`'s JSON text; anything damaged is a `GameError`."""
        return load_json(text, state_from_json, self.title)


# --- helpers --------------------------------------------------------------------------


def swap(items: tuple[Item, ...], index: int, value: Item) -> tuple[Item, ...]:
    """`items` with `items[index]` replaced by `value`."""
    return (*items[:index], value, *items[index + 1 :])


def hand_index(hand: tuple[int, ...], card: object) -> int:
    """Validate a 0-based hand index from a move."""
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < len(hand):
        raise IllegalMove("That card is not in your hand — pick one of the cards you hold.")
    return card


def chosen_card(
    state: TriominosState, seat: int, move: Mapping[str, object]
) -> tuple[tuple[int, ...], int, int]:
    """The seat's hand, the index in it of the move's card, and the move's rotation; raises
    `IllegalMove` for a card not in the hand or a rotation that is not one."""
    hand = state.hands[seat]
    return hand, hand_index(hand, move.get("card")), parse_rotation(move.get("rotation", 0))


def parse_rotation(rotation: object) -> int:
    """Validate a rotation 0, 1 or 2 (clockwise turns) from a move."""
    if isinstance(rotation, bool) or not isinstance(rotation, int) or rotation not in (0, 1, 2):
        raise IllegalMove("A card can be turned three ways — choose one of the three turns offered.")
    return rotation


def can_buy(state: TriominosState, seat: int) -> bool:
    """Buying needs a card in the pot and a token to pay."""
    return bool(state.pot) and state.tokens[seat] > 0


def place_moves(state: TriominosState, hand: tuple[int, ...]) -> list[PlaceMove]:
    """The place moves of a hand, in `legal_moves` order."""
    return [
        PlaceMove(type="place", card=index, place=label, rotation=rotation)
        for index, label, rotation in placements(state, hand)
    ]


def placements(state: TriominosState, hand: tuple[int, ...]) -> list[tuple[int, str, int]]:
    """(hand index, place label, rotation) of every way a hand card fits an open place."""
    table = table_of(state)
    patterns = [(str(number), table.pattern(cell)) for number, cell in enumerate(table.places, start=1)]
    found: list[tuple[int, str, int]] = []
    for index, card in enumerate(hand):
        if card == JOKER:
            found += [(index, label, 0) for label, _ in patterns]
            continue
        faces = FACES[card]
        rotations = distinct_rotations(card)
        found += [
            (index, label, rotation)
            for label, pattern in patterns
            for rotation in rotations
            if fits_pattern(pattern, faces[rotation])
        ]
    return found


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


def card_view(card: int) -> HandCard:
    """A hand card as the contract shows it."""
    return HandCard(joker=True) if card == JOKER else HandCard(values=list(CARDS[card]))


def grid_points(cell: Cell) -> list[GridPoint]:
    """The cell's corners as the view writes them."""
    return [list(p) for p in cell_points(cell)]


def placed_view(placed: Placed) -> TableCard:
    """A table card: its corner points and the value at each (null for the joker)."""
    card, x, y, up, rotation = placed
    faces = corner_values(card, rotation)
    return TableCard(
        points=grid_points((x, y, up)),
        values=list(faces) if faces else [None, None, None],
        joker=card == JOKER,
    )


def last_event(state: TriominosState) -> TriominosEvent:
    """What the last move (or the deal) did, in public terms (see `TriominosEvent`): a
    bought card stays secret."""
    if state.last_move is None:
        return TriominosEvent(type="start", seat=state.starter)
    seat, kind = state.last_move
    event = TriominosEvent(type=kind, seat=seat)
    if kind == "place" and state.last_bonus is not None and state.last_card is not None:
        hexagons, bridge, last, earned, paid = state.last_bonus
        event["joker"] = state.table[state.last_card][0] == JOKER
        event["hexagons"] = hexagons
        event["bridge"] = bool(bridge)
        event["last_card"] = bool(last)
        event["earned"] = earned
        event["paid"] = paid
    elif kind == "buy":
        event["pot_emptied"] = not state.pot
    elif kind == "pass":
        event["reason"] = "empty_pot" if not state.pot else "no_tokens"
    return event


# --- loading --------------------------------------------------------------------------

MOVE_KINDS = ("place", "take_joker", "buy", "pass", "resign")


def _no_purchase(state: TriominosState, seat: int) -> IllegalMove:
    """The refusal of a purchase `seat` cannot make: why, and what to do instead."""
    if placements(state, state.hands[seat]):
        if not state.pot:
            return IllegalMove("You cannot buy: the pot is empty. Place a card.")
        return IllegalMove("You cannot buy: you have no tokens. Place a card.")
    if not state.pot:
        return IllegalMove("You cannot buy: the pot is empty. Pass instead.")
    return IllegalMove("You cannot buy: you have no tokens. Pass instead.")


def damaged(what: str) -> GameError:
    """The refusal of a saved game that cannot be a real one."""
    return GameError("This saved My First Triominos game is damaged ({what}).", what=what)


def whole(value: Any, low: int, high: int, what: str) -> int:
    """An int from `low` to `high`, or a `damaged` error naming `what`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise damaged(what)
    return value


def flag(value: Any, what: str) -> bool:
    """A JSON boolean."""
    if not isinstance(value, bool):
        raise damaged(what)
    return value


def wholes(value: Any, low: int, high: int, what: str, length: int | None = None) -> tuple[int, ...]:
    """A JSON list of ints from `low` to `high` (of `length` items, if given)."""
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise damaged(what)
    return tuple(whole(item, low, high, what) for item in value)


def state_from_json(data: Any) -> TriominosState:
    """A state from `dump`'s JSON, checked enough that a damaged save fails here, not later."""
    if not isinstance(data, dict):
        raise damaged("not a saved game")
    unknown = set(data) - {f.name for f in fields(TriominosState) if f.init}
    if unknown:
        raise damaged(f"unknown {sorted(unknown)[0]!r}")
    players = whole(data["players"], TriominosEngine.min_players, TriominosEngine.max_players, "players")
    seats = players - 1
    seed = whole(data["seed"], -(2**63), 2**63, "seed")
    with_joker = flag(data["with_joker"], "joker option")
    deck = len(CARDS) + int(with_joker)
    pot = wholes(data["pot"], 0, deck - 1, "pot")
    if not isinstance(data["hands"], list) or len(data["hands"]) != players:
        raise damaged("hands")
    hands = tuple(wholes(hand, 0, deck - 1, "hands") for hand in data["hands"])
    tokens = wholes(data["tokens"], 0, ALL_TOKENS, "tokens", players)
    bank = whole(data["bank"], 0, ALL_TOKENS, "bank")
    if sum(tokens) + bank != ALL_TOKENS:
        raise damaged("tokens")
    if not isinstance(data["table"], list) or not data["table"]:
        raise damaged("table")
    table = tuple(placed_from_json(item, deck) for item in data["table"])
    if len({p[1:4] for p in table}) != len(table):
        raise damaged("table")
    if sorted([*pot, *(c for h in hands for c in h), *(p[0] for p in table)]) != list(range(deck)):
        raise damaged("cards")
    last_move = data["last_move"]
    if last_move is not None:
        if not isinstance(last_move, list) or len(last_move) != 2 or last_move[1] not in MOVE_KINDS:
            raise damaged("last move")
        last_move = (whole(last_move[0], 0, seats, "last move"), last_move[1])
    last_card = data["last_card"]
    if last_card is not None:
        last_card = whole(last_card, 0, len(table) - 1, "last card")
    last_bonus = data["last_bonus"]
    if last_bonus is not None:
        hexagons, bridge, last, earned, paid = wholes(last_bonus, 0, 6, "last bonus", 5)
        last_bonus = (hexagons, bridge, last, earned, paid)
    if last_move is not None and last_move[1] == "place" and (last_bonus is None or last_card is None):
        raise damaged("last move")
    last_round = data["last_round"]
    state = TriominosState(
        players=players,
        seed=seed,
        open_hands=flag(data["open_hands"], "open hands option"),
        with_joker=with_joker,
        pot=pot,
        hands=hands,
        tokens=tokens,
        bank=bank,
        table=table,
        turn=whole(data["turn"], 0, seats, "turn"),
        # Saves from before the starter was kept drew it at chance step 2.
        starter=whole(data.get("starter", chance(seed, 2).randrange(players)), 0, seats, "starter"),
        passes=whole(data["passes"], 0, players, "passes"),
        last_round=None if last_round is None else wholes(last_round, 0, seats, "last round"),
        resigned=wholes(data["resigned"], 0, seats, "resigned"),
        over=flag(data["over"], "game over"),
        last_move=last_move,
        last_card=last_card,
        last_bonus=last_bonus,
    )
    if not state.over and state.turn in state.resigned:
        raise damaged("turn")
    return state


def placed_from_json(item: Any, deck: int) -> Placed:
    """One table card: (card, x, y, up, rotation)."""
    if not isinstance(item, list) or len(item) != 5:
        raise damaged("table")
    card, x, y, up, rotation = item
    return (
        whole(card, 0, deck - 1, "table"),
        whole(x, -99, 99, "table"),
        whole(y, -99, 99, "table"),
        whole(up, 0, 1, "table"),
        whole(rotation, 0, 2, "table"),
    )


ENGINE: Engine[TriominosState, TriominosView, TriominosMove] = TriominosEngine()
