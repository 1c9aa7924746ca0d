"""The games the tests check, each with its test helpers: the games the bot hosts (their specs,
`cogs.registry.GAMES`) and Nim, a tiny game that lives only in the tests and joins them through
its spec alone. The contract tests iterate `TESTED`; a test that needs a bot hosting Nim too
gives it `GAMES`."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cogs.registry import GAMES as HOSTED
from games.base import AnyEngine
from matches.spec import Games, GameSpec
from tests.games import test_rookie, test_sequence_numbers, test_tetris_link, test_tremember, test_triominos
from tests.nim import game as nim

HiddenTwin = Callable[[Any, int | None, random.Random], Any]
"""`hidden_twin(state, seat, rng)`: a state differing from `state` only in what `seat` cannot see
(seat None: a spectator)."""


@dataclass(frozen=True, slots=True)
class Tested:
    """A game as the tests know it: its spec and its test helpers."""

    spec: GameSpec
    hidden_twin: HiddenTwin

    @property
    def name(self) -> str:
        return self.spec.name


TWINS: dict[str, HiddenTwin] = {
    "tremember": test_tremember.hidden_twin,
    "tetris_link": test_tetris_link.hidden_twin,
    "rookie": test_rookie.hidden_twin,
    "triominos": test_triominos.hidden_twin,
    "sequence_numbers": test_sequence_numbers.hidden_twin,
}
TESTED = (*(Tested(spec, TWINS[name]) for name, spec in HOSTED.items()), Tested(nim.SPEC, nim.hidden_twin))
GAMES = Games(tested.spec for tested in TESTED)  # the hosted games and Nim
ENGINES: dict[str, AnyEngine] = {name: spec.engine for name, spec in HOSTED.items()}  # the hosted games'
