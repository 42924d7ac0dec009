"""What each line of a candidate file is worth to the packer, before any budget is applied.

A line's relevance is how close it sits to what the signals point at (focus spans, with context
that fades with distance; signature lines a little); a file's lines are weighed against other
files' by its damped score ratio and by how thinly its relevance is spread. The core slice is what
a file shows first. All pure: plain values in, plain values out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ctxaction.model import Candidate
from ctxaction.pack import excerpt
from ctxaction.pack.excerpt import Range

CORE_LINES = 30
CORE_CONTEXT = 2
# Relevance outside focus spans: fades by half every `2 * context` lines past the context.
CONTEXT_KEEP = 0.4
SIGNATURE_RELEVANCE = 0.05
# Share of its relevance a docstring line past the summary keeps (``excerpt.docstring_bodies``):
# parameter lists and examples are packed after the code around them.
PROSE_RELEVANCE = 0.3
# Damping of score ratios between files (1 = proportional to score).
SCORE_EXPONENT = 2.0
# Damping of a file's total relevance when its lines compete with other files' (0 = none).
SPREAD_EXPONENT = 0.5


@dataclass(frozen=True)
class FileSource:
    """A candidate with its lines; ``pinned`` lines must go in."""

    candidate: Candidate
    lines: Sequence[str]
    pinned: tuple[Range, ...] = ()


def relevance(source: FileSource, context: int) -> tuple[list[float], frozenset[int]]:
    """Per-line relevance in 0..1 (index 0 = line 1) and the signature line numbers."""
    n = len(source.lines)
    signatures = frozenset(excerpt.outline(source.lines, source.candidate.path))
    # Lines far from every span and signature are worth nothing: no floor that would spend the
    # fill on any file's filler before another file's evidence (a floor of 0.04 for files up to
    # WHOLE_FILE_MAX_LINES lines gave line_recall 0.440 on the training set, 0 gives 0.447).
    rel = [0.0] * n
    for number in signatures:
        rel[number - 1] = max(rel[number - 1], SIGNATURE_RELEVANCE)
    fade = max(2 * context, 2)
    for focus in source.candidate.focus:
        start, end = max(1, focus.start), min(n, focus.end)
        if start > end:
            continue
        weight = max(0.0, min(1.0, focus.weight))
        for i in range(start - 1, end):
            rel[i] = max(rel[i], weight)
        for d in range(1, context + 8 * fade + 1):
            value = weight * CONTEXT_KEEP * (1.0 if d <= context else 0.5 ** ((d - context) / fade))
            if value <= 0.0:
                break
            for i in (start - 1 - d, end - 1 + d):
                if 0 <= i < n and rel[i] < value:
                    rel[i] = value
    return rel, signatures


def discounted(rel: Sequence[float], prose: frozenset[int]) -> list[float]:
    """``rel`` with the ``prose`` lines (1-based: docstring bodies) keeping ``PROSE_RELEVANCE``."""
    return [value * PROSE_RELEVANCE if number in prose else value for number, value in enumerate(rel, 1)]


def anchor_distance(n: int, starts: Sequence[int]) -> list[int]:
    """Per line (index 0 = line 1), the distance to the nearest focus start (line number if none)."""
    if not starts:
        return list(range(1, n + 1))
    marks = sorted({s for s in starts if 1 <= s <= n}) or [1]
    out = [n] * n
    j = 0
    for i in range(n):
        while j + 1 < len(marks) and abs(marks[j + 1] - (i + 1)) <= abs(marks[j] - (i + 1)):
            j += 1
        out[i] = abs(marks[j] - (i + 1))
    return out


def file_weight(score: float, top: float) -> float:
    """How much a file's lines are worth next to the best file's: a damped score ratio, so the
    runners-up still get their focus lines when the best file scores far ahead."""
    if top <= 0:
        return 1.0
    return max(score, 0.0) / top if SCORE_EXPONENT == 1 else (max(score, 0.0) / top) ** SCORE_EXPONENT


def spread(rel: Sequence[float]) -> float:
    """How thinly a file's chance of holding the fix is spread over its lines: the damped sum of
    its relevance. A file with many strong spans is not many times likelier to hold the fix than a
    file with one, so each of its lines is worth less; the damping keeps big files in the race."""
    return float(max(1.0, sum(rel)) ** SPREAD_EXPONENT)


def core_lines(
    source: FileSource,
    signatures: frozenset[int],
    size: int = CORE_LINES,
    prose: frozenset[int] = frozenset(),
) -> list[int]:
    """The slice a file gets first: its strongest focus span (at most ``size`` lines, ``prose``
    lines skipped), else its outline or its head."""
    n = len(source.lines)
    spans = [f for f in source.candidate.focus if f.start <= n and f.end >= 1]
    if spans:
        best = max(spans, key=lambda f: (f.weight, -(f.end - f.start), -f.start))
        start = max(1, best.start - CORE_CONTEXT)
        end = min(n, best.end + CORE_CONTEXT)
        return [k for k in range(start, end + 1) if k not in prose][:size]
    if signatures:
        return sorted(signatures)[: max(1, size // 2)]
    return list(range(1, min(n, max(1, size // 2)) + 1))
