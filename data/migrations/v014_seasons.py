"""Seasons: `seasons` holds each server's season under way (at most one, `ended_at` NULL) and
those ended; `season_standings` the final table of every ended season, per game and across
games ('*'). Servers had none: seasons are off until a manager turns them on."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT, TEXT

revision = "014"
down_revision = "013"


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", BIGINT, sa.Identity(always=False), primary_key=True),
        sa.Column("guild_id", BIGINT, nullable=False),
        sa.Column("kind", TEXT, nullable=False),
        sa.Column("started_at", TEXT, nullable=False),
        sa.Column("ends_at", TEXT, nullable=False),
        sa.Column("ended_at", TEXT),
        sa.CheckConstraint("kind IN ('monthly', 'quarterly')", name="seasons_kind_check"),
        sqlite_autoincrement=True,  # a season's id is never given twice
    )
    op.create_index(
        "seasons_under_way",
        "seasons",
        ["guild_id"],
        unique=True,
        sqlite_where=sa.text("ended_at IS NULL"),
        postgresql_where=sa.text("ended_at IS NULL"),
    )
    op.create_index("seasons_by_guild", "seasons", ["guild_id", "ends_at"])
    op.create_index(
        "seasons_due",
        "seasons",
        ["ends_at"],
        sqlite_where=sa.text("ended_at IS NULL"),
        postgresql_where=sa.text("ended_at IS NULL"),
    )
    op.create_table(
        "season_standings",
        sa.Column("season_id", BIGINT, sa.ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", TEXT, primary_key=True),
        sa.Column("user_id", BIGINT, primary_key=True),
        sa.Column("rank", BIGINT, nullable=False),
        sa.Column("rating", BIGINT, nullable=False),
        sa.Column("games", BIGINT, nullable=False),
        sa.Column("wins", BIGINT, nullable=False),
    )
    op.create_index("season_standings_by_rank", "season_standings", ["season_id", "game", "rank"])
    op.create_index("season_standings_by_player", "season_standings", ["user_id", "season_id"])
