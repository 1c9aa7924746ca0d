"""The one migration history of every backend: Alembic revisions, one file each, applied by
`data.migrate` when a database opens. Applied revisions are never edited: a change of schema is
a new revision (its `down_revision` the last one), written once for both databases with
Alembic's operations (batch mode where SQLite must rebuild a table). Revisions 001 to 011 are
the numbered SQL migrations the bot applied before it used Alembic, with the same effect."""
