"""Fixtures of the storage tests: each runs on SQLite, and on PostgreSQL too when
TEST_DATABASE_URL names a server (`backend` and `target`: tests/conftest.py). A module about
one backend's own features overrides `backend`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import open_storage
from data.repositories import Database
from tests.backends import Target, fresh_postgres_database


@pytest.fixture
async def target(backend: str, database: Path) -> AsyncIterator[Target]:
    """The database a storage test opens: a real SQLite file in its tmp_path, or a fresh
    PostgreSQL database (not yet migrated) dropped after it."""
    if backend == "sqlite":
        yield database
        return
    async with fresh_postgres_database() as url:
        yield url


@pytest.fixture
async def storage(target: Target) -> AsyncIterator[Database]:
    """An open database on the test's target."""
    opened = await open_storage(target)
    yield opened
    await opened.close()
