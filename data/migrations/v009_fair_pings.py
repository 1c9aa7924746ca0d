"""Fair play on public servers. `rematch_of`: the finished match a lobby was opened as the
rematch of; a match has one rematch at most (a unique index, which NULLs do not fill).
`pinged_turn`: the last turn whose due players were pinged, so that a turn published again
pings nobody twice. `lobbies_by_host`: the open lobbies a member hosts on a server, counted
against a limit. `dms_closed`: Discord refused a DM to the member (50007); none is sent until
they next use the bot. A member the bot never saw gets a row with an empty locale."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT

revision = "009"
down_revision = "008"


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("rematch_of", BIGINT, sa.ForeignKey("matches.id", ondelete="SET NULL")),
        inline_references=True,
    )
    op.add_column("matches", sa.Column("pinged_turn", BIGINT))
    op.create_index("matches_by_rematch", "matches", ["rematch_of"], unique=True)
    lobbies = sa.text("status = 'lobby'")
    op.create_index(
        "lobbies_by_host", "matches", ["host_id", "guild_id"], sqlite_where=lobbies, postgresql_where=lobbies
    )
    op.add_column(
        "member_languages", sa.Column("dms_closed", BIGINT, nullable=False, server_default=sa.text("0"))
    )
