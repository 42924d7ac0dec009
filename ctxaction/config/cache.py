"""Config contents already found valid, so that the pre-commit hook validates a file once per
change instead of once per commit (importing ``jsonschema`` alone costs more than the rest of a
hook run).

An entry is an empty file named by the SHA-256 of the ctxaction version, the schema, the
built-in defaults (a file is checked merged over them) and the config text, in
``$XDG_CACHE_HOME/ctxaction/valid-config`` (default ``~/.cache``). Beside it, ``<hash>.secrets.json``
holds that text's validated ``secrets:`` section as plain JSON, so the hook takes its settings
without parsing YAML at all (the pure-Python loader is most of a hook run's cost with a config).

Entries are created with ``O_EXCL | O_NOFOLLOW`` inside a folder opened with ``O_NOFOLLOW``, so
nothing is ever written through a symlink, and only a regular file owned by this user and
writable by no one else counts; a stored section must also name its own hash. Anything else (a
symlink, a FIFO, another user's file, bad JSON) is ignored and the file is parsed again: a cache
that cannot be read or written only costs time, never changes a result.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
from pathlib import Path

from ctxaction import __version__
from ctxaction.config.schema import schema_text
from ctxaction.config.source import default_text

FOLDER = "valid-config"
SECTION_SUFFIX = ".secrets.json"
MAX_ENTRIES = 64  # older entries are dropped past this (one per config edit: a few hundred bytes each)
MAX_SECTION_BYTES = 1 << 20  # a section is a few lists of patterns; anything larger was not written by us
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # opening a FIFO planted as an entry must not hang the hook

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class _Digest(Protocol):
        def update(self, data: bytes, /) -> None: ...
        def hexdigest(self) -> str: ...


def folder() -> Path:
    """Where entries live."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "ctxaction" / FOLDER


def key(text: str) -> str:
    """The entry name for a config text (valid for this version, schema and defaults only)."""
    digest = _sha256()
    for part in (__version__, schema_text(), default_text(), text):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def _sha256() -> _Digest:
    """A SHA-256 hasher from the interpreter's own module when it has one: ``hashlib`` loads
    OpenSSL, which costs a hook run more CPU time (~3.5 ms) than reading the cache does. The
    digest is the same either way."""
    try:
        module = __import__("_sha2" if sys.version_info >= (3, 12) else "_sha256")
    except ImportError:  # an interpreter built without it
        import hashlib

        return hashlib.sha256()
    hasher: _Digest = module.sha256()
    return hasher


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
    return _ours(info)


def _ours(info: os.stat_result) -> bool:
    """A regular file of this user that no one else may write: what :func:`remember` creates."""
    uid = os.geteuid() if hasattr(os, "geteuid") else info.st_uid
    return stat.S_ISREG(info.st_mode) and info.st_uid == uid and not info.st_mode & 0o022


def stored_section(text: str) -> dict[str, object] | None:
    """The ``secrets:`` section stored for this (validated) text by :func:`remember_section`,
    as JSON values, or None when there is none that can be trusted. An entry of ours that does
    not hold a well-formed section (cut short, edited) is removed, so the next run stores it
    again; the caller checks the values' shape (and :func:`forget_section` an entry it refuses)."""
    fd = _open_folder(create=False)
    if fd is None:
        return None
    name = key(text)
    try:
        raw = _read_entry(name + SECTION_SUFFIX, fd)
        if raw is None:
            return None
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, nested past the stack
            value = None
        if isinstance(value, dict) and value.get("key") == name:
            return value
        with contextlib.suppress(OSError):
            os.unlink(name + SECTION_SUFFIX, dir_fd=fd)
        return None
    finally:
        os.close(fd)


def forget_section(text: str) -> None:
    """Remove the stored section of this text (one the caller found of the wrong shape), so the
    next :func:`remember_section` can store it again; a file that is not ours stays."""
    fd = _open_folder(create=False)
    if fd is None:
        return
    name = key(text) + SECTION_SUFFIX
    try:
        if _ours(os.stat(name, dir_fd=fd, follow_symlinks=False)):
            os.unlink(name, dir_fd=fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _read_entry(name: str, fd: int) -> bytes | None:
    """An entry's bytes when it is a file of ours of plausible size, else None."""
    try:
        entry = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK, dir_fd=fd)
    except OSError:
        return None
    try:
        info = os.fstat(entry)
        if not _ours(info) or info.st_size > MAX_SECTION_BYTES:
            return None
        chunks: list[bytes] = []
        while chunk := os.read(entry, MAX_SECTION_BYTES + 1):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(entry)


def remember_section(text: str, section: dict[str, object]) -> None:
    """Store the validated ``secrets:`` section of this text; any failure is ignored. Call only
    for a text that has been validated (the entry vouches for it as the marker does)."""
    fd = _open_folder(create=True)
    if fd is None:
        return
    name = key(text)
    data = json.dumps({**section, "key": name}).encode("utf-8")
    try:
        entry = os.open(
            name + SECTION_SUFFIX, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600, dir_fd=fd
        )
    except OSError:
        os.close(fd)
        return
    try:
        with os.fdopen(entry, "wb") as out:
            out.write(data)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(name + SECTION_SUFFIX, dir_fd=fd)  # half-written: the next run writes it again
    finally:
        os.close(fd)


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
    """Drop the oldest entries past MAX_ENTRIES, each marker with its stored section."""
    names = [name for name in os.listdir(fd) if len(name) == 64]
    if len(names) <= MAX_ENTRIES:
        return
    aged = sorted(names, key=lambda name: os.stat(name, dir_fd=fd, follow_symlinks=False).st_mtime_ns)
    for name in aged[: len(names) - MAX_ENTRIES]:
        os.unlink(name, dir_fd=fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name + SECTION_SUFFIX, dir_fd=fd)
