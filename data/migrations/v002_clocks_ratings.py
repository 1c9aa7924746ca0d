"""Turn clocks, rematch invitations, per-server settings and ratings."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT, REAL, TEXT

revision = "002"
down_revision = "001"


def upgrade() -> None:
    op.add_column("matches", sa.Column("clock_s", BIGINT))
    op.add_column("matches", sa.Column("deadline", TEXT))
    op.add_column("matches", sa.Column("reminded", BIGINT, nullable=False, server_default=sa.text("0")))
    op.add_column("matches", sa.Column("timeouts", TEXT, nullable=False, server_default=sa.text("'{}'")))
    op.add_column("matches", sa.Column("invited", TEXT))
    op.create_index("matches_by_deadline", "matches", ["status", "deadline"])
    op.add_column("result_seats", sa.Column("rating_before", REAL))
    op.add_column("result_seats", sa.Column("rating_after", REAL))
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", BIGINT, primary_key=True, autoincrement=False),
        sa.Column("clock_s", BIGINT),
        sa.Column("max_timeouts", BIGINT),
    )
    # One row per server, game and player; game '*' is the overall rating across games.
    op.create_table(
        "ratings",
        sa.Column("guild_id", BIGINT, primary_key=True),
        sa.Column("game", TEXT, primary_key=True),
        sa.Column("user_id", BIGINT, primary_key=True),
        sa.Column("mu", REAL, nullable=False),
        sa.Column("sigma", REAL, nullable=False),
        sa.Column("games", BIGINT, nullable=False, server_default=sa.text("0")),
        sa.Column("wins", BIGINT, nullable=False, server_default=sa.text("0")),
    )
    op.create_index("ratings_by_board", "ratings", ["guild_id", "game"])
