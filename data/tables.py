"""The tables as the queries see them (SQLAlchemy Core), the same on every backend.

The migrations in data/migrations/ make these tables; tests/data/test_migrations.py checks
that a migrated database has exactly them. Column types are chosen so that both databases store
the same values: SQLite's INTEGER (64 bits), TEXT and REAL are PostgreSQL's BIGINT, TEXT compared
byte by byte (COLLATE "C", as SQLite's BINARY collation compares it: stored times sort as text the
same way on both) and DOUBLE PRECISION.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Double,
    ForeignKey,
    Identity,
    Index,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.types import TypeEngine

BIGINT: TypeEngine[int] = BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
TEXT: TypeEngine[str] = Text().with_variant(postgresql.TEXT(collation="C"), "postgresql")
REAL: TypeEngine[float] = Double().with_variant(sqlite.REAL(), "sqlite")
STATUSES = ("lobby", "running", "finished", "cancelled", "abandoned", "set_aside")
TAKEBACK_STATUSES = ("asked", "accepted", "declined", "lapsed")  # data.model.ASKED…

metadata = MetaData()


def _flag(name: str) -> Column[int]:
    """A 0/1 column that defaults to 0."""
    return Column(name, BIGINT, nullable=False, server_default=text("0"))


matches = Table(
    "matches",
    metadata,
    Column("id", BIGINT, Identity(always=False), primary_key=True),
    Column("game", TEXT, nullable=False),
    Column("guild_id", BIGINT, nullable=False),
    Column("channel_id", BIGINT, nullable=False),
    Column("message_id", BIGINT),
    Column("host_id", BIGINT, nullable=False),
    Column("status", TEXT, nullable=False),
    Column("seed", BIGINT, nullable=False),
    Column("options", TEXT, nullable=False, server_default=text("'{}'")),
    Column("state", TEXT),
    Column("turn", BIGINT, nullable=False, server_default=text("0")),
    Column("ping_message_id", BIGINT),
    Column("created_at", TEXT, nullable=False),
    Column("started_at", TEXT),
    Column("updated_at", TEXT, nullable=False),
    Column("finished_at", TEXT),
    Column("clock_s", BIGINT),
    Column("deadline", TEXT),
    _flag("reminded"),
    Column("timeouts", TEXT, nullable=False, server_default=text("'{}'")),
    Column("invited", TEXT),
    Column("note", TEXT),
    _flag("board_stale"),
    Column("language", TEXT, nullable=False, server_default=text("'en'")),
    Column("departures", TEXT, nullable=False, server_default=text("'[]'")),
    Column("moved_at", TEXT),
    Column("rematch_of", BIGINT, ForeignKey("matches.id", ondelete="SET NULL")),
    Column("pinged_turn", BIGINT),
    _flag("resumable"),
    CheckConstraint(f"status IN ({', '.join(repr(s) for s in STATUSES)})", name="matches_status_check"),
    Index("matches_by_status", "status"),
    Index("matches_by_rematch", "rematch_of", unique=True),
    Index(
        "lobbies_by_host",
        "host_id",
        "guild_id",
        sqlite_where=text("status = 'lobby'"),
        postgresql_where=text("status = 'lobby'"),
    ),
    sqlite_autoincrement=True,
)

seats = Table(
    "seats",
    metadata,
    Column("match_id", BIGINT, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", BIGINT, primary_key=True),
    Column("user_id", BIGINT, nullable=False),
    Column("hints", BIGINT, nullable=False, server_default=text("0")),  # hints its player asked for
    Column("hint_turn", BIGINT),  # the turn of the last of them (each turn's counts once)
    UniqueConstraint("match_id", "user_id"),
    Index("seats_by_player", "user_id", "match_id"),
)

moves = Table(
    "moves",
    metadata,
    Column("match_id", BIGINT, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("turn", BIGINT, primary_key=True),
    Column("seat", BIGINT, nullable=False),
    Column("user_id", BIGINT),
    Column("move", TEXT, nullable=False),
    Column("created_at", TEXT, nullable=False),
)

results = Table(
    "results",
    metadata,
    Column("match_id", BIGINT, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("game", TEXT, nullable=False),
    Column("guild_id", BIGINT, nullable=False),
    Column("draw", BIGINT, nullable=False),
    _flag("abandoned"),
    Column("duration_s", REAL, nullable=False),
    Column("options", TEXT, nullable=False),
    Column("tiebreak", TEXT),
    Column("finished_at", TEXT, nullable=False),
    Column("unrated", TEXT),
    _flag("awarded"),  # its achievements were awarded (data.achievements)
    Index("results_by_guild", "guild_id", "game", "finished_at"),
    Index("results_by_guild_time", "guild_id", "finished_at"),
    Index(
        "results_to_award",
        "finished_at",
        sqlite_where=text("awarded = 0"),
        postgresql_where=text("awarded = 0"),
    ),
)

result_seats = Table(
    "result_seats",
    metadata,
    Column("match_id", BIGINT, ForeignKey("results.match_id", ondelete="CASCADE"), primary_key=True),
    Column("seat", BIGINT, primary_key=True),
    Column("user_id", BIGINT, nullable=False),
    Column("team", BIGINT, nullable=False),
    Column("score", BIGINT, nullable=False),
    Column("winner", BIGINT, nullable=False),
    _flag("resigned"),
    Column("rating_before", REAL),
    Column("rating_after", REAL),
    Column("left_by", TEXT),
    Column("hints", BIGINT, nullable=False, server_default=text("0")),  # hints its player asked for
    Index("result_seats_by_player", "user_id", "match_id"),
)

meta = Table(
    "meta",
    metadata,
    Column("key", TEXT, primary_key=True),
    Column("value", TEXT, nullable=False),
)

guild_settings = Table(
    "guild_settings",
    metadata,
    Column("guild_id", BIGINT, primary_key=True, autoincrement=False),
    Column("clock_s", BIGINT),
    Column("max_timeouts", BIGINT),
    _flag("threads"),
    Column("language", TEXT),
)

# One row per server, game and player; game '*' is the overall rating across games.
ratings = Table(
    "ratings",
    metadata,
    Column("guild_id", BIGINT, primary_key=True),
    Column("game", TEXT, primary_key=True),
    Column("user_id", BIGINT, primary_key=True),
    Column("mu", REAL, nullable=False),
    Column("sigma", REAL, nullable=False),
    Column("games", BIGINT, nullable=False, server_default=text("0")),
    Column("wins", BIGINT, nullable=False, server_default=text("0")),
    Column("opponents", BIGINT, nullable=False, server_default=text("0")),
    Index("ratings_by_rank", "guild_id", "game", text("(mu - 3 * sigma) DESC"), text("wins DESC"), "user_id"),
    Index("ratings_by_player", "guild_id", "user_id", "game"),
)

member_languages = Table(
    "member_languages",
    metadata,
    Column("user_id", BIGINT, primary_key=True, autoincrement=False),
    Column("locale", TEXT, nullable=False),
    Column("updated_at", TEXT, nullable=False),
    _flag("dms_closed"),
)

# Whom each member has played rated matches against, per server and table.
rated_opponents = Table(
    "rated_opponents",
    metadata,
    Column("guild_id", BIGINT, primary_key=True),
    Column("game", TEXT, primary_key=True),
    Column("user_id", BIGINT, primary_key=True),
    Column("opponent_id", BIGINT, primary_key=True),
)

# Requests to take a move back; an accepted one keeps the move it took out of the move log.
takebacks = Table(
    "takebacks",
    metadata,
    Column("id", BIGINT, Identity(always=False), primary_key=True),
    Column("match_id", BIGINT, ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("turn", BIGINT, nullable=False),
    Column("seat", BIGINT, nullable=False),
    Column("user_id", BIGINT, nullable=False),
    Column("move", TEXT, nullable=False),
    Column("moved_at", TEXT, nullable=False),
    Column("asked", TEXT, nullable=False),
    Column("accepted", TEXT, nullable=False, server_default=text("'[]'")),
    Column("status", TEXT, nullable=False),
    Column("asked_at", TEXT, nullable=False),
    Column("message_id", BIGINT),
    Column("answered_by", BIGINT),
    Column("answered_at", TEXT),
    CheckConstraint(
        f"status IN ({', '.join(repr(s) for s in TAKEBACK_STATUSES)})", name="takebacks_status_check"
    ),
    Index("takebacks_by_match", "match_id", "turn"),
    Index("takebacks_by_player", "user_id", "status"),
    sqlite_autoincrement=True,
)

SEASON_KINDS = ("monthly", "quarterly")  # data.model.SEASON_KINDS

# A server's seasons: the one under way (ended_at NULL, at most one a server) and those ended.
seasons = Table(
    "seasons",
    metadata,
    Column("id", BIGINT, Identity(always=False), primary_key=True),
    Column("guild_id", BIGINT, nullable=False),
    Column("kind", TEXT, nullable=False),
    Column("started_at", TEXT, nullable=False),
    Column("ends_at", TEXT, nullable=False),
    Column("ended_at", TEXT),
    CheckConstraint(f"kind IN ({', '.join(repr(k) for k in SEASON_KINDS)})", name="seasons_kind_check"),
    Index(
        "seasons_under_way",
        "guild_id",
        unique=True,
        sqlite_where=text("ended_at IS NULL"),
        postgresql_where=text("ended_at IS NULL"),
    ),
    Index("seasons_by_guild", "guild_id", "ends_at"),
    Index(  # the seasons under way whose end has come, across servers
        "seasons_due",
        "ends_at",
        sqlite_where=text("ended_at IS NULL"),
        postgresql_where=text("ended_at IS NULL"),
    ),
    sqlite_autoincrement=True,
)

# The final table of each ended season, per game and across games ('*').
season_standings = Table(
    "season_standings",
    metadata,
    Column("season_id", BIGINT, ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True),
    Column("game", TEXT, primary_key=True),
    Column("user_id", BIGINT, primary_key=True),
    Column("rank", BIGINT, nullable=False),
    Column("rating", BIGINT, nullable=False),
    Column("games", BIGINT, nullable=False),
    Column("wins", BIGINT, nullable=False),
    Index("season_standings_by_rank", "season_id", "game", "rank"),
    Index("season_standings_by_player", "user_id", "season_id"),
)

# The achievements each member earned on a server, each once: when, and the match that earned it
# (None for a placing: a tournament won, a season podium).
achievements = Table(
    "achievements",
    metadata,
    Column("guild_id", BIGINT, primary_key=True),
    Column("user_id", BIGINT, primary_key=True),
    Column("key", TEXT, primary_key=True),
    Column("earned_at", TEXT, nullable=False),
    Column("match_id", BIGINT, ForeignKey("matches.id", ondelete="SET NULL")),
    Index("achievements_by_match", "match_id"),  # a match deleted sets its achievements' match to NULL
)

TOURNAMENT_STATUSES = ("signup", "running", "finished", "cancelled")

# Tournaments: their sign-up, their entrants, and each round's byes and tables (with the match
# each table plays, and its result as places once decided).
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", BIGINT, Identity(always=False), primary_key=True),
    Column("guild_id", BIGINT, nullable=False),
    Column("channel_id", BIGINT, nullable=False),
    Column("message_id", BIGINT),
    Column("organizer_id", BIGINT, nullable=False),
    Column("game", TEXT, nullable=False),
    Column("format", TEXT, nullable=False),
    Column("seats", BIGINT, nullable=False),
    Column("rounds", BIGINT),
    Column("clock_s", BIGINT),
    Column("options", TEXT, nullable=False, server_default=text("'{}'")),
    Column("language", TEXT, nullable=False, server_default=text("'en'")),
    Column("status", TEXT, nullable=False),
    Column("round", BIGINT, nullable=False, server_default=text("0")),
    Column("created_at", TEXT, nullable=False),
    Column("updated_at", TEXT, nullable=False),
    CheckConstraint(
        f"status IN ({', '.join(repr(s) for s in TOURNAMENT_STATUSES)})", name="tournaments_status_check"
    ),
    Index("tournaments_by_guild", "guild_id", "status"),
    Index("tournaments_by_channel", "channel_id", "status"),
    Index("tournaments_by_status", "status"),  # the running tournaments of every server, at start-up
    sqlite_autoincrement=True,
)

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("tournament_id", BIGINT, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", BIGINT, primary_key=True),
    Column("position", BIGINT, nullable=False),
    Column("rating", REAL, nullable=False, server_default=text("0")),
    Column("joined", BIGINT, nullable=False, server_default=text("1")),
    Column("left_at", BIGINT),
    Column("name", TEXT),
)

tournament_rounds = Table(
    "tournament_rounds",
    metadata,
    Column("tournament_id", BIGINT, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("number", BIGINT, primary_key=True),
    Column("byes", TEXT, nullable=False, server_default=text("'[]'")),
    Column("started_at", TEXT, nullable=False),
)

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", BIGINT, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("round", BIGINT, primary_key=True),
    Column("position", BIGINT, primary_key=True),
    Column("seats", TEXT, nullable=False),
    Column("ranks", TEXT),
    Column("match_id", BIGINT, ForeignKey("matches.id", ondelete="SET NULL")),
    Index("tournament_tables_by_match", "match_id"),
)
