"""Fixtures of the storage tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.storage import Storage


@pytest.fixture
async def storage(database: Path) -> AsyncIterator[Storage]:
    """An open database on a real SQLite file in the test's tmp_path."""
    opened = await Storage.open(database)
    yield opened
    await opened.close()
