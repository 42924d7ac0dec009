"""Fixtures for the GitHub side: a loopback fake REST server, started and stopped per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.ghserver import FakeGitHub


@pytest.fixture
def fake_github() -> Iterator[FakeGitHub]:
    """A fake GitHub API on 127.0.0.1 (a free port), stopped after the test."""
    fake = FakeGitHub()
    fake.start()
    try:
        yield fake
    finally:
        fake.stop()
