"""Baseline files: known findings to leave alone, so an old repository can adopt the hook without
rewriting history first. Three formats are read:

- ours (``ctxaction scan --update-baseline``): a rule id with a SHA-256 prefix of each value and
  where it was; it never holds a secret;
- detect-secrets' ``.secrets.baseline``: ``results{path: [{type, hashed_secret, line_number,
  is_secret}]}``, where ``hashed_secret`` is the SHA-1 of the value. A finding in that path whose
  value hashes the same, or that sits on that line, is known. Entries audited as real secrets
  (``is_secret: true``) are not: they are reported until removed;
- gitleaks' ``.gitleaksignore``: one fingerprint a line, ``commit:path:rule-id:line`` (history
  findings of that commit) or ``path:rule-id:line``. Rule ids differ between the scanners, so a
  finding is known by where it is: same path and line (and commit, when the entry names one).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ctxaction.errors import BaselineError as BaselineError
from ctxaction.secure import quoted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

VERSION = 1
# Files that hold other scanners' records of secrets, never secrets: they are not scanned.
BASELINE_NAMES = frozenset((".gitleaksignore", ".secrets.baseline"))



class Baseline:
    """Known findings in any of the formats above (empty when nothing was loaded)."""

    def __init__(self) -> None:
        self.fingerprints: set[str] = set()
        self.sha1: set[tuple[str, str]] = set()  # (path, SHA-1 of the value)
        self.places: set[tuple[str, int]] = set()  # (path, line)
        # (path, line) -> commit shas or their prefixes (hand-written files abbreviate them)
        self.commit_places: dict[tuple[str, int], set[str]] = {}

    def __bool__(self) -> bool:
        return bool(self.fingerprints or self.sha1 or self.places or self.commit_places)

    def knows(self, path: str, line: int, fingerprint: str, secret: str, commit: str = "") -> bool:
        """True when the finding at ``path``:``line`` with this ``fingerprint`` and value is known."""
        if fingerprint in self.fingerprints or (path, line) in self.places:
            return True
        commits = self.commit_places.get((path, line))
        if commit and commits and any(commit.startswith(known) for known in commits):
            return True
        if self.sha1:
            import hashlib

            digest = hashlib.sha1(secret.encode("utf-8", "replace"), usedforsecurity=False).hexdigest()
            return (path, digest) in self.sha1
        return False

    def merge(self, other: Baseline) -> None:
        """Add ``other``'s entries to this one."""
        self.fingerprints |= other.fingerprints
        self.sha1 |= other.sha1
        self.places |= other.places
        for place, commits in other.commit_places.items():
            self.commit_places.setdefault(place, set()).update(commits)


def is_baseline_file(path: str, text: str) -> bool:
    """True for a detect-secrets baseline or a ``.gitleaksignore`` (by name, or a JSON document
    shaped like detect-secrets' whatever its name)."""
    if path.rsplit("/", 1)[-1] in BASELINE_NAMES:
        return True
    head = text[:2000].lstrip()
    return head.startswith("{") and '"plugins_used"' in head and '"hashed_secret"' in text


def load(path: Path) -> Baseline:
    """The known findings in the baseline at ``path`` (any of the three formats)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BaselineError(f"baseline {path}: no such file; create it with --update-baseline") from None
    except OSError as exc:
        raise BaselineError(f"baseline {path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BaselineError(f"baseline {path}: not UTF-8 text") from None
    if path.name.endswith(".gitleaksignore") or not text.lstrip().startswith("{"):
        return gitleaks_ignore(text, path)
    import json  # here, not at import: most hook runs have no baseline

    from ctxaction.jsonfile import loads

    try:
        data = loads(text)
    except json.JSONDecodeError as exc:
        hint = f"regenerate it with `ctxaction scan --update-baseline --baseline {path} …`"
        raise BaselineError(f"baseline {path}: not valid JSON (line {exc.lineno}); {hint}") from None
    if isinstance(data, dict) and isinstance(data.get("results"), dict) and "findings" not in data:
        return _detect_secrets(data["results"], path)
    return _ours(data, path)


def _ours(data: Any, path: Path) -> Baseline:
    hint = f"regenerate it with `ctxaction scan --update-baseline --baseline {path} …`"
    entries = data.get("findings") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise BaselineError(
            f'baseline {path}: expected an object with a "findings" list (ours) or a "results" '
            f"object (detect-secrets); {hint}"
        )
    known = Baseline()
    for i, entry in enumerate(entries):
        fp = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(fp, str) or ":" not in fp:
            raise BaselineError(f"baseline {path}: findings[{i}] has no valid fingerprint; {hint}")
        known.fingerprints.add(fp)
    return known


def _detect_secrets(results: dict[str, Any], path: Path) -> Baseline:
    known = Baseline()
    for file, entries in results.items():
        if not isinstance(entries, list):
            raise BaselineError(
                f"baseline {path}: results[{quoted(file)}] must be a list (detect-secrets format)"
            )
        for i, entry in enumerate(entries):
            digest = entry.get("hashed_secret") if isinstance(entry, dict) else None
            if not isinstance(digest, str) or len(digest) != 40:
                raise BaselineError(
                    f"baseline {path}: results[{quoted(file)}][{i}] has no 40-character hashed_secret "
                    "(detect-secrets format); regenerate it with `detect-secrets scan`"
                )
            if entry.get("is_secret") is True:
                continue  # audited as a real secret: keep reporting it
            name = file.replace("\\", "/").removeprefix("./")
            known.sha1.add((name, digest.lower()))
            line = entry.get("line_number")
            if isinstance(line, int) and not isinstance(line, bool) and line > 0:
                known.places.add((name, line))
    return known


def gitleaks_ignore(text: str, path: Path) -> Baseline:
    """Entries of a ``.gitleaksignore``: ``[commit:]path:rule-id:line`` a line, ``#`` comments."""
    known = Baseline()
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, sep, last = line.rpartition(":")
        rest, sep2, _rule = head.rpartition(":")
        if not (sep and sep2 and last.isdigit() and rest):
            raise BaselineError(
                f"{path}:{number}: not a gitleaks fingerprint (expected commit:path:rule-id:line "
                "or path:rule-id:line)"
            )
        commit, colon, file = rest.partition(":")
        if colon and 7 <= len(commit) <= 64 and all(c in "0123456789abcdef" for c in commit):
            known.commit_places.setdefault((file, int(last)), set()).add(commit)
        else:
            known.places.add((rest, int(last)))
    return known


def dump(path: Path, findings: Iterable[tuple[str, int, str, str, str]]) -> int:
    """Write ``(path, line, rule, fingerprint, commit)`` entries atomically (``commit`` empty
    outside history scans); returns how many."""
    import json

    from ctxaction.output import write_atomic

    entries = sorted(set(findings), key=lambda e: (e[0], e[1], e[2], e[4]))
    doc = {
        "version": VERSION,
        "generated_by": "ctxaction scan --update-baseline",
        "findings": [
            {"path": p, "line": line, "rule": rule, "fingerprint": fp, **({"commit": c} if c else {})}
            for p, line, rule, fp, c in entries
        ],
    }
    write_atomic(path, json.dumps(doc, indent=2) + "\n")
    return len(entries)
