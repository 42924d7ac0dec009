"""Files into a token budget: the most relevant lines go in first.

Each line's worth comes from :mod:`ctxaction.pack.lines` (its file's damped score ratio, shared
over the file's spans, times how close the line sits to what the signals point at). The phases,
each within what is left:

1. pinned lines (required files);
2. a *glimpse* (the head of its strongest span) of each file in rank order, within a share of the
   budget: breadth, so the right file is present even when the ranking put it fifth;
3. the whole strongest span of the best three files;
4. the best files whole, when each costs at most its share (whole is worth it when cheap: fixes
   often sit outside the lines the signals point at);
5. the fill: all remaining lines by relevance; then short gaps whose lines cost no more than the
   gap itself are filled.

Files join strictly in rank order, so a high-scoring big file is never dropped while low-scoring
small files get in (only a file that cannot hold a single line is passed over). A file with every
line in is packed whole; one holding only signatures is an outline; the rest are excerpts (with
"lines A–B omitted" markers in Markdown and XML; JSON lists each range's lines).

Pure: token costs come from a :class:`Measure` (the renderer's), estimated per line from exact
counts of 16-line blocks; the pipeline renders, counts exactly and adjusts. A :class:`Packer`
computes relevance, costs and order once and can be asked for several budgets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ctxaction.errors import BudgetError as BudgetError
from ctxaction.model import Candidate, FileMode, OmittedFile, PackedFile
from ctxaction.pack import excerpt
from ctxaction.pack.lines import (
    CORE_LINES,
    FileSource,
    anchor_distance,
    core_lines,
    discounted,
    file_weight,
    relevance,
    spread,
)
from ctxaction.secure import redact_text

# Share of the files budget the core slices may take before the relevance fill starts.
CORE_SHARE = 0.4
# Every file first gets a glimpse (the head of its core) for breadth; the first FULL_CORES files
# then get their whole core.
GLIMPSE_LINES = 16
FULL_CORES = 3
# The best files are packed whole when the rest of each costs at most this share of the files
# budget (whole is worth it: the fix is often outside the lines the signals point at).
WHOLE_SHARES = (0.5, 0.3, 0.2)
# Files longer than this are only ever excerpted.
WHOLE_FILE_MAX_LINES = 3000
# Gaps up to this many lines are filled when that costs no more than the gap (its marker and,
# between two ranges, the second range's entry).
GAP_FILL = 3
# The fill stops when less than this is left: no line is cheaper.
MIN_LINE_TOKENS = 1
MAX_REASONS = 2
# Each file is charged this much beyond its heading when it joins: another file is another place
# for the reader to look, so it must bring lines worth more than deeper lines of the files already
# in. Chosen on the training set (bench/replay.py, macro file_all + line_recall over repositories,
# 0 / 100 / 200 tokens: 0.969 / 0.983 / 0.972).
JOIN_TOKENS = 100
REASON_CHARS = 90
_BLOCK = 16
# A run of lines does not stop just before the blank lines and closing brackets that end it: they
# cost next to nothing and show where the definition ends (and where a fix that adds code goes).
_CLOSING = re.compile(r"^\s*(?:[\]\)\}]+[;,]?|end)?\s*$")
MAX_CLOSING = 3


# Why a file was left out (short: the omitted list is part of the budget too).
OVER_BUDGET = "over budget"
PAST_MAX_FILES = "past max_files"


class Measure(Protocol):
    """Token costs of packaged pieces in the output format (supplied by the renderer)."""

    def text_cost(self, text: str) -> int:
        """Tokens ``text`` (whole lines with their newlines) adds inside a file block."""
        ...

    def marker_cost(self) -> int:
        """Tokens a run of omitted lines adds: its marker line, or what the format spends instead."""
        ...

    def range_cost(self) -> int:
        """Tokens one more listed range adds to a file block's heading or metadata."""
        ...

    def file_overhead(self, candidate: Candidate) -> int:
        """Tokens of a file block's heading and markup, without its text."""
        ...



@dataclass
class Packing:
    """What the files section holds, what was left out, and the tokens it costs (estimated)."""

    files: list[PackedFile] = field(default_factory=list)
    omitted: list[OmittedFile] = field(default_factory=list)
    used: float = 0.0


@dataclass
class _Plan:
    """One file: relevance per line, its core slice, cost estimates and the running selection."""

    source: FileSource
    rank: int
    relevance: list[float]
    signatures: frozenset[int]
    glimpse: list[int]
    core: list[int]
    costs: list[float | None]
    chosen: set[int] = field(default_factory=set)
    cost: float = 0.0

    @property
    def n(self) -> int:
        return len(self.source.lines)


def _anchors(plan: _Plan) -> list[int]:
    return anchor_distance(plan.n, [f.start for f in plan.source.candidate.focus])


class Packer:
    """Packs one set of sources (score order, best first) into any number of budgets."""

    def __init__(
        self,
        sources: Sequence[FileSource],
        measure: Measure,
        *,
        max_files: int,
        min_files: int,
        context: int,
    ) -> None:
        self.measure, self.max_files, self.min_files = measure, max_files, min_files
        self.plans: list[_Plan] = []
        top = max((s.candidate.score for s in sources), default=0.0)
        weights: list[float] = []
        for rank, source in enumerate(sources):
            plain, signatures = relevance(source, context)
            # A file's share of the budget follows its plain relevance: discounting its prose
            # reorders its own lines, it does not pull room from the other files.
            weights.append(file_weight(source.candidate.score, top) / spread(plain))
            prose = excerpt.docstring_bodies(source.lines, source.candidate.path)
            rel = discounted(plain, prose)
            glimpse = core_lines(source, signatures, GLIMPSE_LINES, prose)
            core = core_lines(source, signatures, CORE_LINES, prose) if rank < FULL_CORES else glimpse
            self.plans.append(_Plan(source, rank, rel, signatures, glimpse, core, [None] * len(source.lines)))
        self._marker = measure.marker_cost()
        self._range = measure.range_cost()
        self._overheads: dict[int, int] = {}
        self._order = sorted(
            (-weights[plan.rank] * rel, plan.rank, dist, number)
            for plan in self.plans
            for number, (rel, dist) in enumerate(zip(plan.relevance, _anchors(plan), strict=True), start=1)
            if rel > 0
        )
        self.used = 0.0
        self.charged = 0  # JOIN_TOKENS per joined file: counted against the limit, not rendered
        self.limit = 0
        self.files = 0
        self._next = 0
        self._skipped: set[int] = set()

    # -- costs -------------------------------------------------------------------------------

    def line_cost(self, plan: _Plan, number: int) -> float:
        """Estimated tokens of one line: its block's exact count, shared by characters."""
        cost = plan.costs[number - 1]
        if cost is None:
            first = (number - 1) // _BLOCK * _BLOCK
            block = plan.source.lines[first : first + _BLOCK]
            tokens = self.measure.text_cost("".join(f"{line}\n" for line in block))
            chars = sum(len(line) + 1 for line in block)
            for i, line in enumerate(block):
                plan.costs[first + i] = tokens * (len(line) + 1) / chars
            cost = plan.costs[number - 1]
        assert cost is not None
        return cost

    def _overhead(self, plan: _Plan) -> int:
        if plan.rank not in self._overheads:
            self._overheads[plan.rank] = self.measure.file_overhead(plan.source.candidate)
        return self._overheads[plan.rank]

    def _step(self, plan: _Plan, chosen: set[int], number: int) -> float:
        """Tokens of adding ``number`` to ``chosen``: the line, markers and ranges it adds or joins."""
        return self._step_at(plan, chosen, number, self.line_cost(plan, number))

    def _step_at(self, plan: _Plan, chosen: set[int], number: int, cost: float) -> float:
        """:meth:`_step` for a line that costs ``cost`` itself (0: the least the step can cost)."""
        before = number > 1 and number - 1 in chosen
        after = number < plan.n and number + 1 in chosen
        if not chosen:
            runs = int(number > 1) + int(number < plan.n)
            return cost + self._overhead(plan) + runs * self._marker
        runs = int(number > 1 and not before) + int(number < plan.n and not after) - 1
        ranges = 1 - int(before) - int(after)
        return cost + runs * self._marker + ranges * self._range

    def take(self, plan: _Plan, numbers: Sequence[int], limit: float | None = None) -> bool:
        """Add ``numbers`` (all or none) when they fit under ``limit`` (default: the budget)."""
        new = sorted({k for k in numbers if k not in plan.chosen and 1 <= k <= plan.n})
        if not new:
            return True
        if not plan.chosen and not self._next_in_line(plan):
            return False
        chosen = set(plan.chosen)
        extra = 0.0
        for number in new:
            extra += self._step(plan, chosen, number)
            chosen.add(number)
        return self._commit(plan, new, extra, self.limit if limit is None else limit)

    def take_line(self, plan: _Plan, number: int) -> bool:
        """:meth:`take` for one line (the hot path of the fill: no copies)."""
        if number in plan.chosen:
            return True
        if not plan.chosen and not self._next_in_line(plan):
            return False
        # When what the line adds besides its own tokens (a new run's marker and range, the join
        # charge) is already over the budget, it cannot fit and its block is not counted: the
        # fill's tail tries every relevant line left, a tokenizer call per block. Exact: a line
        # costs 0 or more, and adding floats is monotonic.
        if not self._fits(plan, self._step_at(plan, plan.chosen, number, 0.0), self.limit):
            return False
        return self._commit(plan, (number,), self._step(plan, plan.chosen, number), self.limit)

    def _next_in_line(self, plan: _Plan) -> bool:
        """Files join in rank order (the packed files are always the best-ranked ones, but for
        files that cannot hold even one line), up to max_files."""
        return plan.rank == self._next and self.files < self.max_files

    def _advance(self) -> None:
        while self._next < len(self.plans) and (self.plans[self._next].chosen or self._next in self._skipped):
            self._next += 1

    def _left(self) -> float:
        """What the budget has left, the files' join charges counted."""
        return self.limit - self.used - self.charged

    def _charge(self, plan: _Plan) -> int:
        """What joining costs beyond the lines (required files are in whatever they cost: no
        charge for their place)."""
        return JOIN_TOKENS if not plan.chosen and not plan.source.pinned else 0

    def _fits(self, plan: _Plan, extra: float, limit: float) -> bool:
        return self.used + self.charged + extra + self._charge(plan) <= limit

    def _commit(self, plan: _Plan, new: Sequence[int], extra: float, limit: float) -> bool:
        joins = not plan.chosen
        charge = self._charge(plan)
        if not self._fits(plan, extra, limit):
            return False
        plan.chosen.update(new)
        plan.cost += extra
        self.used += extra
        if joins:
            self.files += 1
            self.charged += charge
            self._advance()
        return True

    # -- packing ------------------------------------------------------------------------------

    def pack(self, tokens: int) -> Packing:
        """Choose which lines of which files fill ``tokens``.

        Raises BudgetError when the pinned lines (required files) alone do not fit.
        """
        self.used, self.charged, self.limit, self.files, self._next = 0.0, 0, tokens, 0, 0
        self._skipped = set()
        for plan in self.plans:
            plan.chosen, plan.cost = set(), 0.0
        for plan in self.plans:
            for start, end in plan.source.pinned:
                if not self.take(plan, range(start, min(end, plan.n) + 1)):
                    raise BudgetError(
                        f"required file {plan.source.candidate.path} (lines {start}–{end}) does not fit in "
                        f"the {tokens} tokens left for files; raise the budget or lower its max_lines"
                    )
        core_limit = tokens * CORE_SHARE
        for plan in self.plans:
            limit = tokens if plan.rank < self.min_files else core_limit
            if self.take(plan, plan.glimpse, limit) or self.take(
                plan, plan.glimpse[: max(1, len(plan.glimpse) // 3)], limit
            ):
                self._close_runs(plan)
                continue
            if self._step(plan, set(), plan.glimpse[0]) + JOIN_TOKENS <= self._left():
                break  # the glimpses' share is spent: later files may still join through the fill
            self._skipped.add(plan.rank)  # not even one line fits: let the next file take its place
            self._advance()
        for plan in self.plans[:FULL_CORES]:
            if self.take(plan, plan.core):
                self._close_runs(plan)
        for plan, share in zip(self.plans, WHOLE_SHARES, strict=False):
            if plan.n <= WHOLE_FILE_MAX_LINES:
                spent = self.used + self.charged
                self.take(plan, range(1, plan.n + 1), min(self.limit, spent + tokens * share))
        for _, rank, _, number in self._order:
            if self._left() < MIN_LINE_TOKENS:
                break
            plan = self.plans[rank]
            if (plan.chosen or self.files < self.max_files) and self.take_line(plan, number):
                self._close_run(plan, number)
        for plan in self.plans:
            self._fill_gaps(plan)
        return self._result()

    def _close_runs(self, plan: _Plan) -> None:
        """:meth:`_close_run` for every run of ``plan``."""
        for _, end in excerpt.to_ranges(plan.chosen):
            self._close_run(plan, end)

    def _close_run(self, plan: _Plan, number: int) -> None:
        """After ``number`` joins, the blank and closing-bracket lines right below its run."""
        end = number
        while end + 1 in plan.chosen:
            end += 1
        for k in range(end + 1, min(plan.n, end + MAX_CLOSING) + 1):
            closing = k not in plan.chosen and _CLOSING.match(plan.source.lines[k - 1])
            if not closing or not self.take_line(plan, k):
                break

    def _fill_gaps(self, plan: _Plan) -> None:
        """Fill short omitted runs when their lines cost no more than what the gap costs: its
        marker and, between two ranges, the second range's entry.

        Outlines stay pure signatures.
        """
        if not plan.chosen or plan.chosen <= plan.signatures:
            return
        for start, end in excerpt.gaps(excerpt.to_ranges(plan.chosen), plan.n):
            if end - start + 1 > GAP_FILL:
                continue
            saved = self._marker + (self._range if start > 1 and end < plan.n else 0)
            if sum(self.line_cost(plan, k) for k in range(start, end + 1)) <= saved:
                self.take(plan, range(start, end + 1))

    def _result(self) -> Packing:
        packing = Packing(used=self.used)
        for plan in self.plans:
            candidate = plan.source.candidate
            if not plan.chosen:
                reason = PAST_MAX_FILES if self.files >= self.max_files else OVER_BUDGET
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
                    tokens=round(plan.cost),
                    score=candidate.score,
                    reasons=packaged_reasons(candidate.reasons),
                    line_count=plan.n,
                )
            )
        return packing


def packaged_reasons(reasons: Sequence[str]) -> list[str]:
    """The first few reasons, each cut short: the package says why, ``explain`` says everything."""
    shown = [redact_text(r) for r in reasons[:MAX_REASONS]]  # redacted before a cut can hide a token
    return [r if len(r) <= REASON_CHARS else r[: REASON_CHARS - 1] + "…" for r in shown]


def pack_files(
    sources: Sequence[FileSource],
    tokens: int,
    measure: Measure,
    *,
    max_files: int,
    min_files: int,
    context: int,
) -> Packing:
    """One-shot :class:`Packer` run (sources in score order, best first)."""
    return Packer(sources, measure, max_files=max_files, min_files=min_files, context=context).pack(tokens)


def mode_of(chosen: set[int], n: int, signatures: frozenset[int]) -> FileMode:
    """full when every line is in, outline when only signatures are, excerpt otherwise."""
    if len(chosen) >= n:
        return "full"
    if chosen <= signatures:
        return "outline"
    return "excerpt"
