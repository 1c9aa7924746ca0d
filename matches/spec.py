"""A game as the bot hosts it, declared once (`GameSpec`), and the games one bot hosts (`Games`).

Everything that differs between games is named in its spec: the engine, the computer
player, the renderer's board image and narration, the move presentation (the game's
`GameUI`, its cog), the rules texts and the options. The engine registry, replays, computer
seats, the cog list, `/help` and the benchmarks all read the specs they are given: a new
game is one more spec in the tuple given to the bot, and nothing else changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from PIL import Image

from ai.reasons import Reason
from games.base import AnyEngine, Engine, seat_counts
from games.feats import Achievement, FeatsBySeat, Logged
from games.replay import replay_states

LogRow = tuple[int, int, dict[str, Any]]  # (turn, seat, move) as the move log keeps it

View = TypeVar("View")  # the game's view type (a `CommonView`)
Move = TypeVar("Move")  # the game's move type
ComputerPlayer = Callable[[str, Sequence[View], list[Move], random.Random], Move]
"""`choose(level, views, legal, rng)`: a computer seat's move, one element of `legal`, from the
seat's own views (see ai/__init__.py)."""
BoardImage = Callable[..., Image.Image]
"""`board_image(view, viewer=None, lang=...)`: the renderer's board of a view (replays draw it)."""
Render = Callable[..., bytes]
"""`render(view, *, lang=...)`: the renderer's PNG of a board, as the board message shows it."""
Narrator = Callable[[View, Callable[[int], str], str], list[str]]
"""`narrate(view, name, lang)`: the renderer's words for what just happened, seats named by `name`."""
Presentation = Callable[[Any, "GameSpec[View, Move]"], Any]
"""Makes the game's `GameUI` (its cog) for a client: `presentation(client, spec)`."""
RulesPicture = Callable[[str], tuple[bytes, str]]
"""`rules_picture(lang)`: a small PNG shown under the rules, and its alt text in that language."""
Explainer = Callable[[Sequence[View], Move], Reason]
"""`explain(views, move)`: why a move is good, from the seat's own views (see ai/reasons/)."""
FeatReader = Callable[[Sequence[View], Sequence[Logged]], FeatsBySeat]
"""`feats(views, log)`: the feats each seat achieved in a finished match, from the spectator views
of its states and its move log (see games/feats/)."""
EngineOptions = Callable[[Mapping[str, Any], int], Mapping[str, Any]]
"""`options(lobby options, players)`: the options the engine gets for that many seats (some
apply only to some seat counts)."""


def as_chosen(options: Mapping[str, Any], players: int) -> Mapping[str, Any]:
    """The engine gets the lobby's options as they are."""
    return options


def nothing_to_prepare() -> None:
    """A renderer with nothing to prepare at start-up."""


@dataclass(frozen=True, slots=True)
class GameSpec(Generic[View, Move]):
    """Everything the bot knows of one game, typed by its view and move types (the engine's):
    its computer player, narration and presentation take the same. `name` and `title` are the
    engine's."""

    engine: Engine[Any, View, Move]
    render: Render
    board: BoardImage
    narrate: Narrator[View]
    presentation: Presentation[View, Move]
    rules: Callable[[str], str]  # the short rules `/<game> rules` shows, in a language ("en", "de"…)
    choose: ComputerPlayer[View, Move] | None = None  # None: no computer player, so no computer seats
    options: EngineOptions = as_chosen  # the engine's options from a lobby's, for a seat count
    bench_players: int = 4  # the seats of the benchmarks' playouts
    prepare: Callable[[], None] = nothing_to_prepare  # the renderer's start-up work (off the loop)
    rules_picture: RulesPicture | None = None  # where a picture says a rule better than words
    explain: Explainer[View, Move] | None = None  # why the hint's move is good; None: no reason given
    feats: FeatReader[View] | None = None  # what a finished match's log shows; None: no feats
    achievements: tuple[Achievement, ...] = ()  # the feats `feats` finds, as players read them
    secrets: bool = True  # False: every seat sees what spectators see (its hint is on the board too)

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def title(self) -> str:
        return self.engine.title

    def states(
        self,
        players: int,
        seed: int,
        chosen: Mapping[str, Any],
        log: Sequence[tuple[int, int, dict[str, Any]]],
    ) -> list[Any]:
        """A match's states from its seed through its move `log`, the start first: the engine
        gets the options `chosen` in the lobby, as for `players` seats."""
        return replay_states(self.engine, players, seed, self.options(chosen, players), log)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The seat counts a match can start with under the default options."""
        return seat_counts(self.engine)


AnyGameSpec = GameSpec[Any, Any]
"""The spec of any game, as the framework holds them."""


class Games(Mapping[str, AnyGameSpec]):
    """The games one bot hosts, by name, in the order given: immutable, handed to the bot and
    to its match framework (never a module's global)."""

    def __init__(self, specs: Iterable[AnyGameSpec]) -> None:
        by_name: dict[str, AnyGameSpec] = {}
        for spec in specs:
            if spec.name in by_name:
                raise ValueError(f"Two games are called {spec.name!r}: give each engine its own name.")
            by_name[spec.name] = spec
        self._by_name = MappingProxyType(by_name)

    def __getitem__(self, name: str) -> AnyGameSpec:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def __repr__(self) -> str:
        return f"Games({', '.join(self._by_name)})"

    def engine(self, name: str) -> AnyEngine | None:
        """The engine of a hosted game, None for a game this bot does not host."""
        spec = self._by_name.get(name)
        return spec.engine if spec is not None else None

    def title_of(self, name: str) -> str:
        """A game's title for lists of matches, also for a stored game this bot no longer hosts."""
        spec = self._by_name.get(name)
        return spec.title if spec is not None else f"{name} (no longer hosted)"
