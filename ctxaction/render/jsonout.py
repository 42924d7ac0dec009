"""The package as JSON: the machine contract of ../shared/DESIGN.md, with the packed lines.

Compact separators: every token of the document counts against the budget. For the same reason a
file's text is a list per range of its lines (``content[i]`` holds ``ranges[i]``), not one string:
a JSON string escapes every newline, which then no longer merges with the indentation after it,
and its omission markers repeat what ``ranges`` says. In lists the same lines cost about 8% fewer
tokens (bench/train/README.md). The task is named
(kind, number, title, url, labels) but its body is not echoed: a program reading the manifest
already holds the task it asked about, and the body's tokens are better spent on code. The
Markdown and XML packages, written to be read as a prompt, carry the body.
"""

from __future__ import annotations

import json
from typing import Any

from ctxaction.model import Package, PackedFile
from ctxaction.pack.excerpt import pieces
from ctxaction.sanitize import FRAMING

VERSION = 2


def file_entry(f: PackedFile, content: list[list[str]] | None = None) -> dict[str, Any]:
    """One packed file: path, mode, exact 1-based inclusive ranges, tokens, score, reasons, line
    count and ``content``, the lines of each range (read from ``f.text`` unless given)."""
    return {
        "path": f.path,
        "mode": f.mode,
        "ranges": [[a, b] for a, b in f.ranges],
        "tokens": f.tokens,
        "score": round(f.score, 4),
        "reasons": list(f.reasons),
        "lines": f.line_count,
        "content": content if content is not None else pieces(f.text, f.ranges, f.line_count),
    }


def to_dict(p: Package) -> dict[str, Any]:
    """The JSON document as plain values."""
    task = p.task
    return {
        "version": VERSION,
        "note": FRAMING,
        "task": {
            "kind": task.kind, "number": task.number, "title": task.title, "url": task.url,
            "labels": list(task.labels), "profile": p.profile,
        },
        "files": [file_entry(f) for f in p.files],
        "omitted": [
            {"path": o.path, "score": round(o.score, 4), "tokens": o.tokens, "reason": o.reason}
            for o in p.omitted
        ],
        "rules": [
            {"path": r.path, "tokens": r.tokens, "truncated": r.truncated, "layer": r.layer, "text": r.text}
            for r in p.rules
        ],
        "skills": [{"path": s.path, "name": s.name, "description": s.description} for s in p.skills],
        "history": [
            {"author": h.author, "created_at": h.created_at, "compressed": h.compressed, "text": h.text}
            for h in p.history
        ],
        "excluded": [{"path": e.path, "reason": e.reason} for e in p.excluded],
        "budget": {"total": p.budget_total, "sections": dict(p.budget_sections)},
        "tokenizer": {"encoding": p.encoding, "exact": p.tokenizer_exact},
        "repo": {"head": p.head, "shallow": p.shallow},
        "warnings": list(p.warnings),
        "total_tokens": p.total_tokens,
    }


def compact(value: Any) -> str:
    """``value`` as the package writes JSON: compact separators, characters as they are."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def to_json(p: Package) -> str:
    """The JSON document as text (one line and a newline)."""
    return compact(to_dict(p)) + "\n"
