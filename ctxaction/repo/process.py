"""A child process with pipes, started with ``os.posix_spawnp``: what :mod:`ctxaction.repo.git`
runs git with.

The ``subprocess`` module costs ~4.5 ms to import (``threading``, ``selectors``, ``signal``,
``locale``), a sixth of what a pre-commit hook run spends above interpreter start-up, for
features git calls never use. This is the part they do use: pipes for stdin, stdout and stderr
(or ``/dev/null``), exchanging data without either side blocking the other (``select.poll``),
waiting with a deadline, and killing. Our pipe ends are never inherited (Python opens descriptors
non-inheritable); git itself handles a closed pipe (``EPIPE``) the way it handles ``SIGPIPE``.
Where ``posix_spawnp`` or ``poll`` is missing (Windows) ``subprocess`` does the work instead.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from typing import IO

_NATIVE = hasattr(os, "posix_spawnp") and hasattr(os, "waitstatus_to_exitcode")
_CHUNK = 1 << 16


class Timeout(Exception):
    """The process did not finish in time (it has been killed)."""


class Process:
    """A started program. ``stdout`` is always a pipe; ``stdin`` and ``stderr`` are pipes when
    asked for (None otherwise: stdin then reads nothing and stderr is discarded)."""

    pid: int
    stdin: IO[bytes] | None
    stdout: IO[bytes]
    stderr: IO[bytes] | None

    def __init__(self, argv: Sequence[str], env: dict[str, str], *, stdin: bool, stderr: bool) -> None:
        self.returncode: int | None = None
        self._popen: subprocess.Popen[bytes] | None = None
        if not _NATIVE:
            self._start_portable(argv, env, stdin=stdin, stderr=stderr)
            return
        theirs: list[int] = []
        actions: list[tuple[int, int, int]] = []
        null = os.open(os.devnull, os.O_RDWR)
        theirs.append(null)

        def pipe(child_fd: int, child_reads: bool) -> int:
            read, write = os.pipe()
            child, ours = (read, write) if child_reads else (write, read)
            theirs.append(child)
            actions.append((os.POSIX_SPAWN_DUP2, child, child_fd))
            return ours

        in_fd = out_fd = err_fd = None
        try:
            in_fd = pipe(0, True) if stdin else None
            out_fd = pipe(1, False)
            err_fd = pipe(2, False) if stderr else None
            if in_fd is None:
                actions.append((os.POSIX_SPAWN_DUP2, null, 0))
            if err_fd is None:
                actions.append((os.POSIX_SPAWN_DUP2, null, 2))
            self.pid = os.posix_spawnp(argv[0], list(argv), env, file_actions=actions)
        except BaseException:
            for fd in (in_fd, out_fd, err_fd):
                if fd is not None:
                    os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        self.stdin = open(in_fd, "wb") if in_fd is not None else None  # noqa: SIM115
        self.stdout = open(out_fd, "rb")  # noqa: SIM115
        self.stderr = open(err_fd, "rb") if err_fd is not None else None  # noqa: SIM115

    def _start_portable(self, argv: Sequence[str], env: dict[str, str], *, stdin: bool, stderr: bool) -> None:
        import subprocess

        pipe, null = subprocess.PIPE, subprocess.DEVNULL
        self._popen = subprocess.Popen(
            list(argv), stdin=pipe if stdin else null, stdout=pipe, stderr=pipe if stderr else null, env=env
        )
        self.pid = self._popen.pid
        self.stdin, self.stderr = self._popen.stdin, self._popen.stderr
        assert self._popen.stdout is not None
        self.stdout = self._popen.stdout

    def poll(self) -> int | None:
        """The exit code when the process has ended, else None."""
        if self._popen is not None:
            return self._popen.poll()
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the process to end (raising :class:`Timeout` after ``timeout`` seconds)."""
        if self._popen is not None:
            import subprocess

            try:
                return self._popen.wait(timeout)
            except subprocess.TimeoutExpired:
                raise Timeout from None
        if timeout is None:
            if self.returncode is None:
                self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
            return self.returncode
        deadline = time.monotonic() + timeout
        delay = 0.0005
        while (code := self.poll()) is None:
            if time.monotonic() > deadline:
                raise Timeout
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        return code

    def kill(self) -> None:
        """Stop the process at once (SIGKILL) unless it has ended already."""
        if self._popen is not None:
            self._popen.kill()
        elif self.poll() is None:
            os.kill(self.pid, 9)

    def communicate(self, data: bytes | None = None, timeout: float | None = None) -> tuple[bytes, bytes]:
        """Write ``data`` to stdin (then close it), read stdout and stderr to their ends, wait for
        the exit; after ``timeout`` seconds the process is killed and :class:`Timeout` raised."""
        if self._popen is not None:
            import subprocess

            try:
                out, err = self._popen.communicate(data, timeout)
            except subprocess.TimeoutExpired:
                self._popen.kill()
                self._popen.communicate()
                raise Timeout from None
            return out, err or b""
        import select

        deadline = None if timeout is None else time.monotonic() + timeout
        poller = select.poll()
        readers = {self.stdout.fileno(): self.stdout}
        if self.stderr is not None:
            readers[self.stderr.fileno()] = self.stderr
        chunks: dict[int, list[bytes]] = {fd: [] for fd in readers}
        for fd in readers:
            poller.register(fd, select.POLLIN)
        writer = self.stdin.fileno() if self.stdin is not None else -1
        view = memoryview(data or b"")
        if writer >= 0:
            if view:
                poller.register(writer, select.POLLOUT)
            else:
                self._close_stdin()
        open_fds = len(readers) + (1 if writer >= 0 and view else 0)
        while open_fds:
            wait_ms = None
            if deadline is not None:
                wait_ms = max(0, int((deadline - time.monotonic()) * 1000))
            ready = poller.poll(wait_ms)
            if not ready and deadline is not None and time.monotonic() >= deadline:
                self.kill()
                self.wait()
                self._close_all()
                raise Timeout
            for fd, _ in ready:
                if fd == writer:
                    try:
                        # POLLOUT promises room for PIPE_BUF bytes: more could block while git,
                        # its own output unread, waits for us.
                        view = view[os.write(fd, view[: select.PIPE_BUF]) :]
                    except BrokenPipeError:
                        view = view[:0]  # git stopped reading: it ended, and says why on stderr
                    if not view:
                        poller.unregister(fd)
                        self._close_stdin()
                        open_fds -= 1
                    continue
                chunk = os.read(fd, _CHUNK)
                if chunk:
                    chunks[fd].append(chunk)
                else:
                    poller.unregister(fd)
                    open_fds -= 1
        out = b"".join(chunks[self.stdout.fileno()])
        err = b"".join(chunks[self.stderr.fileno()]) if self.stderr is not None else b""
        self._close_all()
        self.wait()
        return out, err

    def close(self) -> None:
        """Stop the process unless it has ended, wait for it and close our pipe ends."""
        self.kill()
        self.wait()
        if self._popen is not None:
            for stream in (self.stdin, self.stdout, self.stderr):
                if stream is not None:
                    stream.close()
        else:
            self._close_all()

    def _close_stdin(self) -> None:
        if self.stdin is not None:
            self.stdin.close()  # written with os.write: nothing buffered is left to flush

    def _close_all(self) -> None:
        self._close_stdin()
        self.stdout.close()
        if self.stderr is not None:
            self.stderr.close()
