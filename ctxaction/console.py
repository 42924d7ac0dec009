"""What the CLI says besides its output: colour, ``--quiet`` / ``--verbose``, notes and warnings.

Colour follows https://no-color.org and https://force-color.org: ``NO_COLOR`` set to anything
non-empty turns it off, else ``FORCE_COLOR`` set to anything non-empty turns it on, else it is on
only for a terminal (``TERM=dumb`` excepted). It is only ever applied to text meant for a person
(stderr messages, the ``explain`` table): never to a package, a JSON or SARIF document, or a file.

Standard library only, and nothing heavy: ``ctxaction scan`` in a hook loads this module.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO

from ctxaction.progress import NO_PROGRESS, LineProgress, LiveProgress, Progress

# SGR codes by role, so callers name what a span is, not which colour it gets.
_CODES = {
    "error": "1;31",
    "warning": "33",
    "note": "32",
    "bold": "1",
    "dim": "2",
    "good": "32",
    "partial": "33",
    "bad": "31",
    "score": "36",
}


def wants_color(stream: TextIO, env: Mapping[str, str] | None = None) -> bool:
    """Whether text for ``stream`` should be coloured (``NO_COLOR``, ``FORCE_COLOR``, a terminal)."""
    env = os.environ if env is None else env
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    return env.get("TERM") != "dumb" and is_terminal(stream)


def is_terminal(stream: TextIO | None) -> bool:
    """``stream`` is an interactive terminal (False for pipes, files, closed or missing streams)."""
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False


class Style:
    """Paints spans of text by role, or leaves them plain when colour is off."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __call__(self, text: str, role: str) -> str:
        """``text`` wrapped in the role's colour (unchanged when colour is off or text is empty)."""
        if not self.on or not text:
            return text
        return f"\x1b[{_CODES[role]}m{text}\x1b[0m"


class Console:
    """The CLI's voice on stderr for one command run.

    ``--quiet``: stdout keeps the command's output and stderr only errors (no progress, no
    "wrote FILE" notes, no warnings, no summaries). ``--verbose``: every build stage's time as a
    line (on a terminal or not), and ``explain`` reasons in full instead of cut to two lines.
    """

    def __init__(
        self,
        *,
        quiet: bool = False,
        verbose: bool = False,
        stream: TextIO | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.quiet = quiet
        self.verbose = verbose
        self._stream = stream
        self._env = env
        self._active: Progress = NO_PROGRESS

    @property
    def stream(self) -> TextIO:
        """Where messages go (stderr unless the console was made for another stream)."""
        return self._stream or sys.stderr

    @property
    def style(self) -> Style:
        """Colours for stderr."""
        return Style(wants_color(self.stream, self._env))

    def progress(self, command: str) -> Progress:
        """A reporter for ``command``'s stages: lines with --verbose, one live line on a terminal,
        nothing otherwise (a pipe, a file, --quiet)."""
        if self.quiet:
            reporter: Progress = NO_PROGRESS
        elif self.verbose:
            reporter = LineProgress(self.stream, f"ctxaction {command}")
        elif is_terminal(self.stream):
            reporter = LiveProgress(self.stream, f"ctxaction {command}")
        else:
            reporter = NO_PROGRESS
        self._active = reporter
        return reporter

    def _say(self, line: str) -> None:
        self._active.pause()  # a live progress line must not share a line with a message
        print(line, file=self.stream, flush=True)

    def note(self, text: str) -> None:
        """A status line ("wrote FILE: …"); hidden by --quiet. Redacted and escaped here: notes
        echo the paths a user passed (``-o``, ``--path``, ``--repo``), which may hold a token."""
        if not self.quiet:
            self._say(_safe(text))

    def warn(self, text: str) -> None:
        """``warning: text``; hidden by --quiet. Redacted and escaped like a note."""
        if not self.quiet:
            self._say(f"{self.style('warning:', 'warning')} {_safe(text)}")

    def error(self, prefix: str, text: str) -> None:
        """``prefix: text``, always shown; redacted and escaped like a note (errors quote the input
        that caused them)."""
        self._say(f"{self.style(prefix + ':', 'error')} {_safe(text)}")

    def before_output(self) -> None:
        """Clear a live progress line before the command writes its output to stdout."""
        self._active.pause()


def _safe(text: str) -> str:
    """``text`` with secrets redacted and control characters escaped, for one line of stderr."""
    from ctxaction.printable import printable
    from ctxaction.secure import redact_text

    return printable(redact_text(text))


QUIET_HELP = "print only the output and errors: no progress, notes, warnings or summaries"
VERBOSE_HELP = "print more: each build stage's time (on a terminal or not), explain's reasons in full"
