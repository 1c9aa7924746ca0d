"""Rookie players: a memory of every card the table has shown, and sampled deals.

Every card turned up is seen by every seat, so a player's memory is read from its
views alone: `read_memory` replays them and keeps, for each of the nine positions, the
top card last seen there (a card moved onto an empty position goes with it; a top taken
away leaves an unknown card beneath), the cards taken off the table, and each seat's
unsecured cards. `sample_state` deals the unseen cards at random among the face-down
places (a determinization consistent with everything the views showed) so that moves
can be tried with the engine; the players read only the cards their memory holds.

- normal: a good memory and sound rules of thumb. What it saw long ago may slip (a card
  seen 40 moves ago is recalled half the time). It takes pairs it knows of, flips an
  unknown card first and then its known match; it flips a second unknown card only when
  the chance of a pair outweighs handing the next player open cards or a known match;
  it chases open cards when that is likelier to pay than a fresh start; when it knows
  every top and none match, it turns up one that uncovers a new card. Placements,
  steals and arrangements are tried on the sampled table and scored: points, unsecured
  cards at half value, and the chance that the stack tops secure soon (distinct kinds on
  top, an X kept for a Rookie).
- easy: the same player with a child's memory (a card seen some moves ago is often
  forgotten), and now and then it places or arranges carelessly.
- hard: the normal player with a perfect memory of every card the table has shown,
  which is what wins Rookie; the other choices (a second unknown card or a safe one,
  chasing open cards or turning them down, where to place a pair) move the share of
  wins by a few percentage points at most. Where its rules of thumb weigh chances
  against each other (the second card of a start when no match is known, and a turn
  that starts with open cards and no sure match) it plays each choice on up to 48
  sampled deals, every seat then following the normal player with the memory everyone
  shares, to the start of its next turn, and leaves its rule of thumb only for a choice
  whose tables scored better on the same deals by more than their luck explains (two
  standard errors): a search on few deals that trusted every lucky mean lost to a greedy
  player with a perfect memory more often than the rules of thumb alone.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from games.rookie import (
    CARDS_PER_KIND,
    COLOURS,
    ENGINE,
    KINDS,
    POSITIONS,
    ArrangeMove,
    FlipMove,
    PlaceMove,
    RookieEvent,
    RookieMove,
    RookiePending,
    RookieSeat,
    RookieState,
    RookieView,
    StealMove,
    X,
    discard_tops,
    face_up,
    secured_kind,
    teams_of,
)

# Unsecured cards are worth half a point: they may be secured, or stolen.
UNSECURED = 0.5
# The chance that a kind on top of a seat's stacks comes as a pair soon, and what each
# known face-down card of that kind adds.
PAIR_SOON = 0.12
PER_KNOWN = 0.12
# What a Rookie (three X tops) is worth beyond securing, per card of the others.
ROOKIE_TAKE = 0.35
# The value of the pair the mover takes, and of the turn going on.
PAIR_VALUE = 3.0
# What a card newly shown costs when the next player knows where its match lies.
GIFT = 2.5
# What open cards left to the next player cost, beside the pairs they may chase.
OPEN_COST = 1.0
# The easy player's memory: a card seen `age` moves ago stays remembered with chance
# EASY_RECALL ** (age / EASY_SPAN); its careless placements, how often.
EASY_RECALL = 0.5
EASY_SPAN = 6
EASY_SLIP = 0.3
# The normal player's memory fades as easy's does, only slower: a card seen NORMAL_SPAN
# moves ago is remembered half the time. Hard forgets nothing.
NORMAL_SPAN = 40
# The hard player's search: sampled deals per candidate and moves per simulation.
SAMPLES = 48
HORIZON = 60
BUDGET = 3000  # simulated moves per decision, all candidates together
# A choice replaces the rules of thumb' proposal only when it did better on the same deals
# by this many standard errors: sampled deals are noisy, the rules of thumb are sound.
CONFIDENCE = 2.0


@dataclass(slots=True)
class Memory:
    """What a seat has seen, read from its views."""

    seen: dict[int, tuple[str, int]]  # position -> (top card, index of the view that showed it)
    off_table: Counter[str]  # cards taken off the table as pairs
    unsecured: list[Counter[str]]  # by seat
    loot: Counter[str]  # cards taken and not yet arranged
    after_pair: str | None  # the steal an X pair still owes: "choose" or "left"


# --- reading the views -------------------------------------------------------------------


def read_memory(views: Sequence[RookieView]) -> Memory:
    """Replay the views, oldest first, into the cards remembered and the unsecured piles."""
    first = views[0]
    memory = Memory({}, Counter(), [Counter() for _ in range(first["players"])], Counter(), None)
    for index in range(1, len(views)):
        _step(memory, views[index - 1], views[index], index)
    return memory


def _was_flip(before: RookieView, after: RookieView) -> bool:
    """Whether the move between two views turned up a card."""
    kinds = [event["type"] for event in after["events"]]
    if "resign" in kinds or before["phase"] not in ("start", "flip", "chase"):
        return False
    return not (before["phase"] == "start" and kinds[:1] == ["turn_down"])


def _step(memory: Memory, before: RookieView, after: RookieView, index: int) -> None:
    counts = [position["count"] for position in before["positions"]]
    seen = memory.seen
    if _was_flip(before, after) and after["last_flip"]:
        flip = after["last_flip"][-1]
        lands, card, source = flip["position"], flip["card"], flip["from"]
        if lands != source:
            seen.pop(source, None)
            counts[source] -= 1
            counts[lands] = 1
        seen[lands] = (card, index)
    for position, shown in enumerate(after["positions"]):
        if shown["count"] < counts[position] or not shown["count"]:
            seen.pop(position, None)
        if shown["top"] is not None:
            seen[position] = (shown["top"], index)
    for event in after["events"]:
        _account(memory, event)
    pending = after["pending"]
    if pending is not None and pending["kind"] == "place":
        memory.after_pair = pending["then_steal"]
    if pending is not None and pending["kind"] == "arrange":
        memory.loot = Counter(pending["cards"])


def _account(memory: Memory, event: RookieEvent) -> None:
    """Follow the cards an event moves between the table, the discard stacks and the points."""
    kind, piles = event["type"], memory.unsecured
    if kind == "pair":
        memory.off_table[event["card"]] += 2
    elif kind == "place":
        piles[event["owner"]][event["card"]] += 2
    elif kind == "secure":
        piles[_seat_of(event)] = Counter()
    elif kind == "rookie":
        for victim, _ in event["taken"]:
            memory.loot += piles[victim]
            piles[victim] = Counter()
    elif kind == "steal":
        memory.loot += piles[event["from"]]
        piles[event["from"]] = Counter()
        memory.after_pair = None
    elif kind == "arrange":
        piles[_seat_of(event)] += memory.loot
        memory.loot = Counter()
    elif kind == "collect":
        for pile in piles:
            pile.clear()


def _seat_of(event: RookieEvent) -> int:
    """The seat of an event of a move (only the start may name no seat)."""
    seat = event["seat"]
    assert seat is not None
    return seat


def deck_counts(view: RookieView) -> Counter[str]:
    """Every card of the deck by kind."""
    kinds = COLOURS if view["variant"] == "kids" else KINDS
    return Counter({kind: CARDS_PER_KIND[view["deck"]] for kind in kinds})


def unseen_pool(view: RookieView, memory: Memory) -> Counter[str]:
    """The cards on the table that no memory places: the deck less pairs taken and tops known."""
    pool = deck_counts(view) - memory.off_table
    pool.subtract(card for card, _ in memory.seen.values())
    return +pool


def sample_state(view: RookieView, memory: Memory, rng: random.Random) -> RookieState:
    """A whole table consistent with everything seen: the unseen cards dealt at random."""
    pool = list(unseen_pool(view, memory).elements())
    rng.shuffle(pool)
    table = []
    for position, shown in enumerate(view["positions"]):
        count = shown["count"]
        top = memory.seen.get(position)
        under = count - 1 if top else count
        stack = [pool.pop() if pool else X for _ in range(under)]
        if top:
            stack.append(top[0])
        table.append(tuple(stack))
    phase = view["phase"] or "over"
    pending = view["pending"]
    pair = pending["card"] if pending is not None and pending["kind"] == "place" else None
    arranging = pending if pending is not None and pending["kind"] == "arrange" else None
    face_up = [p for p, shown in enumerate(view["positions"]) if shown["top"] is not None]
    return RookieState(
        players=view["players"],
        seed=0,
        variant=view["variant"],
        deck=view["deck"],
        table=tuple(table),
        open=tuple(view["open"]),
        flipped=tuple(p for p in face_up if p not in view["open"]),
        discards=tuple(_discards(seat, memory.unsecured[s]) for s, seat in enumerate(view["seats"])),
        points=tuple(view["scores"]),
        resigned=tuple(seat["resigned"] for seat in view["seats"]),
        turn=view["turn"] if view["turn"] is not None else 0,
        phase=phase,
        pair=pair,
        loot=tuple(memory.loot.elements()) if arranging else (),
        receiver=arranging["seat"] if arranging else None,
        loot_reason=arranging["reason"] if arranging else None,
        after_pair=_owed_steal(pending, memory),
        resume="chase" if view["open"] and phase in ("place", "steal", "arrange") else "flip",
    )


def _owed_steal(pending: RookiePending | None, memory: Memory) -> str | None:
    if pending is None:
        return None
    if pending["kind"] == "place":
        return pending["then_steal"]
    if pending["kind"] == "steal":
        return "choose"
    if pending["kind"] == "arrange" and pending["reason"] == "rookie":
        return memory.after_pair
    return None


def _discards(seat: RookieSeat, cards: Counter[str]) -> tuple[tuple[str, ...], ...]:
    """A seat's stacks with the tops and sizes shown, the rest of its cards beneath."""
    rest = Counter(cards)
    for stack in seat["stacks"]:
        if stack["top"] is not None:
            rest[stack["top"]] -= 1
    spare = list((+rest).elements())
    stacks: list[tuple[str, ...]] = []
    for stack in seat["stacks"]:
        if stack["top"] is None:
            stacks.append(())
            continue
        under = [spare.pop() if spare else stack["top"] for _ in range(stack["count"] - 1)]
        stacks.append((*under, stack["top"]))
    return tuple(stacks)


def recalled(view_count: int, memory: Memory, level: str, rng: random.Random) -> set[int]:
    """The positions whose face-down top the player recalls now: hard recalls every one,
    normal forgets some it saw long ago, easy forgets old ones quickly."""
    if level == "hard":
        return set(memory.seen)
    span = EASY_SPAN if level == "easy" else NORMAL_SPAN
    return {
        position
        for position, (_, index) in sorted(memory.seen.items())
        if rng.random() < EASY_RECALL ** ((view_count - 1 - index) / span)
    }


# --- judging a table ---------------------------------------------------------------------


def _side(state: RookieState, seat: int) -> tuple[int, ...]:
    """The seat with its partner, in the team variant."""
    if state.variant != "team":
        return (seat,)
    return next(team for team in teams_of(state.players) if seat in team)


def _known_down(state: RookieState, known: set[int]) -> dict[int, str]:
    """Face-down tops the player recalls: position -> card."""
    up = face_up(state)
    return {p: state.table[p][-1] for p in known if state.table[p] and p not in up}


def _seat_value(state: RookieState, seat: int, known_kinds: Counter[str], others: int) -> float:
    stacks = state.discards[seat]
    unsecured = sum(map(len, stacks))
    if state.phase == "arrange" and state.receiver == seat:
        unsecured += len(state.loot)
    tops = discard_tops(state, seat)
    return state.points[seat] + UNSECURED * unsecured + _prospect(tops, unsecured, known_kinds, others)


def _prospect(tops: Sequence[str | None], unsecured: int, known_kinds: Counter[str], others: int) -> float:
    """What the tops promise: the chance a pair secures the stacks soon, and a Rookie."""
    present = {top for top in tops if top is not None}
    if not present:
        return 0.0
    miss = 1.0
    for kind in present:
        miss *= 1 - _soon(kind, known_kinds)
    value = (1 - UNSECURED) * (unsecured + 2) * (1 - miss)
    if X in present:
        value += ROOKIE_TAKE * UNSECURED * others * _soon(X, known_kinds)
    return value


def _soon(kind: str, known_kinds: Counter[str]) -> float:
    return min(0.9, PAIR_SOON + PER_KNOWN * known_kinds[kind])


def _secured_gain(tops: Sequence[str | None], unsecured: int, others: int) -> float | None:
    """What securing with these tops banks (a Rookie takes the others' cards too), or None."""
    kind = secured_kind(tops)
    if kind is None:
        return None
    gain = (1 - UNSECURED) * unsecured
    return gain + 2 * UNSECURED * others if kind == X else gain


def _tops_worth(
    state: RookieState, owner: int, tops: Sequence[str | None], added: int, known_kinds: Counter[str]
) -> float:
    """The worth to `owner` of ending with `tops` after `added` cards joined its stacks."""
    unsecured = sum(map(len, state.discards[owner])) + added
    others = sum(sum(map(len, state.discards[s])) for s in range(state.players) if s != owner)
    gain = _secured_gain(tops, unsecured, others)
    if gain is not None:
        return gain
    return _prospect(tops, unsecured, known_kinds, others)


def _quick_place(state: RookieState, moves: list[PlaceMove], known_kinds: Counter[str]) -> PlaceMove:
    def worth(move: PlaceMove) -> float:
        owner = move["seat"]
        tops = discard_tops(state, owner)
        for index in move["stacks"]:
            tops[index] = state.pair
        return _tops_worth(state, owner, tops, 2, known_kinds)

    return max(moves, key=worth)


def _quick_arrange(state: RookieState, moves: list[ArrangeMove], known_kinds: Counter[str]) -> ArrangeMove:
    owner = state.receiver
    assert owner is not None
    current = discard_tops(state, owner)

    def worth(move: ArrangeMove) -> float:
        tops = [top or old for top, old in zip(move["tops"], current, strict=True)]
        return _tops_worth(state, owner, tops, len(state.loot), known_kinds)

    return max(moves, key=worth)


def _quick_steal(state: RookieState, moves: list[StealMove]) -> StealMove:
    return max(
        moves, key=lambda move: (sum(map(len, state.discards[move["from"]])), state.points[move["from"]])
    )


def evaluate(state: RookieState, seat: int, known: set[int]) -> float:
    """How good the table is for `seat`'s side against the best other side."""
    if state.phase == "over":
        return _score_margin(state, seat)
    known_kinds = Counter(_known_down(state, known).values())
    unsecured = [sum(map(len, stacks)) for stacks in state.discards]
    total = sum(unsecured)
    values = [
        _seat_value(state, s, known_kinds, total - unsecured[s]) if not state.resigned[s] else 0.0
        for s in range(state.players)
    ]
    return _margin(state, seat, values)


def _score_margin(state: RookieState, seat: int) -> float:
    return _margin(state, seat, [float(points) for points in state.points])


def _margin(state: RookieState, seat: int, values: list[float]) -> float:
    mine = _side(state, seat)
    sides = {_side(state, s) for s in range(state.players) if not state.resigned[s]} - {mine}
    if not sides:
        return sum(values[s] for s in mine)
    others = [sum(values[s] for s in side) for side in sides]
    return sum(values[s] for s in mine) - (max(others) + sum(others) / len(others)) / 2


# --- the rules of thumb ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Table:
    """A player's reading of the table: what lies where, as far as it knows."""

    state: RookieState
    seat: int
    known: dict[int, str]  # face-down tops it recalls
    unknown: list[int]  # face-down tops it does not
    pool: Counter[str]  # the cards it cannot place, by kind

    def chance(self, kind: str) -> float:
        total = sum(self.pool.values())
        return self.pool[kind] / total if total else 0.0

    def where(self, kind: str) -> list[int]:
        return [p for p, card in self.known.items() if card == kind]


def read_table(state: RookieState, seat: int, known: set[int]) -> Table:
    down = _known_down(state, known)
    up = face_up(state)
    unknown = [p for p in range(POSITIONS) if state.table[p] and p not in up and p not in down]
    pool = Counter(card for stack in state.table for card in stack)
    pool.subtract(down.values())
    pool.subtract(state.table[p][-1] for p in up)
    return Table(state, seat, down, unknown, +pool)


def _pair_gain(table: Table, kind: str) -> float:
    """What taking a pair of `kind` is worth to the mover, roughly."""
    state = table.state
    gain = PAIR_VALUE
    for owner in _side(state, table.seat):
        tops = discard_tops(state, owner)
        if kind in tops:
            gain = max(gain, PAIR_VALUE + (1 - UNSECURED) * sum(map(len, state.discards[owner])))
    if kind == X:
        gain += UNSECURED * max((sum(map(len, state.discards[s])) for s in range(state.players)), default=0)
    return gain


def _places(moves: list[RookieMove]) -> list[PlaceMove]:
    return [move for move in moves if move["type"] == "place"]


def _steals(moves: list[RookieMove]) -> list[StealMove]:
    return [move for move in moves if move["type"] == "steal"]


def _arrangements(moves: list[RookieMove]) -> list[ArrangeMove]:
    return [move for move in moves if move["type"] == "arrange"]


def _flip_move(position: int) -> FlipMove:
    return {"type": "flip", "position": position}


def _next_knows(table: Table, kind: str) -> bool:
    return bool(table.where(kind))


def _second_flip_worth(table: Table, first: str) -> float:
    """The expected worth of flipping an unknown card after `first` found no known match."""
    worth = 0.0
    for kind, count in table.pool.items():
        if not count:
            continue
        chance = table.chance(kind)
        if kind == first:
            worth += chance * _pair_gain(table, kind)
        elif X in (kind, first):
            chases = [k for k in (kind, first) if _next_knows(table, k)]
            worth -= chance * (OPEN_COST + (GIFT if chases else 0.0))
        elif _next_knows(table, kind):
            worth -= chance * GIFT
    return worth


def _first_flip(table: Table, rng: random.Random) -> FlipMove:
    kinds = Counter(table.known.values())
    pairs = [kind for kind, count in kinds.items() if count >= 2]
    if pairs:
        best = max(pairs, key=lambda kind: (_pair_gain(table, kind), kind))
        return _flip_move(table.where(best)[0])
    if table.unknown:
        return _flip_move(rng.choice(table.unknown))
    return _flip_move(_known_card(table))


def _known_card(table: Table) -> int:
    """A known card to turn up when no card is unknown: one that uncovers a new top (it
    moves onto an empty place) if there is one, else a colour rather than an X. Turning up
    a lone card that uncovers nothing would leave the table as it was, turn after turn."""
    state = table.state
    empty = any(not stack for stack in state.table)

    def rank(position: int) -> tuple[bool, bool, int]:
        uncovers = empty and len(state.table[position]) > 1
        return (not uncovers, table.known[position] == X, position)

    return min(table.known, key=rank)


def _second_flip(table: Table, rng: random.Random) -> FlipMove:
    state = table.state
    first = state.table[state.flipped[0]][-1]
    match = table.where(first)
    if match:
        return _flip_move(match[0])
    safe = [p for p, card in table.known.items() if first != X and card != X]
    if table.unknown and (not safe or _second_flip_worth(table, first) > 0):
        return _flip_move(rng.choice(table.unknown))
    if safe:
        return _flip_move(min(safe))
    return _flip_move(min(table.known))


def _normal_start_chance(table: Table, extra: Sequence[str] = ()) -> float:
    """The chance of a pair from two fresh flips, the `extra` cards known as well."""
    kinds = Counter(table.known.values())
    kinds.update(extra)
    if any(count >= 2 for count in kinds.values()):
        return 1.0
    first_hits = sum(table.chance(kind) for kind in kinds)
    again = sum(table.chance(kind) ** 2 for kind in table.pool if kind not in kinds)
    return first_hits + again


def _open_kinds(state: RookieState) -> list[str]:
    return [state.table[p][-1] for p in state.open]


def _chase_flip(table: Table, rng: random.Random) -> FlipMove | None:
    """A sure chase if the player knows a match for an open card; else an unknown card."""
    open_kinds = set(_open_kinds(table.state))
    sure = [kind for kind in open_kinds if table.where(kind)]
    if sure:
        best = max(sure, key=lambda kind: (_pair_gain(table, kind), kind))
        return _flip_move(table.where(best)[0])
    if table.unknown:
        return _flip_move(rng.choice(table.unknown))
    return None


def _start(table: Table, rng: random.Random) -> RookieMove:
    """Chase the open cards, or turn them down for a normal start."""
    chase = _chase_flip(table, rng)
    if chase is None:
        return {"type": "turn_down"}
    if chase["position"] in table.known:
        return chase
    open_kinds = _open_kinds(table.state)
    hit = sum(table.chance(kind) for kind in set(open_kinds))
    if hit >= _normal_start_chance(table, open_kinds):
        return chase
    return {"type": "turn_down"}


def _best_by_value(state: RookieState, seat: int, known: set[int], moves: list[RookieMove]) -> RookieMove:
    """The move whose table scores best (placements, steals and arrangements are certain)."""
    scored = [(_after_value(state, seat, known, move), -index) for index, move in enumerate(moves)]
    return moves[-max(scored)[1]]


def _after_value(state: RookieState, seat: int, known: set[int], move: RookieMove) -> float:
    after = ENGINE.apply(state, seat, move)
    if after.phase == "arrange":
        known_kinds = Counter(_known_down(after, known).values())
        arrangement = _quick_arrange(after, _arrangements(ENGINE.legal_moves(after, after.turn)), known_kinds)
        after = ENGINE.apply(after, after.turn, arrangement)
    return evaluate(after, seat, known)


def policy(
    state: RookieState,
    seat: int,
    known: set[int],
    moves: list[RookieMove],
    rng: random.Random,
    exact: bool = False,
) -> RookieMove:
    """The normal player's move on a table it reads through `known`.

    `exact`: placements, steals and arrangements are tried with the engine rather than
    judged by their tops alone (slower; for the decision itself, not in simulations).
    """
    phase = state.phase
    if phase in ("place", "steal", "arrange"):
        if exact:
            return _best_by_value(state, seat, known, moves)
        known_kinds = Counter(_known_down(state, known).values())
        if phase == "place":
            return _quick_place(state, _places(moves), known_kinds)
        if phase == "arrange":
            return _quick_arrange(state, _arrangements(moves), known_kinds)
        return _quick_steal(state, _steals(moves))
    table = read_table(state, seat, known)
    move: RookieMove
    if phase == "start":
        move = _start(table, rng)
    elif phase == "chase":
        move = _chase_flip(table, rng) or _flip_move(min(table.known))
    elif state.flipped:
        move = _second_flip(table, rng)
    else:
        move = _first_flip(table, rng)
    return move if move in moves else moves[0]


# --- the levels ----------------------------------------------------------------------------


def choose(
    level: str, views: Sequence[RookieView], legal: list[RookieMove], rng: random.Random
) -> RookieMove:
    """The move of a Rookie computer seat at `level`, from its own views."""
    if len(legal) == 1:
        return legal[0]
    view = views[-1]
    memory = read_memory(views)
    seat = view["turn"]
    assert seat is not None  # a computer seat is asked only while the game runs
    state = sample_state(view, memory, rng)
    known = recalled(len(views), memory, level, rng)
    if level == "easy" and state.phase in ("place", "arrange") and rng.random() < EASY_SLIP:
        return rng.choice(legal)
    if level == "hard" and state.phase in ("start", "flip", "chase"):
        return _search(view, memory, seat, legal, rng)
    return policy(state, seat, known, legal, rng, exact=True)


def _candidates(
    state: RookieState, table: Table, proposal: RookieMove, rng: random.Random
) -> list[RookieMove]:
    """The choices worth a search, the proposal first: a second card or the start of a turn
    where no sure pair is known (an unknown card against a safe one, or a chase against
    turning the open cards down). Everything else the rules of thumb settle."""
    known_card = table.known.get(proposal["position"]) if proposal["type"] == "flip" else None
    sure = known_card is not None
    found: list[RookieMove]
    if state.phase == "flip" and state.flipped:
        first = state.table[state.flipped[0]][-1]
        if known_card == first:
            return [proposal]
        safe = sorted(p for p, card in table.known.items() if first != X and card != X)
        found = [_flip_move(rng.choice(table.unknown))] if table.unknown else []
        found += [_flip_move(safe[0])] if safe else []
    elif state.phase == "start":
        if sure:
            return [proposal]
        found = [{"type": "turn_down"}]
        found += [_flip_move(rng.choice(table.unknown))] if table.unknown else []
    else:
        return [proposal]
    kinds = {_choice_kind(table, move) for move in found}
    if _choice_kind(table, proposal) in kinds:
        found = [move for move in found if _choice_kind(table, move) != _choice_kind(table, proposal)]
    return [proposal, *found]


def _choice_kind(table: Table, move: RookieMove) -> str:
    """What a move amounts to: turning down, an unknown card, or a known one."""
    if move["type"] != "flip":
        return move["type"]
    return "known" if move["position"] in table.known else "unknown"


def _search(
    view: RookieView, memory: Memory, seat: int, legal: list[RookieMove], rng: random.Random
) -> RookieMove:
    """Each candidate played on the same sampled deals by the normal player: the proposal,
    unless another did surely better."""
    known = set(memory.seen)
    state = sample_state(view, memory, rng)
    proposal = policy(state, seat, known, legal, rng)
    candidates = [
        move for move in _candidates(state, read_table(state, seat, known), proposal, rng) if move in legal
    ]
    if len(candidates) <= 1:
        return proposal
    values: list[list[float]] = [[] for _ in candidates]
    spent = 0
    for _ in range(SAMPLES):
        deal = sample_state(view, memory, rng)
        seed = rng.randrange(2**32)
        for index, move in enumerate(candidates):
            value, moves = _simulate(deal, seat, known, move, random.Random(seed))
            values[index].append(value)
            spent += moves
        if spent >= BUDGET:
            break
    gains = {index: sure_gain(values[index], values[0]) for index in range(1, len(candidates))}
    best = max(gains, key=lambda index: gains[index])
    return candidates[best] if gains[best] > 0 else proposal


def sure_gain(values: list[float], proposed: list[float]) -> float:
    """How much better a choice did than the proposal on the same deals, when that is more
    than the luck of the deals explains (CONFIDENCE standard errors); else 0."""
    gains = [value - base for value, base in zip(values, proposed, strict=True)]
    if len(gains) < 2:
        return 0.0
    mean = statistics.fmean(gains)
    return mean if mean > CONFIDENCE * statistics.stdev(gains) / math.sqrt(len(gains)) else 0.0


def _simulate(
    state: RookieState, seat: int, known: set[int], move: RookieMove, rng: random.Random
) -> tuple[float, int]:
    """Play `move`, then everyone as the normal player, to the start of `seat`'s next turn:
    the score of the table reached and the moves it took."""
    memory = set(known)
    before = state
    state = ENGINE.apply(state, seat, move)
    _remember(memory, before, state)
    left_turn = False
    played = 1
    while played < HORIZON:
        if state.phase == "over":
            break
        mover = state.turn
        if mover != seat:
            left_turn = True
        elif left_turn and state.phase in ("start", "flip") and not state.flipped:
            break
        moves = ENGINE.legal_moves(state, mover)
        before = state
        state = ENGINE.apply(state, mover, policy(state, mover, memory, moves, rng))
        _remember(memory, before, state)
        played += 1
    return evaluate(state, seat, memory), played


def _remember(memory: set[int], before: RookieState, after: RookieState) -> None:
    """Keep the positions whose top everyone has seen, as the table changes."""
    counts = [len(stack) for stack in before.table]
    if after.last_flip is not before.last_flip and after.last_flip:
        lands, _, source = after.last_flip[-1]
        if lands != source:
            memory.discard(source)
            counts[source] -= 1
            counts[lands] = 1
        memory.add(lands)
    for position in range(POSITIONS):
        if len(after.table[position]) < counts[position]:
            memory.discard(position)
