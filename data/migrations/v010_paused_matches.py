"""A running match the bot can no longer publish (its server removed the bot, or a permission
it needs in the match's channel was taken away) is set aside with `resumable` set: its clock
stops and nothing is sent for it until one of its players resumes it once the bot can post
there again. Matches set aside for other reasons stay ended (0)."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT

revision = "010"
down_revision = "009"


def upgrade() -> None:
    op.add_column("matches", sa.Column("resumable", BIGINT, nullable=False, server_default=sa.text("0")))
