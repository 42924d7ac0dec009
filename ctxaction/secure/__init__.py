"""Sensitive-data engine shared by the packager and the pre-commit hook.

Public API (stable; the packager's filter and the hook depend on it):

- :class:`Finding` — rule, 1-based line/column, redacted preview, fingerprint, char offsets
- :func:`scan` — findings in a text
- :func:`redact` — the text with each secret replaced by ``[REDACTED:rule-id]``, lines kept
- :class:`PathRules` — sensitive path patterns and ``.contextignore`` (gitignore semantics)
- :func:`bulk_personal_data` — a reason when a file is a dump of personal data

Only the standard library, ``pathspec`` and this package are imported on this path, so a hook
run stays fast.
"""

from __future__ import annotations

from functools import lru_cache

from ctxaction.secure.allow import Allowlist
from ctxaction.secure.detect import Detector
from ctxaction.secure.finding import Finding
from ctxaction.secure.paths import PathRules
from ctxaction.secure.personal import bulk_personal_data

__all__ = [
    "Allowlist",
    "Detector",
    "Finding",
    "PathRules",
    "bulk_personal_data",
    "default_detector",
    "redact",
    "redact_with",
    "scan",
]


@lru_cache(maxsize=1)
def default_detector() -> Detector:
    """The detector with every built-in rule and no allowlist."""
    from ctxaction.secure.rules import ALL_RULES

    return Detector(ALL_RULES)


def scan(text: str, path: str = "") -> list[Finding]:
    """Secrets in ``text`` (``path`` is used for path-aware checks), in text order."""
    return default_detector().scan(text, path)


def redact(text: str, path: str = "") -> tuple[str, list[Finding]]:
    """``text`` with every secret replaced by ``[REDACTED:rule-id]``; line count unchanged."""
    return redact_with(default_detector(), text, path)


def redact_with(detector: Detector, text: str, path: str = "") -> tuple[str, list[Finding]]:
    """:func:`redact` with a configured detector (allowlists from config)."""
    findings = detector.scan(text, path)
    if not findings:
        return text, findings
    parts: list[str] = []
    pos = 0
    for finding in findings:
        parts.append(text[pos : finding.start])
        # Keep the newlines a multi-line secret spanned so line numbers after it do not move.
        parts.append(f"[REDACTED:{finding.rule}]" + "\n" * text.count("\n", finding.start, finding.end))
        pos = finding.end
    parts.append(text[pos:])
    return "".join(parts), findings
