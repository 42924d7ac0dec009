"""The package as JSON: the machine contract of ../shared/DESIGN.md, with the packed lines.

Compact separators: every token of the document counts against the budget. For the same reason a
file's text is a list per range of its lines (``content[i]`` holds ``ranges[i]``), not one string:
a JSON string escapes every newline, which then no longer merges with the indentation after it,
and its omission markers repeat what ``ranges`` says. In lists the same lines cost about 8% fewer
tokens (bench/train/README.md). A JSON string also escapes every tab (``\t``), and the escape does
not merge with the code after it: tab-indented code (Go, much C and JavaScript) cost 10-40% more
tokens than as text. A range whose indentation allows it writes each leading tab as ``k`` spaces
instead (``tab_spaces[i] = k``; see :func:`tab_spaces`). Lines are what git splits on ``\n``, so a
file with CRLF line ends holds a ``\r`` at the end of each, and JSON escapes it too: 14% more
tokens for the same lines. A range whose every line ends so leaves the ``\r`` out and says so
(``crlf[i]``). The task is named
(kind, number, title, url, labels) but its body is not echoed: a program reading the manifest
already holds the task it asked about, and the body's tokens are better spent on code. The
Markdown and XML packages, written to be read as a prompt, carry the body.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ctxaction.model import Package, PackedFile
from ctxaction.pack.excerpt import pieces
from ctxaction.sanitize import FRAMING

VERSION = 4
# The most spaces one tab may be written as: more would cost what the escape costs.
MAX_TAB_SPACES = 8


def tab_spaces(lines: Sequence[str]) -> int:
    """The fewest spaces ``k`` that can stand for each leading tab of ``lines`` and be read back
    exactly: every line is indented by tabs, then fewer than ``k`` spaces. 0 when no line starts
    with a tab, a space comes before a tab, or no ``k`` up to :data:`MAX_TAB_SPACES` works."""
    need, tabbed = 1, False
    for line in lines:
        indent = line[: len(line) - len(line.lstrip("\t "))]
        tabs = len(indent) - len(indent.lstrip("\t"))
        if "\t" in indent[tabs:]:
            return 0
        tabbed = tabbed or tabs > 0
        need = max(need, len(indent) - tabs + 1)
        if need > MAX_TAB_SPACES:
            return 0
    return need if tabbed else 0


def tabs_as_spaces(line: str, k: int) -> str:
    """``line`` with each leading tab written as ``k`` spaces (``k`` from :func:`tab_spaces`)."""
    tabs = len(line) - len(line.lstrip("\t"))
    return " " * (k * tabs) + line[tabs:]


def spaces_as_tabs(line: str, k: int) -> str:
    """The line :func:`tabs_as_spaces` wrote, read back: ``s`` leading spaces are ``s // k`` tabs,
    then ``s % k`` spaces. How a reader of the package restores a range with ``tab_spaces`` k."""
    spaces = len(line) - len(line.lstrip(" "))
    return "\t" * (spaces // k) + " " * (spaces % k) + line[spaces:]


def file_lines(entry: Mapping[str, Any]) -> list[list[str]]:
    """A JSON file entry's lines per range as the file holds them: ``content`` with each range's
    leading spaces read back to tabs where ``tab_spaces`` says so, and each line's ``\r`` put back
    where ``crlf`` says so. What a reader of the package does."""
    content: list[list[str]] = entry["content"]
    widths = entry.get("tab_spaces") or [0] * len(content)
    crlf = entry.get("crlf") or [False] * len(content)
    return [
        [(spaces_as_tabs(line, k) if k else line) + ("\r" if cr else "") for line in lines]
        for lines, k, cr in zip(content, widths, crlf, strict=True)
    ]


class Written(NamedTuple):
    """A range's lines as ``content`` holds them, with the ``tab_spaces`` and ``crlf`` that say how."""

    lines: list[str]
    tab_spaces: int
    crlf: bool


def written(lines: list[str]) -> Written:
    """``lines`` as a range's ``content`` holds them: each line's ``\r`` left out when every line
    ends with one (a CRLF file), leading tabs as spaces where :func:`tab_spaces` allows."""
    crlf = bool(lines) and all(line.endswith("\r") for line in lines)
    if crlf:
        lines = [line[:-1] for line in lines]
    k = tab_spaces(lines)
    return Written([tabs_as_spaces(line, k) for line in lines] if k else lines, k, crlf)


def file_entry(f: PackedFile, content: list[list[str]] | None = None) -> dict[str, Any]:
    """One packed file: path, mode, exact 1-based inclusive ranges, tokens, score, reasons, line
    count and ``content``, the lines of each range (read from ``f.text`` unless given), with
    ``tab_spaces`` when a range writes its leading tabs as spaces and ``crlf`` when a range leaves
    its lines' ``\r`` out."""
    ranges = content if content is not None else pieces(f.text, f.ranges, f.line_count)
    shown = [written(lines) for lines in ranges]
    entry: dict[str, Any] = {
        "path": f.path,
        "mode": f.mode,
        "ranges": [[a, b] for a, b in f.ranges],
        "tokens": f.tokens,
        "score": round(f.score, 4),
        "reasons": list(f.reasons),
        "lines": f.line_count,
    }
    if any(w.tab_spaces for w in shown):
        entry["tab_spaces"] = [w.tab_spaces for w in shown]
    if any(w.crlf for w in shown):
        entry["crlf"] = [w.crlf for w in shown]
    entry["content"] = [w.lines for w in shown]
    return entry


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
