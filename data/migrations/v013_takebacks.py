"""Taking a move back by consent: `takebacks` holds each request to take back a player's last
move (whom it asked, who accepted, how it ended); an accepted one keeps the move it took out of
the move log (its turn, seat, move and time), so the log of what was played and what was taken
back is whole."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT, TEXT

revision = "013"
down_revision = "012"


def upgrade() -> None:
    op.create_table(
        "takebacks",
        sa.Column("id", BIGINT, sa.Identity(always=False), primary_key=True),
        sa.Column("match_id", BIGINT, sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("turn", BIGINT, nullable=False),
        sa.Column("seat", BIGINT, nullable=False),
        sa.Column("user_id", BIGINT, nullable=False),
        sa.Column("move", TEXT, nullable=False),
        sa.Column("moved_at", TEXT, nullable=False),
        sa.Column("asked", TEXT, nullable=False),
        sa.Column("accepted", TEXT, nullable=False, server_default=sa.text("'[]'")),
        sa.Column("status", TEXT, nullable=False),
        sa.Column("asked_at", TEXT, nullable=False),
        sa.Column("message_id", BIGINT),
        sa.Column("answered_by", BIGINT),
        sa.Column("answered_at", TEXT),
        sa.CheckConstraint(
            "status IN ('asked', 'accepted', 'declined', 'lapsed')", name="takebacks_status_check"
        ),
        sqlite_autoincrement=True,  # a request's id is never given twice
    )
    op.create_index("takebacks_by_match", "takebacks", ["match_id", "turn"])
    op.create_index("takebacks_by_player", "takebacks", ["user_id", "status"])
