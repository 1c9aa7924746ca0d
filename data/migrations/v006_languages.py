"""Languages: the one a server's managers chose for its public messages (`/settings language`;
NULL: the server's own), and the Discord locale each member last used with the bot, which
their DMs speak."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT, TEXT

revision = "006"
down_revision = "005"


def upgrade() -> None:
    op.add_column("guild_settings", sa.Column("language", TEXT))
    op.create_table(
        "member_languages",
        sa.Column("user_id", BIGINT, primary_key=True, autoincrement=False),
        sa.Column("locale", TEXT, nullable=False),
        sa.Column("updated_at", TEXT, nullable=False),
    )
