"""Hints: how many hints each seat's player asked for during a match (`seats.hints`), kept
with the result (`result_seats.hints`) for `/stats` and the final board, and the turn of the
seat's last hint (`seats.hint_turn`: a turn's hint counts once, whichever process shows it).
Older matches had none."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT

revision = "012"
down_revision = "011"


def upgrade() -> None:
    op.add_column("seats", sa.Column("hints", BIGINT, nullable=False, server_default=sa.text("0")))
    op.add_column("seats", sa.Column("hint_turn", BIGINT))
    op.add_column("result_seats", sa.Column("hints", BIGINT, nullable=False, server_default=sa.text("0")))
