"""Blobs in, results out: scan each text, keep findings on added lines, drop baselined ones."""

from __future__ import annotations

from collections.abc import Iterable

from ctxaction.secure.detect import Detector
from ctxaction.secure.finding import Finding
from ctxaction.secure.sources import Blob

# A secret in a file name is reported on "line 0": the name, not the content, holds it.
NAME_LINE = 0


class Located:
    """A finding and the path it was found in (``path`` as shown: secrets in it redacted)."""

    __slots__ = ("finding", "path")

    def __init__(self, path: str, finding: Finding) -> None:
        self.path = path
        self.finding = finding


class Outcome:
    """Everything a report needs: findings, skipped files with reasons, counts."""

    def __init__(self) -> None:
        self.findings: list[Located] = []
        self.notes: list[tuple[str, str]] = []
        self.scanned = 0
        self.baselined = 0


def scan_blobs(blobs: Iterable[Blob], detector: Detector, baseline: frozenset[str] = frozenset()) -> Outcome:
    """Scan every blob; a finding counts when it touches an added line (if lines are given) and
    its fingerprint is not in ``baseline``."""
    outcome = Outcome()
    for blob in blobs:
        shown, in_name = _name_findings(blob.path, detector)
        for finding in in_name:
            _keep(outcome, shown, finding, baseline)
        if blob.text is None:
            outcome.notes.append((shown, blob.note))
            continue
        outcome.scanned += 1
        for finding in detector.scan(blob.text, blob.path):
            if blob.lines is not None and not any(
                n in blob.lines for n in range(finding.line, finding.last_line + 1)
            ):
                continue
            _keep(outcome, shown, finding, baseline)
    return outcome


def _keep(outcome: Outcome, path: str, finding: Finding, baseline: frozenset[str]) -> None:
    if finding.fingerprint in baseline:
        outcome.baselined += 1
    else:
        outcome.findings.append(Located(path, finding))


def _name_findings(path: str, detector: Detector) -> tuple[str, list[Finding]]:
    """The path as it may be shown (secrets in it redacted) and the secrets it holds, as findings
    on :data:`NAME_LINE`: a file name is committed, pushed and printed like content."""
    found = detector.scan(path, path)
    if not found:
        return path, []
    from ctxaction.secure import redact_with

    shown = redact_with(detector, path, path)[0]
    return shown, [
        Finding(f.rule, NAME_LINE, f.column, f"file name: {f.preview}", f.fingerprint, f.start, f.end)
        for f in found
    ]
