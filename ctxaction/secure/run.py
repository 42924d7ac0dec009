"""Blobs in, results out: scan each text, keep findings on added lines, drop baselined ones."""

from __future__ import annotations

from collections.abc import Iterable

from ctxaction.secure.detect import Detector
from ctxaction.secure.finding import Finding
from ctxaction.secure.sources import Blob


class Located:
    """A finding and the path it was found in."""

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
        if blob.text is None:
            outcome.notes.append((blob.path, blob.note))
            continue
        outcome.scanned += 1
        for finding in detector.scan(blob.text, blob.path):
            if blob.lines is not None and not any(
                n in blob.lines for n in range(finding.line, finding.last_line + 1)
            ):
                continue
            if finding.fingerprint in baseline:
                outcome.baselined += 1
                continue
            outcome.findings.append(Located(blob.path, finding))
    return outcome
