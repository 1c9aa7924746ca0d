"""`/settings threads on`: each new lobby of the server gets its own thread."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT

revision = "005"
down_revision = "004"


def upgrade() -> None:
    op.add_column("guild_settings", sa.Column("threads", BIGINT, nullable=False, server_default=sa.text("0")))
