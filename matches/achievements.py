"""The achievements: a catalogue of what a player can earn, and the rules that award them.

Two kinds. **League** achievements come from a player's finished results in order (wins, a
streak, a hard computer beaten) and from their placings (a tournament won, a season podium):
`league_achievements`. **Feats** come from one game's move log, read by the game's own
`feats` (named in its spec, see games/feats/): `match_feats`.

How results count: a *win* is an outright win — the player is among the winners and the
match is not a draw. A shared win (a draw) is no win and no loss: it counts towards nothing
and breaks a run of wins, since "five wins in a row" means five won matches one after
another. Each achievement is earned once, at the first result (or placing) that earns it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from ai import LEVELS
from games.feats import Achievement, FeatsBySeat, Logged
from games.replay import replay_states
from locales import N_
from matches.spec import AnyGameSpec

HARD = LEVELS[-1]


def _league(key: str, name: str, description: str, emoji: str) -> Achievement:
    return Achievement(key, name, description, emoji, "league")


def feat(game: str, key: str, name: str, description: str, emoji: str) -> Achievement:
    """A feat of `game` (declared with the game, in its spec's `achievements`)."""
    return Achievement(key, name, description, emoji, "feat", game)


FIRST_WIN = "league.first_win"
WINS_10 = "league.wins_10"
WINS_50 = "league.wins_50"
STREAK_5 = "league.streak_5"
BEAT_HARD = "league.beat_hard"
TOURNAMENT_WIN = "league.tournament_win"
SEASON_PODIUM = "league.season_podium"

LEAGUE: tuple[Achievement, ...] = (
    _league(FIRST_WIN, N_("First win"), N_("Win a match."), "🥇"),
    _league(WINS_10, N_("Ten wins"), N_("Win 10 matches."), "🔟"),
    _league(WINS_50, N_("Fifty wins"), N_("Win 50 matches."), "🏛️"),
    _league(STREAK_5, N_("On a roll"), N_("Win 5 matches in a row, without a loss or a draw between."), "🔥"),
    _league(BEAT_HARD, N_("Giant slayer"), N_("Win a match against a hard computer player."), "🤖"),
    _league(TOURNAMENT_WIN, N_("Champion"), N_("Win a tournament."), "🏆"),
    _league(SEASON_PODIUM, N_("On the podium"), N_("Finish a season in the top three of the table."), "🎖️"),
)


def catalogue(specs: Iterable[AnyGameSpec]) -> tuple[Achievement, ...]:
    """Every achievement: the league's, then each game's feats as its spec names them."""
    return LEAGUE + tuple(achievement for spec in specs for achievement in spec.achievements)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A player's finished match: its `game`, when it `ended`, whether the player is among the
    winners (`won`) and whether it was a `draw` (a shared win, or no winner), and the levels of
    the computer players among the opponents (`computers`, empty when all were people)."""

    game: str
    ended: datetime
    won: bool
    draw: bool = False
    computers: tuple[str, ...] = ()

    @property
    def outright_win(self) -> bool:
        return self.won and not self.draw


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's final place (`rank`, 1 for the first) in a tournament or a season, and when."""

    kind: Literal["tournament", "season"]
    ended: datetime
    rank: int


@dataclass(frozen=True, slots=True)
class Earned:
    """An achievement earned (`key`) and when (`at`: the end of the result or placing that did it)."""

    key: str
    at: datetime


WIN_COUNTS = ((1, FIRST_WIN), (10, WINS_10), (50, WINS_50))
STREAK = 5
PODIUM = 3


def league_achievements(results: Sequence[MatchResult], placings: Iterable[Placing] = ()) -> list[Earned]:
    """The league achievements a player's results (oldest first) and placings earn, each once,
    in the order they were earned."""
    earned: dict[str, datetime] = {}
    wins = streak = 0
    for result in results:
        if not result.outright_win:
            streak = 0
            continue
        wins, streak = wins + 1, streak + 1
        for count, key in WIN_COUNTS:
            if wins >= count:
                earned.setdefault(key, result.ended)
        if streak >= STREAK:
            earned.setdefault(STREAK_5, result.ended)
        if HARD in result.computers:
            earned.setdefault(BEAT_HARD, result.ended)
    for placing in sorted(placings, key=lambda placing: placing.ended):
        if placing.kind == "tournament" and placing.rank == 1:
            earned.setdefault(TOURNAMENT_WIN, placing.ended)
        if placing.kind == "season" and placing.rank <= PODIUM:
            earned.setdefault(SEASON_PODIUM, placing.ended)
    return sorted((Earned(key, at) for key, at in earned.items()), key=lambda earned: earned.at)


def match_feats(
    spec: AnyGameSpec, players: int, seed: int, options: Mapping[str, Any], log: Sequence[Logged]
) -> FeatsBySeat:
    """The feats each seat achieved in a finished match, replayed from its seed, options and move
    log as the bot stored them (`{}` for a game without feats). Raises `GameError` for a log
    that does not replay."""
    if spec.feats is None:
        return {}
    states = replay_states(spec.engine, players, seed, options, [(t, s, dict(m)) for t, s, m in log])
    return spec.feats([spec.engine.view(state, None) for state in states], log)
