"""Ratings with OpenSkill (Plackett–Luce): free-for-all, teams and draws; and the rules that
keep a server's table honest.

- A match a person left before every person's seat made two moves of its own is abandoned:
  unrated for everyone (`data.model.Departure.early`).
- Between the same members, only the first REPEAT_LIMIT rated results in REPEAT_WINDOW change
  ratings. "The same members": a result is a repeat when any two of its people already shared
  REPEAT_LIMIT rated results in the window (in a match of four, any pair of them), so adding
  seats never opens a way around the limit. Repeats stay in the history, marked unrated.
- A member is listed on a leaderboard once they have LISTED_GAMES rated matches there against
  at least LISTED_OPPONENTS different members (partners are not opponents); before that their
  rating is provisional.
- A match in which a player used hints is unrated, unless every seat whose player used them
  ends it a plain loser (not a winner, not in a draw): a hint never dodges a loss (`hinted`).
- Whoever left before the end (resigned, replaced after time-outs, gone from the server,
  claimed against) ranks below everyone who stayed and wins nothing, whatever a stand-in did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

from data.model import MatchResult, RatedResult, SeatResult

MODEL = PlackettLuce()
OVERALL = "*"  # the game key of the rating across every game
REPEAT_LIMIT = 3
REPEAT_WINDOW = timedelta(hours=24)
LISTED_GAMES = 5
LISTED_OPPONENTS = 3


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The number players see: 1000 for a newcomer, rising as the bot becomes sure of them."""
        return round(1000 + 40 * (self.mu - 3 * self.sigma))


NEWCOMER = Skill(MODEL.mu, MODEL.sigma)


def hinted(result: MatchResult, hints: Mapping[int, int]) -> bool:
    """Whether hints leave the result unrated: some seat whose player used a hint (`hints`, by
    seat) won or drew. A match whose hinted seats all lost stays rated, so pressing Hint in a
    lost position never saves its player a rating loss."""
    return any(seat.winner for seat in result.seats if hints.get(seat.seat, 0) > 0)


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
    teams, ranks = ranked_teams(result)
    changes: dict[tuple[str, int], tuple[Skill, Skill]] = {}
    for board in boards:
        before = [[current.get((board, s.user_id), NEWCOMER) for s in team] for team in teams]
        after = rate(before, ranks)
        for team, old_team, new_team in zip(teams, before, after, strict=True):
            for s, old, new in zip(team, old_team, new_team, strict=True):
                changes[board, s.user_id] = (old, new)
    return changes


def ranked_teams(result: MatchResult) -> tuple[list[list[SeatResult]], list[int]]:
    """The teams OpenSkill rates and their ranks (0 is best). Those who stayed are ranked among
    themselves by the result; whoever left (resigned, replaced after time-outs, gone, claimed
    against) ranks below all of them on their own — a team that played on without them shares
    nothing with them — and of two who left, the one who stayed longer ranks higher."""
    stayed = [s for s in result.seats if not s.resigned]
    team_ids = sorted({s.team for s in stayed})
    teams = [[s for s in stayed if s.team == team] for team in team_ids]
    scores = [s.score for s in sorted(result.seats, key=lambda s: s.seat)]
    ranks = team_ranks(
        [[s.seat for s in team] for team in teams], {s.seat for s in stayed if s.winner}, scores
    )
    leavers = sorted((s for s in result.seats if s.resigned), key=lambda s: -(s.left_at or 0))
    turns = sorted({s.left_at or 0 for s in leavers}, reverse=True)
    below = max(ranks, default=-1) + 1
    return teams + [[s] for s in leavers], ranks + [below + turns.index(s.left_at or 0) for s in leavers]


def window_start(stamp: str) -> str:
    """The stored time REPEAT_WINDOW before `stamp`: results after it count towards repeats."""
    return (datetime.fromisoformat(stamp) - REPEAT_WINDOW).isoformat()


def opponent_pairs(result: MatchResult) -> list[tuple[int, int]]:
    """(member, opponent) for every two people of a result on different teams, both ways."""
    return [
        (a.user_id, b.user_id)
        for a in result.seats
        for b in result.seats
        if a.team != b.team and a.user_id != b.user_id
    ]


def listed(games: int, opponents: int) -> bool:
    """Whether a member with this record appears on the leaderboard (else: provisional)."""
    return games >= LISTED_GAMES and opponents >= LISTED_OPPONENTS


def streak(history: Sequence[RatedResult]) -> int:
    """The streak a history (oldest first) ends on: n for n wins in a row, -n for n losses in a
    row, 0 when it is empty or ends on a draw (a draw ends a streak)."""
    if not history or history[-1].drew:
        return 0
    won = history[-1].won
    length = 0
    for result in reversed(history):
        if result.drew or result.won != won:
            break
        length += 1
    return length if won else -length
