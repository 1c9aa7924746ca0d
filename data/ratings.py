"""Ratings with OpenSkill (Plackett–Luce): free-for-all, teams and draws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

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
