"""The one safe writer: every file ctxaction writes (``-o``, hand-off files, artifacts, ``config
init``, baselines, scan reports, the hook, the tokenizer cache) goes through :func:`write_atomic`.

- Readers see the old file or the whole new one: a temp file in the target folder, then a rename.
- Only a regular file is ever replaced: a device (``-o /dev/null`` run as root), FIFO, socket,
  folder or symlink at the target is refused with one line (:class:`WriteError`, exit 2), never
  turned into a file.
- An existing file keeps its mode (and, when run as root, its owner); a new one gets the usual
  0666/0777 minus the umask (0644 files, 0755 folders), not a private 0600.
- With ``inside`` (the action's workspace) every folder on the way is opened relative to its
  parent with ``O_NOFOLLOW``: a symlink at any level (a committed ``context-package`` link) is
  refused, not followed, and nothing lands outside. ``owner`` hands new files and folders to the
  workspace's owner, so a container running as root leaves files the runner user can read,
  replace and remove.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from ctxaction.errors import WriteError as WriteError

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@dataclass(frozen=True)
class Owner:
    """Who files written for someone else should belong to."""

    uid: int
    gid: int


def owner_for(folder: Path) -> Owner | None:
    """The owner of ``folder`` when this process is root and ``folder`` belongs to someone else
    (a container action on the runner's workspace); None when nothing needs handing over."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    st = os.stat(folder)
    return None if st.st_uid == 0 else Owner(st.st_uid, st.st_gid)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def write_atomic(
    path: Path,
    data: str | bytes,
    *,
    exclusive: bool = False,
    inside: Path | None = None,
    owner: Owner | None = None,
    executable: bool = False,
) -> None:
    """Write ``data`` to ``path`` all or nothing (see the module doc).

    ``exclusive`` fails with FileExistsError when ``path`` exists (checked again at the rename
    through a hard link, so a file created meanwhile is not overwritten). ``inside``: ``path`` is
    relative to it (or under it) and no folder on the way may be a symlink. ``executable``: a new
    file gets 0777 minus the umask. Raises :class:`WriteError` with one line otherwise.
    """
    shown = _shown(path, inside)
    if not path.name or path.name in (".", ".."):
        raise WriteError(f"{shown}: name a file to write, not a folder")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        folder = _open_folder(path, inside, owner, shown)
    except WriteError:
        raise
    except OSError as exc:
        raise WriteError(f"cannot write {shown}: {exc.strerror or exc}") from None
    try:
        _write_in(folder, path.name, payload, shown, exclusive, owner, executable)
    finally:
        os.close(folder)


def _shown(path: Path, inside: Path | None) -> str:
    if inside is not None and path.is_absolute() and path.is_relative_to(inside):
        return path.relative_to(inside).as_posix()
    return str(path)


def _open_folder(path: Path, inside: Path | None, owner: Owner | None, shown: str) -> int:
    """A descriptor of the folder ``path`` goes in, created (and handed to ``owner``) if missing."""
    if inside is None:
        parent = path.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise WriteError(f"cannot write {shown}: {parent} is not a folder") from None
        try:
            return os.open(parent, _DIR_FLAGS)
        except NotADirectoryError:
            raise WriteError(f"cannot write {shown}: {parent} is not a folder") from None
    if path.is_absolute() and not path.is_relative_to(inside):
        raise WriteError(f"{shown}: refusing to write outside {inside}")
    relative = path.relative_to(inside) if path.is_absolute() else path
    parts = relative.parts[:-1]
    if ".." in relative.parts:
        raise WriteError(f"{shown}: refusing to write outside {inside}")
    fd = os.open(inside, _DIR_FLAGS)
    walked: list[str] = []
    for part in parts:  # _enter closes the parent's descriptor, also when it raises
        walked.append(part)
        fd = _enter(fd, part, owner, "/".join(walked))
    return fd


def _enter(parent: int, name: str, owner: Owner | None, shown: str) -> int:
    """Open (or create) folder ``name`` under ``parent`` without following a symlink; closes
    ``parent`` and returns the new descriptor."""
    flags = _DIR_FLAGS | _NOFOLLOW
    try:
        try:
            child = os.open(name, flags, dir_fd=parent)
        except FileNotFoundError:
            os.mkdir(name, 0o777, dir_fd=parent)
            if owner is not None:
                os.chown(name, owner.uid, owner.gid, dir_fd=parent, follow_symlinks=False)
            child = os.open(name, flags, dir_fd=parent)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            what = kind_of(os.lstat(name, dir_fd=parent).st_mode)
            raise WriteError(f"{shown} is {what}, not a folder: refusing to write through it") from None
        raise
    finally:
        os.close(parent)
    return child


def _write_in(
    folder: int,
    name: str,
    payload: bytes,
    shown: str,
    exclusive: bool,
    owner: Owner | None,
    executable: bool,
) -> None:
    try:
        st: os.stat_result | None = os.lstat(name, dir_fd=folder)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise WriteError(f"cannot write {shown}: {exc.strerror or exc}") from None
    if st is not None and exclusive:
        raise FileExistsError(errno.EEXIST, "already exists", shown)
    if st is not None and not stat.S_ISREG(st.st_mode):
        hint = ": name a file" if stat.S_ISDIR(st.st_mode) else ""
        what = kind_of(st.st_mode)
        raise WriteError(f"{shown} is {what}, not a regular file: refusing to replace it{hint}")
    tmp = f".{name[:80]}.{secrets.token_hex(6)}.tmp"
    try:
        fd = os.open(
            tmp,
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
            0o777 if executable else 0o666,  # the umask applies
            dir_fd=folder,
        )
    except OSError as exc:
        raise WriteError(f"cannot write {shown}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            if st is not None:
                os.fchmod(f.fileno(), stat.S_IMODE(st.st_mode))
            keep = Owner(st.st_uid, st.st_gid) if st is not None else owner
            if keep is not None and hasattr(os, "geteuid") and os.geteuid() == 0:
                os.fchown(f.fileno(), keep.uid, keep.gid)
        if exclusive:
            os.link(tmp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
            os.unlink(tmp, dir_fd=folder)
        else:
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder)
        if isinstance(exc, FileExistsError) and exclusive:
            raise FileExistsError(errno.EEXIST, "already exists", shown) from None
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):
            raise WriteError(f"cannot write {shown}: {exc.strerror or exc}") from None
        raise


def append_text(path: Path | str, text: str) -> None:
    """Append ``text`` in one write to a regular file (the runner's ``$GITHUB_OUTPUT`` and
    ``$GITHUB_STEP_SUMMARY``), creating it if missing; a symlink, FIFO, device or folder there is
    refused (:class:`WriteError`) instead of written through or blocked on."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        # Non-blocking open: a FIFO with no reader fails at once instead of hanging the run.
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o666)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):  # symlink, FIFO without reader, folder
            what = kind_of(os.lstat(path).st_mode)
            raise WriteError(f"{path} is {what}, not a regular file: refusing to write to it") from None
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise WriteError(f"{path} is {kind_of(mode)}, not a regular file: refusing to write to it")
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
