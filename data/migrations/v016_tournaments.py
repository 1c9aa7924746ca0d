"""Tournaments: `tournaments` (the sign-up and its settings, the round under way),
`tournament_entrants` (who plays, their rating at the start, the rounds they joined and left in,
the name they had when they joined, for the standings picture),
`tournament_rounds` (each round's byes) and `tournament_tables` (each round's tables: their
players, the match they play and their places once decided)."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT, REAL, TEXT

revision = "016"
down_revision = "015"


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", BIGINT, sa.Identity(always=False), primary_key=True),
        sa.Column("guild_id", BIGINT, nullable=False),
        sa.Column("channel_id", BIGINT, nullable=False),
        sa.Column("message_id", BIGINT),
        sa.Column("organizer_id", BIGINT, nullable=False),
        sa.Column("game", TEXT, nullable=False),
        sa.Column("format", TEXT, nullable=False),
        sa.Column("seats", BIGINT, nullable=False),
        sa.Column("rounds", BIGINT),
        sa.Column("clock_s", BIGINT),
        sa.Column("options", TEXT, nullable=False, server_default=sa.text("'{}'")),
        sa.Column("language", TEXT, nullable=False, server_default=sa.text("'en'")),
        sa.Column("status", TEXT, nullable=False),
        sa.Column("round", BIGINT, nullable=False, server_default=sa.text("0")),
        sa.Column("created_at", TEXT, nullable=False),
        sa.Column("updated_at", TEXT, nullable=False),
        sa.CheckConstraint(
            "status IN ('signup', 'running', 'finished', 'cancelled')", name="tournaments_status_check"
        ),
        sqlite_autoincrement=True,  # a tournament's id is never given twice
    )
    op.create_index("tournaments_by_guild", "tournaments", ["guild_id", "status"])
    op.create_index("tournaments_by_channel", "tournaments", ["channel_id", "status"])
    op.create_index("tournaments_by_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column(
            "tournament_id",
            BIGINT,
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("user_id", BIGINT, primary_key=True),
        sa.Column("position", BIGINT, nullable=False),
        sa.Column("rating", REAL, nullable=False, server_default=sa.text("0")),
        sa.Column("joined", BIGINT, nullable=False, server_default=sa.text("1")),
        sa.Column("left_at", BIGINT),
        sa.Column("name", TEXT),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column(
            "tournament_id",
            BIGINT,
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", BIGINT, primary_key=True),
        sa.Column("byes", TEXT, nullable=False, server_default=sa.text("'[]'")),
        sa.Column("started_at", TEXT, nullable=False),
    )
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id",
            BIGINT,
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", BIGINT, primary_key=True),
        sa.Column("position", BIGINT, primary_key=True),
        sa.Column("seats", TEXT, nullable=False),
        sa.Column("ranks", TEXT),
        sa.Column("match_id", BIGINT, sa.ForeignKey("matches.id", ondelete="SET NULL")),
    )
    op.create_index("tournament_tables_by_match", "tournament_tables", ["match_id"])
