"""Rookie: flip pairs from nine stacks, pile them on discard stacks, secure three equal tops.

The binding rules are `rules/rookie.md`. A turn is a chain of small moves: flips, the
placement of a pair, the choice of a neighbour to rob after an X pair, and the
arrangement of taken cards. Positions and discard stacks are indexes (0-based) in moves
and views; every sentence a player reads counts them from 1 (positions 1–9, stacks 1–3)
and names seats by their letter.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from itertools import product
from typing import Any, Literal, NotRequired, TypedDict, TypeGuard, TypeVar

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

COLOURS = ("red", "yellow", "green", "blue", "purple")
X = "X"
KINDS = (*COLOURS, X)
KIND_TERMS = {
    "red": Term("red"),
    "yellow": Term("yellow"),
    "green": Term("green"),
    "blue": Term("blue"),
    "purple": Term("purple"),
}
CARDS_PER_KIND = {"standard": 18, "pocket": 12}
VARIANTS = ("standard", "team", "kids")
POSITIONS = 9
STACKS = 3
# A pair goes on one stack or on two; both cards are alike, so order does not matter.
PAIR_PLACES = ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))
SEAT_LETTERS = "ABCDEF"

PROMPTS = {
    "start": "Turn the open cards face down and flip two, or flip one card to chase them",
    "flip": "Flip a face-down card",
    "chase": "Flip one more card to chase the open cards",
    "place": "Place the pair on one or two discard stacks",
    "steal": "Choose whose unsecured cards to take: the player before or after you",
    "arrange": "Choose the top card of each discard stack for the cards taken",
    "over": "The game is over",
}

Stack = tuple[str, ...]
T = TypeVar("T")


# --- what comes out (views) and goes in (moves) ----------------------------------------------

EventKind = Literal[
    "start",
    "flip",
    "pair",
    "miss",
    "open",
    "turn_down",
    "place",
    "secure",
    "rookie",
    "steal",
    "arrange",
    "collect",
    "resign",
]
# One event of a move; `type` says which of the other keys it has (see `_event_json`).
RookieEvent = TypedDict(
    "RookieEvent",
    {
        "type": EventKind,
        "seat": int | None,
        "position": NotRequired[int],
        "card": NotRequired[str],
        "from": NotRequired[int],
        "cards": NotRequired[list[str]],
        "count": NotRequired[int],
        "owner": NotRequired[int],
        "stacks": NotRequired[list[int]],
        "taken": NotRequired[list[list[int]]],
        "tops": NotRequired[list[str | None]],
    },
)


class RookiePosition(TypedDict):
    """A table position: how many cards lie there, and its top when face up (else None)."""

    count: int
    top: str | None


# A card of the last flip: where it lies now, what it is, and where it was turned up.
RookieFlip = TypedDict("RookieFlip", {"position": int, "card": str, "from": int})


class RookieStack(TypedDict):
    """A discard stack: its top card (None: empty) and its size."""

    top: str | None
    count: int


class RookieSeat(TypedDict):
    """A seat: its three discard stacks, its point stack, whether it left."""

    stacks: list[RookieStack]
    points: int
    resigned: bool


class RookiePlacement(TypedDict):
    """What placing the pair on `seat`'s `stacks` would do."""

    seat: int
    stacks: list[int]
    secures: bool
    rookie: bool


# A neighbour the mover may rob: its seat, the side it sits on, its unsecured cards.
RookieStealChoice = TypedDict(
    "RookieStealChoice", {"from": int, "side": Literal["before", "after"], "cards": int}
)


class PendingStart(TypedDict):
    kind: Literal["start"]
    prompt: str


class PendingFlip(TypedDict):
    kind: Literal["flip"]
    prompt: str
    flipped: int  # cards turned up so far in this normal start (0 or 1)


class PendingChase(TypedDict):
    kind: Literal["chase"]
    prompt: str


class PendingPlace(TypedDict):
    kind: Literal["place"]
    prompt: str
    card: str  # the pair's kind
    choices: list[RookiePlacement]
    then_steal: str | None  # the steal the X pair earns after: "choose", "left" or None


class PendingSteal(TypedDict):
    kind: Literal["steal"]
    prompt: str
    choices: list[RookieStealChoice]


class PendingArrange(TypedDict):
    kind: Literal["arrange"]
    prompt: str
    seat: int  # whose discard stacks take the cards
    reason: str  # "steal" or "rookie"
    count: int
    cards: dict[str, int]  # the cards taken, by kind
    default: list[str | None]  # the first arrangement (tops of stacks 1–3)


RookiePending = PendingStart | PendingFlip | PendingChase | PendingPlace | PendingSteal | PendingArrange


class RookieView(CommonView[RookieEvent]):
    """What a seat or a spectator sees; see `RookieEngine.view`."""

    positions: list[RookiePosition]
    open: list[int]
    last_flip: list[RookieFlip] | None
    seats: list[RookieSeat]
    variant: str
    deck: str
    phase: str | None
    turn: int | None
    table_cards: int
    pending: RookiePending | None
    events: list[RookieEvent]
    teams: NotRequired[list[list[int]]]
    team_scores: NotRequired[list[int]]


class TurnDownMove(TypedDict):
    """Option 1 at the start of a turn: turn the open cards face down."""

    type: Literal["turn_down"]


class FlipMove(TypedDict):
    """Turn up the top card of `position` (0–8)."""

    type: Literal["flip"]
    position: int


class PlaceMove(TypedDict):
    """Put the pair on `seat`'s discard stacks `stacks` (two indexes 0–2; equal: one stack)."""

    type: Literal["place"]
    seat: int
    stacks: list[int]


# Take the unsecured cards of the neighbour `from`.
StealMove = TypedDict("StealMove", {"type": Literal["steal"], "from": int})


class ArrangeMove(TypedDict):
    """The new top of each discard stack for the cards taken (None: no card on that stack)."""

    type: Literal["arrange"]
    tops: list[str | None]


RookieMove = TurnDownMove | FlipMove | PlaceMove | StealMove | ArrangeMove


@dataclass(frozen=True, slots=True)
class RookieState:
    """The whole table. Stacks list their cards bottom first; only tops can be face up."""

    players: int
    seed: int
    variant: str
    deck: str
    table: tuple[Stack, ...]
    open: tuple[int, ...]  # positions whose face-up top is an open card
    flipped: tuple[int, ...]  # positions turned up so far in the current normal start
    discards: tuple[tuple[Stack, ...], ...]  # by seat, three stacks each
    points: tuple[int, ...]
    resigned: tuple[bool, ...]
    turn: int
    phase: str  # start | flip | chase | place | steal | arrange | over
    pair: str | None = None  # the pair waiting to be placed
    loot: Stack = ()  # taken cards waiting to be arranged
    receiver: int | None = None  # whose discard stacks get the loot
    loot_reason: str | None = None  # "steal" or "rookie"
    after_pair: str | None = None  # the steal an X pair earns: "choose" or "left"
    resume: str = "flip"  # what the mover does once everything is placed: flip | chase
    last_flip: tuple[tuple[int, str, int], ...] | None = None  # (position, card, from)
    events: tuple[tuple[Any, ...], ...] = ()  # what the last move did; see `_event_json`


# --- small queries -------------------------------------------------------------------


def face_up(state: RookieState) -> set[int]:
    """Positions whose top card is face up: open cards and the cards of a start turned up."""
    return set(state.open) | set(state.flipped)


def _flippable(state: RookieState) -> list[int]:
    """Positions whose top card is face down."""
    up = face_up(state)
    return [p for p in range(POSITIONS) if state.table[p] and p not in up]


def _top(state: RookieState, position: int) -> str:
    return state.table[position][-1]


def teams_of(players: int) -> tuple[tuple[int, int], ...]:
    """Partners sit opposite, so turns alternate between teams."""
    half = players // 2
    return tuple((seat, seat + half) for seat in range(half))


def _partner(state: RookieState, seat: int) -> int | None:
    if state.variant != "team":
        return None
    return (seat + state.players // 2) % state.players


def _active(state: RookieState) -> list[int]:
    return [seat for seat in range(state.players) if not state.resigned[seat]]


def _neighbour(state: RookieState, seat: int, step: int) -> int:
    """The next active seat from `seat` in turn order (`step` +1) or against it (-1)."""
    other = (seat + step) % state.players
    while state.resigned[other] and other != seat:
        other = (other + step) % state.players
    return other


def discard_tops(state: RookieState, seat: int | None) -> list[str | None]:
    """The top cards of a seat's discard stacks (None: empty stack; no seat: none at all)."""
    if seat is None:
        return [None] * STACKS
    return [stack[-1] if stack else None for stack in state.discards[seat]]


def _unsecured(state: RookieState, seat: int) -> int:
    return sum(len(stack) for stack in state.discards[seat])


def _placement_seats(state: RookieState) -> list[int]:
    """Whose discard stacks may take the pair: yours, or your active partner's too."""
    partner = _partner(state, state.turn)
    if partner is None or state.resigned[partner]:
        return [state.turn]
    return [state.turn, partner]


def _steal_choices(state: RookieState) -> list[tuple[int, Literal["before", "after"]]]:
    """The distinct neighbours an X pair may rob, with the side they sit on."""
    before = _neighbour(state, state.turn, -1)
    after = _neighbour(state, state.turn, +1)
    return [(before, "before")] if before == after else [(before, "before"), (after, "after")]


# --- changing the state --------------------------------------------------------------


def _set(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _add_points(state: RookieState, seat: int, count: int) -> RookieState:
    return replace(state, points=_set(state.points, seat, state.points[seat] + count))


def _clear_discards(state: RookieState, seat: int) -> RookieState:
    return replace(state, discards=_set(state.discards, seat, ((),) * STACKS))


def _turn_up(state: RookieState, position: int) -> tuple[RookieState, int, str]:
    """Turn up the top of `position`; returns the new state, where it lies, and the card.

    While a position is empty, a card from a stack that holds more moves onto the
    lowest-numbered empty position, so that stacks spread out again.
    """
    card = _top(state, position)
    empty = [p for p in range(POSITIONS) if not state.table[p]]
    if len(state.table[position]) < 2 or not empty:
        return state, position, card
    target = empty[0]
    table = _set(state.table, position, state.table[position][:-1])
    return replace(state, table=_set(table, target, (card,))), target, card


def _log(state: RookieState, *event: Any) -> RookieState:
    """Record what happened, so the table can announce what moved where."""
    return replace(state, events=(*state.events, event))


def _unsecured_by_seat(state: RookieState, seats: list[int]) -> tuple[tuple[int, int], ...]:
    return tuple((seat, _unsecured(state, seat)) for seat in seats if _unsecured(state, seat))


def _turn_down_open(state: RookieState) -> RookieState:
    """Turn every open card face down, saying how many."""
    if state.open:
        state = _log(state, "turn_down", state.turn, len(state.open))
    return replace(state, open=())


def _removediscard_tops(state: RookieState, positions: tuple[int, ...]) -> RookieState:
    table = state.table
    for position in positions:
        table = _set(table, position, table[position][:-1])
    return replace(state, table=table)


def _end_turn(state: RookieState) -> RookieState:
    """Pass the turn; the next player gets Option 1 or 2 if open cards are left."""
    following = _neighbour(state, state.turn, +1)
    return replace(state, flipped=(), turn=following, phase="start" if state.open else "flip")


def _take_pair(
    state: RookieState, card: str, after_pair: str | None, resume: str, *, turn_down: bool = False
) -> RookieState:
    """The mover has taken a pair (already off the table): place it or end the game.

    `turn_down`: the open cards left are turned face down (a chase that ends).
    """
    state = _log(state, "pair", state.turn, card)
    if turn_down:
        state = _turn_down_open(state)
    if not any(state.table):
        return _finish_with_last_pair(state)
    if state.variant == "kids":
        return replace(_add_points(state, state.turn, 2), phase=resume)
    return replace(state, phase="place", pair=card, after_pair=after_pair, resume=resume)


def _finish_with_last_pair(state: RookieState) -> RookieState:
    """The last pair and every unsecured card on the table go to the mover's points."""
    bonus = 2 + sum(_unsecured(state, seat) for seat in range(state.players))
    taken = _unsecured_by_seat(state, list(range(state.players)))
    state = _log(_add_points(state, state.turn, bonus), "collect", state.turn, bonus, taken)
    return replace(
        state,
        discards=tuple(((),) * STACKS for _ in range(state.players)),
        open=(),
        flipped=(),
        phase="over",
    )


def secured_kind(tops: Sequence[str | None]) -> str | None:
    """The kind that secures three stacks with these tops, if they do."""
    first = tops[0]
    return first if first is not None and all(top == first for top in tops) else None


def _settle(state: RookieState, seat: int) -> RookieState:
    """Check securing on `seat`'s stacks after a placement; then carry on the turn."""
    stacks = state.discards[seat]
    kind = secured_kind(discard_tops(state, seat))
    if kind is None:
        return _proceed(state)
    state = _clear_discards(_add_points(state, seat, sum(map(len, stacks))), seat)
    state = _log(state, "secure", seat, kind, sum(map(len, stacks)))
    if kind != X:
        return _proceed(state)
    # Rookie: after securing, take every other player's unsecured cards.
    others = [other for other in range(state.players) if other != seat]
    state = _log(state, "rookie", seat, _unsecured_by_seat(state, others))
    loot: list[str] = []
    for other in range(state.players):
        if other != seat:
            loot.extend(card for stack in state.discards[other] for card in stack)
            state = _clear_discards(state, other)
    return _ask_arrangement(state, seat, tuple(loot), "rookie")


def _ask_arrangement(state: RookieState, seat: int, loot: Stack, reason: str) -> RookieState:
    if not loot:
        return _proceed(state)
    return replace(state, phase="arrange", loot=loot, receiver=seat, loot_reason=reason)


def _steal(state: RookieState, victim: int) -> RookieState:
    loot = tuple(card for stack in state.discards[victim] for card in stack)
    state = _log(state, "steal", state.turn, victim, len(loot))
    state = replace(_clear_discards(state, victim), after_pair=None)
    return _ask_arrangement(state, state.turn, loot, "steal")


def _proceed(state: RookieState) -> RookieState:
    """Everything placed: collect the steal an X pair earned, then flip on."""
    state = replace(state, pair=None, loot=(), receiver=None, loot_reason=None)
    if state.after_pair == "left":
        return _steal(state, _neighbour(state, state.turn, -1))
    if state.after_pair == "choose":
        choices = _steal_choices(state)
        if len(choices) == 1:
            return _steal(state, choices[0][0])
        if not any(_unsecured(state, victim) for victim, _ in choices):
            return _proceed(replace(state, after_pair=None))
        return replace(state, phase="steal")
    if state.resume == "chase" and not (state.open and _flippable(state)):
        return replace(_turn_down_open(state), phase="flip")
    return replace(state, phase=state.resume)


# --- moves -----------------------------------------------------------------------------


def _flip_normal(state: RookieState, position: int) -> RookieState:
    """One of the two flips of a normal start."""
    state, lands, card = _turn_up(state, position)
    seen = (lands, card, position)
    if not state.flipped:
        state = _log(state, "flip", state.turn, lands, card, position)
        return replace(state, flipped=(lands,), last_flip=(seen,))
    first = state.flipped[0]
    first_card = _top(state, first)
    state = replace(state, flipped=(), last_flip=(*(state.last_flip or ()), seen))
    if first_card == card:
        state = _removediscard_tops(state, (first, lands))
        return _take_pair(state, card, "choose" if card == X else None, "flip")
    if X in (card, first_card):
        state = _log(state, "open", state.turn, (first_card, card))
        return _end_turn(replace(state, open=tuple(sorted((first, lands)))))
    return _end_turn(_log(state, "miss", state.turn))


def _flip_chase(state: RookieState, position: int) -> RookieState:
    """Option 2: one card against the open cards."""
    state, lands, card = _turn_up(state, position)
    state = replace(state, last_flip=((lands, card, position),))
    match = next((p for p in state.open if _top(state, p) == card), None)
    if match is None:
        state = _log(state, "open", state.turn, (card,))
        return _end_turn(replace(state, open=(*state.open, lands)))
    state = _removediscard_tops(state, (match, lands))
    left = tuple(p for p in state.open if p != match)
    state = replace(state, open=left)
    if card == X:
        # Both X taken: rob the player to the left, turn the rest down, flip two anew.
        return _take_pair(state, card, "left", "flip", turn_down=True)
    if left and _flippable(state):
        return _take_pair(state, card, None, "chase")
    return _take_pair(state, card, None, "flip", turn_down=True)


def _place(state: RookieState, seat: int, stacks: tuple[int, int]) -> RookieState:
    pair = state.pair
    assert pair is not None
    own = list(state.discards[seat])
    for index in stacks:
        own[index] = (*own[index], pair)
    state = _log(state, "place", state.turn, seat, pair, stacks)
    state = replace(state, discards=_set(state.discards, seat, tuple(own)), pair=None)
    return _settle(state, seat)


def _arrange(state: RookieState, tops: tuple[str | None, ...]) -> RookieState:
    """Spread the loot: each chosen top ends on its stack, the rest go evenly beneath."""
    seat = state.receiver
    assert seat is not None
    rest = list(state.loot)
    for top in tops:
        if top is not None:
            rest.remove(top)
    receiving = [(index, top) for index, top in enumerate(tops) if top is not None]
    own = list(state.discards[seat])
    for slot, (index, top) in enumerate(receiving):
        under = tuple(rest[slot :: len(receiving)])
        own[index] = (*own[index], *under, top)
    state = _log(state, "arrange", seat, len(state.loot), tops)
    state = replace(state, discards=_set(state.discards, seat, tuple(own)), loot=())
    return _settle(state, seat)


def _arrangements(state: RookieState) -> list[tuple[str | None, ...]]:
    """Every choice of tops for the loot, those that secure (Rookie first) leading."""
    have = Counter(state.loot)
    kinds = [kind for kind in KINDS if kind in have]
    current = discard_tops(state, state.receiver)
    found = []
    for tops in product([None, *kinds], repeat=STACKS):
        wanted = Counter(top for top in tops if top is not None)
        if not wanted or any(wanted[kind] > have[kind] for kind in wanted):
            continue
        final = [top or old for top, old in zip(tops, current, strict=True)]
        secured = secured_kind(final)
        found.append((0 if secured == X else 1 if secured else 2, tops))
    return [tops for _, tops in sorted(found, key=lambda item: item[0])]


def _placements(state: RookieState) -> list[PlaceMove]:
    """Every placement of the pair: the mover's stacks first, then the partner's."""
    return [
        {"type": "place", "seat": owner, "stacks": list(stacks)}
        for owner in _placement_seats(state)
        for stacks in PAIR_PLACES
    ]


def _steals(state: RookieState) -> list[StealMove]:
    return [{"type": "steal", "from": victim} for victim, _ in _steal_choices(state)]


def _arrange_moves(state: RookieState) -> list[ArrangeMove]:
    return [{"type": "arrange", "tops": list(tops)} for tops in _arrangements(state)]


def _is_index(value: object, size: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def _check_flip(state: RookieState, move: Mapping[str, object]) -> int:
    position = move.get("position")
    if not _is_index(position, POSITIONS):
        raise IllegalMove("Flip the top card of one of the positions 1–9.")
    label = position + 1
    if not state.table[position]:
        raise IllegalMove("Position {position} is empty — flip a card on another stack.", position=label)
    if position in face_up(state):
        raise IllegalMove(
            "The card on position {position} is already face up — flip a face-down one.", position=label
        )
    return position


def _out_of_phase(phase: str) -> IllegalMove:
    """The refusal of a move `phase` does not allow: what to do instead (as `PROMPTS` says)."""
    refusals = {
        "start": IllegalMove("Turn the open cards face down and flip two, or flip one card to chase them."),
        "flip": IllegalMove("Flip a face-down card."),
        "chase": IllegalMove("Flip one more card to chase the open cards."),
        "place": IllegalMove("Place the pair on one or two discard stacks."),
        "steal": IllegalMove("Choose whose unsecured cards to take: the player before or after you."),
        "arrange": IllegalMove("Choose the top card of each discard stack for the cards taken."),
    }
    return refusals.get(phase, IllegalMove("The game is over."))


def _not_a_neighbour(victims: list[int]) -> IllegalMove:
    """The refusal of a steal from someone who is not one of `victims` (one or two seats)."""
    first, *others = [SEAT_LETTERS[victim] for victim in victims]
    if not others:
        return IllegalMove("Take the unsecured cards of player {seat} — your neighbours.", seat=first)
    return IllegalMove(
        "Take the unsecured cards of player {first} or player {second} — your neighbours.",
        first=first,
        second=others[-1],
    )


def _check_place(state: RookieState, move: Mapping[str, object]) -> tuple[int, tuple[int, int]]:
    seats = _placement_seats(state)
    seat = move.get("seat", state.turn)
    if not _is_index(seat, state.players) or seat not in seats:
        if len(seats) > 1:
            raise IllegalMove("Place the pair on your own or your partner's discard stacks.")
        raise IllegalMove("Place the pair on your own discard stacks.")
    stacks = move.get("stacks")
    if (
        not isinstance(stacks, list | tuple)
        or len(stacks) != 2
        or not all(_is_index(index, STACKS) for index in stacks)
    ):
        raise IllegalMove("Choose discard stacks 1–3 for the two cards: two stacks, or one for both.")
    low, high = sorted(stacks)
    return seat, (low, high)


def _check_arrange(state: RookieState, move: Mapping[str, object]) -> tuple[str | None, ...]:
    tops = move.get("tops")
    if (
        not isinstance(tops, list | tuple)
        or len(tops) != STACKS
        or not all(top is None or (isinstance(top, str) and top in KINDS) for top in tops)
    ):
        raise IllegalMove("Choose the top card of each of discard stacks 1–3, or none for a stack.")
    have = Counter(state.loot)
    wanted = Counter(top for top in tops if top is not None)
    if not wanted:
        raise IllegalMove("Put the taken cards somewhere: choose a top for at least one stack.")
    for kind, count in wanted.items():
        if have[kind] < count:
            raise IllegalMove(
                "The cards you took hold only {count} × {kind} — choose other tops.",
                count=have[kind],
                kind=KIND_TERMS.get(kind, kind),
            )
    return tuple(tops)


# --- the engine --------------------------------------------------------------------------


class RookieEngine:
    """Rookie for 2–6 players; variants standard, team and kids; standard or pocket deck.

    Views are `RookieView`s (every key, its type and meaning: `view`); moves are `RookieMove`s:
    turn_down, flip (`position`), place (`seat`, `stacks`), steal (`from`), arrange (`tops`).
    """

    name = "rookie"
    title = "Rookie"
    min_players = 2
    max_players = 6

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> RookieState:
        options = dict(options or {})
        unknown = sorted(set(options) - {"variant", "deck"})
        if unknown:
            raise GameError(
                "Rookie has no option {options} — use variant or deck.", options=", ".join(unknown)
            )
        variant = options.get("variant", "standard")
        deck = options.get("deck", "standard")
        if variant not in VARIANTS:
            raise GameError(
                "The variant must be standard, team or kids, not {variant}.", variant=repr(variant)
            )
        if deck not in CARDS_PER_KIND:
            raise GameError("The deck must be standard or pocket, not {deck}.", deck=repr(deck))
        if not isinstance(players, int) or isinstance(players, bool):
            raise GameError("Give the number of players as a whole number.")
        check_players(self, players)
        if variant == "team" and players not in (4, 6):
            raise GameError("The team variant needs 4 or 6 players, not {players}.", players=players)
        kinds = COLOURS if variant == "kids" else KINDS
        cards = [kind for kind in kinds for _ in range(CARDS_PER_KIND[deck])]
        chance(seed, 0).shuffle(cards)
        starter = first_seat(seed, players)
        return RookieState(
            players=players,
            seed=seed,
            variant=variant,
            deck=deck,
            table=tuple(tuple(cards[p::POSITIONS]) for p in range(POSITIONS)),
            open=(),
            flipped=(),
            discards=tuple(((),) * STACKS for _ in range(players)),
            points=(0,) * players,
            resigned=(False,) * players,
            turn=starter,
            phase="flip",
            events=(("start", starter),),
        )

    def current_seats(self, state: RookieState) -> tuple[int, ...]:
        return () if state.phase == "over" else (state.turn,)

    def legal_moves(self, state: RookieState, seat: int) -> list[RookieMove]:
        if seat not in self.current_seats(state):
            return []
        flips: list[RookieMove] = [{"type": "flip", "position": p} for p in _flippable(state)]
        if state.phase == "start":
            return [{"type": "turn_down"}, *flips]
        if state.phase in ("flip", "chase"):
            return flips
        if state.phase == "place":
            return [*_placements(state)]
        if state.phase == "steal":
            return [*_steals(state)]
        return [*_arrange_moves(state)]

    def timeout_move(self, state: RookieState, seat: int) -> RookieMove:
        """The move the turn clock plays for an absent seat: the least consequential one.

        It is chosen from what the table shows (never from face-down cards, so the choice
        gives nothing away), and it never scores for the absent player where a neutral
        move exists:
        - open cards at the start of the turn: turn them face down (Option 1) rather than
          chase them — a chase can only take cards;
        - a card to flip: the face-down top on the lowest-numbered position — a flip
          cannot be avoided and nothing public tells a pair from a miss;
        - a pair to place: the first placement on the seat's own discard stacks that
          secures nothing (one always exists), so the clock never secures, nor plays a
          Rookie, for the absent player or their partner;
        - a neighbour to rob after an X pair: the one with fewer unsecured cards (the
          player before on equal counts) — the steal itself is owed by the rules;
        - taken cards to arrange: the first arrangement that secures nothing, if any.
        """
        check_seat(self.current_seats(state), seat)
        if state.phase == "place":
            placements = _placements(state)
            neutral = (
                move
                for move in placements
                if move["seat"] == seat
                and not self._placement_effect(state, seat, tuple(move["stacks"]))["secures"]
            )
            return next(neutral, placements[0])
        if state.phase == "steal":
            return min(_steals(state), key=lambda move: _unsecured(state, move["from"]))
        if state.phase == "arrange":
            current = discard_tops(state, state.receiver)

            def secures(move: ArrangeMove) -> bool:
                final = [top or old for top, old in zip(move["tops"], current, strict=True)]
                return secured_kind(final) is not None

            arrangements = _arrange_moves(state)
            return next((move for move in arrangements if not secures(move)), arrangements[0])
        return self.legal_moves(state, seat)[0]  # turn_down first at the start; flips in position order

    def apply(self, state: RookieState, seat: int, move: RookieMove) -> RookieState:
        return self._apply(replace(state, events=()), seat, move)

    def _apply(self, state: RookieState, seat: int, move: RookieMove) -> RookieState:
        """`move` as sent: checked key by key, whatever it holds."""
        if state.phase == "over":
            raise IllegalMove("This game is over — start a new one to play again.")
        check_seat(self.current_seats(state), seat)
        sent: object = move
        if not isinstance(sent, Mapping):
            raise _out_of_phase(state.phase)
        kind = sent.get("type")
        allowed = {
            "start": ("turn_down", "flip"),
            "flip": ("flip",),
            "chase": ("flip",),
            "place": ("place",),
            "steal": ("steal",),
            "arrange": ("arrange",),
        }[state.phase]
        if kind not in allowed:
            raise _out_of_phase(state.phase)
        if kind == "turn_down":
            return replace(_turn_down_open(state), phase="flip")
        if kind == "flip":
            position = _check_flip(state, sent)
            if state.phase == "flip":
                return _flip_normal(state, position)
            return _flip_chase(state, position)
        if kind == "place":
            return _place(state, *_check_place(state, sent))
        if kind == "steal":
            victims = [victim for victim, _ in _steal_choices(state)]
            victim = sent.get("from")
            if not _is_index(victim, state.players) or victim not in victims:
                raise _not_a_neighbour(victims)
            return _steal(state, victim)
        return _arrange(state, _check_arrange(state, sent))

    def reveals(self, state: RookieState, seat: int, move: RookieMove, after: RookieState) -> bool:
        """A flip turns a card up; turning down, placing, robbing and arranging show nothing new."""
        return move.get("type") == "flip"

    def resign(self, state: RookieState, seat: int) -> RookieState:
        """The seat leaves; a turn it was in the middle of is wound up and passed on.

        Decisions it still owes (a pair, a loot) are settled as the turn clock would
        settle them (`timeout_move`): nothing is secured for a player who leaves.
        """
        if state.phase == "over":
            raise GameError("This game is over already.")
        if not isinstance(seat, int) or not 0 <= seat < state.players or state.resigned[seat]:
            raise GameError("That seat is not playing in this game.")
        state = replace(state, resigned=_set(state.resigned, seat, True), events=())
        if self._standing(state) < 2:
            state = replace(state, phase="over", flipped=(), pair=None, loot=(), receiver=None)
            return _log(state, "resign", seat)
        if seat == state.turn:
            while state.phase in ("place", "steal", "arrange"):
                state = self._apply(state, seat, self.timeout_move(state, seat))
            state = _end_turn(state)
        return _log(state, "resign", seat)

    def _standing(self, state: RookieState) -> int:
        """How many players (teams, in the team variant) are still in the game."""
        if state.variant == "team":
            teams = teams_of(state.players)
            return sum(1 for team in teams if any(not state.resigned[s] for s in team))
        return len(_active(state))

    def outcome(self, state: RookieState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = state.points
        if state.variant == "team":
            teams = teams_of(state.players)
            team_scores = [sum(scores[s] for s in team) for team in teams]
            standing = [t for t, team in enumerate(teams) if any(not state.resigned[s] for s in team)]
            best = max(team_scores[t] for t in standing)
            top = [t for t in standing if team_scores[t] == best]
            winners = sorted(s for t in top for s in teams[t] if not state.resigned[s])
            return Outcome(
                scores=scores,
                winners=tuple(winners),
                draw=len(top) > 1,
                teams=teams,
                details={"team_scores": team_scores},
            )
        active = _active(state)
        best = max(scores[s] for s in active)
        leaders = tuple(s for s in active if scores[s] == best)
        return Outcome(scores=scores, winners=leaders, draw=len(leaders) > 1)

    def view(self, state: RookieState, seat: int | None) -> RookieView:
        """The public table: nothing in Rookie is secret, so every seat and every spectator
        gets the same view (`seat` changes nothing). Positions and stacks are indexes (0–8,
        0–2); cards are kinds ("red", "yellow", "green", "blue", "purple", "X").

        Besides the common keys (`last_event` is the last of `events`):
        `positions`    list[RookiePosition], nine: each `count` (cards there) and `top`
                       (the top card when face up — open or just flipped —, else None)
        `open`         list[int]: positions whose face-up top is an open card
        `last_flip`    list[RookieFlip] | None: the cards the last flips turned up this
                       turn, each `position` (where it lies now), `card`, `from` (where
                       it was turned up: a card onto an empty position moves)
        `seats`        list[RookieSeat], by seat: `stacks` (three, each `top` and
                       `count`), `points` (the point stack), `resigned`
        `variant`      "standard", "team" or "kids"; `deck`: "standard" or "pocket"
        `phase`        what the player to move decides (a `PROMPTS` key), None once over
        `turn`         the seat to move, None once over
        `table_cards`  int: the cards left on the nine positions
        `pending`      RookiePending | None (once over): the decision asked for, by
                       `kind` (= `phase`) with its English `prompt`: `flipped` (flip);
                       `card`, `choices` (RookiePlacement: what each placement would
                       secure) and `then_steal` (place); `choices` (RookieStealChoice:
                       the neighbours and their unsecured cards; steal); `seat`,
                       `reason`, `count`, `cards` (by kind) and `default` (arrange)
        `events`       list[RookieEvent]: everything the last move did, in order (see
                       `_event_json`)
        `teams`, `team_scores`  only in the team variant: the seats of each team, and
                       each team's points
        """
        up = face_up(state)
        over = state.phase == "over"
        events = [_event_json(event) for event in state.events]
        common = common_view(
            players=state.players,
            to_move=self.current_seats(state),
            scores=state.points,
            last_event=events[-1] if events else None,
            outcome=self.outcome(state),
            resigned=[s for s in range(state.players) if state.resigned[s]],
        )
        result: RookieView = {
            "players": common["players"],
            "to_move": common["to_move"],
            "scores": common["scores"],
            "last_event": common["last_event"],
            "winners": common["winners"],
            "resigned": common["resigned"],
            "positions": [
                {"count": len(stack), "top": stack[-1] if p in up else None}
                for p, stack in enumerate(state.table)
            ],
            "open": list(state.open),
            "last_flip": None
            if state.last_flip is None
            else [
                {"position": lands, "card": card, "from": source} for lands, card, source in state.last_flip
            ],
            "seats": [
                {
                    "stacks": [
                        {"top": stack[-1] if stack else None, "count": len(stack)}
                        for stack in state.discards[s]
                    ],
                    "points": state.points[s],
                    "resigned": state.resigned[s],
                }
                for s in range(state.players)
            ],
            "variant": state.variant,
            "deck": state.deck,
            "phase": None if over else state.phase,
            "turn": None if over else state.turn,
            "table_cards": sum(map(len, state.table)),
            "pending": None if over else self._pending(state),
            "events": events,
        }
        if state.variant == "team":
            teams = teams_of(state.players)
            result["teams"] = [list(team) for team in teams]
            result["team_scores"] = [sum(state.points[s] for s in team) for team in teams]
        return result

    def _pending(self, state: RookieState) -> RookiePending:
        """The decision asked for now, with what each choice would do."""
        prompt = PROMPTS[state.phase]
        if state.phase == "flip":
            return {"kind": "flip", "prompt": prompt, "flipped": len(state.flipped)}
        if state.phase == "place":
            assert state.pair is not None  # the place phase holds a pair
            choices = [
                self._placement_effect(state, owner, stacks)
                for owner in _placement_seats(state)
                for stacks in PAIR_PLACES
            ]
            return {
                "kind": "place",
                "prompt": prompt,
                "card": state.pair,
                "choices": choices,
                "then_steal": state.after_pair,
            }
        if state.phase == "steal":
            steals: list[RookieStealChoice] = [
                {"from": victim, "side": side, "cards": _unsecured(state, victim)}
                for victim, side in _steal_choices(state)
            ]
            return {"kind": "steal", "prompt": prompt, "choices": steals}
        if state.phase == "arrange":
            assert state.receiver is not None and state.loot_reason is not None  # set with the loot
            counts = Counter(state.loot)
            return {
                "kind": "arrange",
                "prompt": prompt,
                "seat": state.receiver,
                "reason": state.loot_reason,
                "count": len(state.loot),
                "cards": {kind: counts[kind] for kind in KINDS if counts[kind]},
                "default": list(_arrangements(state)[0]),
            }
        if state.phase == "chase":
            return {"kind": "chase", "prompt": prompt}
        return {"kind": "start", "prompt": prompt}

    @staticmethod
    def _placement_effect(state: RookieState, owner: int, stacks: tuple[int, ...]) -> RookiePlacement:
        tops = discard_tops(state, owner)
        for index in stacks:
            tops[index] = state.pair
        secured = secured_kind(tops)
        return {
            "seat": owner,
            "stacks": list(stacks),
            "secures": secured is not None,
            "rookie": secured == X,
        }

    def dump(self, state: RookieState) -> str:
        data = {f.name: getattr(state, f.name) for f in fields(state)}
        return json.dumps({"game": self.name, "state": data}, separators=(",", ":"))

    def load(self, text: str) -> RookieState:
        return load_json(text, _read_state, self.title)


# --- events and saved games ------------------------------------------------------------------

EVENT_KEYS: dict[str, tuple[str, ...]] = {
    "start": (),
    "flip": ("position", "card", "from"),
    "pair": ("card",),
    "miss": (),
    "open": ("cards",),
    "turn_down": ("count",),
    "place": ("owner", "card", "stacks"),
    "secure": ("card", "count"),
    "rookie": ("taken",),
    "steal": ("from", "count"),
    "arrange": ("count", "tops"),
    "collect": ("count", "taken"),
    "resign": (),
}


def _event_json(event: tuple[Any, ...]) -> RookieEvent:
    """An event as the view shows it. Only cards that are face up or off the table appear.

    start (seat drawn to start) · flip (seat, position, card, from: the first card of a
    normal start) · pair (seat, card) · miss (seat) · open (seat, cards left open) ·
    turn_down (seat, count) · place (seat, owner, card, stacks) · secure (seat, card,
    count) · rookie (seat, taken: [[seat, count]]) · steal (seat, from, count) · arrange
    (seat, count, tops) · collect (seat, count, taken: [[seat, count]]) · resign (seat).
    Positions and stacks are indexes (0-based), as in moves.
    """
    kind, seat, *rest = event
    keys = EVENT_KEYS[kind]
    # A JSON round trip turns the nested tuples into the lists every view is made of.
    entries = {"type": kind, "seat": seat, **dict(zip(keys, rest, strict=True))}
    shown: RookieEvent = json.loads(json.dumps(entries))
    return shown


def _tuples(value: Any) -> Any:
    """JSON lists back into the tuples the state is made of."""
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def _damaged(what: str) -> GameError:
    return GameError("This saved Rookie game is damaged ({what}).", what=what)


def _list(value: Any, what: str, size: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        raise _damaged(what)
    return value


def _whole(value: Any, low: int, high: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _damaged(what)
    return value


def _word(value: Any, allowed: tuple[str | None, ...], what: str) -> Any:
    if not (value is None or isinstance(value, str)) or value not in allowed:
        raise _damaged(what)
    return value


def _cards(value: Any, what: str) -> Stack:
    return tuple(_word(card, KINDS, what) for card in _list(value, what))


def _positions(value: Any, what: str) -> tuple[int, ...]:
    return tuple(_whole(p, 0, POSITIONS - 1, what) for p in _list(value, what))


def _flip_entry(value: Any) -> tuple[int, str, int]:
    lands, card, source = _list(value, "last flip", 3)
    return (
        _whole(lands, 0, POSITIONS - 1, "last flip"),
        _word(card, KINDS, "last flip"),
        _whole(source, 0, POSITIONS - 1, "last flip"),
    )


def _event(value: Any, players: int) -> tuple[Any, ...]:
    event = _list(value, "events")
    if len(event) < 2 or not isinstance(event[0], str) or event[0] not in EVENT_KEYS:
        raise _damaged("events")
    if len(event) != 2 + len(EVENT_KEYS[event[0]]):
        raise _damaged("events")
    _whole(event[1], 0, players - 1, "events")
    return tuple(_tuples(item) for item in event)


def _read_state(data: Any) -> RookieState:
    """A dumped state, checked shape by shape: damage is a GameError here, not a crash later."""
    if not isinstance(data, dict) or data.get("game") != "rookie" or not isinstance(data.get("state"), dict):
        raise GameError("This is not a saved Rookie game.")
    raw = data["state"]
    players = _whole(raw["players"], 2, 6, "players")
    resigned = _list(raw["resigned"], "resigned", players)
    if not all(isinstance(flag, bool) for flag in resigned):
        raise _damaged("resigned")
    receiver = raw["receiver"]
    state = RookieState(
        players=players,
        seed=_whole(raw["seed"], -(2**63), 2**63, "seed"),
        variant=_word(raw["variant"], VARIANTS, "variant"),
        deck=_word(raw["deck"], tuple(CARDS_PER_KIND), "deck"),
        table=tuple(_cards(stack, "table") for stack in _list(raw["table"], "table", POSITIONS)),
        open=_positions(raw["open"], "open cards"),
        flipped=_positions(raw["flipped"], "flipped cards"),
        discards=tuple(
            tuple(_cards(stack, "discard stacks") for stack in _list(own, "discard stacks", STACKS))
            for own in _list(raw["discards"], "discard stacks", players)
        ),
        points=tuple(
            _whole(points, 0, 10_000, "points") for points in _list(raw["points"], "points", players)
        ),
        resigned=tuple(resigned),
        turn=_whole(raw["turn"], 0, players - 1, "turn"),
        phase=_word(raw["phase"], tuple(PROMPTS), "phase"),
        pair=_word(raw["pair"], (None, *KINDS), "pair"),
        loot=_cards(raw["loot"], "loot"),
        receiver=None if receiver is None else _whole(receiver, 0, players - 1, "receiver"),
        loot_reason=_word(raw["loot_reason"], (None, "steal", "rookie"), "loot"),
        after_pair=_word(raw["after_pair"], (None, "choose", "left"), "after pair"),
        resume=_word(raw["resume"], ("flip", "chase"), "resume"),
        last_flip=None
        if raw["last_flip"] is None
        else tuple(_flip_entry(entry) for entry in _list(raw["last_flip"], "last flip")),
        events=tuple(_event(event, players) for event in _list(raw.get("events", []), "events")),
    )
    if any(not state.table[p] for p in (*state.open, *state.flipped)):
        raise _damaged("open cards")
    if len(state.flipped) > 1 or (state.flipped and state.phase != "flip"):
        raise _damaged("flipped cards")
    if (state.phase == "place") != (state.pair is not None):
        raise _damaged("pair")
    arranging = state.phase == "arrange"
    if arranging != bool(state.loot) or arranging != (state.receiver is not None):
        raise _damaged("loot")
    return state


ENGINE: Engine[RookieState, RookieView, RookieMove] = RookieEngine()
