"""The one door to the git binary: argument lists only, untrusted values after ``--``.

Every call runs ``git -C root`` with a fixed, hardened set of ``-c`` options so that a repository's
own config can never make us run its code (fsmonitor hooks, textconv drivers, pagers) or start a
background gc or maintenance, and output is decoded with ``errors="replace"`` (old histories hold
Latin-1 bytes). A failure is one line naming the command, git's own reason and what to do.

Two kinds of caller share it. The packager treats the environment as untrusted: ``GIT_DIR``,
``GIT_WORK_TREE`` and ``GIT_INDEX_FILE`` are dropped so nothing redirects it to another
repository. The secrets hook and ``scan`` pass ``inherit_repo=True``: git hands a hook the index it
is about to commit through ``GIT_INDEX_FILE`` (``git commit -a`` uses a temporary one), and that
index, not the default one, is what must be scanned.

Only the standard library and :mod:`ctxaction.errors` are imported, so the hook can use this module
without loading any of the packager.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from ctxaction.errors import RepoError as RepoError
from ctxaction.repo.process import Process, Timeout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType
    from typing import IO

# Options that neutralize repository-controlled code paths and make output stable to parse.
_NO_HOOKS = ("-c", "core.hooksPath=/dev/null")
_SAFE_OTHER = (
    "-c", "core.fsmonitor=false",
    "-c", "core.quotePath=false",
    "-c", "core.pager=cat",
    "-c", "diff.external=",
    "-c", "log.showSignature=false",
    "-c", "color.ui=false",
    "-c", "grep.fallbackToNoIndex=false",
    # No background `git gc --auto` / `git maintenance run --auto` after a fetch: the action runs
    # as root in a workspace the runner's user owns, and a detached gc would leave root-owned
    # packs and logs in a reused self-hosted workspace (and outlive the step).
    "-c", "gc.auto=0",
    "-c", "maintenance.auto=false",
)  # fmt: skip
_SAFE_CONFIG = (*_NO_HOOKS, *_SAFE_OTHER)

_ENV_OVERRIDES = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_PAGER": "cat",
    "LC_ALL": "C",
}
# Variables that point git at another repository, work tree or index.
_REPO_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")

DEFAULT_TIMEOUT = 120.0
# Object ids written to ``cat-file --batch`` before reading their objects back: small enough that
# the ids fit in any pipe buffer, so neither side can block the other.
_BATCH = 128


def git_env(*, inherit_repo: bool = False) -> dict[str, str]:
    """The environment every git call runs with (caller's environment plus safety overrides).
    ``GIT_DIR``, ``GIT_WORK_TREE`` and ``GIT_INDEX_FILE`` are kept only with ``inherit_repo``."""
    env = dict(os.environ)
    env.update(_ENV_OVERRIDES)
    env.pop("GIT_EXTERNAL_DIFF", None)
    if not inherit_repo:
        # A hostile environment must not redirect us to another repository or work tree.
        for var in _REPO_VARS:
            env.pop(var, None)
    return env


def git_command(root: Path | str, args: Sequence[str], *, keep_hooks: bool = False) -> list[str]:
    """The full argv for ``git args`` in ``root`` with the hardening options. ``keep_hooks``
    leaves ``core.hooksPath`` as the repository sets it (to ask git where its hooks live)."""
    return ["git", "-C", str(root), *(_SAFE_OTHER if keep_hooks else _SAFE_CONFIG), *args]


def explain(root: Path | str, args: Sequence[str], stderr: str) -> str:
    """One line for a failed ``git args``: what failed, git's reason and, where known, what to do."""
    lines = [line.strip() for line in stderr.split("\n") if line.strip()]
    # git prints hints and warnings before the line that says why it stopped.
    reason = next((line for line in lines if line.startswith(("fatal:", "error:"))), "")
    reason = reason or (lines[-1] if lines else "no error output")
    if "dubious ownership" in stderr:
        return (
            f"git refuses {root}: the repository is owned by another user; "
            f"run `git config --global --add safe.directory {root}` if you trust it"
        )
    if "not a git repository" in stderr:
        return f"{root} is not a git repository (run `git init` there or pass --repo)"
    verb = _verb(args)
    return f"git {verb} failed in {root}: {reason} (run `git {verb}` there to see why)"


def _verb(args: Sequence[str]) -> str:
    """The git command in ``args`` (after any ``-c name=value`` pairs)."""
    items = iter(args)
    for item in items:
        if item == "-c":
            next(items, None)
        elif not item.startswith("-"):
            return item
    return ""


def _missing_git(exc: OSError) -> RepoError:
    return RepoError(f"cannot run git ({exc.strerror or exc}); install git and put it on PATH")


def run_capture(
    root: Path | str,
    args: Sequence[str],
    *,
    stdin: bytes | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    inherit_repo: bool = False,
    keep_hooks: bool = False,
) -> tuple[int, bytes, bytes]:
    """Run git and return (exit code, raw stdout, raw stderr) whatever the exit code; raises
    RepoError only when git cannot be started or times out."""
    argv = git_command(root, args, keep_hooks=keep_hooks)
    proc = _start(argv, inherit_repo, stdin=stdin is not None, stderr=True)
    try:
        out, err = proc.communicate(stdin, timeout)
    except Timeout:
        raise RepoError(f"git {_verb(args)} timed out after {timeout:.0f}s in {root}") from None
    return proc.wait(), out, err


def run_bytes(
    root: Path | str,
    args: Sequence[str],
    *,
    stdin: bytes | None = None,
    ok_codes: Sequence[int] = (0,),
    timeout: float | None = DEFAULT_TIMEOUT,
    inherit_repo: bool = False,
    keep_hooks: bool = False,
) -> tuple[int, bytes]:
    """Run git and return (exit code, raw stdout); any code outside ``ok_codes`` raises RepoError."""
    code, out, err = run_capture(
        root, args, stdin=stdin, timeout=timeout, inherit_repo=inherit_repo, keep_hooks=keep_hooks
    )
    if code not in ok_codes:
        raise RepoError(explain(root, args, err.decode("utf-8", "replace")))
    return code, out


def run(
    root: Path | str,
    args: Sequence[str],
    *,
    ok_codes: Sequence[int] = (0,),
    timeout: float | None = DEFAULT_TIMEOUT,
    inherit_repo: bool = False,
) -> str:
    """Run git and return stdout decoded as UTF-8 with replacement characters."""
    _, out = run_bytes(root, args, ok_codes=ok_codes, timeout=timeout, inherit_repo=inherit_repo)
    return out.decode("utf-8", "replace")


def try_run(
    root: Path | str,
    args: Sequence[str],
    timeout: float | None = DEFAULT_TIMEOUT,
    *,
    inherit_repo: bool = False,
) -> str | None:
    """Like :func:`run` but returns None instead of raising when git exits non-zero."""
    try:
        return run(root, args, timeout=timeout, inherit_repo=inherit_repo)
    except RepoError:
        return None


def literal_paths(paths: Iterable[str]) -> list[str]:
    """Pathspecs that match exactly these paths. File names are the repository's, not ours:
    ``:(literal)`` keeps a name like ``:(glob)x`` or ``*.c`` a name."""
    return [f":(literal){p}" for p in paths]


def split_z(data: bytes) -> list[str]:
    """Split NUL-terminated git output into decoded records (the empty tail dropped)."""
    return [part.decode("utf-8", "replace") for part in data.split(b"\0") if part]


def start(
    root: Path | str,
    args: Sequence[str],
    *,
    stdin: bool = False,
    stderr: bool = False,
    inherit_repo: bool = False,
) -> Process:
    """Start git with stdout piped (stdin and stderr too when asked; else stdin is empty and
    stderr discarded), for output read as it comes or processes run side by side."""
    return _start(git_command(root, args), inherit_repo, stdin=stdin, stderr=stderr)


def _start(argv: list[str], inherit_repo: bool, *, stdin: bool, stderr: bool) -> Process:
    try:
        return Process(argv, git_env(inherit_repo=inherit_repo), stdin=stdin, stderr=stderr)
    except OSError as exc:
        raise _missing_git(exc) from exc


class Stream:
    """``with Stream(root, args) as out:`` reads git's stdout as it is written (``git log -p`` of a
    whole history); a non-zero exit raises RepoError when the block ends, unless the block itself
    raised or stopped reading early (a closed generator)."""

    def __init__(self, root: Path | str, args: Sequence[str], *, inherit_repo: bool = False) -> None:
        self._root = root
        self._args = list(args)
        self._proc = start(root, args, stderr=True, inherit_repo=inherit_repo)

    def __enter__(self) -> IO[bytes]:
        assert self._proc.stdout is not None
        return self._proc.stdout

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        proc = self._proc
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        err = proc.stderr.read()
        proc.stderr.close()
        code = proc.wait()
        if kind is None and code != 0:
            raise RepoError(explain(self._root, self._args, err.decode("utf-8", "replace")))


class CatFile:
    """One long-lived ``git cat-file --batch`` process reading objects by id.

    Only object ids (hex) are ever written to it, so no path or ref from untrusted text reaches git.
    """

    def __init__(self, root: Path | str, *, inherit_repo: bool = False) -> None:
        self._root = root
        self._inherit_repo = inherit_repo
        self._proc: Process | None = None

    def start(self) -> Process:
        """The running process, started now if need be (start early to overlap git's start-up
        with other work)."""
        if self._proc is None or self._proc.poll() is not None:
            args = ["cat-file", "--batch"]
            self._proc = start(self._root, args, stdin=True, inherit_repo=self._inherit_repo)
        return self._proc

    def read(self, oid: str) -> bytes | None:
        """The object's content, or None when it is missing from the object store."""
        return self.read_many([oid]).get(oid)

    def read_many(self, oids: Iterable[str]) -> dict[str, bytes]:
        """Contents by id of the objects the store holds (missing ones are left out)."""
        wanted = list(oids)
        for oid in wanted:
            if not oid or any(c not in "0123456789abcdef" for c in oid):
                raise RepoError(f"not an object id: {oid!r}")
        proc = self.start()
        assert proc.stdin is not None and proc.stdout is not None
        found: dict[str, bytes] = {}
        for at in range(0, len(wanted), _BATCH):
            chunk = wanted[at : at + _BATCH]
            proc.stdin.write("".join(f"{oid}\n" for oid in chunk).encode())
            proc.stdin.flush()
            for oid in chunk:
                header = proc.stdout.readline()
                if not header:
                    raise RepoError(f"git cat-file stopped unexpectedly in {self._root}")
                parts = header.split()
                if len(parts) < 3 or parts[1] == b"missing":
                    continue
                size = int(parts[2])
                found[oid] = proc.stdout.read(size)
                proc.stdout.read(1)  # the newline that ends each record
        return found

    def close(self) -> None:
        """Stop the process (idempotent)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        if proc.stdout is not None:
            proc.stdout.close()
        try:
            proc.wait(timeout=5)
        except Timeout:
            proc.kill()
            proc.wait()
