"""The queries of seasons (`SeasonRepository`), written once for both databases: a server's
season under way, its end (the final tables archived, every rating restarted softly and the
next season begun, in one transaction that only one process can make), and the archive."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, and_, bindparam, case, delete, func, insert, select, update

from data import ratings
from data.dialects import LOCK_RATINGS
from data.model import Season, SeasonEnd, Standing, next_boundary
from data.queries import constant
from data.runner import Runner
from data.tables import matches, result_seats, results, season_standings, seasons
from data.tables import ratings as rating_rows

PODIUM = 3  # places the end of a season announces
CHANNELS = 25  # channels of a season's matches looked at for its announcement, the busiest first


def _season(row: Any) -> Season:
    return Season(row.id, row.guild_id, row.kind, row.started_at, row.ends_at, row.ended_at)


def _won() -> ColumnElement[int]:
    """1 for an outright win of the seat (a winner who did not leave), else 0."""
    return case(((result_seats.c.winner == 1) & (result_seats.c.resigned == 0), 1), else_=0)


def _rated_since(guild_id: int, since: str) -> list[ColumnElement[bool]]:
    """The rated results of a server's players since `since`."""
    return [
        results.c.guild_id == guild_id,
        results.c.finished_at >= since,
        result_seats.c.rating_before.is_not(None),
    ]


class Seasons:
    """Servers' seasons and their archived tables (`SeasonRepository`)."""

    def __init__(self, db: Runner) -> None:
        self._db = db

    async def current(self, guild_id: int) -> Season | None:
        query = select(seasons).where(seasons.c.guild_id == guild_id, seasons.c.ended_at.is_(None))
        row = await self._db.run(lambda connection: connection.execute(query).first())
        return None if row is None else _season(row)

    async def set_kind(self, guild_id: int, kind: str | None, now: datetime) -> Season | None:
        """Turn a server's seasons off (None: the season under way is dropped, unarchived) or on
        (`kind`): a season under way then ends at the next boundary of `kind` after `now`; without
        one, a season begins `now`. Returns the season under way."""
        table = seasons.c
        under_way = and_(table.guild_id == guild_id, table.ended_at.is_(None))

        def work(connection: Connection) -> Season | None:
            if kind is None:
                connection.execute(delete(seasons).where(under_way))
                return None
            ends = next_boundary(kind, now).isoformat()
            changed = connection.execute(update(seasons).where(under_way).values(kind=kind, ends_at=ends))
            if not changed.rowcount:
                connection.execute(
                    insert(seasons).values(
                        guild_id=guild_id, kind=kind, started_at=now.isoformat(), ends_at=ends
                    )
                )
            row = connection.execute(select(seasons).where(under_way)).one()
            return _season(row)

        return await self._db.transaction(work)

    async def due(self, now: datetime) -> list[Season]:
        """The seasons under way whose end has come by `now`, on every server."""
        query = select(seasons).where(seasons.c.ended_at.is_(None), seasons.c.ends_at <= now.isoformat())
        rows = await self._db.run(lambda connection: connection.execute(query).all())
        return [_season(row) for row in rows]

    async def end(self, season_id: int, now: datetime) -> SeasonEnd | None:
        """End a season whose time has come: archive the final table of every game and across
        all games, restart every rating of its server softly (`ratings.soft_reset`) and begin
        the next season, in one transaction. None if it is not under way and due (another
        process, or an earlier call, ended it)."""
        stamp = now.isoformat()

        def work(connection: Connection) -> SeasonEnd | None:
            row = connection.execute(select(seasons).where(seasons.c.id == season_id)).first()
            if row is None:
                return None
            self._db.lock(connection, LOCK_RATINGS, row.guild_id)  # no result is rated meanwhile
            claimed = connection.execute(
                update(seasons)
                .where(seasons.c.id == season_id, seasons.c.ended_at.is_(None), seasons.c.ends_at <= stamp)
                .values(ended_at=stamp)
            )
            if not claimed.rowcount:
                return None
            season = _season(row)
            podium = self._archive(connection, season)
            channels = self._channels(connection, season, stamp)
            self._soft_reset(connection, season.guild_id)
            ends = next_boundary(season.kind, now).isoformat()
            new_id = connection.execute(
                insert(seasons)
                .values(guild_id=season.guild_id, kind=season.kind, started_at=stamp, ends_at=ends)
                .returning(seasons.c.id)
            ).scalar_one()
            following = Season(new_id, season.guild_id, season.kind, stamp, ends)
            ended = Season(season.id, season.guild_id, season.kind, season.started_at, season.ends_at, stamp)
            return SeasonEnd(ended, following, podium, channels)

        return await self._db.transaction(work)

    def _archive(self, connection: Connection, season: Season) -> tuple[Standing, ...]:
        """Write the season's final tables: on each board, every player with a rated result in
        the season, by rating shown, then the season's wins. Returns the top of the table across
        all games."""
        seat = result_seats.c
        played = (
            select(results.c.game, seat.user_id, func.count(), func.sum(_won()))
            .select_from(result_seats.join(results, results.c.match_id == seat.match_id))
            .where(*_rated_since(season.guild_id, season.started_at))
            .group_by(results.c.game, seat.user_id)
        )
        records: dict[str, dict[int, list[int]]] = defaultdict(dict)
        for game, user, games, wins in connection.execute(played):
            for board in (game, ratings.OVERALL):
                record = records[board].setdefault(user, [0, 0])
                record[0] += games
                record[1] += int(wins or 0)
        table = rating_rows.c
        skills = {
            (board, user): ratings.Skill(mu, sigma).shown
            for board, user, mu, sigma in connection.execute(
                select(table.game, table.user_id, table.mu, table.sigma).where(
                    table.guild_id == season.guild_id
                )
            )
        }
        rows: list[dict[str, Any]] = []
        podium: tuple[Standing, ...] = ()
        for board, players in records.items():
            standings = ranked(
                [
                    (user, skills.get((board, user), 1000), games, wins)
                    for user, (games, wins) in players.items()
                ]
            )
            rows += [{"season_id": season.id, "game": board, **_standing_row(s)} for s in standings]
            if board == ratings.OVERALL:
                podium = tuple(standings[:PODIUM])
        if rows:
            connection.execute(insert(season_standings), rows)
        return podium

    def _channels(
        self, connection: Connection, season: Season, stamp: str
    ) -> tuple[tuple[int, int, str], ...]:
        """Where the season's finished matches were played, the busiest place first."""
        last = func.max(results.c.finished_at)
        query = (
            select(matches.c.channel_id, func.count(), last)
            .select_from(results.join(matches, matches.c.id == results.c.match_id))
            .where(
                results.c.guild_id == season.guild_id,
                results.c.finished_at >= season.started_at,
                results.c.finished_at <= stamp,
            )
            .group_by(matches.c.channel_id)
            .order_by(func.count().desc(), last.desc())
            .limit(CHANNELS)
        )
        return tuple((channel, int(count), when) for channel, count, when in connection.execute(query))

    def _soft_reset(self, connection: Connection, guild_id: int) -> None:
        table = rating_rows.c
        rows = connection.execute(
            select(table.game, table.user_id, table.mu, table.sigma).where(table.guild_id == guild_id)
        ).all()
        if not rows:
            return
        reset = [ratings.soft_reset(ratings.Skill(mu, sigma)) for _, _, mu, sigma in rows]
        statement = (
            update(rating_rows)
            .where(
                table.guild_id == guild_id,
                table.game == bindparam("board"),
                table.user_id == bindparam("user"),
            )
            .values(mu=bindparam("new_mu"), sigma=bindparam("new_sigma"))
        )
        connection.execute(
            statement,
            [
                {"board": game, "user": user, "new_mu": skill.mu, "new_sigma": skill.sigma}
                for (game, user, _, _), skill in zip(rows, reset, strict=True)
            ],
        )

    async def get(self, season_id: int) -> Season | None:
        query = select(seasons).where(seasons.c.id == season_id)
        row = await self._db.run(lambda connection: connection.execute(query).first())
        return None if row is None else _season(row)

    async def ended(self, guild_id: int, *, limit: int = 25) -> list[Season]:
        """A server's ended seasons, the latest first."""
        query = (
            select(seasons)
            .where(seasons.c.guild_id == guild_id, seasons.c.ended_at.is_not(None))
            .order_by(seasons.c.ends_at.desc(), seasons.c.id.desc())
            .limit(limit)
        )
        rows = await self._db.run(lambda connection: connection.execute(query).all())
        return [_season(row) for row in rows]

    async def standings(self, season_id: int, game: str, *, offset: int, limit: int) -> list[Standing]:
        """One page of a season's final table of `game` (`ratings.OVERALL`: across games)."""
        table = season_standings.c
        query = (
            select(table.user_id, table.rank, table.rating, table.games, table.wins)
            .where(table.season_id == season_id, table.game == game)
            .order_by(table.rank, table.user_id)
            .offset(offset)
            .limit(limit)
        )
        rows = await self._db.run(lambda connection: connection.execute(query).all())
        return [Standing(*row) for row in rows]

    async def standing_count(self, season_id: int, game: str) -> int:
        table = season_standings.c
        query = select(func.count()).where(table.season_id == season_id, table.game == game)
        return int(await self._db.run(lambda connection: connection.execute(query).scalar_one()))

    async def record_since(self, guild_id: int, user_id: int, since: str) -> dict[str, tuple[int, int]]:
        """A player's rated (games, wins) since `since`, by game and across games (`ratings.OVERALL`)."""
        seat = result_seats.c
        query = (
            select(results.c.game, func.count(), func.sum(_won()))
            .select_from(result_seats.join(results, results.c.match_id == seat.match_id))
            .where(*_rated_since(guild_id, since), seat.user_id == user_id)
            .group_by(results.c.game)
        )
        rows = await self._db.run(lambda connection: connection.execute(query).all())
        record = {game: (int(games), int(wins or 0)) for game, games, wins in rows}
        if record:
            record[ratings.OVERALL] = (
                sum(games for games, _ in record.values()),
                sum(wins for _, wins in record.values()),
            )
        return record

    async def placings(self, guild_id: int, user_id: int) -> list[tuple[str, int]]:
        """A player's final places in the server's ended seasons, across all games: (when the
        season ended, rank), oldest first."""
        table = season_standings.c
        query = (
            select(seasons.c.ended_at, table.rank)
            .select_from(season_standings.join(seasons, seasons.c.id == table.season_id))
            .where(
                seasons.c.guild_id == guild_id,
                table.user_id == user_id,
                table.game == constant(ratings.OVERALL),
            )
            .order_by(seasons.c.ended_at, seasons.c.id)
        )
        rows = await self._db.run(lambda connection: connection.execute(query).all())
        return [(ended, int(rank)) for ended, rank in rows]


def ranked(players: list[tuple[int, int, int, int]]) -> list[Standing]:
    """(user, rating, games, wins) as a table: by rating, then wins; equal ratings and wins share
    a rank (the next rank skips as many)."""
    order = sorted(players, key=lambda p: (-p[1], -p[3], p[0]))
    table: list[Standing] = []
    for index, (user, rating, games, wins) in enumerate(order):
        tied = table and (table[-1].rating, table[-1].wins) == (rating, wins)
        table.append(Standing(user, table[-1].rank if tied else index + 1, rating, games, wins))
    return table


def _standing_row(standing: Standing) -> dict[str, int]:
    return {
        "user_id": standing.user_id,
        "rank": standing.rank,
        "rating": standing.rating,
        "games": standing.games,
        "wins": standing.wins,
    }
