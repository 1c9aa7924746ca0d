"""My First Triominos players, from the seat's own views.

What a seat knows is read from its views: the table (every card on it is known by its
values), its own hand, the other seats' hand sizes, the pot's size, the bank and the
tokens. The sequence of views adds what a person at the table remembers: who took the
joker back (and so holds it until it is laid again), and each pass, which tells that the
passing seat held no card fitting the table of that moment. The unseen cards (the other
hands and the pot) are dealt at random consistently with all of that.

- easy: looks only at the tokens a placement earns now, and makes a child's mistakes:
  half the time it lays a card that merely fits, as a child does when it spots one,
  and now and then it misses that a card fits (turned the right way) and buys instead.
- normal: one ply, soundly: the tokens a placement earns, less the hexagons and bridges
  it leaves for the next seat (weighed by the chance that seat holds a card that fits
  there), plus how many of its own cards will still fit, keeping the joker for a bonus.
- hard: determinization. It deals the unseen cards at random consistently with its
  views (30 deals) and, for each of its most promising moves by the normal evaluation
  (and a joker take-back), plays every deal forward through the others' replies and
  its own next turn, every seat played by a greedy player (the most bonus, the joker
  kept for a bonus). It plays the move with the best average lead over the others,
  counting tokens plus 0.9 for each card in hand that fits the table (it will be laid
  for a token) but only 0.3 for one that fits nowhere (it may stay in hand to the end,
  where a card in hand is worth nothing), with a quarter of the normal evaluation
  added to break near ties.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from games.triominos import (
    CARDS,
    FACES,
    JOKER,
    Cell,
    HandCard,
    Point,
    TableCard,
    TriominosMove,
    TriominosView,
    cell_points,
    cells_around,
    distinct_rotations,
    side_neighbours,
)

# A grid point's value on the table as a digit of a pattern, 0 where no number lies.
VALUES = 6
PATTERNS = VALUES**3
# ROTATIONS[card][pattern]: the card's (distinct) rotations that fit a place showing
# `pattern` (a * 36 + b * 6 + c for the values a, b, c at its clockwise corners).
ROTATIONS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            r
            for r in distinct_rotations(card)
            if all(
                not want or want == have
                for want, have in zip(
                    (pattern // 36, pattern // 6 % 6, pattern % 6), FACES[card][r], strict=True
                )
            )
        )
        for pattern in range(PATTERNS)
    )
    for card in range(len(CARDS))
)
CARD_OF = {values: card for card, values in enumerate(CARDS)}

# The normal evaluation: a token earned counts 1; a bonus left to the next seat, a
# card of one's own that still fits, a hand where nothing fits, the joker laid for
# no bonus.
LEFT_OVER = 0.8
STILL_FITS = 0.12
STUCK = 0.9
JOKER_KEPT = 0.9
# The easy player's slips: how often it lays any card that fits, and how often it
# misses that a card fits (turned the right way) and buys one instead.
SLIP_CHANCE = 0.5
OVERLOOK_CHANCE = 0.12
# The hard player's search: deals, candidates, the normal evaluation's share, rounds
# played forward, and what a card in hand is worth, in tokens, when a playout stops
# before the end: a token counts what the seat holds plus what its cards will earn
# when laid, and a card that fits nowhere on the table may stay in hand to the end.
DEALS = 30
CANDIDATES = 8
TIE_BREAK = 0.25
ROUNDS = 1
HAND_WORTH = 0.9
MISFIT_WORTH = 0.3


# --- the table as a player reads it ------------------------------------------------


@dataclass(slots=True)
class Board:
    """The table: filled cells, the number at every point, the open places."""

    cells: set[Cell]
    values: dict[Point, int]
    touched: set[Point]
    places: set[Cell]
    joker: Cell | None = None  # where the joker lies, if on the table

    def copy(self) -> Board:
        return Board(set(self.cells), dict(self.values), set(self.touched), set(self.places), self.joker)

    def pattern(self, cell: Cell) -> int:
        """The place's corner values as one number (see ROTATIONS)."""
        get = self.values.get
        a, b, c = cell_points(cell)
        return get(a, 0) * 36 + get(b, 0) * 6 + get(c, 0)

    def bonuses(self, cell: Cell) -> int:
        """Hexagons completed plus one for a bridge, by filling the open `cell`."""
        cells = self.cells
        points = cell_points(cell)
        total = 0
        for point in points:
            if all(c == cell or c in cells for c in cells_around(point)):
                total += 1
        sides = [near for near in side_neighbours(cell) if near in cells]
        if len(sides) == 1:
            shared = cell_points(sides[0])
            opposite = next(p for p in points if p not in shared)
            total += opposite in self.touched
        return total

    def lay(self, cell: Cell, card: int, rotation: int) -> None:
        """Put `card` on the open `cell`, turned by `rotation`."""
        self.cells.add(cell)
        points = cell_points(cell)
        self.touched.update(points)
        if card == JOKER:
            self.joker = cell
        else:
            self.values.update(zip(points, FACES[card][rotation], strict=True))
        self.places.discard(cell)
        self.places.update(near for near in side_neighbours(cell) if near not in self.cells)


def cell_of(points: Sequence[Sequence[int]]) -> Cell:
    """The cell whose clockwise corners are `points` (see `cell_points`)."""
    (x, y), (_, y1) = points[0], points[1]
    return (x, y - 1, 1) if y1 == y - 1 else (x, y - 1, 0)


def card_of(entry: HandCard | TableCard) -> int:
    """A card of the view (table or hand) as its number."""
    if entry.get("joker"):
        return JOKER
    low, middle, high = sorted(value or 0 for value in entry["values"])
    return CARD_OF[low, middle, high]


def read_board(view: TriominosView) -> Board:
    """The table of a view."""
    board = Board(set(), {}, set(), set())
    for entry in view["table"]:
        cell = cell_of(entry["points"])
        board.cells.add(cell)
        points = [(x, y) for x, y in entry["points"]]
        board.touched.update(points)
        if entry["joker"]:
            board.joker = cell
        else:
            board.values.update(zip(points, (value or 0 for value in entry["values"]), strict=True))
    board.places = {cell_of(place["points"]) for place in view["places"]}
    return board


def fitting(board: Board, hand: Sequence[int]) -> list[tuple[int, Cell, int]]:
    """(hand index, place, rotation) of every way a hand card fits."""
    found = []
    for cell in board.places:
        pattern = board.pattern(cell)
        for index, card in enumerate(hand):
            if card == JOKER:
                found.append((index, cell, 0))
            else:
                found += [(index, cell, r) for r in ROTATIONS[card][pattern]]
    return found


def fits_somewhere(board: Board, card: int) -> bool:
    if card == JOKER:
        return True
    rotations = ROTATIONS[card]
    return any(rotations[board.pattern(cell)] for cell in board.places)


# --- what the seat knows --------------------------------------------------------------


@dataclass(slots=True)
class Knowledge:
    """Everything the views showed the deciding seat, as the players use it."""

    seat: int
    players: int
    board: Board
    hand: list[int]
    hand_sizes: list[int]
    known: list[list[int]]  # cards seen in each seat's hand (all of them with open hands)
    unseen: list[int]  # cards not on the table and not known to be in a hand
    pot_size: int
    tokens: list[int]
    bank: int
    resigned: set[int]
    last_round: list[int] | None
    passes: int
    # seat -> (the table's place patterns when it passed, cards bought since)
    passed: dict[int, list[tuple[list[int], int]]] = field(default_factory=dict)


def read(views: Sequence[TriominosView]) -> Knowledge:
    """The deciding seat's knowledge: the newest view and the memory of the older ones."""
    view = views[-1]
    seat = view["to_move"][0]
    players = view["players"]
    board = read_board(view)
    hand = [card_of(c) for c in view["hand"]]
    known: list[list[int]] = [[] for _ in range(players)]
    if "hands" in view:
        known = [[card_of(c) for c in h] for h in view["hands"]]
    else:
        holder = joker_holder(views)
        if holder is not None and holder != seat:
            known[holder].append(JOKER)
    known[seat] = hand
    on_table = {card_of(e) for e in view["table"]}
    deck = len(CARDS) + int(view["options"]["joker"])
    seen = on_table | {c for h in known for c in h}
    return Knowledge(
        seat=seat,
        players=players,
        board=board,
        hand=hand,
        hand_sizes=list(view["hand_sizes"]),
        known=known,
        unseen=[c for c in range(deck) if c not in seen],
        pot_size=view["pot_size"],
        tokens=list(view["scores"]),
        bank=view["bank"],
        resigned=set(view["resigned"]),
        last_round=list(view["last_round_to_play"]) if view["last_round"] else None,
        passes=view["passes"],
        passed=passes_seen(views, seat),
    )


def joker_holder(views: Sequence[TriominosView]) -> int | None:
    """The seat that took the joker back and has not laid it again, if any."""
    holder = None
    for view in views:
        event = view["last_event"]
        if event is not None and event["type"] == "take_joker":
            holder = event["seat"]
        if any(e["joker"] for e in view["table"]):
            holder = None
    return holder


def passes_seen(views: Sequence[TriominosView], seat: int) -> dict[int, list[tuple[list[int], int]]]:
    """For every other seat's pass: the patterns of the places then, and its buys since."""
    passed: dict[int, list[tuple[list[int], int]]] = {}
    for before, view in pairwise(views):
        event = view["last_event"]
        who = None if event is None else event["seat"]
        if event is None or who is None or who == seat:
            continue
        if event["type"] == "pass":
            board = read_board(before)
            passed.setdefault(who, []).append(([board.pattern(c) for c in board.places], 0))
        elif event["type"] == "buy" and who in passed:
            passed[who] = [(patterns, bought + 1) for patterns, bought in passed[who]]
    return passed


# --- a dealt world and its play ----------------------------------------------------------


@dataclass(slots=True)
class World:
    """One dealing of the unseen cards, played forward by the players' own rules."""

    board: Board
    hands: list[list[int]]
    pot: list[int]
    tokens: list[int]
    bank: int
    resigned: set[int]
    last_round: list[int] | None
    passes: int
    players: int
    over: bool = False

    def copy(self) -> World:
        return World(
            self.board.copy(),
            [list(h) for h in self.hands],
            list(self.pot),
            list(self.tokens),
            self.bank,
            self.resigned,
            None if self.last_round is None else list(self.last_round),
            self.passes,
            self.players,
            self.over,
        )

    def place(self, seat: int, index: int, cell: Cell, rotation: int) -> None:
        hand = self.hands[seat]
        earned = 1 + self.board.bonuses(cell) + int(len(hand) == 1)
        self.board.lay(cell, hand.pop(index), rotation)
        paid = min(earned, self.bank)
        self.tokens[seat] += paid
        self.bank -= paid
        self.passes = 0
        self.close(seat)

    def take_joker(self, seat: int, index: int, rotation: int) -> None:
        board = self.board
        assert board.joker is not None
        card = self.hands[seat][index]
        self.hands[seat][index] = JOKER
        board.values.update(zip(cell_points(board.joker), FACES[card][rotation], strict=True))
        board.joker = None
        self.passes = 0
        self.close(seat)

    def buy(self, seat: int) -> None:
        self.hands[seat].append(self.pot.pop(0))
        self.tokens[seat] -= 1
        self.bank += 1
        self.passes = 0
        if not self.pot and self.last_round is None:
            order = [(seat + k) % self.players for k in range(1, self.players + 1)]
            self.last_round = [s for s in order if s not in self.resigned]
            return
        self.close(seat)

    def pass_turn(self, seat: int) -> None:
        self.passes += 1
        self.close(seat)

    def close(self, seat: int) -> None:
        if self.last_round is not None and seat in self.last_round:
            self.last_round.remove(seat)
        active = self.players - len(self.resigned)
        self.over = (self.last_round is not None and not self.last_round) or self.passes >= active

    def next_seat(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            if (seat + k) % self.players not in self.resigned:
                return (seat + k) % self.players
        return seat

    def greedy(self, seat: int, rng: random.Random) -> None:
        """The rollout player: the placement that earns most (the joker only for a
        bonus or as the last card), else buy, else pass."""
        hand = self.hands[seat]
        board = self.board
        best: tuple[int, Cell, int] | None = None
        best_value = -9.0
        for index, cell, rotation in fitting(board, hand):
            value = board.bonuses(cell) + rng.random() * 0.5
            if hand[index] == JOKER and len(hand) > 1:
                value -= JOKER_KEPT
            if value > best_value:
                best, best_value = (index, cell, rotation), value
        if best is not None:
            self.place(seat, *best)
        elif self.pot and self.tokens[seat] > 0:
            self.buy(seat)
        else:
            self.pass_turn(seat)


def deal(knowledge: Knowledge, rng: random.Random) -> World:
    """The unseen cards dealt at random to the other hands and the pot, consistently
    with the passes seen: a seat that passed held, at the least, as many cards that fit
    nowhere on that table as it holds now less the cards it bought since."""
    hands = [list(h) for h in knowledge.known]
    pool = list(knowledge.unseen)
    rng.shuffle(pool)
    for other in range(knowledge.players):
        if other == knowledge.seat:
            continue
        missing = knowledge.hand_sizes[other] - len(hands[other])
        needed = 0
        misfit: set[int] = set()
        for patterns, bought in knowledge.passed.get(other, ()):
            if missing - bought > needed:
                needed = missing - bought
                misfit = {c for c in pool if c != JOKER and not any(ROTATIONS[c][p] for p in patterns)}
        chosen = [c for c in pool if c in misfit][:needed]
        rest = [c for c in pool if c not in chosen]
        chosen += rest[: missing - len(chosen)]
        hands[other] += chosen
        taken = set(chosen)
        pool = [c for c in pool if c not in taken]
    return World(
        board=knowledge.board.copy(),
        hands=hands,
        pot=pool[: knowledge.pot_size],
        tokens=list(knowledge.tokens),
        bank=knowledge.bank,
        resigned=set(knowledge.resigned),
        last_round=None if knowledge.last_round is None else list(knowledge.last_round),
        passes=knowledge.passes,
        players=knowledge.players,
    )


# --- choosing -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    """A legal move read as the players simulate it."""

    move: TriominosMove
    kind: str
    index: int = -1
    cell: Cell | None = None
    rotation: int = 0


def options(view: TriominosView, legal: list[TriominosMove]) -> list[Option]:
    labels = {place["label"]: cell_of(place["points"]) for place in view["places"]}
    found = []
    for move in legal:
        if move["type"] == "place":
            found.append(Option(move, "place", move["card"], labels[move["place"]], move["rotation"]))
        elif move["type"] == "take_joker":
            found.append(Option(move, "take_joker", move["card"], None, move["rotation"]))
        else:
            found.append(Option(move, move["type"]))
    return found


def fit_chance(knowledge: Knowledge, holder: int) -> list[float]:
    """Per place pattern, the chance that `holder` has a card that fits there."""
    hidden = knowledge.hand_sizes[holder] - len(knowledge.known[holder])
    unseen = [c for c in knowledge.unseen if c != JOKER]
    joker_hidden = JOKER in knowledge.unseen
    chances = []
    for pattern in range(PATTERNS):
        if any(c == JOKER or ROTATIONS[c][pattern] for c in knowledge.known[holder]):
            chances.append(1.0)
            continue
        fit = sum(1 for c in unseen if ROTATIONS[c][pattern]) + joker_hidden
        share = fit / max(1, len(knowledge.unseen))
        chances.append(1 - (1 - min(share, 1.0)) ** hidden)
    return chances


def normal_value(knowledge: Knowledge, option: Option, chances: list[float]) -> float:
    """Tokens earned, less bonuses left to the next seat, plus the hand's prospects."""
    board = knowledge.board
    hand = knowledge.hand
    assert option.cell is not None
    card = hand[option.index]
    after = board.copy()
    earned = 1 + board.bonuses(option.cell) + int(len(hand) == 1)
    after.lay(option.cell, card, option.rotation)
    left = 0.0
    for cell in after.places:
        bonus = after.bonuses(cell)
        if bonus:
            left += bonus * chances[after.pattern(cell)]
    rest = hand[: option.index] + hand[option.index + 1 :]
    still = sum(fits_somewhere(after, c) for c in rest)
    value = earned - LEFT_OVER * left + STILL_FITS * still
    if rest and not still:
        value -= STUCK
    if card == JOKER and rest:
        value -= JOKER_KEPT
    return value


def next_seat(knowledge: Knowledge) -> int:
    for k in range(1, knowledge.players + 1):
        other = (knowledge.seat + k) % knowledge.players
        if other not in knowledge.resigned:
            return other
    return knowledge.seat


def fallback(found: list[Option]) -> Option:
    """Without a placement: take the joker back (it costs nothing), else buy or pass."""
    for kind in ("take_joker", "buy", "pass"):
        for option in found:
            if option.kind == kind:
                return option
    return found[0]


def choose(
    level: str, views: Sequence[TriominosView], legal: list[TriominosMove], rng: random.Random
) -> TriominosMove:
    """The move of the seat to move at `level`: one element of `legal`."""
    if len(legal) == 1:
        return legal[0]
    found = options(views[-1], legal)
    placing = [o for o in found if o.kind == "place"]
    if not placing:
        return fallback(found).move
    if level == "easy":
        return easy(read(views), placing, found, rng).move
    knowledge = read(views)
    chances = fit_chance(knowledge, next_seat(knowledge))
    ranked = sorted(placing, key=lambda o: -normal_value(knowledge, o, chances))
    if level == "normal":
        return ranked[0].move
    return hard(knowledge, ranked, found, chances, rng).move


def easy(knowledge: Knowledge, placing: list[Option], found: list[Option], rng: random.Random) -> Option:
    """The placement that earns most now, or now and then any that fits, or, missing
    that a card fits when turned, a card bought instead."""
    buying = [o for o in found if o.kind == "buy"]
    if buying and rng.random() < OVERLOOK_CHANCE:
        return buying[0]
    if rng.random() < SLIP_CHANCE:
        return rng.choice(placing)
    board, hand = knowledge.board, knowledge.hand

    def earned(option: Option) -> int:
        assert option.cell is not None
        return board.bonuses(option.cell) + int(len(hand) == 1)

    return max(placing, key=earned)


def hard(
    knowledge: Knowledge,
    ranked: list[Option],
    found: list[Option],
    chances: list[float],
    rng: random.Random,
) -> Option:
    """The candidates played forward on several deals of the unseen cards."""
    candidates = ranked[: CANDIDATES or None] + [o for o in found if o.kind == "take_joker"][:1]
    worlds = [deal(knowledge, rng) for _ in range(DEALS)]
    seed = rng.random()
    seat = knowledge.seat
    best, best_value = candidates[0], float("-inf")
    for option in candidates:
        total = 0.0
        for number, world in enumerate(worlds):
            total += playout(world.copy(), seat, option, random.Random(seed + number))
        value = total / DEALS
        if option.kind == "place":
            value += TIE_BREAK * normal_value(knowledge, option, chances)
        if value > best_value:
            best, best_value = option, value
    return best


def hand_worth(world: World, seat: int) -> float:
    """What the seat's hand is worth in tokens when a playout stops: nothing once the
    game is over; a card that fits the table more than one that does not."""
    if world.over:
        return 0.0
    hand = world.hands[seat]
    fit = sum(fits_somewhere(world.board, card) for card in hand)
    return HAND_WORTH * fit + MISFIT_WORTH * (len(hand) - fit)


def playout(world: World, seat: int, option: Option, rng: random.Random) -> float:
    """The seat's token lead over the others' mean after `option`, a round of the
    others' replies and its own next turn."""
    start = list(world.tokens)
    if option.kind == "place":
        assert option.cell is not None
        world.place(seat, option.index, option.cell, option.rotation)
    else:
        world.take_joker(seat, option.index, option.rotation)
    turn = seat
    for _ in range(ROUNDS * world.players):
        if world.over:
            break
        turn = world.next_seat(turn)
        world.greedy(turn, rng)
    worth = [world.tokens[s] - start[s] + hand_worth(world, s) for s in range(world.players)]
    mine = worth[seat]
    others = [worth[s] for s in range(world.players) if s != seat and s not in world.resigned]
    return mine - (sum(others) / len(others) if others else 0.0)
