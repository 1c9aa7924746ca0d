"""The storage implements the storage interface with the same signatures, on either backend."""

from __future__ import annotations

import ast
import inspect

import pytest

from data import repositories
from data.repositories import (
    AchievementRepository,
    Database,
    LeagueRepository,
    MatchRepository,
    SettingsRepository,
    TakebackRepository,
    TournamentRepository,
)
from data.storage import Storage

REPOSITORIES = {
    "matches": MatchRepository,
    "league": LeagueRepository,
    "settings": SettingsRepository,
    "takebacks": TakebackRepository,
    "achievements": AchievementRepository,
    "tournaments": TournamentRepository,
}


def as_database(storage: Storage) -> Database:
    """mypy checks here (as in data.open_storage) that the storage satisfies the `Database`
    protocol, repositories included."""
    return storage


def _methods(protocol: type) -> list[str]:
    return [name for name, value in vars(protocol).items() if inspect.iscoroutinefunction(value)]


@pytest.mark.parametrize("attribute", list(REPOSITORIES))
async def test_each_repository_has_every_method_of_its_protocol_with_the_same_signature(storage, attribute):
    protocol = REPOSITORIES[attribute]
    repository = getattr(as_database(storage), attribute)
    assert _methods(protocol)
    for name in _methods(protocol):
        implemented = getattr(repository, name)
        assert inspect.iscoroutinefunction(implemented), name
        assert inspect.signature(implemented) == inspect.signature(
            getattr(protocol, name).__get__(repository)
        ), name


@pytest.mark.parametrize("protocol", list(REPOSITORIES.values()))
def test_no_repository_grows_past_thirty_methods(protocol):
    assert len(_methods(protocol)) <= 30


def test_the_interface_depends_on_no_database_driver():
    tree = ast.parse(inspect.getsource(repositories))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    assert imported <= {"__future__", "datetime", "typing", "data.model"}
