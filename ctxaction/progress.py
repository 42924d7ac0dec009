"""Progress of the build line, reported by stage: the pipeline calls a :class:`Progress`.

The pipeline only names stages (``task``, ``candidates``, ``scores``, ``filter``, ``budget``,
``render``; the CLI adds ``deliver``); how they show is the reporter's business. The default,
:data:`NO_PROGRESS`, does nothing, so the action, the MCP server and library callers print
nothing. The CLI picks :class:`LiveProgress` (one line on a terminal, rewritten in place, cleared
at the end) or :class:`LineProgress` (``--verbose``: one line per finished stage). Both write to
stderr only: stdout carries the package.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Protocol, TextIO

if TYPE_CHECKING:
    import threading

STAGES = ("task", "candidates", "scores", "filter", "budget", "render", "deliver")
# Seconds between redraws of the live line: often enough to see time pass, rare enough to cost
# nothing next to a build.
TICK = 0.1
_SPINNER = "-\\|/"


class Progress(Protocol):
    """What the build line reports to; every method must be cheap and never raise."""

    def stage(self, name: str) -> None:
        """Stage ``name`` starts (and the previous one ends)."""

    def pause(self) -> None:
        """Something else is about to be written to the terminal: clear any transient line and
        draw nothing until the next stage starts."""

    def close(self) -> None:
        """The line is done (or failed): leave the terminal clean."""


class _NoProgress:
    def stage(self, name: str) -> None:
        pass

    def pause(self) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


NO_PROGRESS = _NoProgress()


def seconds(value: float) -> str:
    """``0.04s``, ``1.2s``, ``12s``: as precise as a person reads it."""
    if value < 1:
        return f"{value:.2f}s"
    return f"{value:.1f}s" if value < 10 else f"{value:.0f}s"


def _columns(stream: TextIO) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80  # a new pty says 0
    except (OSError, ValueError, AttributeError):
        return 80


class LineProgress:
    """``--verbose``: ``<prefix>: <stage> <time>`` when each stage ends, then the total."""

    def __init__(self, stream: TextIO, prefix: str) -> None:
        self.stream = stream
        self.prefix = prefix
        self._started = self._since = time.monotonic()
        self._current: str | None = None

    def _end_stage(self) -> None:
        now = time.monotonic()
        if self._current is not None:
            self._print(f"{self._current} {seconds(now - self._since)}")
        self._since = now

    def _print(self, text: str) -> None:
        print(f"{self.prefix}: {text}", file=self.stream, flush=True)

    def stage(self, name: str) -> None:
        """Print the time of the stage that just ended."""
        self._end_stage()
        self._current = name

    def pause(self) -> None:
        """Lines need no clearing."""

    def close(self) -> None:
        """Print the last stage's time and the total (once)."""
        if self._current is None:
            return
        self._end_stage()
        self._current = None
        self._print(f"done in {seconds(time.monotonic() - self._started)}")

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self.close()
        else:  # the error line says what happened; no "done" before it
            self._current = None


class LiveProgress:
    """One line on a terminal, ``- ctxaction build: scores 1.2s (3.4s)``, redrawn by a small
    thread every :data:`TICK` seconds and erased when the build ends or a message is printed."""

    def __init__(self, stream: TextIO, prefix: str) -> None:
        import threading  # only a terminal run pays for it (the hook's `scan` does not)

        self.stream = stream
        self.prefix = prefix
        self._lock = threading.Lock()
        self._started = self._since = time.monotonic()
        self._current: str | None = None
        self._shown = 0  # width of the line on screen, to blank it
        self._ticks = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # A line that wraps cannot be rewritten in place: keep it inside the terminal.
        self._width = max(10, _columns(stream) - 1)

    def stage(self, name: str) -> None:
        """Show ``name`` with its own clock; starts the redrawing thread on first use."""
        with self._lock:
            self._current = name
            self._since = time.monotonic()
            self._draw()
        if self._thread is None and not self._stop.is_set():
            import threading

            self._thread = threading.Thread(target=self._run, name="ctxaction-progress", daemon=True)
            self._thread.start()

    def pause(self) -> None:
        """Blank the line; nothing is drawn until the next stage."""
        with self._lock:
            self._current = None
            self._clear()

    def close(self) -> None:
        """Stop the thread and blank the line."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.pause()

    def __enter__(self) -> LiveProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        while not self._stop.wait(TICK):
            with self._lock:
                self._draw()

    def _draw(self) -> None:
        if self._current is None:
            return
        now = time.monotonic()
        self._ticks += 1
        spin = _SPINNER[self._ticks % len(_SPINNER)]
        stage, total = seconds(now - self._since), seconds(now - self._started)
        line = f"{spin} {self.prefix}: {self._current} {stage} ({total})"[: self._width]
        # Pad over a longer previous line with spaces: no escape sequence, so dumb terminals work too.
        self._write("\r" + line + " " * max(0, self._shown - len(line)))
        self._shown = len(line)

    def _clear(self) -> None:
        if self._shown:
            self._write("\r" + " " * self._shown + "\r")
            self._shown = 0

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed terminal must not fail the build
            self._stop.set()
