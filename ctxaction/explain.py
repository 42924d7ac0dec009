"""What ``ctxaction explain`` prints: each candidate's score, signals, reasons and decision.

:func:`facts` is the one source: :func:`as_json` prints it as it is (``--format json``, a stable
form for programs, ``version`` 1), :func:`table` lays it out for a person, fitted to the
terminal's width. Every string in it comes from the task or the repository, so it is redacted
first; the table also escapes control and bidi characters (one printed line each) and never cuts
inside a ``[REDACTED:rule]`` marker.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from typing import Any

from ctxaction.console import Style
from ctxaction.pipeline import BuildResult
from ctxaction.printable import printable
from ctxaction.rank.scoring import parts
from ctxaction.secure import redact_text

VERSION = 1
# When stdout is not a terminal (a pipe, a file) and COLUMNS is unset.
FALLBACK_WIDTH = 100
# Columns before the decision: rank (3), two spaces, score (6), two spaces.
_LEAD = 13
_GAP = 2
# A decision column this wide at most: the path gets the rest.
_DECISION = 30
# Narrower than this, continuation lines are not aligned after their label.
_ALIGNED = 80
_NBSP = "\u00a0"
_MARKER = re.compile(r"\[REDACTED:[^\]\s]*\]")
# Characters JSON may carry raw but a terminal would act on (bidi overrides, line separators, C1).
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def facts(result: BuildResult, limit: int = 40, digits: int | None = 4) -> dict[str, Any]:
    """The explanation as plain data: the ``--format json`` document (README, "explain"), scores
    rounded to ``digits`` places (None: as computed, which the table rounds to its own)."""

    def rounded(value: float) -> float:
        return value if digits is None else round(value, digits)

    package = result.package
    rows = []
    for rank, candidate in enumerate(result.candidates[: max(limit, 0)], start=1):
        signals = parts(candidate, result.profile.scoring)
        rows.append(
            {
                "rank": rank,
                "path": redact_text(candidate.path),
                "score": rounded(candidate.score),
                "decision": redact_text(result.decisions.get(candidate.path, "")),
                "signals": {name: rounded(value) for name, value in signals.items() if value},
                "reasons": [redact_text(reason) for reason in candidate.reasons],
            }
        )
    return {
        "version": VERSION,
        "task": redact_text(package.task.title),
        "profile": result.profile.name,
        "budget": package.budget_total,
        "total_tokens": package.total_tokens,
        "tokenizer": {"encoding": package.encoding, "exact": package.tokenizer_exact},
        "files_packed": len(package.files),
        "candidate_count": len(result.candidates),
        "candidates": rows,
        "more": max(0, len(result.candidates) - len(rows)),
        "warnings": [redact_text(w) for w in package.warnings],
    }


def as_json(result: BuildResult, limit: int = 40) -> str:
    """:func:`facts` as one JSON document (no colour, ever)."""
    text = json.dumps(facts(result, limit), ensure_ascii=False, indent=1)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text) + "\n"


def table(
    result: BuildResult,
    limit: int = 40,
    *,
    width: int | None = None,
    verbose: bool = False,
    color: bool = False,
) -> str:
    """The candidate table, ``width`` columns wide (default: the terminal's, else
    :data:`FALLBACK_WIDTH`). Reasons take two lines at most unless ``verbose``."""
    width = max(40, width or shutil.get_terminal_size((FALLBACK_WIDTH, 24)).columns)
    return _Layout(facts(result, limit, digits=None), width, verbose, Style(color)).text()


class _Layout:
    def __init__(self, data: dict[str, Any], width: int, verbose: bool, style: Style) -> None:
        self.data, self.width, self.verbose, self.paint = data, width, verbose, style
        self.lines: list[str] = []

    def text(self) -> str:
        data = self.data
        self.lines += self.wrap(f"task: {data['task']}", 6, most=None if self.verbose else 2)
        tokenizer = data["tokenizer"]
        summary = [
            f"profile {data['profile']}",
            f"budget {data['budget']}",
            f"packed {data['total_tokens']} tokens "
            f"({tokenizer['encoding']}{'' if tokenizer['exact'] else ', estimated'})",
            f"{data['files_packed']} files",
            f"{data['candidate_count']} candidates",
        ]
        # No-break spaces keep each part whole: textwrap breaks only at ASCII whitespace.
        glued = f"{_NBSP}· ".join(part.replace(" ", _NBSP) for part in summary)
        self.lines += [line.replace(_NBSP, " ") for line in self.wrap(glued, 0)]
        self.lines.append("")
        rows = data["candidates"]
        longest = max([len("decision"), *(len(printable(r["decision"])) for r in rows)])
        decision_width = min(_DECISION, longest, (self.width - _LEAD - _GAP) // 2)
        path_width = self.width - _LEAD - decision_width - _GAP
        header = f"{'#':>3}  {'score':>6}  {'decision':<{decision_width}}  file"
        self.lines.append(self.paint(header, "bold"))
        for row in rows:
            self.row(row, decision_width, path_width)
        if data["more"]:
            self.lines.append(f"… {data['more']} more candidates (raise --limit to see them)")
        for warning in data["warnings"]:
            first, *rest = self.wrap(f"warning: {warning}", 9)
            self.lines += [self.paint("warning:", "warning") + first[len("warning:") :], *rest]
        return "\n".join(self.lines) + "\n"

    def row(self, row: dict[str, Any], decision_width: int, path_width: int) -> None:
        decision = _wrap(printable(row["decision"]), decision_width)
        path = _split_path(printable(row["path"]), path_width)
        role = _role(row["decision"])
        for i in range(max(len(decision), len(path))):
            score = self.paint(format(row["score"], ">6.3f"), "score")
            lead = f"{row['rank']:>3}  {score}  " if i == 0 else " " * _LEAD
            text = decision[i] if i < len(decision) else ""
            where = path[i] if i < len(path) else ""
            cell = self.paint(text, role) + " " * (decision_width - len(text))
            self.lines.append(f"{lead}{cell}  {where}".rstrip())
        signals = ", ".join(f"{name}{_NBSP}{value:.2f}" for name, value in row["signals"].items())
        if signals:
            wrapped = self.wrap(f"{'':>{_LEAD}}signals: {signals}", self.hanging("signals: "))
            self.lines += [line.replace(_NBSP, " ") for line in wrapped]
        if row["reasons"]:
            most = None if self.verbose else 2
            why = f"{'':>{_LEAD}}why: {'; '.join(row['reasons'])}"
            self.lines += self.wrap(why, self.hanging("why: "), most=most)

    def hanging(self, label: str) -> int:
        """Continuation indent under a row's ``label``: aligned with its text, or only slightly
        in on a narrow terminal, where every column counts."""
        return _LEAD + (len(label) if self.width >= _ALIGNED else 2)

    def wrap(self, text: str, indent: int, *, most: int | None = None) -> list[str]:
        """``text`` (escaped) in lines of the width, continuation lines indented by ``indent``;
        at most ``most`` lines, the last ending in ``…`` when words were left out."""
        lines = textwrap.wrap(
            printable(text),
            self.width,
            subsequent_indent=" " * indent,
            break_long_words=False,
            break_on_hyphens=False,
            max_lines=most,
            placeholder=" …",
        )
        return [_cut(line, self.width) for line in lines]


def _role(decision: str) -> str:
    if decision == "whole":
        return "good"
    if decision.startswith(("excerpt", "outline")):
        return "partial"
    return "bad" if decision.startswith("excluded") else "dim"


def _wrap(text: str, width: int) -> list[str]:
    """Words to lines of ``width`` (a longer word is cut, never inside a marker)."""
    lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]
    return [_cut(line, width) for line in lines]


def _split_path(path: str, width: int) -> list[str]:
    """``path`` over lines of ``width``, broken after a ``/``; a longer part is broken where it
    must, never inside a redaction marker."""
    lines: list[str] = []
    current = ""
    for part in re.findall(r"[^/]*/|[^/]+$", path) or [path]:
        if current and len(current) + len(part) > width:
            lines.append(current)
            current = ""
        current += part
        while len(current) > width:
            end = _break(current, width)
            lines.append(current[:end])
            current = current[end:]
    lines.append(current)
    return [_cut(line, width) for line in lines if line]


def _break(text: str, width: int) -> int:
    """Where to break ``text`` to fit ``width``: before a marker the break would split; after one
    that opens the text and is wider than a line (:func:`_cut` then shows it as ``…``)."""
    for marker in _MARKER.finditer(text):
        if marker.start() < width < marker.end():
            return marker.start() or marker.end()
    return width


def _cut(text: str, width: int) -> str:
    """``text`` within ``width`` characters, ending in ``…`` when cut; a redaction marker the cut
    would split is dropped whole, so no part of it (or of what it hides) is shown."""
    if len(text) <= width:
        return text
    end = width - 1
    for marker in _MARKER.finditer(text):
        if marker.start() < end < marker.end():
            end = marker.start()
    return text[:end] + "…"
