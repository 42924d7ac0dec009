"""Results that depend on one repository state only, kept by a long-lived caller between builds.

The MCP server answers many tasks on the same checkout, and what ranking derives from the
repository alone (the history window, the commit-message log, a file's definitions, the module
index) comes out the same every time. A :class:`RepoMemo` rides on a
:class:`~ctxaction.repo.files.RepoView` kept warm by :mod:`ctxaction.repo.warm`; a view without
one (the CLI, the action) computes everything afresh, so both paths run the same functions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

__all__ = ["RepoMemo", "cached"]

T = TypeVar("T")


class RepoMemo:
    """Values keyed by what computed them, for one repository state (thread-safe)."""

    def __init__(self) -> None:
        self._values: dict[Hashable, object] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value kept under ``key``, computed (outside the lock) on first use."""
        with self._lock:
            if key in self._values:
                return cast(T, self._values[key])
        value = compute()
        with self._lock:
            return cast(T, self._values.setdefault(key, value))

    def __len__(self) -> int:
        return len(self._values)


def cached(memo: RepoMemo | None, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, kept in ``memo`` under ``key`` when there is one."""
    return compute() if memo is None else memo.get(key, compute)
