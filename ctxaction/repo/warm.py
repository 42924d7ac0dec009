"""Warm repository views for a long-lived process (the MCP server): one per repository, LRU.

A build reads the tracked-file inventory (``git ls-files``, three ``git grep`` probes, a stat per
file), the files it ranks, the history window and the commit messages: all of it depends on the
repository state, none of it on the task. :class:`WarmRepos` keeps the
:class:`~ctxaction.repo.files.RepoView` of each repository, with a
:class:`~ctxaction.repo.memo.RepoMemo`, and hands it out again while the state is unchanged.

"Unchanged" is what the inventory and the reads depend on, checked before every build:

- the same resolved root, HEAD commit, shallow and detached state (``open_repo`` runs every time);
- the same index file (device, inode, size, modification time): ``git add``, ``rm``, ``checkout``,
  ``commit`` and ``reset`` all rewrite it, and a rewrite by ``git status`` only costs a rebuild;
- the same ``lstat`` (type, size, inode, modification time in nanoseconds) of every tracked path,
  and the same ``stat`` of what each tracked symlink points at: an edited, replaced, deleted or
  re-created file shows here, the way git's own index notices work-tree changes;
- for a file (or the index) modified within :data:`RACY_NS` of the check, its bytes too: file
  times tick coarsely (milliseconds), so an edit of the same size within one tick keeps the same
  stat. Like git's "racily clean" index entries, such a file is compared by content at the next
  check; once it is older than the margin, its stat alone is trusted again. A new view whose
  files changed that close to its inventory is not kept: the inventory may have read the bytes
  before the change.

Untracked files never enter a package, so creating or editing them invalidates nothing; the
config, ``.contextignore`` and secret rules are read afresh by every build. A view with a ``ref``
(a commit read from the object store) is never kept: the server packs the work tree.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from ctxaction.readfile import read_regular
from ctxaction.repo import git
from ctxaction.repo.files import MAX_READ_BYTES, RepoView, open_repo
from ctxaction.repo.memo import RepoMemo

__all__ = ["MAX_REPOS", "MAX_TEXT_CHARS", "RACY_NS", "TreeState", "WarmRepos", "index_path", "tree_state"]

MAX_REPOS = 4
# Files modified this close to a snapshot are compared by content as well as by stat.
RACY_NS = 1_000_000_000
_INDEX = "\0index"  # the index file's row: no tracked path holds a NUL
# File text a kept view may hold between builds (~4 bytes a character at worst).
MAX_TEXT_CHARS = 32_000_000


@dataclass
class TreeState:
    """A snapshot of what a view's inventory and reads depend on."""

    stats: str  # digest of the index file's stat and every tracked path's stat
    racy: dict[str, tuple[int, str]]  # path -> (mtime, content digest) for files modified close to it


@dataclass
class _Kept:
    view: RepoView
    index: str  # the index file's path
    state: TreeState


class WarmRepos:
    """Warm views of up to ``size`` repositories, least recently used dropped first."""

    def __init__(self, size: int = MAX_REPOS, max_text_chars: int = MAX_TEXT_CHARS) -> None:
        self.size = size
        self.max_text_chars = max_text_chars
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def open(self, path: str | Path, ref: str | None = None) -> RepoView:
        """A view of the repository at ``path``: the kept one while its state is unchanged, else a
        fresh one (kept from now on). Raises RepoError like :func:`open_repo`. Closing a kept view
        is harmless: a work-tree view holds no process."""
        started = time.time_ns()
        fresh = open_repo(path, ref=ref)
        if ref is not None:
            return fresh
        key = os.path.realpath(fresh.root)
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None and _same_checkout(kept.view, fresh):
            state = tree_state(kept.view, kept.index, kept.state.racy)
            if state.stats == kept.state.stats and all(
                state.racy.get(p) == seen for p, seen in kept.state.racy.items()
            ):
                with self._lock:
                    kept.state = _settled(state)
                    self._kept.move_to_end(key)
                    self.hits += 1
                if kept.view.text_chars() > self.max_text_chars:
                    # The memo's per-file entries are keyed by those texts: they go too.
                    kept.view.forget_texts()
                    kept.view.memo = RepoMemo(kept=True)
                return kept.view
        fresh.memo = RepoMemo(kept=True)
        fresh.tracked()
        index = index_path(fresh)
        state = tree_state(fresh, index, since=started)
        # Changed while (or just before) the inventory ran: matched by no later check.
        kept = _Kept(fresh, index, TreeState("", {}) if state.racy else state)
        with self._lock:
            self.misses += 1
            self._kept[key] = kept
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return fresh

    def __len__(self) -> int:
        return len(self._kept)


def _same_checkout(old: RepoView, new: RepoView) -> bool:
    return (old.root, old.head, old.shallow, old.detached) == (new.root, new.head, new.shallow, new.detached)


def _settled(state: TreeState) -> TreeState:
    """``state`` without the files now old enough for their stat alone to be trusted."""
    racy = time.time_ns() - RACY_NS
    return TreeState(state.stats, {p: seen for p, seen in state.racy.items() if seen[0] >= racy})


def index_path(view: RepoView) -> str:
    """Where the repository's index file is (``.git/index``, or a linked work tree's own)."""
    index = (git.try_run(view.root, ["rev-parse", "--git-path", "index"]) or "").strip()
    return os.path.join(view.root, index or ".git/index")


def tree_state(
    view: RepoView, index: str, recheck: Collection[str] = (), since: int | None = None
) -> TreeState:
    """The view's :class:`TreeState` now: the stat of the ``index`` file and of every tracked path
    (plus of each symlink's target), and the content of files modified within :data:`RACY_NS` of
    now (or of ``since``, when earlier) and of ``recheck`` (files that were at the last check)."""
    digest = hashlib.blake2b(digest_size=16)
    close = min(time.time_ns(), since or time.time_ns()) - RACY_NS
    racy: dict[str, tuple[int, str]] = {}
    base = f"{view.root}{os.sep}"
    rows = [(_INDEX, index, False), *((e.path, base + e.path, e.is_symlink) for e in view.tracked())]
    for name, path, is_link in rows:
        info = _stat(path, follow=False)
        row: list[object] = [name, info]
        if is_link:
            row.append(_stat(path, follow=True))
        elif info and (info[-2] >= close or name in recheck):
            racy[name] = (info[-2], _content(path))
        digest.update(repr(row).encode("utf-8", "surrogatepass"))
    return TreeState(digest.hexdigest(), racy)


def _content(path: str) -> str:
    try:
        return hashlib.blake2b(read_regular(path, MAX_READ_BYTES), digest_size=16).hexdigest()
    except OSError:
        return ""


def _stat(path: str | Path, *, follow: bool) -> tuple[int, ...]:
    try:
        info = os.stat(path) if follow else os.lstat(path)
    except OSError:
        return ()
    return (info.st_mode, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
