"""A running match whose stored row cannot be read is set aside (status 'set_aside', with a
note saying why) instead of stopping the bot: its state and moves stay for an operator.
`board_stale` marks a board message that shows an older turn than the match (its redraw
failed): the bot redraws it, also after a restart.

SQLite cannot alter a CHECK constraint: batch mode rebuilds the table (the migration runner
turns foreign keys off meanwhile and checks them before the commit), keeping SQLite's id
counter as it was, so that a match id is never given twice."""

import warnings

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
    # Batch mode copies the table as reflected with the new CHECK and SQLite's AUTOINCREMENT; the
    # old unnamed CHECK is left out on purpose (Alembic warns of it): the named one replaces it.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Unnamed CHECK constraint", category=UserWarning)
        with op.batch_alter_table(
            "matches", recreate="always", table_kwargs={"sqlite_autoincrement": True}
        ) as batch:
            batch.create_check_constraint("matches_status_check", STATUS_CHECK)
    op.execute("DELETE FROM sqlite_sequence WHERE name = 'matches'")
    op.execute(f"INSERT INTO sqlite_sequence (name, seq) VALUES ('matches', {int(counter)})")
