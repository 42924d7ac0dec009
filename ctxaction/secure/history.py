"""Every commit's added lines, from one ``git log -p`` stream (the way ``gitleaks git`` reads history).

A key committed and removed in the next commit never shows in a diff of the end points; it does
show as an added line of the commit that introduced it. One git process streams every commit's
zero-context patch; each file's added lines become one :class:`Blob` whose text holds only those
lines (hunks separated by an empty line, so a match cannot join two hunks) and whose
``line_map`` gives each text line's number in the committed file. Merge commits are read as
dense combined diffs (``--cc``): only lines new against every parent (an "evil merge") count,
so a merged branch is not scanned twice.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

from ctxaction.secure.sources import _DIFF_FLAGS, Blob, SourceError, _unquote, decode

_MARKER = b"\x00"
_LOG_FLAGS = (
    "log",
    "-p",
    "-U0",
    "--cc",
    "--format=%x00%H",
    "--no-notes",
    "--no-show-signature",
    "--submodule=short",
    "--no-abbrev",
    *_DIFF_FLAGS,
)


class HistoryRange:
    """Which commits to read: ``revs`` are ``git log`` revision arguments (``A..B``, ``X``,
    ``^Y``); ``not_remotes`` excludes commits already on a remote (``--not --remotes``, for new
    branches in a push); ``since`` is a date git understands; no revs means every ref (``--all``)."""

    def __init__(self, revs: Sequence[str] = (), *, since: str | None = None, not_remotes: str | None = None):
        self.revs = list(revs)
        self.since = since
        self.not_remotes = not_remotes

    def args(self) -> list[str]:
        """The revision part of the ``git log`` command line. ``--all``, ``--not`` and
        ``--remotes`` are options git refuses after ``--end-of-options``, so instead no revision
        may start with a dash."""
        for rev in self.revs:
            if rev.startswith("-"):
                raise SourceError(f"not a revision: {rev!r}")
        out = [f"--since={self.since}"] if self.since else []
        out += self.revs or ["--all"]
        if self.not_remotes is not None:
            out += ["--not", f"--remotes={self.not_remotes}" if self.not_remotes else "--remotes"]
        return out


def check_revs(root: Path, revs: Sequence[str]) -> None:
    """Raise :class:`SourceError` naming the first argument git does not know as a revision or range."""
    for rev in revs:
        if rev.startswith("-"):
            raise SourceError(f"not a revision: {rev!r}")
        proc = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", "--end-of-options", rev],
            cwd=root,
            capture_output=True,
            check=False,
        )
        if proc.returncode != 0 and not _valid_range(root, rev):
            raise SourceError(f"unknown revision or range {rev!r} (try `git log {rev}` to check it)")


def _valid_range(root: Path, rev: str) -> bool:
    if ".." not in rev:
        return False
    proc = subprocess.run(
        ["git", "rev-parse", "--quiet", "--end-of-options", rev], cwd=root, capture_output=True, check=False
    )
    return proc.returncode == 0


class _File:
    """The added lines of one file in one commit, collected as bytes and decoded once."""

    __slots__ = ("chunks", "commit", "numbers", "path", "size")

    def __init__(self, commit: str, path: str) -> None:
        self.commit = commit
        self.path = path
        self.chunks: list[bytes] = []
        self.numbers: list[int] = []
        self.size = 0

    def blob(self, max_bytes: int) -> Blob:
        if self.size > max_bytes:
            note = f"skipped: {self.size:,} bytes added is over the {max_bytes:,}-byte limit"
            return Blob(self.path, None, note=note, commit=self.commit)
        text, note = decode(b"\n".join(self.chunks), self.path, max_bytes)
        return Blob(self.path, text, None, note, commit=self.commit, line_map=tuple(self.numbers))


def history(root: Path, span: HistoryRange, *, max_bytes: int) -> Iterator[Blob]:
    """Blobs of every added-lines file section in the commits ``span`` selects, newest first."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    cmd = ["git", "-c", "core.quotePath=false", "-c", "diff.noprefix=false", *_LOG_FLAGS, *span.args()]
    with subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            yield from _parse(proc.stdout, max_bytes)
        finally:
            proc.stdout.close()
            err = proc.stderr.read()
            code = proc.wait()
        if code != 0:
            message = err.decode("utf-8", "replace").strip().split("\n")[-1]
            raise SourceError(f"git log failed: {message}")


def _parse(stream: Iterator[bytes], max_bytes: int) -> Iterator[Blob]:
    """The state machine over ``git log -p -U0 --cc`` output. Inside a hunk every content line
    starts with a column per parent (``+``, ``-`` or space), so a line starting with the commit
    marker, ``diff `` or ``@@`` is always a header."""
    commit = ""
    current: _File | None = None
    in_header = False
    columns = 1
    added_mark = b"+"
    number = 0  # next line number on the new side of the current hunk
    limit = max_bytes + 1
    for raw in stream:
        line = raw[:-1] if raw.endswith(b"\n") else raw
        head = line[:1]
        if not in_header and current is not None and head in b"+- " and head:
            prefix = line[:columns]
            if prefix == added_mark:
                if current.size <= limit:
                    if current.numbers and current.numbers[-1] not in (0, number - 1):
                        current.chunks.append(b"")  # a hunk boundary: matches must not join hunks
                        current.numbers.append(0)
                    current.chunks.append(line[columns:])
                    current.numbers.append(number)
                current.size += len(line) - columns + 1
                number += 1
            elif b"-" not in prefix:
                number += 1  # in the result but not new against every parent
            continue
        if head == _MARKER:
            if current is not None and current.chunks:
                yield current.blob(max_bytes)
            current = None
            commit = line[1:].strip().decode("ascii", "replace")
        elif line.startswith(b"diff "):
            if current is not None and current.chunks:
                yield current.blob(max_bytes)
            current = None
            in_header = True
        elif in_header and line.startswith(b"+++ "):
            target = line[4:].decode("utf-8", "replace").rstrip("\t")
            current = None if target == "/dev/null" else _File(commit, _unquote(target)[2:])
        elif line.startswith(b"@@"):
            in_header = False
            columns = len(line) - len(line.lstrip(b"@")) - 1
            added_mark = b"+" * columns
            number = _new_start(line)
    if current is not None and current.chunks:
        yield current.blob(max_bytes)


def _new_start(header: bytes) -> int:
    """First new-side line number of a hunk (``@@ -a,b +c,d @@``; combined diffs list more
    ``-`` ranges, the ``+`` range is always last)."""
    plus = header.find(b" +")
    if plus < 0:
        return 0
    end = plus + 2
    while end < len(header) and 48 <= header[end] <= 57:
        end += 1
    digits = header[plus + 2 : end]
    return int(digits) if digits else 0
