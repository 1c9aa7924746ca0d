"""Achievements: what each member earned on a server (`achievements`: when, and the match that
earned it, none for a placing), and which finished matches have had theirs awarded
(`results.awarded`). Every result stored before is not yet awarded: the bot awards them once,
silently, when it starts (matches/awards.py)."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT, TEXT

revision = "015"
down_revision = "014"


def upgrade() -> None:
    op.create_table(
        "achievements",
        sa.Column("guild_id", BIGINT, primary_key=True),
        sa.Column("user_id", BIGINT, primary_key=True),
        sa.Column("key", TEXT, primary_key=True),
        sa.Column("earned_at", TEXT, nullable=False),
        sa.Column("match_id", BIGINT, sa.ForeignKey("matches.id", ondelete="SET NULL")),
    )
    op.create_index("achievements_by_match", "achievements", ["match_id"])
    op.add_column("results", sa.Column("awarded", BIGINT, nullable=False, server_default=sa.text("0")))
    op.create_index(
        "results_to_award",
        "results",
        ["finished_at"],
        sqlite_where=sa.text("awarded = 0"),
        postgresql_where=sa.text("awarded = 0"),
    )
