"""Results that depend on one repository state only, kept by a long-lived caller between builds.

The MCP server answers many tasks on the same checkout, and what ranking derives from the
repository alone (the history window, the commit-message log, a file's definitions, the module
index) comes out the same every time. Every :class:`~ctxaction.repo.files.RepoView` carries a
:class:`RepoMemo`: one build's threads ask for the same file's definitions (the identifier search,
the call hop and the focus each parse the best files), and a view kept warm by
:mod:`ctxaction.repo.warm` keeps its memo between builds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

__all__ = ["RepoMemo", "cached"]

T = TypeVar("T")


class RepoMemo:
    """Values keyed by what computed them, for one repository state (thread-safe)."""

    def __init__(self, *, kept: bool = False) -> None:
        # Kept between builds (a warm view's): only then is a whole-repository index, such as the
        # message log, worth building in place of one git search.
        self.kept = kept
        self._values: dict[Hashable, object] = {}
        self._lock = threading.Lock()
        # Keys being computed, with the computing thread and the event its waiters wait on.
        self._pending: dict[Hashable, tuple[int, threading.Event]] = {}

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value kept under ``key``, computed (outside the lock) on first use.

        A thread asking for a key another thread is computing waits for that result instead of
        computing it again: three threads parsing one big file at once took three times its parse
        under the GIL. Should the computing thread fail, each waiter computes it itself.
        """
        me = threading.get_ident()
        with self._lock:
            if key in self._values:
                return cast(T, self._values[key])
            pending = self._pending.get(key)
            if pending is None:
                done = threading.Event()
                self._pending[key] = (me, done)
        if pending is not None and pending[0] != me:
            pending[1].wait()
            with self._lock:
                if key in self._values:
                    return cast(T, self._values[key])
            return compute()
        if pending is not None:  # asked again inside its own computation: no waiting on oneself
            return compute()
        try:
            value = compute()
            with self._lock:
                self._values[key] = value
            return value
        finally:
            with self._lock:
                del self._pending[key]
            done.set()

    def __len__(self) -> int:
        return len(self._values)


def cached(memo: RepoMemo | None, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, kept in ``memo`` under ``key`` when there is one."""
    return compute() if memo is None else memo.get(key, compute)
