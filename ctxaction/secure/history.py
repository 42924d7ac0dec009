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

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from ctxaction.repo import git
from ctxaction.repo.git import RepoError
from ctxaction.secure import quoted
from ctxaction.secure.sources import _DIFF_FLAGS, Blob, SourceError, _unquote, decode, refuse_option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

_MARKER = b"\x00"
_CHUNK = 1 << 22
# A zero-context hunk: header, removed lines, then the added lines (group 2), with any
# "\ No newline at end of file" markers among them.
_HUNK = re.compile(
    rb"^@@ -[0-9]+(?:,[0-9]+)? \+([0-9]+)(?:,[0-9]+)? @@[^\n]*\n(?:[-\\][^\n]*\n)*((?:[+\\][^\n]*\n)*)",
    re.MULTILINE,
)
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
            refuse_option(rev)
        out = [f"--since={self.since}"] if self.since else []
        out += self.revs or ["--all"]
        if self.not_remotes is not None:
            out += ["--not", f"--remotes={self.not_remotes}" if self.not_remotes else "--remotes"]
        return out


def check_revs(root: Path, revs: Sequence[str]) -> None:
    """Raise :class:`SourceError` naming the first argument git does not know as a revision or range."""
    for rev in revs:
        refuse_option(rev)
        known = _git_ok(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", rev])
        if not known and not _valid_range(root, rev):
            raise SourceError(f"unknown revision or range {quoted(rev)} (check it with `git log`)")


def _valid_range(root: Path, rev: str) -> bool:
    if ".." not in rev:
        return False
    return _git_ok(root, ["rev-parse", "--quiet", "--end-of-options", rev])


def _git_ok(root: Path, args: list[str]) -> bool:
    try:
        return git.run_capture(root, args, timeout=None, inherit_repo=True)[0] == 0
    except RepoError as exc:
        raise SourceError(str(exc)) from None


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
    config = ("diff.noprefix=false", "log.showRoot=true")
    args = [*(arg for item in config for arg in ("-c", item)), *_LOG_FLAGS, *span.args()]
    try:
        with git.Stream(root, args, inherit_repo=True) as out:
            for commit, section in _sections(out):
                if section.startswith((b"diff --cc ", b"diff --combined ")):
                    yield from _combined(commit, section.split(b"\n"), max_bytes)
                else:
                    blob = _plain(commit, section, max_bytes)
                    if blob is not None:
                        yield blob
    except RepoError as exc:
        raise SourceError(str(exc)) from None


def _sections(stream: IO[bytes]) -> Iterator[tuple[str, bytes]]:
    """``(commit, one file's diff)`` from the stream, read in large chunks: the per-line work is
    left to the regex engine and ``bytes`` methods, not a Python loop (a history is millions of
    lines). A section starts at a line beginning with ``diff `` or the commit marker; no content
    line can (each starts with ``+``, ``-``, a space or a backslash)."""
    commit = ""
    buf = bytearray()
    while True:
        data = stream.read(_CHUNK)
        buf += data
        if data:
            cut = max(buf.rfind(b"\ndiff "), buf.rfind(b"\n" + _MARKER)) + 1
            if cut <= 0:
                continue
        else:
            if buf and not buf.endswith(b"\n"):
                buf += b"\n"
            cut = len(buf)
        block = bytes(buf[:cut])
        del buf[:cut]
        starts = _starts(block)
        for begin, end in zip(starts, [*starts[1:], len(block)][: len(starts)], strict=True):
            if block.startswith(_MARKER, begin):
                commit = block[begin + 1 : block.index(b"\n", begin)].strip().decode("ascii", "replace")
            else:
                yield commit, block[begin:end]
        if not data:
            return


def _starts(block: bytes) -> list[int]:
    """Offsets of the lines starting a section (``bytes.find`` beats a multi-line regex here)."""
    found = [0] if block.startswith((b"diff ", _MARKER)) else []
    for needle in (b"\ndiff ", b"\n" + _MARKER):
        at = block.find(needle)
        while at >= 0:
            found.append(at + 1)
            at = block.find(needle, at + 1)
    return sorted(found)


def _target(header: bytes) -> str | None:
    """The new-side path of a section's ``+++ b/…`` line (None for deletions or none at all)."""
    plus = header.find(b"\n+++ ")
    if plus < 0:
        return None
    end = header.find(b"\n", plus + 1)
    target = header[plus + 5 : end if end >= 0 else len(header)].decode("utf-8", "replace").rstrip("\t")
    return None if target == "/dev/null" else _unquote(target)[2:]


def _plain(commit: str, section: bytes, max_bytes: int) -> Blob | None:
    """The added lines of one file of a non-merge commit. With ``-U0`` a hunk is its removed
    lines, then its added lines, which are numbered from the hunk's ``+start``."""
    at = section.find(b"\n@@")
    path = _target(section[:at]) if at >= 0 else None
    if path is None:
        return None  # binary, deleted, renamed or mode change only
    current = _File(commit, path)
    for match in _HUNK.finditer(section, at + 1):
        block = match.group(2)
        if not block:
            continue
        if block.startswith(b"\\") or b"\n\\" in block:  # "\ No newline at end of file"
            block = b"".join(line for line in block.splitlines(True) if not line.startswith(b"\\"))
        count = block.count(b"\n")
        start = int(match.group(1))
        current.size += len(block) - count
        if current.size > max_bytes:
            continue
        if current.numbers and current.numbers[-1] != start - 1:
            current.chunks.append(b"")  # a hunk boundary: matches must not join hunks
            current.numbers.append(0)
        # Drop each line's "+" (only the first: "++x" adds the line "+x").
        current.chunks.append(block[1:-1].replace(b"\n+", b"\n"))
        current.numbers.extend(range(start, start + count))
    return current.blob(max_bytes) if current.chunks or current.size > max_bytes else None


def _combined(commit: str, lines: list[bytes], max_bytes: int) -> Iterator[Blob]:
    """A merge commit's dense combined diff, line by line (merges are few): a line counts as
    added when every parent's column says ``+``; lines with no ``-`` are in the result."""
    current: _File | None = None
    in_header = True
    columns = 1
    added_mark = b"+"
    number = 0  # next line number on the new side of the current hunk
    limit = max_bytes + 1
    for line in lines:
        head = line[:1]
        if not in_header and current is not None and head and head in b"+- ":
            prefix = line[:columns]
            if prefix == added_mark:
                if current.size <= limit:
                    if current.numbers and current.numbers[-1] not in (0, number - 1):
                        current.chunks.append(b"")
                        current.numbers.append(0)
                    current.chunks.append(line[columns:])
                    current.numbers.append(number)
                current.size += len(line) - columns + 1
                number += 1
            elif b"-" not in prefix:
                number += 1  # in the result but not new against every parent
            continue
        if in_header and line.startswith(b"+++ "):
            path = _target(b"\n" + line)
            current = None if path is None else _File(commit, path)
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
