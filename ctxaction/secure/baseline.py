"""Baseline files: fingerprints of known findings, so an old repository can adopt the hook
without rewriting history first. The file never holds a secret: only a rule id with a SHA-256
prefix of the value, and where each finding was."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

VERSION = 1


class BaselineError(Exception):
    """The baseline file is missing or malformed; the message says what to do."""


def load(path: Path) -> frozenset[str]:
    """Fingerprints in the baseline at ``path``."""
    import json  # here, not at import: most hook runs have no baseline

    from ctxaction.jsonfile import loads

    hint = f"regenerate it with `ctxaction scan --update-baseline --baseline {path} …`"
    try:
        data = loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"baseline {path}: no such file; create it with --update-baseline") from None
    except OSError as exc:
        raise BaselineError(f"baseline {path}: cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise BaselineError(f"baseline {path}: not valid JSON{where}; {hint}") from None
    entries = data.get("findings") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise BaselineError(f'baseline {path}: expected an object with a "findings" list; {hint}')
    prints = []
    for i, entry in enumerate(entries):
        fp = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(fp, str) or ":" not in fp:
            raise BaselineError(f"baseline {path}: findings[{i}] has no valid fingerprint; {hint}")
        prints.append(fp)
    return frozenset(prints)


def dump(path: Path, findings: Iterable[tuple[str, int, str, str]]) -> int:
    """Write ``(path, line, rule, fingerprint)`` entries atomically; returns how many."""
    import json

    from ctxaction.output import write_atomic

    entries = sorted(
        {(p, line, rule, fp) for p, line, rule, fp in findings}, key=lambda e: (e[0], e[1], e[2])
    )
    doc = {
        "version": VERSION,
        "generated_by": "ctxaction scan --update-baseline",
        "findings": [
            {"path": p, "line": line, "rule": rule, "fingerprint": fp} for p, line, rule, fp in entries
        ],
    }
    write_atomic(path, json.dumps(doc, indent=2) + "\n")
    return len(entries)
