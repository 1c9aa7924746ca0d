"""The Sequence Numbers computer players: legal to the end at every seat count,
deterministic, view-only, consistent in what they imagine, ranked."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest

import ai
import ai.sequence_numbers
from ai import arena
from ai.sequence_numbers import CANONICAL, card_id, deal, knowledge, read_board
from benchmarks.references import sequence_numbers as reference
from benchmarks.sequence_oracle import KNOWS, Sim, oracle_wins
from games.sequence_numbers import CARDS, CELLS_OF, CORNERS, ENGINE, SIZE, SequenceState
from tests.games.test_sequence_numbers import _name, at, card_for, hidden_twin, make, six_in_a_row

SETUPS = [(2, {}), (3, {}), (4, {}), (6, {}), (6, {"teams": 3})]
PLUS = next(i for i, c in enumerate(CARDS) if c.kind == "plus")


def first_wins(first: str, second: str, games: int) -> float:
    return arena.first_wins(ENGINE, ai.sequence_numbers.choose, first, second, games)


def decide(level: str, state: SequenceState, seed: int, history: list[dict] | None = None) -> dict:
    """The choice of the seat to move, from its views (`history` before the newest)."""
    seat = state.turn
    views = [*(history or []), ENGINE.view(state, seat)]
    return ai.choose(
        ai.sequence_numbers.choose, level, views, ENGINE.legal_moves(state, seat), random.Random(seed)
    )


def random_game(players: int, seed: int) -> list[SequenceState]:
    """Every state of a seeded game of random legal moves."""
    state = ENGINE.new_game(players, seed)
    rng, states = random.Random(seed), [state]
    while seats := ENGINE.current_seats(state):
        state = ENGINE.apply(state, seats[0], rng.choice(ENGINE.legal_moves(state, seats[0])))
        states.append(state)
    return states


def midgame(players: int, seed: int, moves: int) -> tuple[SequenceState, list[list[dict]]]:
    """A position some moves into a game by time-out moves, with every seat's views."""
    state = ENGINE.new_game(players, seed)
    views = [[ENGINE.view(state, s)] for s in range(players)]
    for _ in range(moves):
        seat = state.turn
        state = ENGINE.apply(state, seat, ENGINE.timeout_move(state, seat))
        for s in range(players):
            views[s].append(ENGINE.view(state, s))
    return state, views


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_every_level_plays_a_match_to_the_end_with_legal_moves_only(level, players, options):
    state = arena.play(ENGINE, ai.sequence_numbers.choose, (level,) * players, seed=players, options=options)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and (outcome.winners or outcome.draw)
    assert sum(chip is not None for chip in state.chips) >= 5


@pytest.mark.parametrize("level", ai.LEVELS)
def test_mixed_levels_in_teams_finish_and_a_team_wins_with_two_sequences(level):
    levels = (level, "normal", "hard", "easy")
    state = arena.play(ENGINE, ai.sequence_numbers.choose, levels, seed=11)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and len(outcome.winners) == 2
    assert max(len(runs) for runs in state.sequences) == 2


@pytest.mark.parametrize("level", ai.LEVELS)
def test_the_same_views_legal_moves_and_seed_give_the_same_choice(level):
    state, views = midgame(3, 5, 12)
    choices = [decide(level, state, 7, views[state.turn][:-1]) for _ in range(3)]
    assert choices[0] == choices[1] == choices[2]


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize("players", [2, 4])
def test_states_with_equal_views_for_the_seat_give_the_same_choice(level, players):
    rng = random.Random(5)
    for seed in range(4):
        state, views = midgame(players, seed, 10)
        seat = state.turn
        twin = hidden_twin(state, seat, rng)
        assert twin.deck != state.deck and twin.hands != state.hands
        assert ENGINE.view(twin, seat) == ENGINE.view(state, seat)
        assert ENGINE.legal_moves(twin, seat) == ENGINE.legal_moves(state, seat)
        history = views[seat][:-1]
        assert decide(level, twin, seed, history) == decide(level, state, seed, history)


@pytest.mark.parametrize(("players", "seed"), [(3, 4), (3, 5)])
def test_what_a_seat_imagines_of_hidden_cards_holds_through_reshuffles(players, seed):
    """At every moment: the unseen cards are exactly the other hands and the deck; those
    known to be held (not in the rebuilt deck) are in the other hands, as many per seat as
    the views say; and a sampled deal puts only unseen cards in hands of the right sizes."""
    states = random_game(players, seed)
    assert states[-1].step > 1  # the discards were reshuffled into a new deck
    views = [[ENGINE.view(s, seat) for s in states] for seat in range(players)]
    rng, known_held = random.Random(seed), 0
    for step in range(0, len(states), 3):
        state = states[step]
        for seat in range(players):
            known = knowledge(views[seat][: step + 1])
            others = {s: Counter(CANONICAL[c] for c in state.hands[s]) for s in range(players) if s != seat}
            hidden = sum(others.values(), Counter()) + Counter(CANONICAL[c] for c in state.deck)
            assert known.unseen == hidden
            for s, count in known.held_by.items():
                assert sum((known.held & others[s]).values()) == count
            assert sum(known.held.values()) == sum(known.held_by.values())
            known_held += sum(known.held.values())
            hands, deck = deal(views[seat][step], known, rng)
            assert sum((Counter(h) for h in hands.values()), Counter()) + Counter(deck) == hidden
            assert {s: len(h) for s, h in hands.items()} == {s: len(state.hands[s]) for s in others}
            for s, count in known.held_by.items():
                assert sum((Counter(hands[s]) & known.held).values()) >= count
    assert known_held  # the reshuffle told the seats which cards are in other hands


def test_the_board_read_from_a_view_agrees_with_the_engine_on_every_sequence():
    """A chip that the players' board says completes five is one the engine locks."""
    states = random_game(4, 3)
    checked = 0
    for state, after in itertools.pairwise(states):
        if after.last is None or after.last[0] != "place" or after.choices:
            continue
        seat, cell = after.last[1], after.last[3]
        board = read_board(ENGINE.view(state, seat))
        board.place(cell, seat % state.team_count)
        assert bool(board.full_runs(cell, seat % state.team_count)) == bool(after.locked_now)
        checked += bool(after.locked_now)
    assert checked  # some chips did complete five


def test_every_level_completes_five_in_a_row_when_it_can():
    chips = {"A2": 0, "A3": 0, "A4": 0, "A5": 0}
    state = make(chips=chips, hands=[[card_for("A6"), card_for("J5")], [card_for("J6")]])
    for level in ai.LEVELS:
        move = decide(level, state, 1)
        assert (move["row"], move["col"]) == divmod(at("A6"), SIZE), level


def test_normal_and_hard_block_a_line_of_four_rather_than_build_elsewhere():
    chips = {"C3": 1, "D3": 1, "E3": 1, "F3": 1, "C5": 0}
    hand = [card_for("G3"), card_for("D5")]
    state = make(chips=chips, hands=[hand, [card_for("J6")]])
    for level in ("normal", "hard"):
        move = decide(level, state, 1)
        assert (move["row"], move["col"]) in (divmod(at("G3"), SIZE), divmod(at("B3"), SIZE)), level


def test_hard_keeps_a_plus_card_when_a_problem_card_does_as_well():
    state = make(chips={"E5": 0}, hands=[[PLUS, card_for("E6")], [card_for("J6")]])
    for seed in range(4):
        move = decide("hard", state, seed)
        assert state.hands[0][move["card"]] != PLUS, seed


def test_only_hard_sees_that_a_line_of_four_can_no_longer_be_completed():
    """Both cards of the numbers on B3 and G3 and both plus cards are played, and hard
    holds a G3 card: the other team's C3–F3 is dead. Normal blocks it all the same;
    hard builds its own line next to C5 instead."""
    chips = {"C3": 1, "D3": 1, "E3": 1, "F3": 1, "C5": 0}
    gone = (card_for("G3", "-"), card_for("B3"), card_for("B3", "-"), PLUS, PLUS + 1)
    state = make(chips=chips, hands=[[card_for("G3"), card_for("D5")], [card_for("J6")]])
    state = replace(state, deck=tuple(c for c in state.deck if c not in gone), discards=((), gone))
    assert divmod(at("G3"), SIZE) == tuple(decide("normal", state, 1)[k] for k in ("row", "col"))
    for seed in range(4):
        move = decide("hard", state, seed)
        assert (move["row"], move["col"]) == divmod(at("D5"), SIZE), seed


def test_a_dead_card_is_traded_before_playing():
    dead = card_for("B2")
    chips = {name: 1 for name in (_name(cell) for cell in CELLS_OF[CARDS[dead].answer])}
    state = make(chips=chips, hands=[[card_for("E6"), dead], [card_for("J6")]])
    for level in ("normal", "hard"):
        assert decide(level, state, 1) == {"type": "trade", "card": 1}, level


def test_the_lock_choice_keeps_room_for_a_second_sequence():
    """The rules' example: six in row 3 once C3 is played; A3–E3 keeps E3–I3 possible."""
    state = six_in_a_row()
    for seed in range(4):
        assert decide("hard", state, seed) == {"type": "lock", "from": "A3", "to": "E3"}, seed
    assert decide("easy", state, 1)["type"] == decide("normal", state, 1)["type"] == "lock"


def test_a_spectators_views_are_refused_with_a_sentence():
    state = ENGINE.new_game(2, 1)
    with pytest.raises(ValueError, match="seat to move"):
        ai.choose(
            ai.sequence_numbers.choose,
            "hard",
            [ENGINE.view(state, None)],
            ENGINE.legal_moves(state, state.turn),
            random.Random(0),
        )


def test_cards_are_read_from_the_view_by_their_text():
    assert {card_id(c.public()) for c in CARDS} == set(CANONICAL)


def test_hard_wins_most_of_a_few_seeded_matches_against_easy():
    """A fast sign of the levels' order; `python -m benchmarks levels` checks each level
    against the one below on enough matches."""
    assert first_wins("hard", "easy", games=4) > 0.5


def test_the_greedy_reference_plays_legal_moves_to_the_end_whatever_its_level():
    """The reference hard is measured against: the same seeded match whatever level it is given."""
    ends = [arena.play(ENGINE, reference.choose, (level, level), seed=3) for level in ai.LEVELS]
    outcome = ENGINE.outcome(ends[0])
    assert outcome is not None and outcome.winners
    assert ends[0] == ends[1] == ends[2]


def test_the_oracles_simulation_follows_the_engine_through_a_reshuffle():
    """The cheating diagnostic plays the match on exactly as the engine will: the same
    hands, deck and chips after every greedy move, also once the deck is rebuilt."""
    state = ENGINE.new_game(2, 5)
    state = replace(state, deck=state.deck[:2], discards=(state.deck[2:], ()))  # two draws left
    sim = Sim.of(state)
    for _ in range(6):
        seat = state.turn
        card, cell = sim.greedy(seat) or (-1, -1)
        assert not sim.play(seat, card, cell)
        state = ENGINE.apply(
            state,
            seat,
            {"type": "play", "card": state.hands[seat].index(card), "row": cell // SIZE, "col": cell % SIZE},
        )
        assert (tuple(map(tuple, sim.hands)), tuple(sim.deck)) == (state.hands, state.deck)
        assert [chip if chip >= 0 else None for chip in sim.board.chips if chip != -2] == [
            chip for i, chip in enumerate(state.chips) if i not in CORNERS
        ]
    assert state.step == sim.step == 2  # the deck was rebuilt once


def test_the_oracle_plays_legal_moves_to_the_end_in_every_way_of_knowing():
    for know in KNOWS:
        assert 0.0 <= oracle_wins(reference.choose, 1, know, samples=2) <= 1.0
