"""Sensitive-data engine shared by the packager and the pre-commit hook.

Public API (stable; the packager's filter and the hook depend on it):

- :class:`Finding` — rule, 1-based line/column, redacted preview, fingerprint, char offsets
- :func:`scan` — findings in a text
- :func:`redact` — the text with each secret replaced by ``[REDACTED:rule-id]``, lines kept
- :func:`redact_text` / :func:`clip` — the same for names, arguments and messages (clip: then cut)
- :func:`quoted` — a value an error message quotes: redacted, then cut, its whole length said
- :class:`PathRules` — sensitive path patterns and ``.contextignore`` (gitignore semantics)
- :func:`bulk_personal_data` — a reason when a file is a dump of personal data

Only the standard library, ``pathspec`` and this package are imported on this path, so a hook
run stays fast.
"""

from __future__ import annotations

from ctxaction.secure.allow import Allowlist
from ctxaction.secure.detect import Detector
from ctxaction.secure.finding import Finding
from ctxaction.secure.paths import PathRules
from ctxaction.secure.personal import bulk_personal_data
from ctxaction.secure.redaction import (
    QUOTE_WIDTH,
    clip,
    default_detector,
    quoted,
    redact,
    redact_text,
    redact_with,
    scan,
)

__all__ = [
    "QUOTE_WIDTH",
    "Allowlist",
    "Detector",
    "Finding",
    "PathRules",
    "bulk_personal_data",
    "clip",
    "default_detector",
    "quoted",
    "redact",
    "redact_text",
    "redact_with",
    "scan",
]
