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
  re-created file shows here, the way git's own index notices work-tree changes.

Untracked files never enter a package, so creating or editing them invalidates nothing; the
config, ``.contextignore`` and secret rules are read afresh by every build. A view with a ``ref``
(a commit read from the object store) is never kept: the server packs the work tree.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from ctxaction.repo import git
from ctxaction.repo.files import RepoView, open_repo
from ctxaction.repo.memo import RepoMemo

__all__ = ["MAX_REPOS", "MAX_TEXT_CHARS", "WarmRepos", "file_state", "tree_state"]

MAX_REPOS = 4
# File text a kept view may hold between builds (~4 bytes a character at worst).
MAX_TEXT_CHARS = 32_000_000


@dataclass
class _Kept:
    view: RepoView
    state: str


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
        fresh = open_repo(path, ref=ref)
        if ref is not None:
            return fresh
        key = os.path.realpath(fresh.root)
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None and _same_checkout(kept.view, fresh):
            state = tree_state(kept.view)
            if state == kept.state:
                with self._lock:
                    self._kept.move_to_end(key)
                    self.hits += 1
                if kept.view.text_chars() > self.max_text_chars:
                    kept.view.forget_texts()
                return kept.view
        fresh.memo = RepoMemo()
        fresh.tracked()
        kept = _Kept(fresh, tree_state(fresh))
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


def tree_state(view: RepoView) -> str:
    """A digest of what the view's inventory and reads depend on: the index file and the ``lstat``
    of every tracked path (plus the ``stat`` of each symlink's target)."""
    digest = hashlib.blake2b(digest_size=16)
    index = git.try_run(view.root, ["rev-parse", "--git-path", "index"])
    index_path = Path(view.root, (index or "").strip() or ".git/index")
    digest.update(repr(_stat(index_path, follow=False)).encode())
    base = f"{view.root}{os.sep}"
    for entry in view.tracked():
        row = [entry.path, _stat(base + entry.path, follow=False)]
        if entry.is_symlink:
            row.append(_stat(base + entry.path, follow=True))
        digest.update(repr(row).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def file_state(path: str | Path) -> tuple[int, ...]:
    """What tells one version of a file from the next: type, device, inode, size, times."""
    return _stat(path, follow=True)


def _stat(path: str | Path, *, follow: bool) -> tuple[int, ...]:
    try:
        info = os.stat(path) if follow else os.lstat(path)
    except OSError:
        return ()
    return (info.st_mode, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
