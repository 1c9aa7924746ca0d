"""Indexes that match the queries, one for each query that needs one, and none that no query
uses (every index costs each write to its table)."""

import sqlalchemy as sa
from alembic import op

revision = "003"
down_revision = "002"


def upgrade() -> None:
    # No query looks matches up by guild, game and status; the turn clock keeps deadlines in
    # memory; ratings_by_board is a prefix of the ratings key.
    op.drop_index("matches_by_guild", "matches")
    op.drop_index("matches_by_deadline", "matches")
    op.drop_index("ratings_by_board", "ratings")
    # "My matches" and "my results" read the match ids of one player: covering indexes.
    op.drop_index("seats_by_user", "seats")
    op.create_index("seats_by_player", "seats", ["user_id", "match_id"])
    op.drop_index("result_seats_by_user", "result_seats")
    op.create_index("result_seats_by_player", "result_seats", ["user_id", "match_id"])
    # A server's recent results across games, newest first (results_by_guild serves one game's).
    op.create_index("results_by_guild_time", "results", ["guild_id", "finished_at"])
    # A leaderboard page in rank order without sorting the whole table; a player's ratings.
    op.create_index(
        "ratings_by_rank",
        "ratings",
        ["guild_id", "game", sa.text("(mu - 3 * sigma) DESC"), sa.text("wins DESC"), "user_id"],
    )
    op.create_index("ratings_by_player", "ratings", ["guild_id", "user_id", "game"])
