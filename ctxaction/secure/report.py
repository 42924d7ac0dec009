"""Findings as text (``path:line:col: rule preview``), JSON or SARIF 2.1.0. Previews only: no
report ever holds a full secret."""

from __future__ import annotations

from ctxaction import __version__
from ctxaction.printable import printable
from ctxaction.secure.run import Outcome

FORMATS = ("text", "json", "sarif")
_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(outcome: Outcome, fmt: str) -> str:
    """The report in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "json":
        return _json(outcome)
    if fmt == "sarif":
        return _sarif(outcome)
    return _text(outcome)


def _text(outcome: Outcome) -> str:
    # File names and previews come from the scanned files: printed escaped, one line each.
    lines = [
        f"{printable(item.path)}:{item.finding.line}:{item.finding.column}: "
        f"{item.finding.rule} {printable(item.finding.preview)}"
        for item in outcome.findings
    ]
    return "".join(f"{line}\n" for line in lines)


def summary(outcome: Outcome) -> str:
    """One or more lines for stderr: counts, skipped files, and how to allow a false alarm."""
    out = [f"note: {printable(path)}: {printable(note)}" for path, note in outcome.notes]
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
            }
            for item in outcome.findings
        ],
        "skipped": [{"path": path, "reason": note} for path, note in outcome.notes],
    }
    return json.dumps(doc, indent=2) + "\n"


def _sarif(outcome: Outcome) -> str:
    import json
    from urllib.parse import quote

    from ctxaction.secure.rules import by_id

    rules = by_id()
    used = sorted({item.finding.rule for item in outcome.findings})
    index = {rule_id: i for i, rule_id in enumerate(used)}
    driver = {
        "name": "ctxaction",
        "version": __version__,
        "rules": [
            {
                "id": rule_id,
                "name": rule_id,
                "shortDescription": {"text": rules[rule_id].description if rule_id in rules else rule_id},
                "defaultConfiguration": {"level": "error"},
            }
            for rule_id in used
        ],
    }
    results = [
        {
            "ruleId": item.finding.rule,
            "ruleIndex": index[item.finding.rule],
            "level": "error",
            "message": {"text": f"Possible secret ({item.finding.rule}): {item.finding.preview}"},
            "locations": [
                {
                    "physicalLocation": {
                        # A URI reference: spaces, %, #, ? and non-ASCII are percent-encoded.
                        "artifactLocation": {"uri": quote(item.path, safe="/")},
                        "region": {
                            "startLine": item.finding.line,
                            "startColumn": item.finding.column,
                            "endLine": item.finding.last_line,
                        },
                    }
                }
            ],
            "partialFingerprints": {"ctxaction/v1": item.finding.fingerprint},
        }
        for item in outcome.findings
    ]
    doc = {
        "$schema": _SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }
    return json.dumps(doc, indent=2) + "\n"
