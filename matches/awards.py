"""Awarding achievements (see matches/achievements.py for what earns them): at the end of every
match, once for the results stored before achievements existed, and for placings.

Which matches count, so that a second account cannot farm them:
- **League** achievements (wins, a run of wins, a hard computer beaten) count a player's results
  that were rated, or unrated only because computers played in them; never an abandoned match,
  nor one in which that player asked for a hint. Other results (repeats between the same
  members past the daily limit, hinted ones) count for nothing, and break no run.
- **Feats** come from any finished match that was not abandoned and in which the player asked
  no hint, with people or computers; not from a seat a computer played on after time-outs.
- Computers earn nothing.

Each achievement is earned once (the storage keeps the first); a match's award and its mark as
awarded are one transaction, so a match the bot stopped before awarding is awarded, silently,
when it starts again — as are the matches stored before achievements existed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from data.model import (
    TIMED_OUT,
    WITH_COMPUTERS,
    Award,
    FinishedMatch,
    PlayedSeat,
    PlayerResult,
    Shards,
    StorageUnavailable,
    is_computer,
    now_iso,
)
from data.repositories import Database
from games import GameError
from games.feats import Achievement
from locales import and_list, gettext
from matches.achievements import MatchResult, Placing, catalogue, league_achievements, match_feats
from matches.match import Match, computer_level, who
from matches.spec import Games

log = logging.getLogger(__name__)
BATCH = 100  # matches awarded together when catching up (a replay each, in a thread)


def counts_for_league(result: PlayerResult) -> bool:
    """Whether a result counts towards a player's league achievements (see the module's doc)."""
    return not result.abandoned and result.unrated in (None, WITH_COMPUTERS) and result.seat.hints == 0


def counts_for_feats(match: FinishedMatch, seat: PlayedSeat) -> bool:
    """Whether the feats of a seat in a finished match are its person's (see the module's doc): not
    when a computer played the seat on for them after time-outs."""
    return (
        not match.abandoned and not is_computer(seat.user_id) and seat.hints == 0 and seat.left != TIMED_OUT
    )


def league_awards(guild_id: int, user_id: int, results: Sequence[PlayerResult]) -> list[Award]:
    """The league achievements a player's results on a server (oldest first) earn, each with the
    match that earned it."""
    counted = [result for result in results if counts_for_league(result)]
    by_end = {datetime.fromisoformat(result.finished_at): result.match_id for result in counted}
    earned = league_achievements(
        [
            MatchResult(
                game=result.game,
                ended=datetime.fromisoformat(result.finished_at),
                won=result.seat.winner and not result.seat.resigned,
                draw=result.draw,
                computers=tuple(level for user in result.computers if (level := computer_level(user))),
            )
            for result in counted
        ]
    )
    return [Award(guild_id, user_id, e.key, e.at.isoformat(), by_end[e.at]) for e in earned]


def feat_awards(games: Games, match: FinishedMatch) -> list[Award]:
    """The feats of a finished match, each its seat's person's (see `counts_for_feats`)."""
    spec = games.get(match.game)
    people = {seat.seat: seat.user_id for seat in match.seats if counts_for_feats(match, seat)}
    if spec is None or not people:
        return []
    players = len(match.seats)
    try:
        options = spec.options(match.options, players)
        found = match_feats(spec, players, match.seed, options, match.log)
    except GameError as error:
        log.warning("The feats of match %s cannot be read: %s", match.match_id, error)
        return []
    return [
        Award(match.guild_id, people[seat], key, match.finished_at, match.match_id)
        for seat, keys in found.items()
        if seat in people
        for key in sorted(keys)
    ]


def feats_of(games: Games, finished: Sequence[FinishedMatch]) -> list[Award]:
    """The feats of the finished matches (a replay each)."""
    return [award for match in finished for award in feat_awards(games, match)]


def league_of(histories: Mapping[int, Mapping[int, list[PlayerResult]]]) -> list[Award]:
    """The league achievements of players from their whole `histories` (by server, then player)."""
    return [
        award
        for guild_id, players in histories.items()
        for user_id, results in players.items()
        for award in league_awards(guild_id, user_id, results)
    ]


def people_by_guild(finished: Iterable[FinishedMatch]) -> dict[int, set[int]]:
    """The people of the finished matches, by server."""
    people: dict[int, set[int]] = {}
    for match in finished:
        people.setdefault(match.guild_id, set()).update(
            seat.user_id for seat in match.seats if not is_computer(seat.user_id)
        )
    return people


def earned_line(user_id: int, earned: Sequence[Achievement], lang: str) -> str:
    """ "🏅 Alice earned 🥇 First win and 🤖 Giant slayer", in `lang` (no full stop: a name such as
    "Rookie!" may end the line)."""
    names = and_list(
        lang, [f"{achievement.emoji} **{gettext(lang, achievement.name)}**" for achievement in earned]
    )
    return gettext(lang, "🏅 {player} earned {achievements}", player=who(user_id, lang), achievements=names)


def earned_lines(match: Match, lang: str) -> list[str]:
    """What a finished match's board says its players earned with it (in seat order)."""
    return [earned_line(user, earned, lang) for user, earned in match.earned.items()]


class Awards:
    """Awards the achievements of the `games` a bot hosts, on the servers of its `shards`."""

    def __init__(self, storage: Database, games: Games, shards: Shards) -> None:
        self.storage = storage
        self.games = games
        self.shards = shards
        self.catalogue: Mapping[str, Achievement] = {a.key: a for a in catalogue(games.values())}
        self._catching_up: asyncio.Task[int] | None = None

    async def award(self, match_ids: Sequence[int]) -> list[Award]:
        """Award the finished matches `match_ids` (a replay each, off the event loop): the
        achievements stored now, in the order they were earned."""
        finished = await self.storage.achievements.finished(list(match_ids))
        earned = await asyncio.to_thread(feats_of, self.games, finished)
        earned += await self._league(people_by_guild(finished))
        return await self.storage.achievements.award(earned, [match.match_id for match in finished])

    async def _league(self, people: Mapping[int, set[int]]) -> list[Award]:
        """The league achievements of `people` (by server), from all their results there."""
        histories = {
            guild_id: await self.storage.achievements.player_results(guild_id, sorted(users))
            for guild_id, users in people.items()
        }
        return await asyncio.to_thread(league_of, histories)

    async def match_ended(self, match: Match) -> None:
        """At the end of a match: award it, and keep what it newly earned for its final board. A
        database fault leaves it for the next start, which awards it silently."""
        try:
            new = await self.award([match.id])
        except StorageUnavailable as error:
            log.warning("The achievements of match %s are awarded later: %s", match.id, error)
            return
        except Exception:  # the match is over and stored: its board is shown whatever this met
            log.exception("The achievements of match %s could not be awarded", match.id)
            return
        mine = [award for award in new if award.match_id == match.id and award.key in self.catalogue]
        order = {user: seat for seat, user in enumerate(match.players)}
        match.earned = {
            user: tuple(self.catalogue[award.key] for award in mine if award.user_id == user)
            for user in sorted(
                {award.user_id for award in mine}, key=lambda user: order.get(user, len(order))
            )
        }

    async def award_placings(
        self, guild_id: int, user_id: int, placings: Iterable[Placing]
    ) -> list[Achievement]:
        """Award what a member's placings (a tournament won, a season podium) earn: the
        achievements newly earned, to announce. Computers earn nothing."""
        if is_computer(user_id):
            return []
        earned = league_achievements([], placings)
        new = await self.storage.achievements.award(
            [Award(guild_id, user_id, e.key, e.at.isoformat()) for e in earned]
        )
        return [self.catalogue[award.key] for award in new if award.key in self.catalogue]

    async def catch_up(self) -> int:
        """Award, silently, every match that finished by now and was not awarded (stored before
        achievements existed, or the bot stopped first); returns how many. Their feats come in
        batches, then the league achievements of their people, once each, with the mark that
        they were awarded: stopped half-way, the next start does it again (each is kept once)."""
        ids = await self.storage.achievements.unawarded(now_iso(), self.shards)
        people: dict[int, set[int]] = {}
        for start in range(0, len(ids), BATCH):
            finished = await self.storage.achievements.finished(ids[start : start + BATCH])
            await self.storage.achievements.award(await asyncio.to_thread(feats_of, self.games, finished))
            for guild_id, users in people_by_guild(finished).items():
                people.setdefault(guild_id, set()).update(users)
        if ids:
            await self.storage.achievements.award(await self._league(people), ids)
            log.info("Achievements awarded from %d stored matches", len(ids))
        return len(ids)

    def start(self) -> None:
        """Catch up in the background: the bot plays on meanwhile."""
        self._catching_up = asyncio.create_task(self._catch_up())

    async def _catch_up(self) -> int:
        try:
            return await self.catch_up()
        except StorageUnavailable as error:
            log.warning("Awarding the stored matches waits for the next start: %s", error)
            return 0

    async def stop(self) -> None:
        if self._catching_up is not None and not self._catching_up.done():
            self._catching_up.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._catching_up
