"""Findings as SARIF 2.1.0 for GitHub code scanning: rules with descriptions, help, tags and a
``security-severity``; results with fingerprints that survive the secret's line moving.

Code scanning sorts results by ``security-severity`` (a number as a string: 9.0 and up is
critical, 7.0 high, 4.0 medium) and shows them without one as plain warnings, so every rule gets
one: a private key grants whatever it signs for (critical), a provider's token is known to be
live-shaped (high), a value assigned to a credential-like name may be a placeholder (medium).
"""

from __future__ import annotations

from urllib.parse import quote

from ctxaction import __version__
from ctxaction.secure.run import Located, Outcome

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ctxaction.secure.rule import Rule

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# RFC 3986 pchar: what a path segment may hold as it is (the rest is percent-encoded).
_PCHAR = "/!$&'()*+,;=:@"
FINGERPRINT_KEY = "ctxactionSecret/v2"
# ``security`` is what code scanning files a result under; CWE-798: use of hard-coded credentials.
TAGS = ("security", "external/cwe/cwe-798", "secret")
CRITICAL = "9.5"
HIGH = "8.0"
MEDIUM = "6.0"
# Rule ids of key material and cloud root credentials: anything they sign or reach is exposed.
_CRITICAL_IDS = frozenset(
    {
        "private-key",
        "private-key-base64",
        "putty-private-key",
        "age-secret-key",
        "aws-secret-access-key",
        "gcp-service-account-key-id",
        "azure-storage-account-key",
    }
)


def severity(rule: Rule | None, rule_id: str) -> str:
    """``security-severity`` of a rule, as code scanning wants it (a decimal string)."""
    if rule_id in _CRITICAL_IDS:
        return CRITICAL
    if rule is None or rule.generic:
        return MEDIUM
    return HIGH


def _help(description: str, rule_id: str) -> dict[str, str]:
    text = (
        f"Found: {description}. Anyone who can read the "
        "repository (or a fork, a clone, a CI log) can use it. Revoke or rotate the credential at "
        "its provider first; then remove it from the code and load it from the environment or a "
        "secret store. Removing the line does not remove it from the history: rewrite history or "
        "treat the credential as public. If this is not a secret (a test fixture, an example), add "
        f"a `ctxaction: allow` comment on the line, allowlist the path in `secrets.allowlist`, or "
        f"record it in a baseline (`ctxaction scan --update-baseline`). Rule: `{rule_id}`."
    )
    return {"text": text, "markdown": text}


def _level(rule: Rule | None, rule_id: str) -> str:
    return "warning" if severity(rule, rule_id) == MEDIUM else "error"


def _rule(rule_id: str, rule: Rule | None) -> dict[str, object]:
    description = rule.description if rule is not None else rule_id
    level = _level(rule, rule_id)
    return {
        "id": rule_id,
        "name": "".join(part.capitalize() for part in rule_id.split("-")),
        "shortDescription": {"text": description},
        "fullDescription": {
            "text": f"{description}: a credential of this kind found in source, config or history."
        },
        "help": _help(description, rule_id),
        "defaultConfiguration": {"level": level},
        "properties": {
            "tags": list(TAGS),
            "security-severity": severity(rule, rule_id),
            "precision": "medium" if rule is None or rule.generic else "high",
            "problem.severity": level,
        },
    }


def partial_fingerprint(item: Located) -> str:
    """Stable across the secret moving within its file: rule, path and the secret's hash, no line."""
    import hashlib

    key = f"{item.finding.rule}\0{item.path}\0{item.finding.fingerprint}"
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:32]


def uri(path: str) -> str:
    """A repository path as a relative URI reference: spaces, ``%``, ``#``, ``?``, control and
    non-ASCII characters percent-encoded, and a ``:`` in the first segment too (it would read as
    a scheme)."""
    encoded = quote(path, safe=_PCHAR)
    first, slash, rest = encoded.partition("/")
    return first.replace(":", "%3A") + slash + rest


def _location(item: Located) -> dict[str, object]:
    """SARIF regions start at line 1: a secret in the file name has the file alone."""
    where: dict[str, object] = {"artifactLocation": {"uri": uri(item.path)}}
    if item.finding.line >= 1:
        where["region"] = {
            "startLine": item.finding.line,
            "startColumn": item.finding.column,
            "endLine": item.finding.last_line,
        }
    return where


def _result(item: Located, index: int, level: str) -> dict[str, object]:
    result: dict[str, object] = {
        "ruleId": item.finding.rule,
        "ruleIndex": index,
        "level": level,
        "message": {"text": f"Possible secret ({item.finding.rule}): {item.finding.preview}"},
        "locations": [{"physicalLocation": _location(item)}],
        "partialFingerprints": {FINGERPRINT_KEY: partial_fingerprint(item)},
    }
    if item.commit:
        result["properties"] = {"commit": item.commit}
    return result


def render(outcome: Outcome) -> str:
    """The SARIF document for ``outcome`` (rules limited to those with results)."""
    import json

    from ctxaction.secure.rules import by_id

    known = by_id()
    used = sorted({item.finding.rule for item in outcome.findings})
    rules = [_rule(rule_id, known.get(rule_id)) for rule_id in used]
    index = {rule_id: i for i, rule_id in enumerate(used)}
    results = [
        _result(item, index[item.finding.rule], _level(known.get(item.finding.rule), item.finding.rule))
        for item in outcome.findings
    ]
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "ctxaction",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }
    return json.dumps(doc, indent=2) + "\n"
