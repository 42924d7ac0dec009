"""Findings as text (``path:line:col: rule preview``), JSON or SARIF 2.1.0. Previews only: no
report ever holds a full secret."""

from __future__ import annotations

from ctxaction.printable import printable
from ctxaction.secure.run import Outcome
from ctxaction.secure.sources import BINARY

FORMATS = ("text", "json", "sarif")


def render(outcome: Outcome, fmt: str) -> str:
    """The report in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "json":
        return _json(outcome)
    if fmt == "sarif":
        from ctxaction.secure import sarif

        return sarif.render(outcome)
    return _text(outcome)


def _text(outcome: Outcome) -> str:
    # File names and previews come from the scanned files: printed escaped, one line each.
    lines = [
        f"{printable(item.path)}:{item.finding.line}:{item.finding.column}: "
        f"{item.finding.rule} {printable(item.finding.preview)}"
        + (f" (commit {item.commit[:12]})" if item.commit else "")
        for item in outcome.findings
    ]
    return "".join(f"{line}\n" for line in lines)


def summary(outcome: Outcome, verbose: bool = False) -> str:
    """One or more lines for stderr: counts, skipped files, and how to allow a false alarm.

    Binary files are counted, not listed (a repository of images would bury the rest), unless
    ``verbose``; every other skip (too big, a symlink, unreadable) is one the user may act on and
    is always listed.
    """
    binary = 0 if verbose else sum(note == BINARY for _, note in outcome.notes)
    out = [
        f"note: {printable(path)}: {printable(note)}"
        for path, note in outcome.notes
        if verbose or note != BINARY
    ]
    if binary:
        out.append(f"note: {binary} binary file{'s' * (binary != 1)} skipped (-v lists them)")
    n = len(outcome.findings)
    files = len({item.path for item in outcome.findings})
    extra = f" ({outcome.baselined} more in the baseline)" if outcome.baselined else ""
    if n:
        out.append(f"ctxaction: {n} secret{'s' * (n != 1)} found in {files} file{'s' * (files != 1)}{extra}.")
        out.append(
            "  Remove them (and rotate any real credential), or mark a false alarm with a "
            "`ctxaction: allow` comment on the line, or add it to a baseline (--update-baseline)."
        )
    else:
        out.append(
            f"ctxaction: no secrets found in {outcome.scanned} file{'s' * (outcome.scanned != 1)}{extra}."
        )
    return "\n".join(out) + "\n"


def _json(outcome: Outcome) -> str:
    import json

    doc: dict[str, object] = {
        "findings": [
            {
                "path": item.path,
                "line": item.finding.line,
                "column": item.finding.column,
                "rule": item.finding.rule,
                "preview": item.finding.preview,
                "fingerprint": item.finding.fingerprint,
                **({"commit": item.commit} if item.commit else {}),
            }
            for item in outcome.findings
        ],
        "skipped": [{"path": path, "reason": note} for path, note in outcome.notes],
    }
    return json.dumps(doc, indent=2) + "\n"
