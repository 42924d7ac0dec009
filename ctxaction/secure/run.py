"""Blobs in, results out: scan each text, keep findings on added lines, drop baselined ones."""

from __future__ import annotations

from collections.abc import Iterable

from ctxaction.secure.baseline import Baseline, is_baseline_file
from ctxaction.secure.detect import Detector
from ctxaction.secure.finding import Finding
from ctxaction.secure.sources import Blob

# A secret in a file name is reported on "line 0": the name, not the content, holds it.
NAME_LINE = 0


class Located:
    """A finding, the path it was found in (as shown: secrets in it redacted) and, for history
    scans, the commit that added it."""

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
        shown, in_name = _name_findings(blob.path, detector)
        for finding in in_name:
            secret = blob.path[finding.start : finding.end]
            _keep(outcome, blob, shown, finding, secret, baseline)
        where = f"{shown} (commit {blob.commit[:12]})" if blob.commit else shown
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
            _keep(outcome, blob, shown, finding, secret, baseline)
    return outcome


def _keep(
    outcome: Outcome, blob: Blob, shown: str, finding: Finding, secret: str, baseline: Baseline | None
) -> None:
    if baseline and baseline.knows(blob.path, finding.line, finding.fingerprint, secret, blob.commit):
        outcome.baselined += 1
    else:
        outcome.findings.append(Located(shown, finding, blob.commit))


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
