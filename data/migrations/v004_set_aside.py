"""A running match whose stored row cannot be read is set aside (status 'set_aside', with a
note saying why) instead of stopping the bot: its state and moves stay for an operator.
`board_stale` marks a board message that shows an older turn than the match (its redraw
failed): the bot redraws it, also after a restart.

SQLite cannot alter a CHECK constraint: batch mode rebuilds the table (the migration runner
turns foreign keys off meanwhile and checks them before the commit), keeping SQLite's id
counter as it was, so that a match id is never given twice."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT, TEXT

revision = "004"
down_revision = "003"
STATUS_CHECK = "status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned', 'set_aside')"


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_on_sqlite()
    else:
        op.drop_constraint("matches_status_check", "matches", type_="check")
        op.create_check_constraint("matches_status_check", "matches", STATUS_CHECK)
    op.add_column("matches", sa.Column("note", TEXT))
    op.add_column("matches", sa.Column("board_stale", BIGINT, nullable=False, server_default=sa.text("0")))


def _rebuild_on_sqlite() -> None:
    bind = op.get_bind()
    counter = bind.exec_driver_sql(
        "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'matches'), 0), "
        "COALESCE((SELECT MAX(id) FROM matches), 0))"
    ).scalar_one()
    with op.batch_alter_table("matches", recreate="always", copy_from=_matches_before()) as batch:
        batch.create_check_constraint("matches_status_check", STATUS_CHECK)
    op.execute("DELETE FROM sqlite_sequence WHERE name = 'matches'")
    op.execute(f"INSERT INTO sqlite_sequence (name, seq) VALUES ('matches', {int(counter)})")


def _matches_before() -> sa.Table:
    """The matches table as migrations 001 to 003 left it, its CHECK aside (rebuilt anew)."""
    return sa.Table(
        "matches",
        sa.MetaData(),
        sa.Column("id", BIGINT, primary_key=True),
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
        sa.Column("clock_s", BIGINT),
        sa.Column("deadline", TEXT),
        sa.Column("reminded", BIGINT, nullable=False, server_default=sa.text("0")),
        sa.Column("timeouts", TEXT, nullable=False, server_default=sa.text("'{}'")),
        sa.Column("invited", TEXT),
        sa.Index("matches_by_status", "status"),
        sqlite_autoincrement=True,
    )
