"""Packing files into a token budget with the real tokenizer and the real renderer's costs."""

from __future__ import annotations

from typing import Any

import pytest

from ctxaction.model import Candidate, Focus
from ctxaction.pack.budget import JOIN_TOKENS, BudgetError, Packer, pack_files
from ctxaction.pack.lines import FileSource
from ctxaction.render import FormatMeasure
from ctxaction.tokens import get_counter


def py_file(name: str, functions: int, body: int = 6) -> list[str]:
    lines = ["import os", ""]
    for i in range(functions):
        lines += [f"def {name}_{i}(value):", f'    """Handle {name} case {i}."""']
        lines += [f"    value = os.path.join(str(value), '{name}{i}_{k}')" for k in range(body)]
        lines += ["    return value", ""]
    return lines


def source(path: str, lines: list[str], score: float, focus: list[Focus] | None = None) -> FileSource:
    return FileSource(Candidate(path, score=score, reasons=[f"reason for {path}"], focus=focus or []), lines)


@pytest.fixture(scope="module")
def measure() -> FormatMeasure:
    return FormatMeasure("markdown", get_counter())


def covered(ranges: list[tuple[int, int]], line: int) -> bool:
    return any(a <= line <= b for a, b in ranges)


def test_big_top_file_is_excerpted_not_dropped_for_small_ones(measure: FormatMeasure) -> None:
    big = py_file("big", 120)  # ~ 15k tokens
    focus_line = 10 * 57 + 3  # inside big_57
    sources = [source("big.py", big, 1.0, [Focus(focus_line - 2, focus_line + 8, 1.0, "defines big_57")])]
    sources += [source(f"small{i}.py", py_file(f"s{i}", 2), 0.2) for i in range(8)]
    packing = pack_files(sources, 1500, measure, max_files=10, min_files=3, context=3)
    assert packing.files[0].path == "big.py"
    assert packing.files[0].mode == "excerpt"
    assert covered(packing.files[0].ranges, focus_line)
    assert packing.used <= 1500


def test_small_file_fits_whole(measure: FormatMeasure) -> None:
    lines = py_file("tiny", 2)
    packing = pack_files([source("tiny.py", lines, 0.9)], 3000, measure, max_files=5, min_files=1, context=3)
    (packed,) = packing.files
    assert (packed.mode, packed.ranges) == ("full", [(1, len(lines))])
    assert packed.text == "\n".join(lines) + "\n"


def test_focus_lines_of_every_top_file_before_context(measure: FormatMeasure) -> None:
    sources = [
        source(f"m{i}.py", py_file(f"m{i}", 30), 1.0 - i * 0.1, [Focus(100 + i, 100 + i, 1.0, "hit")])
        for i in range(5)
    ]
    # Each file's place is charged JOIN_TOKENS on top of its heading.
    packing = pack_files(sources, 900 + 5 * JOIN_TOKENS, measure, max_files=10, min_files=2, context=3)
    assert [f.path for f in packing.files] == [f"m{i}.py" for i in range(5)]
    assert all(covered(f.ranges, 100 + i) for i, f in enumerate(packing.files))


def test_outline_when_only_signatures_fit(measure: FormatMeasure) -> None:
    lines = py_file("wide", 400)  # too long to be packed whole: only its focus or signatures count
    named = source("a.py", py_file("a", 3), 1.0, [Focus(1, 30, 1.0, "named")])
    sources = [named, source("wide.py", lines, 0.5)]
    packing = pack_files(sources, 700, measure, max_files=5, min_files=1, context=2)
    wide = next(f for f in packing.files if f.path == "wide.py")
    assert wide.mode == "outline"
    assert all(lines[n - 1].startswith("def ") for a, b in wide.ranges for n in range(a, b + 1))


def test_max_files_and_omitted_names(measure: FormatMeasure) -> None:
    sources = [source(f"f{i}.py", py_file(f"f{i}", 1), 1.0 - i / 10) for i in range(6)]
    packing = pack_files(sources, 20000, measure, max_files=3, min_files=1, context=3)
    assert [f.path for f in packing.files] == ["f0.py", "f1.py", "f2.py"]
    assert [o.path for o in packing.omitted] == ["f3.py", "f4.py", "f5.py"]
    assert {o.reason for o in packing.omitted} == {"past max_files"}


def test_pinned_lines_go_first_or_fail_clearly(measure: FormatMeasure) -> None:
    readme = [f"Readme line {i} with some words in it" for i in range(200)]
    pinned = FileSource(Candidate("README.md", score=2.0, required=True), readme, pinned=((1, 20),))
    packing = pack_files(
        [pinned, source("a.py", py_file("a", 5), 1.0)], 800, measure, max_files=5, min_files=1, context=3
    )
    assert packing.files[0].ranges[0][0] == 1 and packing.files[0].ranges[0][1] >= 20
    with pytest.raises(BudgetError, match=r"README\.md"):
        pack_files(
            [FileSource(pinned.candidate, readme, pinned=((1, 200),))],
            300,
            measure,
            max_files=5,
            min_files=1,
            context=3,
        )


def test_zero_budget_packs_nothing(measure: FormatMeasure) -> None:
    only = [source("a.py", py_file("a", 2), 1.0)]
    packing = pack_files(only, 0, measure, max_files=5, min_files=1, context=3)
    assert packing.files == [] and packing.used == 0
    assert [o.path for o in packing.omitted] == ["a.py"]


@pytest.mark.parametrize("fmt", ["markdown", "xml", "json"])
def test_estimate_tracks_the_rendered_blocks(fmt: str) -> None:
    counter = get_counter()
    fm = FormatMeasure(fmt, counter)
    sources = [
        source(f"m{i}.py", py_file(f"m{i}", 25), 1.0 - i * 0.2, [Focus(40, 60, 1.0, "x")]) for i in range(3)
    ]
    packing = pack_files(sources, 1200, fm, max_files=5, min_files=2, context=3)
    real = sum(counter.count(fm.file_block(f)) for f in packing.files)
    assert packing.used <= 1200
    assert abs(real - packing.used) <= 0.05 * packing.used + 10


def test_files_join_in_rank_order_but_unpackable_ones_are_skipped(measure: FormatMeasure) -> None:
    giant_line = ["x = '" + "word " * 3000 + "'"]  # one line of ~3000 tokens: cannot fit at all
    sources = [
        source("giant.py", giant_line, 1.0, [Focus(1, 1, 1.0, "named")]),
        source("big.py", py_file("big", 60), 0.9, [Focus(300, 340, 1.0, "named")]),
        source("small.py", py_file("small", 1), 0.1),
    ]
    packing = pack_files(sources, 600, measure, max_files=5, min_files=1, context=3)
    assert [f.path for f in packing.files][:1] == ["big.py"]
    assert "giant.py" in [o.path for o in packing.omitted]
    ranks = {s.candidate.path: i for i, s in enumerate(sources)}
    packed = [ranks[f.path] for f in packing.files]
    assert packed == sorted(packed)
    assert all(ranks[o.path] > max(packed) or o.path == "giant.py" for o in packing.omitted)


def test_a_file_with_many_spans_shares_its_weight(measure: FormatMeasure) -> None:
    # Two equally scored files: one lights up twelve functions, the other one. The single span
    # of the second (longer than its first slice) is as likely to hold the fix as all twelve of
    # the first together, so it goes in whole before the first file's other spans fill the budget.
    many = py_file("many", 40)
    spans = [Focus(3 + 10 * k, 11 + 10 * k, 1.0, f"hit {k}") for k in range(12)]
    one = py_file("one", 40)
    target = Focus(203, 252, 0.9, "defines one_20 to one_24")
    sources = [source("many.py", many, 1.0, spans), source("one.py", one, 1.0, [target])]
    packing = pack_files(sources, 1200, measure, max_files=5, min_files=1, context=1)
    second = next(f for f in packing.files if f.path == "one.py")
    assert all(covered(second.ranges, line) for line in range(target.start, target.end + 1))


def js_file(name: str, functions: int, body: int = 6) -> list[str]:
    lines = ["import fs from 'fs';", ""]
    for i in range(functions):
        lines += [f"function {name}_{i}(value) {{", "  if (value) {"]
        lines += [f"    value = fs.join(String(value), '{name}{i}_{k}');" for k in range(body)]
        lines += ["  }", "  return value;", "}", ""]
    return lines


def test_a_run_takes_the_closing_brackets_and_blank_lines_below_it(measure: FormatMeasure) -> None:
    lines = js_file("a", 40)
    start = 2 + 3 * 12 + 1  # `function a_3(value) {` (12 lines a function)
    body_end = start + 7  # its last `value = …` line; then `  }`, `  return value;`, `}`, ``
    packer = Packer([source("a.js", lines, 1.0)], measure, max_files=1, min_files=1, context=0)
    plan = packer.plans[0]
    packer.limit = 10_000
    assert packer.take(plan, range(start, body_end + 1))
    packer._close_runs(plan)
    assert body_end + 1 in plan.chosen and body_end + 2 not in plan.chosen  # `  }`, not `return`
    assert packer.take(plan, [body_end + 2])
    packer._close_runs(plan)
    assert {body_end + 3, body_end + 4} <= plan.chosen and body_end + 5 not in plan.chosen
    # Nothing past the budget: a run whose closing line does not fit stays open.
    other = Packer([source("a.js", lines, 1.0)], measure, max_files=1, min_files=1, context=0)
    other.limit = 10_000
    assert other.take(other.plans[0], range(start, body_end + 1))
    other.limit = int(other.used)
    other._close_runs(other.plans[0])
    assert body_end + 1 not in other.plans[0].chosen


def test_required_files_pay_no_join_charge(measure: FormatMeasure) -> None:
    # Ten required files that together fill the budget: the charge for a file's place applies to
    # the files the packer chooses, not to the ones the profile requires.
    sources = [
        FileSource(Candidate(f"req{i}.py", score=2.0, reasons=["required"]), py_file(f"r{i}", 1), ((1, 12),))
        for i in range(10)
    ]
    exact = Packer(sources, measure, max_files=20, min_files=1, context=2)
    needed = exact.pack(100_000).used
    packing = Packer(sources, measure, max_files=20, min_files=1, context=2).pack(int(needed) + 1)
    assert [f.path for f in packing.files] == [f"req{i}.py" for i in range(10)]
    assert packing.used <= needed + 1 < needed + 10 * JOIN_TOKENS


def test_the_code_below_a_long_docstring_comes_before_its_prose(measure: FormatMeasure) -> None:
    params = [f"    arg_{k} : int\n        What argument {k} of the loader means." for k in range(30)]
    body = [f"    handle_{k} = open(path + '{k}', mode)" for k in range(12)]
    lines = [
        "def load(path, mode):",
        '    """Load ``path``.',
        "",
        "    Parameters",
        "    ----------",
        *"\n".join(params).split("\n"),
        '    """',
        *body,
        "    return handle_0",
    ]
    code = range(len(lines) - len(body), len(lines) + 1)
    focus = [Focus(1, len(lines), 1.0, "defines load")]
    sources = [source("loader.py", lines, 1.0, focus)]
    sources += [source(f"other{i}.py", py_file(f"o{i}", 4), 0.5) for i in range(3)]
    packing = pack_files(sources, 600, measure, max_files=4, min_files=1, context=3)
    ranges = packing.files[0].ranges
    assert packing.files[0].mode == "excerpt"
    # Every code line and the docstring's summary are in; the parameter prose gives way.
    assert all(covered(ranges, n) for n in [1, 2, *code])
    assert not all(covered(ranges, n) for n in range(6, len(lines) - len(body)))


def test_a_short_gap_is_filled_when_its_lines_cost_less_than_the_gap() -> None:
    # JSON pays for a gap between two ranges with a list boundary and the second range's entry,
    # for a gap at the end with the boundary alone: two short lines are worth filling only inside.
    measure = FormatMeasure("json", get_counter())
    lines = ["def a():", "    return 1", "# x", "# y", "def b():", "    return 2", "# x", "# y"]
    packer = Packer([source("g.py", lines, 1.0)], measure, max_files=1, min_files=1, context=0)
    plan = packer.plans[0]
    packer.limit = 10_000
    assert packer.take(plan, [1, 2, 5, 6])
    short = packer.line_cost(plan, 3) + packer.line_cost(plan, 4)
    assert measure.marker_cost() < short <= measure.marker_cost() + measure.range_cost()
    packer._fill_gaps(plan)
    assert plan.chosen == {1, 2, 3, 4, 5, 6}


class CountingMeasure(FormatMeasure):
    """The real costs, and how many texts were counted."""

    def __init__(self, fmt: str) -> None:
        self.texts = 0
        super().__init__(fmt, get_counter())

    def text_cost(self, text: str) -> int:
        self.texts += 1
        return super().text_cost(text)


class EveryLineCounted(Packer):
    """The fill as it was: every line it tries is counted, even one whose run or join alone is
    over what is left."""

    def take_line(self, plan: Any, number: int) -> bool:
        if number in plan.chosen:
            return True
        if not plan.chosen and not self._next_in_line(plan):
            return False
        return self._commit(plan, (number,), self._step(plan, plan.chosen, number), self.limit)


@pytest.mark.parametrize("fmt", ["json", "markdown"])
def test_the_fill_skips_lines_it_cannot_take_without_counting_them(fmt: str) -> None:
    sources = [
        source(f"m{i}.py", py_file(f"m{i}", 40), 1.0 - i * 0.1, [Focus(60 + 7 * i, 64 + 7 * i, 1.0, "hit")])
        for i in range(8)
    ]

    def pair() -> tuple[CountingMeasure, Packer, CountingMeasure, Packer]:
        fast, slow = CountingMeasure(fmt), CountingMeasure(fmt)
        return (fast, Packer(sources, fast, max_files=10, min_files=1, context=3),
                slow, EveryLineCounted(sources, slow, max_files=10, min_files=1, context=3))  # fmt: skip

    _, packer, _, reference = pair()
    for budget in (300, 700, 1500, 4000):
        got, expected = packer.pack(budget), reference.pack(budget)
        assert [(f.path, f.ranges) for f in got.files] == [(f.path, f.ranges) for f in expected.files]
        assert got.used == expected.used
    # Once the budget is nearly spent the old fill counted the block of every relevant line left.
    fast, packer, slow, reference = pair()
    packer.pack(1500)
    reference.pack(1500)
    assert fast.texts < slow.texts * 0.6
