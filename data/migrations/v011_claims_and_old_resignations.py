"""Matches stored before 008 had no `moved_at`: a claim's three days count from their last move
(or their start), not from their start alone. Results stored before 008 kept a resignation
only as `resigned`: history names it as such."""

from alembic import op

revision = "011"
down_revision = "010"


def upgrade() -> None:
    op.execute(
        "UPDATE matches SET moved_at = COALESCE("
        "(SELECT MAX(m.created_at) FROM moves AS m WHERE m.match_id = matches.id), started_at) "
        "WHERE moved_at IS NULL AND status IN ('running', 'set_aside')"
    )
    op.execute("UPDATE result_seats SET left_by = 'resigned' WHERE left_by IS NULL AND resigned = 1")
