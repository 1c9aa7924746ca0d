"""Ratings with OpenSkill (Plackett–Luce): free-for-all, teams and draws."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from data.model import MatchResult

MODEL = PlackettLuce()
OVERALL = "*"  # the game key of the rating across every game


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The number players see: 1000 for a newcomer, rising as the bot becomes sure of them."""
        return round(1000 + 40 * (self.mu - 3 * self.sigma))


NEWCOMER = Skill(MODEL.mu, MODEL.sigma)


def team_ranks(teams: Sequence[Sequence[int]], winners: set[int], scores: Sequence[int]) -> list[int]:
    """Ranks for OpenSkill (0 is best): winning teams share rank 0 (a draw when several);
    the others follow by their best score, equal scores sharing a rank."""
    ranks: list[int] = []
    losing = sorted({max(scores[s] for s in team) for team in teams if not set(team) & winners}, reverse=True)
    for team in teams:
        if set(team) & winners:
            ranks.append(0)
        else:
            ranks.append(1 + losing.index(max(scores[s] for s in team)))
    return ranks


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """New skills after one match, exactly as OpenSkill's Plackett–Luce model rates it."""
    rated = MODEL.rate(
        [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams], ranks=list(ranks)
    )
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]


def rate_result(
    result: MatchResult, boards: Sequence[str], current: Mapping[tuple[str, int], Skill]
) -> dict[tuple[str, int], tuple[Skill, Skill]]:
    """Every seat's skill on each board (a game's and the overall table) before and after a
    match, keyed by (board, user_id). `current` holds the stored skills; whoever is missing
    from it is a newcomer. The same for every storage backend: it reads once, writes once."""
    team_ids = sorted({s.team for s in result.seats})
    teams = [[s for s in result.seats if s.team == team] for team in team_ids]
    # A resigned or removed player ranks below everyone who stayed.
    floor = min(s.score for s in result.seats) - 1
    scores = {s.seat: floor if s.resigned else s.score for s in result.seats}
    ranks = team_ranks(
        [[s.seat for s in team] for team in teams],
        {s.seat for s in result.seats if s.winner},
        [scores[seat] for seat in sorted(scores)],
    )
    changes: dict[tuple[str, int], tuple[Skill, Skill]] = {}
    for board in boards:
        before = [[current.get((board, s.user_id), NEWCOMER) for s in team] for team in teams]
        after = rate(before, ranks)
        for team, old_team, new_team in zip(teams, before, after, strict=True):
            for s, old, new in zip(team, old_team, new_team, strict=True):
                changes[board, s.user_id] = (old, new)
    return changes
