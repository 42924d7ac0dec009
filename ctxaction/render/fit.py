"""The last step of packing: render, count exactly, adjust, until the whole package fits.

It lives with the renderers because it renders: the packer (:mod:`ctxaction.pack.budget`) below
it only sees the :class:`~ctxaction.pack.budget.Measure` a renderer gives it.

The packer works on estimates (block counts, per-file overheads); here the package is rendered
in its real format and counted with the real tokenizer, and the files allowance moves by the
difference until the total sits just under the budget. ``total_tokens`` is the count of the very
text that states it. Files are rendered from redacted lines only.

Each trial rendering differs from the last in a few files, so trials are counted part by part
(:func:`ctxaction.tokens.count_by_parts`: unchanged lines are lookups); the text that is returned
is also counted whole, so the stated total never rests on the split.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from ctxaction.filter import Redactor
from ctxaction.model import Package
from ctxaction.pack import excerpt
from ctxaction.pack.budget import OVER_BUDGET, BudgetError, Packer, Packing
from ctxaction.pack.lines import FileSource
from ctxaction.pack.weakest import drop_weakest
from ctxaction.render import FormatMeasure, render
from ctxaction.tokens import Counter, count_by_parts

MAX_ROUNDS = 8
# Adjusting stops this close under the budget: a share of it, since each round repacks and
# recounts, and the last few tokens buy less than a line.
CLOSE_SHARE = 0.005
CLOSE_ENOUGH = 2
LISTED_OMITTED = 6
TASK_LABEL = "the task text"


class Fitter:
    """Fits ``sources`` into what the rest of ``package`` leaves of its budget."""

    def __init__(
        self,
        package: Package,
        sources: Sequence[FileSource],
        fmt: str,
        counter: Counter,
        redactor: Redactor,
        *,
        max_files: int,
        min_files: int,
        context: int,
    ) -> None:
        self.package, self.sources, self.fmt, self.counter, self.redactor = (
            package,
            list(sources),
            fmt,
            counter,
            redactor,
        )
        self.packer = Packer(
            sources, FormatMeasure(fmt, counter), max_files=max_files, min_files=min_files, context=context
        )
        self._by_path = {s.candidate.path: s for s in self.sources}
        self._sizes: dict[str, int] = {}
        self._base_warnings = list(package.warnings)

    def assemble(self, packing: Packing, *, into: bool = False) -> Package:
        """The package holding ``packing``: redacted file texts, omitted files with their size."""
        files = []
        for f in packing.files:
            source = self._by_path[f.path]
            text = excerpt.render(self.redactor.lines(f.path, source.lines), f.ranges)
            files.append(dataclasses.replace(f, text=text, tokens=self.counter.count(text)))
        omitted = [
            dataclasses.replace(o, tokens=self._size(o.path)) for o in packing.omitted[:LISTED_OMITTED]
        ]
        places = {f.path for f in files} | {r.path for r in self.package.rules} | {TASK_LABEL}
        target = self.package if into else dataclasses.replace(self.package)
        target.files, target.omitted = files, omitted
        target.warnings = self._base_warnings + self.redactor.warnings(places)
        return target

    def _size(self, path: str) -> int:
        if path not in self._sizes:
            self._sizes[path] = self.counter.count("\n".join(self._by_path[path].lines))
        return self._sizes[path]

    def measure(self, packing: Packing) -> int:
        """Exact tokens of the package rendered with ``packing``."""
        trial = self.assemble(packing)
        finalize(trial, self.fmt, self.counter)
        return trial.total_tokens

    def run(self) -> tuple[Packing, str]:
        """The packing whose rendering fits best, and that rendering (``package`` is updated)."""
        total = self.package.budget_total
        fixed = self.measure(Packing())
        allowance = total - fixed
        if allowance < 0:
            raise BudgetError(too_small(self.package, total, fixed, self.counter))
        best: tuple[Packing, int] | None = None
        tried: set[int] = set()
        close = max(CLOSE_ENOUGH, int(total * CLOSE_SHARE))
        for _ in range(MAX_ROUNDS):
            tried.add(allowance)
            packing = self.packer.pack(allowance)
            size = self.measure(packing)
            if size <= total and (best is None or size > best[1]):
                best = (packing, size)
            gap = total - size
            nxt = allowance + gap if gap >= 0 else allowance + gap - 1
            if 0 <= gap <= close or nxt in tried or nxt < 0:
                break
            allowance = nxt
        packing = best[0] if best else self.packer.pack(0)
        self.assemble(packing, into=True)
        self.package.fitted_for = self.fmt
        # Estimates and the real count may disagree: give up the weakest file, never the ceiling.
        rendered = trim_to_budget(self.package, self.fmt, self.counter, self._size)
        return packing, rendered


def trim_to_budget(
    package: Package, fmt: str, counter: Counter, size: Callable[[str], int] | None = None
) -> str:
    """Render ``package`` in ``fmt``, dropping its weakest files (listed as omitted, with their size
    when ``size`` can tell it) until the exact count is within the budget; raises BudgetError when
    even no file is too much."""
    rendered = finalize(package, fmt, counter, whole=True)
    while package.total_tokens > package.budget_total and package.files:
        drop_weakest(package, 1, OVER_BUDGET, size)
        rendered = finalize(package, fmt, counter, whole=True)
    if package.total_tokens > package.budget_total:
        raise BudgetError(too_small(package, package.budget_total, package.total_tokens, counter))
    return rendered


def render_fitted(package: Package, fmt: str, counter: Counter) -> str:
    """``package`` in ``fmt`` (not the format it was fitted for) within its budget, with
    ``total_tokens`` stating that text's count.

    The files were fitted for ``package.fitted_for``; another format costs differently (JSON
    escapes code and leaves out the task body, Markdown adds fences and headings), so it is
    rendered from a copy, recounted, and trimmed of its weakest files when it would run over.
    """
    copy = dataclasses.replace(package, files=list(package.files), omitted=list(package.omitted))
    copy.fitted_for = fmt
    return trim_to_budget(copy, fmt, counter)


def finalize(package: Package, fmt: str, counter: Counter, *, whole: bool = False) -> str:
    """Render with ``total_tokens`` equal to the count of the very text that states it.

    Counted by parts; ``whole`` then settles the total on a count of the entire text.
    """
    text = _settle(package, fmt, lambda t: count_by_parts(counter, t), render(package, fmt))
    return _settle(package, fmt, counter.count, text) if whole else text


def _settle(package: Package, fmt: str, count: Callable[[str], int], text: str) -> str:
    for _ in range(6):
        size = count(text)
        if size == package.total_tokens:
            break
        package.total_tokens = size
        text = render(package, fmt)
    return text


def too_small(package: Package, total: int, fixed: int, counter: Counter) -> str:
    """The error for a budget that cannot hold even the parts that must be there."""
    rules = sum(r.tokens for r in package.rules)
    task = counter.count(package.task.title) + counter.count(package.task.body)
    return (
        f"a budget of {total} tokens is too small for the required parts: the task ({task} tokens), the "
        f"always-packed rules ({rules}), the thread and the markup already take {fixed}; raise --budget "
        f"(at least {fixed + 200} to hold any file) or shorten the rule files"
    )
