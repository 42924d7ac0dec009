"""Blobs in, results out: scan each text, keep findings on added lines, drop baselined ones."""

from __future__ import annotations

from collections.abc import Iterable

from ctxaction.secure.baseline import Baseline, is_baseline_file
from ctxaction.secure.detect import Detector
from ctxaction.secure.finding import Finding
from ctxaction.secure.sources import Blob


class Located:
    """A finding, the path it was found in and, for history scans, the commit that added it."""

    __slots__ = ("commit", "finding", "path")

    def __init__(self, path: str, finding: Finding, commit: str = "") -> None:
        self.path = path
        self.finding = finding
        self.commit = commit


class Outcome:
    """Everything a report needs: findings, skipped files with reasons, counts."""

    def __init__(self) -> None:
        self.findings: list[Located] = []
        self.notes: list[tuple[str, str]] = []
        self.scanned = 0
        self.baselined = 0


def scan_blobs(blobs: Iterable[Blob], detector: Detector, baseline: Baseline | None = None) -> Outcome:
    """Scan every blob; a finding counts when it touches an added line (if lines are given) and
    ``baseline`` does not know it. Other scanners' baseline files hold hashes, not secrets, and
    are not scanned."""
    outcome = Outcome()
    for blob in blobs:
        where = f"{blob.path} (commit {blob.commit[:12]})" if blob.commit else blob.path
        if blob.text is None:
            outcome.notes.append((where, blob.note))
            continue
        if is_baseline_file(blob.path, blob.text):
            if not blob.commit:  # a history would repeat it for every commit touching the file
                outcome.notes.append((where, "skipped: a secrets baseline (hashes of known findings)"))
            continue
        outcome.scanned += 1
        for finding in detector.scan(blob.text, blob.path):
            if blob.lines is not None and not any(
                n in blob.lines for n in range(finding.line, finding.last_line + 1)
            ):
                continue
            if blob.line_map is not None:
                finding = _relocate(finding, blob.line_map)
            secret = blob.text[finding.start : finding.end]
            if baseline and baseline.knows(blob.path, finding.line, finding.fingerprint, secret, blob.commit):
                outcome.baselined += 1
                continue
            outcome.findings.append(Located(blob.path, finding, blob.commit))
    return outcome


def _relocate(finding: Finding, line_map: tuple[int, ...]) -> Finding:
    """``finding`` with its lines numbered as in the committed file, not in the added-lines text."""
    first = line_map[finding.line - 1] if finding.line <= len(line_map) else 0
    last = line_map[finding.last_line - 1] if finding.last_line <= len(line_map) else 0
    return Finding(
        rule=finding.rule,
        line=first,
        column=finding.column,
        preview=finding.preview,
        fingerprint=finding.fingerprint,
        start=finding.start,
        end=finding.end,
        end_line=max(first, last),
    )
