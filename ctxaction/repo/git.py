"""The one door to the git binary: argument lists only, untrusted values after ``--``.

Every call runs ``git -C root`` with a fixed, hardened set of ``-c`` options so that a repository's
own config can never make us run its code (fsmonitor hooks, textconv drivers, pagers) and output is
decoded with ``errors="replace"`` (old histories hold Latin-1 bytes).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ctxaction.errors import RepoError as RepoError

# Options that neutralize repository-controlled code paths and make output stable to parse.
_SAFE_CONFIG = (
    "-c", "core.fsmonitor=false",
    "-c", "core.hooksPath=/dev/null",
    "-c", "core.quotePath=false",
    "-c", "core.pager=cat",
    "-c", "diff.external=",
    "-c", "log.showSignature=false",
    "-c", "color.ui=false",
    "-c", "grep.fallbackToNoIndex=false",
)  # fmt: skip

_ENV_OVERRIDES = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_PAGER": "cat",
    "LC_ALL": "C",
}

DEFAULT_TIMEOUT = 120.0



def git_env() -> dict[str, str]:
    """The environment every git call runs with (caller's environment plus safety overrides)."""
    env = dict(os.environ)
    env.update(_ENV_OVERRIDES)
    # A hostile environment must not redirect us to another repository or work tree.
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_EXTERNAL_DIFF"):
        env.pop(var, None)
    return env


def git_command(root: Path | str, args: Sequence[str]) -> list[str]:
    """The full argv for ``git args`` in ``root`` with the hardening options."""
    return ["git", "-C", str(root), *_SAFE_CONFIG, *args]


def _explain(root: Path | str, args: Sequence[str], stderr: str) -> str:
    first = next((line.strip() for line in stderr.splitlines() if line.strip()), "no error output")
    if "dubious ownership" in stderr:
        return (
            f"git refuses {root}: the repository is owned by another user; "
            f"run `git config --global --add safe.directory {root}` if you trust it"
        )
    if "not a git repository" in stderr:
        return f"{root} is not a git repository (run `git init` there or pass --repo)"
    verb = args[0] if args else "git"
    return f"git {verb} failed in {root}: {first}"


def run_bytes(
    root: Path | str,
    args: Sequence[str],
    *,
    stdin: bytes | None = None,
    ok_codes: Sequence[int] = (0,),
    timeout: float = DEFAULT_TIMEOUT,
) -> tuple[int, bytes]:
    """Run git and return (exit code, raw stdout); any code outside ``ok_codes`` raises RepoError."""
    try:
        proc = subprocess.run(
            git_command(root, args),
            input=stdin,
            capture_output=True,
            env=git_env(),
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError as exc:
        raise RepoError("the git executable was not found on PATH; install git") from exc
    except subprocess.TimeoutExpired as exc:
        raise RepoError(f"git {args[0] if args else ''} timed out after {timeout:.0f}s in {root}") from exc
    if proc.returncode not in ok_codes:
        raise RepoError(_explain(root, args, proc.stderr.decode("utf-8", "replace")))
    return proc.returncode, proc.stdout


def run(
    root: Path | str,
    args: Sequence[str],
    *,
    ok_codes: Sequence[int] = (0,),
    timeout: float = DEFAULT_TIMEOUT,
) -> str:
    """Run git and return stdout decoded as UTF-8 with replacement characters."""
    _, out = run_bytes(root, args, ok_codes=ok_codes, timeout=timeout)
    return out.decode("utf-8", "replace")


def try_run(root: Path | str, args: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> str | None:
    """Like :func:`run` but returns None instead of raising when git exits non-zero."""
    try:
        return run(root, args, timeout=timeout)
    except RepoError:
        return None


def split_z(data: bytes) -> list[str]:
    """Split NUL-terminated git output into decoded records (the empty tail dropped)."""
    return [part.decode("utf-8", "replace") for part in data.split(b"\0") if part]


class CatFile:
    """One long-lived ``git cat-file --batch`` process reading objects by id.

    Only object ids (hex) are ever written to it, so no path or ref from untrusted text reaches git.
    """

    def __init__(self, root: Path | str) -> None:
        self._root = root
        self._proc: subprocess.Popen[bytes] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            try:
                self._proc = subprocess.Popen(
                    git_command(self._root, ["cat-file", "--batch"]),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    env=git_env(),
                )
            except FileNotFoundError as exc:
                raise RepoError("the git executable was not found on PATH; install git") from exc
        return self._proc

    def read(self, oid: str) -> bytes | None:
        """The object's content, or None when it is missing from the object store."""
        if not oid or any(c not in "0123456789abcdef" for c in oid):
            raise RepoError(f"not an object id: {oid!r}")
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(oid.encode() + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline()
        if not header:
            raise RepoError(f"git cat-file stopped unexpectedly in {self._root}")
        parts = header.split()
        if len(parts) < 3 or parts[1] == b"missing":
            return None
        size = int(parts[2])
        data = proc.stdout.read(size)
        proc.stdout.read(1)  # the newline that ends each record
        return data

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
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
