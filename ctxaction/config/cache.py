"""Config contents already found valid, so that the pre-commit hook validates a file once per
change instead of once per commit (importing ``jsonschema`` alone costs more than the rest of a
hook run).

An entry is an empty file named by the SHA-256 of the ctxaction version, the schema, the
built-in defaults (a file is checked merged over them) and the config text, in
``$XDG_CACHE_HOME/ctxaction/valid-config`` (default ``~/.cache``). Entries are created with
``O_EXCL | O_NOFOLLOW`` inside a folder opened with ``O_NOFOLLOW``, so nothing is ever written
through a symlink; a cache that cannot be read or written only costs a validation.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from pathlib import Path

from ctxaction import __version__
from ctxaction.config.schema import schema_text
from ctxaction.config.source import default_text

FOLDER = "valid-config"
MAX_ENTRIES = 64  # older entries are dropped past this (one per config edit: a few hundred bytes each)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


def folder() -> Path:
    """Where entries live."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "ctxaction" / FOLDER


def key(text: str) -> str:
    """The entry name for a config text (valid for this version, schema and defaults only)."""
    digest = hashlib.sha256()
    for part in (__version__, schema_text(), default_text(), text):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def _open_folder(create: bool) -> int | None:
    """A descriptor of the cache folder, refusing a symlinked one; None when absent or unusable."""
    where = folder()
    try:
        if create:
            where.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                os.mkdir(where, 0o700)
        return os.open(where, os.O_RDONLY | _DIRECTORY | _NOFOLLOW)
    except OSError:
        return None


def is_valid(text: str) -> bool:
    """True when this config text was found valid before."""
    fd = _open_folder(create=False)
    if fd is None:
        return False
    try:
        info = os.stat(key(text), dir_fd=fd, follow_symlinks=False)
    except OSError:
        return False
    finally:
        os.close(fd)
    return stat.S_ISREG(info.st_mode)


def remember(text: str) -> None:
    """Record that this config text is valid; any failure is ignored (it only costs time)."""
    fd = _open_folder(create=True)
    if fd is None:
        return
    try:
        entry = os.open(key(text), os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600, dir_fd=fd)
        os.close(entry)
        _prune(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _prune(fd: int) -> None:
    """Drop the oldest entries past MAX_ENTRIES."""
    names = [name for name in os.listdir(fd) if len(name) == 64]
    if len(names) <= MAX_ENTRIES:
        return
    aged = sorted(names, key=lambda name: os.stat(name, dir_fd=fd, follow_symlinks=False).st_mtime_ns)
    for name in aged[: len(names) - MAX_ENTRIES]:
        os.unlink(name, dir_fd=fd)
