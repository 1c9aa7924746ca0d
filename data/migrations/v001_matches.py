"""Matches, their seats, the move log and the results of finished matches."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT, REAL, TEXT

revision = "001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", BIGINT, sa.Identity(always=False), primary_key=True),
        sa.Column("game", TEXT, nullable=False),
        sa.Column("guild_id", BIGINT, nullable=False),
        sa.Column("channel_id", BIGINT, nullable=False),
        sa.Column("message_id", BIGINT),
        sa.Column("host_id", BIGINT, nullable=False),
        sa.Column("status", TEXT, nullable=False),
        sa.Column("seed", BIGINT, nullable=False),
        sa.Column("options", TEXT, nullable=False, server_default=sa.text("'{}'")),
        sa.Column("state", TEXT),
        sa.Column("turn", BIGINT, nullable=False, server_default=sa.text("0")),
        sa.Column("ping_message_id", BIGINT),
        sa.Column("created_at", TEXT, nullable=False),
        sa.Column("started_at", TEXT),
        sa.Column("updated_at", TEXT, nullable=False),
        sa.Column("finished_at", TEXT),
        sa.CheckConstraint(
            "status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned')",
            name="matches_status_check",
        ),
        sqlite_autoincrement=True,  # a match id is never given twice (buttons carry it)
    )
    op.create_index("matches_by_status", "matches", ["status"])
    op.create_index("matches_by_guild", "matches", ["guild_id", "game", "status"])
    op.create_table(
        "seats",
        sa.Column("match_id", BIGINT, sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", BIGINT, primary_key=True),
        sa.Column("user_id", BIGINT, nullable=False),
        sa.UniqueConstraint("match_id", "user_id"),
    )
    op.create_index("seats_by_user", "seats", ["user_id"])
    op.create_table(
        "moves",
        sa.Column("match_id", BIGINT, sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("turn", BIGINT, primary_key=True),
        sa.Column("seat", BIGINT, nullable=False),
        sa.Column("user_id", BIGINT),
        sa.Column("move", TEXT, nullable=False),
        sa.Column("created_at", TEXT, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("match_id", BIGINT, sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", TEXT, nullable=False),
        sa.Column("guild_id", BIGINT, nullable=False),
        sa.Column("draw", BIGINT, nullable=False),
        sa.Column("abandoned", BIGINT, nullable=False, server_default=sa.text("0")),
        sa.Column("duration_s", REAL, nullable=False),
        sa.Column("options", TEXT, nullable=False),
        sa.Column("tiebreak", TEXT),
        sa.Column("finished_at", TEXT, nullable=False),
    )
    op.create_index("results_by_guild", "results", ["guild_id", "game", "finished_at"])
    op.create_table(
        "result_seats",
        sa.Column(
            "match_id", BIGINT, sa.ForeignKey("results.match_id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", BIGINT, primary_key=True),
        sa.Column("user_id", BIGINT, nullable=False),
        sa.Column("team", BIGINT, nullable=False),
        sa.Column("score", BIGINT, nullable=False),
        sa.Column("winner", BIGINT, nullable=False),
        sa.Column("resigned", BIGINT, nullable=False, server_default=sa.text("0")),
    )
    op.create_index("result_seats_by_user", "result_seats", ["user_id"])
    # Small key/value facts about the bot itself (e.g. the hash of the last synced command tree).
    op.create_table(
        "meta",
        sa.Column("key", TEXT, primary_key=True),
        sa.Column("value", TEXT, nullable=False),
    )
