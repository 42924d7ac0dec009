"""Reading files of a repository or folder without blocking on, or reading from, special files.

A FIFO opened for reading waits for a writer forever; a device can stream without end. Every
file ctxaction reads from a work tree or a scanned folder comes through :func:`read_regular`: the
file is opened without blocking and refused unless ``fstat`` says it is a regular file no larger
than the limit (checked on the open descriptor, so a file swapped after a walker's ``lstat`` is
caught too). Standard library only: the pre-commit hook imports this.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class NotRegularFile(OSError):
    """The path is a FIFO, socket, device or folder; ``strerror`` says which."""


class FileTooLarge(OSError):
    """The file is larger than the reader's limit; ``size`` is its size in bytes."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{size:,} bytes is over the {limit:,}-byte limit")
        self.strerror = str(self)
        self.size = size


def inside(root: str | Path, path: str | Path) -> str | None:
    """``path``'s real location (every symlink followed) relative to ``root``'s real location, as
    a POSIX path ("." for the root itself); None when it leads out of ``root``."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    if real != real_root and not real.startswith(real_root + os.sep):
        return None
    return Path(os.path.relpath(real, real_root)).as_posix()


def special_kind(mode: int) -> str | None:
    """What a non-regular file is ("a FIFO" …), or None for a regular file (or a symlink)."""
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def is_regular(path: str | Path) -> bool:
    """True for a regular file (not following a final symlink); False for anything else or nothing."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def read_regular(path: str | Path, max_bytes: int | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (a final symlink is followed).

    Raises :class:`NotRegularFile` for anything else, :class:`FileTooLarge` past ``max_bytes``,
    and OSError when it cannot be opened.
    """
    fd = os.open(path, _FLAGS)
    try:
        info = os.fstat(fd)
        kind = special_kind(info.st_mode)
        if kind is not None:
            error = NotRegularFile(f"not a regular file ({kind})")
            error.strerror = str(error)
            raise error
        if max_bytes is not None and info.st_size > max_bytes:
            raise FileTooLarge(info.st_size, max_bytes)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if max_bytes is not None and total > max_bytes:  # grew while being read
                raise FileTooLarge(total, max_bytes)
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
