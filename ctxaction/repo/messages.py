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

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ctxaction.repo import git
from ctxaction.repo.files import RepoView

__all__ = ["MAX_LOGGED", "MessageLog", "read_log"]

# About 140 bytes a message: a window of 50,000 commits holds ~7 MB.
MAX_LOGGED = 50_000
_RECORD = b"\x1e"
_FIELD = b"\x1f"
# Extended regular expressions that mean the same to POSIX ERE and to Python's ``re`` (no classes
# like [[:alpha:]], no backslash escapes, no braces).
_PORTABLE_ERE = re.compile(r"[\w#@/ .,:;'\"()|$^\[\]*+?-]+")


@dataclass(frozen=True)
class MessageLog:
    """Non-merge commits reachable from HEAD, newest first: ids and lower-cased messages."""

    shas: tuple[str, ...]
    messages: tuple[bytes, ...]
    complete: bool  # every commit of the history is kept

    def matching(self, phrases: Sequence[str], max_count: int, *, regex: bool) -> list[str] | None:
        """Ids of the newest ``max_count`` commits whose message holds a phrase (``git log -i
        --grep``, ``-F`` or with ``regex`` ``-E``); None when only git can answer."""
        if regex:
            if not all(_PORTABLE_ERE.fullmatch(p) and p.isascii() for p in phrases):
                return None
            patterns = [re.compile(p.encode().lower(), re.IGNORECASE) for p in phrases]
        elif not all(p.isascii() for p in phrases):
            return None
        words = [p.encode().lower() for p in phrases]
        found: list[str] = []
        for sha, message in zip(self.shas, self.messages, strict=True):
            if regex:
                hit = any(pat.search(line) for line in message.split(b"\n") for pat in patterns)
            else:
                hit = any(w in message for w in words)
            if hit:
                found.append(sha)
                if len(found) >= max_count:
                    return found
        return found if self.complete else None


def read_log(repo: RepoView, max_commits: int = MAX_LOGGED) -> MessageLog:
    """One ``git log`` pass over the messages of the newest ``max_commits`` non-merge commits."""
    args = ["log", "--no-merges", f"-n{max_commits + 1}", "--format=%x1e%H%x1f%B", repo.head, "--"]
    try:
        data = git.run_bytes(repo.root, args)[1]
    except git.RepoError:
        return MessageLog((), (), complete=False)
    shas: list[str] = []
    messages: list[bytes] = []
    for record in data.split(_RECORD)[1:]:
        sha, _, message = record.partition(_FIELD)
        shas.append(sha.decode("ascii", "replace"))
        # ASCII folding only, as git's -i under LC_ALL=C; bytes outside ASCII compare as they are.
        messages.append(message.lower())
    complete = len(shas) <= max_commits
    return MessageLog(tuple(shas[:max_commits]), tuple(messages[:max_commits]), complete)
