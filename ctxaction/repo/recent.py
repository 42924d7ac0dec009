"""Which lines of a file its latest commits changed, in HEAD's line numbers.

A definition the last commits touched is several times likelier to hold an issue's fix than one
they did not (training set, definitions of the fixes' files: 0.20 for a definition the file's
latest commit touched, 0.11 for the second, 0.03 for one none of the last five touched): issues
are often regressions, and the code that changed last is where a reader looks first.

One ``git show -U0`` over the commits of the mined history window that touched the files; each
older commit's lines are carried to HEAD's numbering through the hunks of the newer ones.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ctxaction.repo import git
from ctxaction.repo.files import RepoView
from ctxaction.repo.history import BULK_COMMIT_FILES, FULL_SHA, History

RECENT_COMMITS = 5  # per file: the newest commits of the mined window that touched it
_MARK = "\x1ecommit "
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.M)
# git ends a name holding a space with a tab, and quotes one with other unusual bytes C-style.
_PATH = re.compile(r"^\+\+\+ (?:b/(.*?)\t?|\"b/(.*)\"\t?|/dev/null)$", re.M)
# A patch's file headers have no ``-z`` form. With ``core.quotePath`` every name holding a byte
# outside printable ASCII (a tab, a newline, bytes that are not UTF-8, UTF-8 too) is quoted, and
# in ASCII: decoding the output (bad bytes replaced) loses nothing of it, and :func:`_unquote`
# gets its bytes back and decodes them as the inventory does (``ls-files -z``, U+FFFD for bad
# bytes). Without it git writes such bytes raw inside the quotes, where they would be lost.
_QUOTE_ALL = ("-c", "core.quotePath=true")


@dataclass(frozen=True)
class Hunk:
    """One hunk of a ``-U0`` diff: old and new start lines and lengths."""

    old_start: int
    old_len: int
    new_start: int
    new_len: int


def touched_lines(commits: Sequence[Sequence[Hunk]]) -> dict[int, int]:
    """HEAD line -> 1-based index of the newest commit that changed it (1 = the latest), from a
    file's hunks per commit, newest commit first.

    A commit's new-side lines are in the numbering of the file just after it; every newer commit
    moves them by its hunks (lines a newer hunk replaced belong to that newer commit)."""
    out: dict[int, int] = {}
    for index, hunks in enumerate(commits, start=1):
        lines = [n for h in hunks for n in _changed(h)]
        for newer in reversed(commits[: index - 1]):
            lines = [m for m in (_carry(n, newer) for n in lines) if m is not None]
        for n in lines:
            out.setdefault(n, index)
    return out


def _changed(h: Hunk) -> list[int]:
    """New-side lines of a hunk; a pure deletion marks the lines either side of the cut."""
    if h.new_len:
        return list(range(h.new_start, h.new_start + h.new_len))
    return [n for n in (h.new_start, h.new_start + 1) if n >= 1]


def _carry(line: int, hunks: Sequence[Hunk]) -> int | None:
    """``line`` (numbering before the commit of ``hunks``) in the numbering after it; None when
    that commit rewrote it."""
    shift = 0
    for h in hunks:
        if h.old_len and h.old_start <= line < h.old_start + h.old_len:
            return None
        # A hunk at or above the line moves it (a pure insertion after line k starts at old k).
        if (h.old_len and h.old_start + h.old_len <= line) or (not h.old_len and h.old_start < line):
            shift += h.new_len - h.old_len
    return line + shift


def recent_lines(repo: RepoView, history: History, paths: Sequence[str]) -> dict[str, dict[int, int]]:
    """Per path, HEAD line -> index of the newest commit (1 = latest) of the mined window that
    changed it, over each file's ``RECENT_COMMITS`` newest non-bulk commits. One git call."""
    wanted = set(paths)
    per_file: dict[str, list[str]] = {}
    for c in history.commits:
        if len(c.files) > BULK_COMMIT_FILES:
            continue
        for f in c.files:
            if f in wanted and len(per_file.setdefault(f, [])) < RECENT_COMMITS:
                per_file[f].append(c.sha)
    shas = list(dict.fromkeys(s for shas in per_file.values() for s in shas))
    if not shas or not repo.head:
        return {}
    args = [*_QUOTE_ALL, "show", "--no-renames", "--no-ext-diff", "--no-textconv", "-U0"]
    args += ["--format=%x1ecommit %H", *shas]
    out = git.try_run(repo.root, [*args, "--", *git.literal_paths(sorted(per_file))])
    if not out:
        return {}
    hunks = _parse(out)
    result: dict[str, dict[int, int]] = {}
    for path, file_shas in per_file.items():
        lines = touched_lines([hunks.get((sha, path), []) for sha in file_shas])
        if lines:
            result[path] = lines
    return result


def commit_lines(repo: RepoView, sha: str, paths: Sequence[str]) -> dict[str, set[int]]:
    """Per path, the lines commit ``sha`` changed against its first parent, in HEAD's numbering
    (lines rewritten since are dropped). Two git calls; nothing for a root commit."""
    if not paths or not repo.head or not FULL_SHA.fullmatch(sha):
        return {}
    args = [*_QUOTE_ALL, "diff", "--no-renames", "--no-ext-diff", "--no-textconv", "-U0"]
    wanted = git.literal_paths(sorted(set(paths)))
    made = git.try_run(repo.root, [*args, f"{sha}^1", sha, "--", *wanted])
    hunks = _parse(f"{_MARK}{sha}\n{made}") if made else {}
    if not hunks:
        return {}
    touched = sorted(p for _, p in hunks)
    since = git.try_run(repo.root, [*args, sha, repo.head, "--", *git.literal_paths(touched)]) or ""
    later = _parse(f"{_MARK}{sha}\n{since}")
    out: dict[str, set[int]] = {}
    for (_, path), own in hunks.items():
        moved = later.get((sha, path), [])
        lines = {m for h in own for n in _changed(h) if (m := _carry(n, moved)) is not None}
        if lines:
            out[path] = lines
    return out


def _parse(out: str) -> dict[tuple[str, str], list[Hunk]]:
    """(commit, path) -> hunks of ``git show -U0`` output."""
    found: dict[tuple[str, str], list[Hunk]] = {}
    # A commit's mark starts a line, and a changed line starts with "+" or "-": a file's text
    # cannot fake a mark (which would hand the files after it to another commit).
    for record in f"\n{out}".split(f"\n{_MARK}")[1:]:
        sha = record[:40]
        for part in re.split(r"^diff --git ", record, flags=re.M)[1:]:
            m = _PATH.search(part)
            if m is None or (m.group(1) is None and m.group(2) is None):
                continue
            path = m.group(1) if m.group(1) is not None else _unquote(m.group(2))
            found[(sha, path)] = [
                Hunk(int(h[0]), int(h[1] or 1), int(h[2]), int(h[3] or 1)) for h in _HUNK.findall(part)
            ]
    return found


def _unquote(quoted: str) -> str:
    """A name git quoted C-style (octal bytes, backslash escapes; ASCII with :data:`_QUOTE_ALL`),
    as UTF-8 text, bad bytes replaced."""
    raw = quoted.encode("latin-1", "backslashreplace")
    return codecs.escape_decode(raw)[0].decode("utf-8", "replace")
