"""Files into a token budget: every line gets a relevance, the most relevant lines go in first.

A line's relevance is its file's score times how close it sits to what the signals point at
(focus spans, with context that fades with distance; signatures keep a little value; the rest
of a file a little less). Before that fill, each of the top files gets a *core* slice (its most
important span, or its outline) so that a high-scoring big file is never dropped whole while
low-scoring small files get in, and breadth survives a single huge definition. A file whose
every line made it is packed whole; one holding only signatures is an outline; the rest are
excerpts with "lines A–B omitted" markers. Pure: costs come from a :class:`Measure`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ctxaction.model import Candidate, FileMode, OmittedFile, PackedFile
from ctxaction.pack import excerpt
from ctxaction.pack.excerpt import Range

# Share of the files budget the core slices may take before the relevance fill starts.
CORE_SHARE = 0.4
CORE_LINES = 30
CORE_CONTEXT = 2
# Relevance outside focus spans: fades by half every `2 * context` lines past the context.
CONTEXT_KEEP = 0.9
SIGNATURE_RELEVANCE = 0.25
BASE_RELEVANCE = 0.08
# Files longer than this are only ever excerpted (no base relevance for their other lines).
WHOLE_FILE_MAX_LINES = 3000
# Gaps up to this many lines are filled when that costs no more than their marker.
GAP_FILL = 3


class Measure(Protocol):
    """Token costs of packaged pieces in the output format (supplied by the renderer)."""

    def line_cost(self, line: str) -> int:
        """Tokens one line (with its newline) adds to a file block."""
        ...

    def marker_cost(self) -> int:
        """Tokens an omission marker line adds."""
        ...

    def range_cost(self) -> int:
        """Tokens one more listed range adds to a file block's heading or metadata."""
        ...

    def file_overhead(self, candidate: Candidate) -> int:
        """Tokens of a file block's heading and markup, without its text."""
        ...


class BudgetError(ValueError):
    """The parts that must be packed do not fit in the budget."""


@dataclass(frozen=True)
class FileSource:
    """A candidate with its (already redacted) lines; ``pinned`` lines must go in."""

    candidate: Candidate
    lines: Sequence[str]
    pinned: tuple[Range, ...] = ()


@dataclass
class Packing:
    """What the files section holds, what was left out, and the tokens it costs (estimated)."""

    files: list[PackedFile] = field(default_factory=list)
    omitted: list[OmittedFile] = field(default_factory=list)
    used: int = 0


@dataclass
class _Plan:
    """One file's relevance per line and its running selection."""

    source: FileSource
    rank: int
    relevance: list[float]
    signatures: frozenset[int]
    core: list[int]
    chosen: set[int] = field(default_factory=set)
    cost: int = 0
    runs: int = 0

    @property
    def n(self) -> int:
        return len(self.source.lines)


def relevance(source: FileSource, context: int) -> tuple[list[float], frozenset[int]]:
    """Per-line relevance in 0..1 (index 0 = line 1) and the signature line numbers."""
    n = len(source.lines)
    signatures = frozenset(excerpt.outline(source.lines, source.candidate.path))
    base = BASE_RELEVANCE if n <= WHOLE_FILE_MAX_LINES else 0.0
    rel = [base] * n
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
        reach = context + 8 * fade
        for d in range(1, reach + 1):
            value = weight * CONTEXT_KEEP * (1.0 if d <= context else 0.5 ** ((d - context) / fade))
            if value <= base:
                break
            for i in (start - 1 - d, end - 1 + d):
                if 0 <= i < n and rel[i] < value:
                    rel[i] = value
    return rel, signatures


def core_lines(source: FileSource, signatures: frozenset[int]) -> list[int]:
    """The slice a top file gets first: its strongest focus span (capped), else its outline/head."""
    n = len(source.lines)
    spans = [f for f in source.candidate.focus if f.start <= n and f.end >= 1]
    if spans:
        best = max(spans, key=lambda f: (f.weight, -(f.end - f.start), -f.start))
        start = max(1, best.start - CORE_CONTEXT)
        end = min(n, best.end + CORE_CONTEXT, start + CORE_LINES - 1)
        return list(range(start, end + 1))
    if signatures:
        return sorted(signatures)[: CORE_LINES // 2]
    return list(range(1, min(n, CORE_LINES // 2) + 1))


def _plan(sources: Sequence[FileSource], context: int) -> list[_Plan]:
    plans = []
    for rank, source in enumerate(sources):
        rel, signatures = relevance(source, context)
        plans.append(_Plan(source, rank, rel, signatures, core_lines(source, signatures)))
    return plans


class _Selector:
    """Greedy selection with running (estimated) costs per file."""

    def __init__(self, plans: list[_Plan], measure: Measure, limit: int, max_files: int) -> None:
        self.plans, self.measure, self.limit, self.max_files = plans, measure, limit, max_files
        self.used = 0
        self.files = 0
        self._line_costs: dict[tuple[int, int], int] = {}
        self._marker = measure.marker_cost()
        self._range = measure.range_cost()

    def line_cost(self, plan: _Plan, number: int) -> int:
        key = (plan.rank, number)
        if key not in self._line_costs:
            self._line_costs[key] = self.measure.line_cost(plan.source.lines[number - 1])
        return self._line_costs[key]

    def _step(self, plan: _Plan, chosen: set[int], number: int) -> tuple[int, int]:
        """(tokens, omitted-run change) of adding ``number`` to ``chosen``."""
        before = number > 1 and number - 1 in chosen
        after = number < plan.n and number + 1 in chosen
        cost = self.line_cost(plan, number)
        if not chosen:
            runs = int(number > 1) + int(number < plan.n)
            return cost + self.measure.file_overhead(plan.source.candidate) + runs * self._marker, runs
        left = number > 1 and not before
        right = number < plan.n and not after
        runs = int(left) + int(right) - 1
        ranges = 1 - int(before) - int(after)
        return cost + runs * self._marker + ranges * self._range, runs

    def take(self, plan: _Plan, numbers: Sequence[int], limit: int | None = None) -> bool:
        """Add ``numbers`` (all or none) when they fit under ``limit`` (default: the budget)."""
        new = sorted({k for k in numbers if k not in plan.chosen and 1 <= k <= plan.n})
        if not new:
            return True
        if not plan.chosen and self.files >= self.max_files:
            return False
        chosen = set(plan.chosen)
        extra = runs = 0
        for number in new:
            tokens, delta = self._step(plan, chosen, number)
            chosen.add(number)
            extra, runs = extra + tokens, runs + delta
        if self.used + extra > (self.limit if limit is None else limit):
            return False
        if not plan.chosen:
            self.files += 1
        plan.chosen = chosen
        plan.runs += runs
        plan.cost += extra
        self.used += extra
        return True


def pack_files(
    sources: Sequence[FileSource], tokens: int, measure: Measure, *,
    max_files: int, min_files: int, context: int,
) -> Packing:
    """Choose which lines of which files fill ``tokens`` (sources in score order, best first).

    Raises BudgetError when the pinned lines (required files) alone do not fit.
    """
    plans = _plan(sources, context)
    sel = _Selector(plans, measure, tokens, max_files)
    for plan in plans:
        for start, end in plan.source.pinned:
            if not sel.take(plan, range(start, min(end, plan.n) + 1)):
                raise BudgetError(
                    f"required file {plan.source.candidate.path} (lines {start}–{end}) does not fit in "
                    f"the {tokens} tokens left for files; raise the budget or lower its max_lines"
                )
    core_limit = max(int(tokens * CORE_SHARE), 0)
    for plan in plans:
        limit = tokens if plan.rank < min_files else core_limit
        if not sel.take(plan, plan.core, limit):
            sel.take(plan, sorted(plan.signatures)[: CORE_LINES // 2] or plan.core[:CORE_LINES // 3], limit)
    order = sorted(
        (-plan.source.candidate.score * rel, plan.rank, _distance(plan, number), number)
        for plan in plans
        for number, rel in enumerate(plan.relevance, start=1)
        if rel > 0 and number not in plan.chosen
    )
    for _, rank, _, number in order:
        plan = plans[rank]
        if plan.chosen or sel.files < max_files:
            sel.take(plan, [number])
    for plan in plans:
        _fill_gaps(sel, plan)
    return _result(plans, sel)


def _distance(plan: _Plan, number: int) -> int:
    """Lines from the nearest focus start: ties in relevance fill outward from the anchor."""
    starts = [f.start for f in plan.source.candidate.focus]
    return min((abs(number - s) for s in starts), default=number)


def _fill_gaps(sel: _Selector, plan: _Plan) -> None:
    """Fill short omitted runs when their lines cost no more than the marker that replaces them.

    Outlines stay pure signatures.
    """
    if not plan.chosen or plan.chosen <= plan.signatures:
        return
    for start, end in excerpt.gaps(excerpt.to_ranges(plan.chosen), plan.n):
        if end - start + 1 > GAP_FILL:
            continue
        cost = sum(sel.line_cost(plan, k) for k in range(start, end + 1))
        if cost <= sel.measure.marker_cost():
            sel.take(plan, range(start, end + 1))


def mode_of(chosen: set[int], n: int, signatures: frozenset[int]) -> FileMode:
    """full when every line is in, outline when only signatures are, excerpt otherwise."""
    if len(chosen) >= n:
        return "full"
    if chosen <= signatures:
        return "outline"
    return "excerpt"


def _result(plans: list[_Plan], sel: _Selector) -> Packing:
    packing = Packing(used=sel.used)
    for plan in plans:
        candidate = plan.source.candidate
        if not plan.chosen:
            reason = "max_files reached" if sel.files >= sel.max_files else "did not fit the budget"
            packing.omitted.append(OmittedFile(candidate.path, candidate.score, 0, reason))
            continue
        ranges = excerpt.to_ranges(plan.chosen)
        mode = mode_of(plan.chosen, plan.n, plan.signatures)
        packing.files.append(
            PackedFile(
                path=candidate.path,
                mode=mode,
                ranges=[(1, plan.n)] if mode == "full" else ranges,
                text=excerpt.render(plan.source.lines, ranges),
                tokens=plan.cost,
                score=candidate.score,
                reasons=list(candidate.reasons),
                line_count=plan.n,
            )
        )
    return packing
