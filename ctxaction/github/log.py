"""The step's log: workflow commands (annotations, masks) escaped, untrusted text fenced off.

Messages go through ``escape_data`` (``%``, CR, LF), properties through ``escape_property``
(also ``:`` and ``,``); text written by others is wrapped in ``::stop-commands::<random>`` so a
comment cannot issue ``::set-output`` or ``::error`` lines of its own. GitHub shows about ten
annotations of each kind per step, so later ones become plain lines.
"""

from __future__ import annotations

import secrets
import sys
from typing import TextIO

MAX_ANNOTATIONS = 10


def escape_data(text: str) -> str:
    """Escape a workflow-command message (``%``, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow-command property value (also ``:`` and ``,``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(name: str, message: str, **properties: str) -> str:
    """One ``::name props::message`` line with everything escaped."""
    props = ",".join(f"{k}={escape_property(v)}" for k, v in properties.items() if v)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def quoted_log(text: str) -> str:
    """Untrusted text for the log, with workflow commands inside it switched off."""
    token = secrets.token_hex(16)
    return f"::stop-commands::{token}\n{text}\n::{token}::"


class Log:
    """Workflow-command output; past 10 annotations of a kind (all GitHub shows) plain lines."""

    def __init__(self, stream: TextIO | None = None, *, fail_open: bool = False) -> None:
        self.stream = stream or sys.stdout
        self.counts: dict[str, int] = {}
        # fail-on-error: false — a failure must not turn the step red before the agent runs.
        self.fail_open = fail_open

    def line(self, text: str) -> None:
        """A plain log line, secrets redacted (messages quote paths, arguments and API errors)."""
        from ctxaction.secure import redact_text

        print(redact_text(text), file=self.stream, flush=True)

    def raw(self, text: str) -> None:
        """A line that must reach the runner as written (``::add-mask::`` of the token)."""
        print(text, file=self.stream, flush=True)

    def annotate(self, kind: str, message: str) -> None:
        """An ``error`` / ``warning`` / ``notice`` annotation, escaped."""
        if kind == "error" and self.fail_open:
            kind = "warning"
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if self.counts[kind] <= MAX_ANNOTATIONS:
            self.line(workflow_command(kind, message, title="ctxaction"))
        else:
            self.line(f"{kind}: {message}")
