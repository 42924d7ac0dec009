"""Redaction of secrets in texts, names and messages, with the built-in detector: what every
printer, reason and error message passes a text through before it leaves the machine.

Its own module, below :mod:`ctxaction.secure.paths` and the others, so they can quote what they
report the way the whole package does (the package's ``__init__`` re-exports all of it).
"""

from __future__ import annotations

from functools import lru_cache

from ctxaction.secure.detect import Detector
from ctxaction.secure.finding import Finding


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


def redact_text(text: str) -> str:
    """:func:`redact`, the text only: for paths, reasons, echoed arguments and messages, which
    leave the machine like file contents do and so go through the same detector."""
    if len(text) > _SHORT:
        return redact(text)[0]
    return _redact_short(text) if text else text


_SHORT = 1000


@lru_cache(maxsize=4096)
def _redact_short(text: str) -> str:
    # Cached: the same names and reasons are rendered many times while a package is fitted.
    return redact(text)[0]


def clip(text: str, limit: int, ellipsis: str = "…") -> str:
    """``text`` redacted, then cut to ``limit`` characters (``ellipsis`` marking a cut).

    Redact first: a token cut short no longer matches its rule and would be shown almost whole.
    """
    clean = redact_text(text)
    return clean if len(clean) <= limit else clean[:limit] + ellipsis


# Wide enough to recognise a value by, short enough that a message quoting one stays a line.
QUOTE_WIDTH = 120


def quoted(value: object) -> str:
    """``value`` as an error message quotes it: its ``repr``, redacted, and past ``QUOTE_WIDTH``
    characters cut, the whole length said (``'aaa…' (70,000 characters)``).

    The one way messages quote what a user supplied (config values and keys, command arguments,
    event payload fields, action inputs), so a 70,000-character value still makes a readable
    line. Redacted before the cut, as in :func:`clip`: the printed message is redacted again, but
    by then a cut token no longer matches its rule and would be shown almost whole. A string is
    redacted as written, before ``repr`` escapes its newlines, so a key spread over lines (a PEM
    block) is still found.
    """
    if isinstance(value, str):
        shown, size = repr(redact_text(value)), len(value)
    else:
        shown = redact_text(repr(value))
        size = len(shown)
    if len(shown) <= QUOTE_WIDTH:
        return shown
    # The closing quote kept, so the cut is plainly inside the value.
    close = shown[0] if isinstance(value, str) else ""
    return f"{shown[: QUOTE_WIDTH - len(close) - 1]}…{close} ({size:,} characters)"
