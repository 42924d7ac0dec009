"""The commit-message log of one repository state, searched the way ``git log --grep`` searches.

``git log -i -F --grep`` walks the whole history for every task (a third of a second on a repository
of 16,000 commits). A warm view keeps the messages of the newest :data:`MAX_LOGGED` commits instead
and matches them here with git's own rules: body patterns match the message only (never the
headers), line by line, case folded for ASCII only (git runs with ``LC_ALL=C``), newest first in
the order of the same walk. An answer the kept window cannot prove (too few matches and older
commits not kept, a phrase or pattern outside what is matched identically) is ``None``: the caller
asks git.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ctxaction.repo import git
from ctxaction.repo.files import RepoView

__all__ = ["MAX_LOGGED", "MessageLog", "read_log"]

# About 140 bytes a message: a window of 50,000 commits holds ~7 MB.
MAX_LOGGED = 50_000
_RECORD = b"\x1e"
_FIELD = b"\x1f"
# Ends every kept message: no phrase or pattern searched holds a NUL, so none runs past it.
_END = b"\n\0\n"
# Extended regular expressions that mean the same to POSIX ERE and to Python's ``re`` (no classes
# like [[:alpha:]], no backslash escapes, no braces).
_PORTABLE_ERE = re.compile(r"[\w#@/ .,:;'\"()|$^\[\]*+?-]+")


@dataclass(frozen=True)
class MessageLog:
    """Non-merge commits reachable from HEAD, newest first: ids and lower-cased messages, the
    messages joined into one text (each followed by :data:`_END`) so a search runs at C speed."""

    shas: tuple[str, ...]
    text: bytes
    ends: tuple[int, ...]  # offset just past each message's end marker
    complete: bool  # every commit of the history is kept

    def matching(self, phrases: Sequence[str], max_count: int, *, regex: bool) -> list[str] | None:
        """Ids of the newest ``max_count`` commits whose message holds a phrase (``git log -i
        --grep``, ``-F`` or with ``regex`` ``-E``); None when only git can answer."""
        if not all(p.isascii() and "\0" not in p for p in phrases):
            return None
        searches: list[_Search]
        if regex:
            if not all(_PORTABLE_ERE.fullmatch(p) and "[]" not in p and "[^]" not in p for p in phrases):
                return None
            # Line by line like git: a negated class never takes the newline between two lines.
            searches = [re.compile(p.replace("[^", "[^\n").encode().lower(), re.M).search for p in phrases]
        else:
            searches = [_finder(p.encode().lower()) for p in phrases]
        hits: set[int] = set()
        for search in searches:
            hits.update(self._first_hits(search, max_count))
        found = sorted(hits)[:max_count]
        if len(found) < max_count and not self.complete:
            return None
        return [self.shas[i] for i in found]

    def _first_hits(self, search: _Search, max_count: int) -> list[int]:
        """Indexes of the first ``max_count`` messages ``search`` finds a match in."""
        out: list[int] = []
        pos = 0
        while len(out) < max_count:
            at = search(self.text, pos)
            if at is None:
                break
            index = bisect.bisect_right(self.ends, at.start())
            if index >= len(self.ends):
                break
            out.append(index)
            pos = self.ends[index]
        return out


class _Match(Protocol):
    def start(self) -> int: ...


_Search = Callable[[bytes, int], "_Match | None"]


@dataclass(frozen=True)
class _Found:
    at: int

    def start(self) -> int:
        return self.at


def _finder(word: bytes) -> _Search:
    def find(text: bytes, pos: int) -> _Found | None:
        at = text.find(word, pos)
        return None if at < 0 else _Found(at)

    return find


def read_log(repo: RepoView, max_commits: int = MAX_LOGGED) -> MessageLog:
    """One ``git log`` pass over the messages of the newest ``max_commits`` non-merge commits."""
    args = ["log", "--no-merges", f"-n{max_commits + 1}", "--format=%x1e%H%x1f%B", repo.head, "--"]
    try:
        data = git.run_bytes(repo.root, args)[1]
    except git.RepoError:
        return MessageLog((), b"", (), complete=False)
    shas: list[str] = []
    messages: list[bytes] = []
    ends: list[int] = []
    size = 0
    for record in data.split(_RECORD)[1 : max_commits + 1]:
        sha, _, message = record.partition(_FIELD)
        shas.append(sha.decode("ascii", "replace"))
        # ASCII folding only, as git's -i under LC_ALL=C; bytes outside ASCII compare as they are.
        messages.append(message.lower() + _END)
        size += len(messages[-1])
        ends.append(size)
    complete = data.count(_RECORD) <= max_commits
    return MessageLog(tuple(shas), b"".join(messages), tuple(ends), complete)
