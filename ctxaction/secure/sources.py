"""Where texts to scan come from: the git index, a diff between revisions, or files and folders.

Each source yields :class:`Blob` values. Git is driven with argument lists only (no shell), with
``--end-of-options`` before user-given revisions, and its output is decoded with replacement.
Config that could change the diff format (external diff, textconv, prefixes, relative) is
overridden on the command line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from ctxaction.errors import SourceError as SourceError
from ctxaction.readfile import FileTooLarge, is_regular, read_regular
from ctxaction.repo import git
from ctxaction.repo.git import RepoError
from ctxaction.repo.process import Process
from ctxaction.secure import quoted
from ctxaction.secure.lazyre import LazyPattern

DEFAULT_MAX_BYTES = 2_000_000
_NULL_SHA = LazyPattern(r"^0+$")
_HUNK = LazyPattern(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_DIFF_FLAGS = (
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--find-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--no-relative",
    "--inter-hunk-context=0",  # diff.interHunkContext would merge hunks, context lines and all
)
# Only regular files and executables hold text worth scanning (not symlinks or submodules).
_FILE_MODES = ("100644", "100755")



class Blob:
    """One text to scan. ``lines`` limits findings to those lines (added lines); None = all.

    ``text`` is None when the blob was skipped; ``note`` then says why (binary, too large …).
    History blobs name their ``commit`` and hold only a commit's added lines: ``line_map[i]`` is
    the line number in the committed file of the text's line ``i + 1`` (0 for a hunk separator).
    """

    __slots__ = ("commit", "line_map", "lines", "note", "path", "text")

    def __init__(
        self,
        path: str,
        text: str | None,
        lines: frozenset[int] | None = None,
        note: str = "",
        *,
        commit: str = "",
        line_map: tuple[int, ...] | None = None,
    ) -> None:
        self.path = path
        self.text = text
        self.lines = lines
        self.note = note
        self.commit = commit
        self.line_map = line_map

    def __repr__(self) -> str:
        return f"Blob({self.path!r}, lines={self.lines!r}, note={self.note!r})"


def _git(root: Path, *args: str) -> bytes:
    """``git args`` in ``root`` through the door (in the repository and index git points us at),
    its failure told as a :class:`SourceError`."""
    try:
        return git.run_bytes(root, args, timeout=None, inherit_repo=True)[1]
    except RepoError as exc:
        raise SourceError(str(exc)) from None


def repo_root(start: Path) -> Path | None:
    """The work tree root containing ``start``, or None when it is not inside a git repository."""
    folder = start if start.is_dir() else start.parent
    # Git runs hooks (and pre-commit its hooks) at the top of the work tree, where a ``.git``
    # settles the question without a git process, unless the environment points git elsewhere.
    if (folder / ".git").exists() and "GIT_DIR" not in os.environ and "GIT_WORK_TREE" not in os.environ:
        return folder.resolve()
    try:
        out = _git(folder, "rev-parse", "--show-toplevel")
    except (SourceError, OSError):
        return None
    return Path(out.decode("utf-8", "replace").strip())


# The note of a file with no text to scan: routine (images, archives), so a summary counts them.
BINARY = "skipped: binary"


def decode(data: bytes, path: str, max_bytes: int) -> tuple[str | None, str]:
    """``(text, note)``: None with a note for binary or oversized content; UTF-8 with replacement,
    UTF-16/32 text decoded too (git calls it binary; its secrets are secrets all the same)."""
    if len(data) > max_bytes:
        return None, f"skipped: {len(data):,} bytes is over the {max_bytes:,}-byte limit"
    if b"\0" not in data[:8192]:
        return data.decode("utf-8", "replace"), ""
    from ctxaction.secure.decoding import decode_text

    text = decode_text(data)
    return (text, "") if text is not None else (None, BINARY)


class _Change:
    __slots__ = ("mode", "path", "sha", "status")

    def __init__(self, path: str, sha: str, status: str, mode: str) -> None:
        self.path = path
        self.sha = sha
        self.status = status
        self.mode = mode


def _parse_diff(data: bytes, patch: bool) -> tuple[list[_Change], dict[str, set[int]]]:
    """The output of one ``git diff --raw -z`` (with a zero-context patch when ``patch``): every
    changed path's new blob sha, status and mode, and the added line numbers (new side) per path."""
    out = data.decode("utf-8", "replace")
    fields = out.split("\0")
    changes: list[_Change] = []
    i = 0
    while i < len(fields) - 1 and fields[i].startswith(":"):
        meta = fields[i][1:].split()
        status = meta[4][0] if len(meta) > 4 else "?"
        if status in "RC":
            path = fields[i + 2]
            i += 3
        else:
            path = fields[i + 1]
            i += 2
        changes.append(
            _Change(path, meta[3] if len(meta) > 3 else "", status, meta[1] if len(meta) > 1 else "")
        )
    # With -p the patch follows the raw records after an empty field.
    return changes, _added_lines("\0".join(fields[i + 1 :])) if patch else {}


def _unquote(path: str) -> str:
    """Undo git's C-style quoting of a path in patch headers (``"a\\tb"``, octal bytes)."""
    if not (path.startswith('"') and path.endswith('"')):
        return path
    raw = bytearray()
    body = path[1:-1].encode("utf-8", "surrogateescape")
    i = 0
    escapes = {
        ord("n"): 10,
        ord("t"): 9,
        ord('"'): 34,
        ord("\\"): 92,
        ord("a"): 7,
        ord("b"): 8,
        ord("f"): 12,
        ord("r"): 13,
        ord("v"): 11,
    }
    while i < len(body):
        ch = body[i]
        if ch == 92 and i + 1 < len(body):
            nxt = body[i + 1]
            if 48 <= nxt <= 55 and i + 3 < len(body) + 1:
                raw.append(int(body[i + 1 : i + 4], 8))
                i += 4
                continue
            raw.append(escapes.get(nxt, nxt))
            i += 2
            continue
        raw.append(ch)
        i += 1
    return raw.decode("utf-8", "replace")


def _added_lines(patch: str) -> dict[str, set[int]]:
    """Added line numbers (new side) per path, from a zero-context patch."""
    added: dict[str, set[int]] = {}
    current: set[int] | None = None
    for line in patch.split("\n"):
        if line.startswith("+++ "):
            target = line[4:].rstrip("\t")  # git appends a tab to names holding spaces
            path = _unquote(target)
            current = None if target == "/dev/null" else added.setdefault(path[2:], set())
        elif line.startswith("@@") and current is not None:
            match = _HUNK.match(line)
            if match:
                start, count = int(match.group(1)), int(match.group(2) or 1)
                current.update(range(start, start + count))
    return added


class DiffBlobs:
    """What a diff adds, as blobs to scan, plus every path it touches (``paths``: deletions and
    mode-only changes included, so a caller can tell "staged but nothing to scan" from
    "not staged")."""

    def __init__(self, blobs: list[Blob], paths: set[str]) -> None:
        self.blobs = blobs
        self.paths = paths


class PendingDiff:
    """A diff's git processes, started at once and read later: ``git diff --raw -z`` (with a
    zero-context patch unless ``all_lines``) and the ``git cat-file --batch`` that reads the new
    blobs. The hook starts them before it loads the rule set, so git works while Python imports;
    :meth:`blobs` reads them (once), :meth:`close` stops whatever was not read."""

    def __init__(self, root: Path, diff_args: Sequence[str], *, all_lines: bool = False) -> None:
        self.root = root
        self.all_lines = all_lines
        self._args = ["diff", "--raw", "-z", *([] if all_lines else ["-p", "-U0"]), *_DIFF_FLAGS, *diff_args]
        self._cat = git.CatFile(root, inherit_repo=True)
        self._diff: Process | None = None
        try:
            self._cat.start()
            self._diff = git.start(root, self._args, stderr=True, inherit_repo=True)
        except RepoError as exc:
            self.close()
            raise SourceError(str(exc)) from None

    def blobs(self, *, only: Iterable[str] | None = None, max_bytes: int = DEFAULT_MAX_BYTES) -> DiffBlobs:
        """What the diff adds (limited to the paths in ``only`` when given), as blobs to scan."""
        proc = self._diff
        if proc is None:
            raise SourceError("git diff was read already")
        try:
            out, err = proc.communicate()
            if proc.wait() != 0:
                raise SourceError(git.explain(self.root, self._args, err.decode("utf-8", "replace")))
            all_changes, added = _parse_diff(out, patch=not self.all_lines)
            wanted = set(only) if only is not None else None
            return _changed_blobs(self._cat, all_changes, wanted, added, self.all_lines, max_bytes)
        except RepoError as exc:
            raise SourceError(str(exc)) from None
        finally:
            self.close()

    def close(self) -> None:
        """Stop both processes (idempotent)."""
        self._cat.close()
        proc, self._diff = self._diff, None
        if proc is not None:
            proc.close()


def _changed_blobs(
    cat: git.CatFile,
    all_changes: list[_Change],
    only: set[str] | None,
    added: dict[str, set[int]],
    all_lines: bool,
    max_bytes: int,
) -> DiffBlobs:
    changes = [c for c in all_changes if only is None or c.path in only]
    blobs: list[Blob] = []
    scannable = []
    for change in changes:
        if change.status == "D":
            continue
        if change.status == "U" or _NULL_SHA.match(change.sha):
            blobs.append(Blob(change.path, None, note="skipped: unmerged (resolve the conflict first)"))
        elif change.mode not in _FILE_MODES:
            continue  # symlink target or submodule commit: no file content of ours
        else:
            scannable.append(change)
    contents = cat.read_many(sorted({c.sha for c in scannable}))
    for change in scannable:
        lines = None if all_lines else frozenset(added.get(change.path, ()))
        data = contents.get(change.sha, b"")
        text, note = decode(data, change.path, max_bytes)
        if text is not None and b"\0" in data[:8192]:
            lines = None  # git diffs UTF-16/32 text as binary, with no added lines: scan it whole
        if text is not None and lines is not None and not lines:
            continue  # mode-only change, pure rename, or deletions only
        blobs.append(Blob(change.path, text, lines, note))
    return DiffBlobs(blobs, {c.path for c in all_changes})


def staged(
    root: Path,
    *,
    all_lines: bool = False,
    only: Iterable[str] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> DiffBlobs:
    """What the next commit adds: staged blobs (index), added lines only unless ``all_lines``.

    Works before the first commit (git compares the index with the empty tree).
    """
    return PendingDiff(root, ["--cached"], all_lines=all_lines).blobs(only=only, max_bytes=max_bytes)


def diff(
    root: Path,
    rev: str,
    *,
    all_lines: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> list[Blob]:
    """What ``HEAD`` adds since ``rev`` (``rev`` may also be a ``A..B`` range)."""
    pending = PendingDiff(root, list(diff_ends(root, rev)), all_lines=all_lines)
    return pending.blobs(max_bytes=max_bytes).blobs


def refuse_option(rev: str) -> None:
    """Raise :class:`SourceError` when ``rev`` starts with a dash: git would read it as an option
    (where ``--end-of-options`` cannot stand before it), and no revision a user means does."""
    if rev.startswith("-"):
        raise SourceError(f"not a revision: {quoted(rev)}")


def diff_ends(root: Path, rev: str) -> tuple[str, str]:
    """The commit shas ``(base, head)`` that ``--diff rev`` compares (``rev`` or ``A..B``)."""
    refuse_option(rev)
    if ".." in rev:
        base, _, head = rev.partition("..")
        head = head.lstrip(".") or "HEAD"
        return _verify(root, base or "HEAD"), _verify(root, head)
    return _verify(root, rev), _verify(root, "HEAD")


def _verify(root: Path, rev: str) -> str:
    try:
        out = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    except SourceError:
        raise SourceError(f"unknown revision {quoted(rev)}") from None
    return out.decode().strip()


def files(
    paths: Sequence[Path],
    *,
    no_ignore: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    base: Path | None = None,
) -> Iterator[Blob]:
    """Files and folders (walked recursively); inside a git repository, ignored files are skipped
    unless ``no_ignore``. Symlinks are never followed. Paths are shown relative to ``base``."""
    base = base or Path.cwd()
    for path in paths:
        if not path.exists() and not path.is_symlink():
            raise SourceError(f"{path}: no such file or directory")
        if path.is_symlink():
            # Named outright, it gets a note as a FIFO does: "no secrets found in 0 files" alone
            # read as if the link's target had been scanned.
            yield Blob(_shown(path, base), None, note="skipped: a symlink (symlinks are never followed)")
            continue
        for file in _walk(path, no_ignore):
            yield _read_file(file, base, max_bytes)


def _walk(path: Path, no_ignore: bool) -> Iterator[Path]:
    """Regular files only: symlinks are not followed, and FIFOs, sockets and devices (which could
    block a read forever or stream without end) are never opened."""
    if not path.is_dir():
        yield path  # named outright: read_regular refuses a special file, with a note saying so
        return
    root = None if no_ignore else repo_root(path)
    if root is not None:
        out = _git(path, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".")
        # Decoded as os.walk decodes names (bad bytes kept as surrogates): with U+FFFD in their
        # place a name that is not UTF-8 would open nothing, and its file go unscanned.
        for name in sorted(set(os.fsdecode(out).split("\0")) - {""}):
            file = path / name
            if is_regular(file):
                yield file
        return
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(
            d for d in dirnames if d != ".git" and not os.path.islink(os.path.join(dirpath, d))
        )
        for name in sorted(filenames):
            file = Path(dirpath, name)
            if is_regular(file):
                yield file


def _shown(file: Path, base: Path) -> str:
    """``file`` relative to ``base`` when under it; its folder is resolved, not the file itself
    (a symlink is named, not its target). A name's bytes that are not UTF-8 are shown as U+FFFD,
    as git's listings show them (kept as surrogates they could not be printed or put in JSON)."""
    try:
        shown = (file.parent.resolve() / file.name).relative_to(base.resolve()).as_posix()
    except ValueError:
        shown = file.as_posix()
    try:
        return shown.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return shown.encode("utf-8", "replace").decode("utf-8")


def _read_file(file: Path, base: Path, max_bytes: int) -> Blob:
    shown = _shown(file, base)
    try:
        data = read_regular(file, max_bytes)
    except FileTooLarge as exc:
        return Blob(shown, None, note=f"skipped: {exc.size:,} bytes is over the {max_bytes:,}-byte limit")
    except OSError as exc:
        return Blob(shown, None, note=f"skipped: {exc.strerror or exc}")
    text, note = decode(data, shown, max_bytes)
    return Blob(shown, text, None, note)

