"""Ratings that mean something (see data/ratings.py for the rules).

`departures`: the people who left a running match before its end, as JSON (who, seat, at which
turn, how), and `moved_at`: when its last move was made, from which the others may claim a
match without a clock. `unrated`: why a finished match changed no rating ('computers',
'abandoned', 'repeat'; NULL: rated, or stored before this); `left_by`: how each seat's person
left before the end. `rated_opponents`: whom each member has played rated matches against (on
teams other than theirs), per server and table; a leaderboard lists a member from 3 different
opponents on."""

import sqlalchemy as sa
from alembic import op

from data.tables import BIGINT, TEXT

revision = "008"
down_revision = "007"


def upgrade() -> None:
    op.add_column("matches", sa.Column("departures", TEXT, nullable=False, server_default=sa.text("'[]'")))
    op.add_column("matches", sa.Column("moved_at", TEXT))
    op.add_column("results", sa.Column("unrated", TEXT))
    op.add_column("result_seats", sa.Column("left_by", TEXT))
    op.execute(
        "UPDATE results SET unrated = 'computers' WHERE EXISTS "
        "(SELECT 1 FROM result_seats AS s WHERE s.match_id = results.match_id AND s.user_id < 0)"
    )
    op.create_table(
        "rated_opponents",
        sa.Column("guild_id", BIGINT, primary_key=True),
        sa.Column("game", TEXT, primary_key=True),
        sa.Column("user_id", BIGINT, primary_key=True),
        sa.Column("opponent_id", BIGINT, primary_key=True),
    )
    op.execute(
        "INSERT INTO rated_opponents (guild_id, game, user_id, opponent_id) "
        "SELECT DISTINCT r.guild_id, board.game, a.user_id, b.user_id FROM results AS r "
        "JOIN result_seats AS a ON a.match_id = r.match_id "
        "JOIN result_seats AS b ON b.match_id = r.match_id AND b.team <> a.team AND b.user_id <> a.user_id "
        "JOIN (SELECT DISTINCT game FROM results UNION SELECT '*') AS board ON board.game IN (r.game, '*') "
        "WHERE a.rating_before IS NOT NULL AND b.rating_before IS NOT NULL"
    )
    op.add_column("ratings", sa.Column("opponents", BIGINT, nullable=False, server_default=sa.text("0")))
    op.execute(
        "UPDATE ratings SET opponents = (SELECT COUNT(*) FROM rated_opponents AS o "
        "WHERE o.guild_id = ratings.guild_id AND o.game = ratings.game AND o.user_id = ratings.user_id)"
    )
