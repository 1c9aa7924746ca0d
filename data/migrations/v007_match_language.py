"""The language of a match's public messages (lobby, board, pings, notes), fixed when its lobby
opens; matches stored before it speak English."""

import sqlalchemy as sa
from alembic import op

from data.tables import TEXT

revision = "007"
down_revision = "006"


def upgrade() -> None:
    op.add_column("matches", sa.Column("language", TEXT, nullable=False, server_default=sa.text("'en'")))
