"""Shared fixtures: real temp git repositories and an offline tokenizer cache."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., GitRepo]:
    """Factory for real git repositories under the test's temp dir."""
    counter = iter(range(1000))

    def factory(name: str | None = None) -> GitRepo:
        return GitRepo(tmp_path / (name or f"repo{next(counter)}"))

    return factory


@pytest.fixture(autouse=True, scope="session")
def _offline_tiktoken(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Point tiktoken at a private cache so tests prove the offline path works without network."""
    import os

    os.environ["TIKTOKEN_CACHE_DIR"] = str(tmp_path_factory.mktemp("tiktoken-cache"))


@pytest.fixture(autouse=True, scope="session")
def _private_cache_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep the config cache (valid config texts) of test runs and their subprocesses out of the
    user's ~/.cache."""
    import os

    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache-home"))
