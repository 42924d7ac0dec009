"""What each line of a candidate is worth to the packer: relevance, core slice, file weights."""

from __future__ import annotations

import itertools

import pytest

from ctxaction.model import Candidate, Focus
from ctxaction.pack import excerpt
from ctxaction.pack.lines import (
    CONTEXT_KEEP,
    CORE_CONTEXT,
    PROSE_RELEVANCE,
    SIGNATURE_RELEVANCE,
    FileSource,
    anchor_distance,
    core_lines,
    discounted,
    file_weight,
    relevance,
    spread,
)


def module(functions: int, body: int = 8) -> list[str]:
    """A Python module of ``functions`` functions, each ``body + 2`` lines and a blank line."""
    lines: list[str] = []
    for i in range(functions):
        lines.append(f"def step_{i}(value):")
        lines += [f"    value = value + {k}" for k in range(body)]
        lines += ["    return value", ""]
    return lines


def source(lines: list[str], focus: list[Focus] | None = None) -> FileSource:
    return FileSource(Candidate("pkg/steps.py", score=1.0, focus=focus or []), lines)


def test_focus_span_is_full_weight_and_context_fades_with_distance() -> None:
    lines = module(10)  # 110 lines
    rel, signatures = relevance(source(lines, [Focus(50, 52, 0.8, "named")]), context=3)
    assert rel[49:52] == [0.8, 0.8, 0.8]
    # Within the context the lines keep CONTEXT_KEEP of the span's weight, on both sides.
    assert rel[46] == pytest.approx(0.8 * CONTEXT_KEEP)
    assert rel[54] == pytest.approx(0.8 * CONTEXT_KEEP)
    # Past it the value halves every 2 * context lines.
    assert rel[52 + 3 + 6 - 1] == pytest.approx(0.8 * CONTEXT_KEEP * 0.5)
    below = [rel[n - 1] for n in range(53, 111) if n not in signatures]
    assert all(a >= b for a, b in itertools.pairwise(below))
    assert below[-1] < 0.8 * CONTEXT_KEEP * 0.01


def test_lines_far_from_every_span_are_worth_nothing_but_signatures() -> None:
    lines = module(30)  # 330 lines
    rel, signatures = relevance(source(lines, [Focus(1, 3, 1.0, "named")]), context=3)
    assert 12 in signatures and lines[11].startswith("def step_1(")
    far_def = next(n for n in sorted(signatures) if n > 300)
    assert rel[far_def - 1] == SIGNATURE_RELEVANCE
    assert rel[far_def] == 0.0  # the body line after a far signature


def test_focus_outside_the_file_and_weights_out_of_range_are_clamped() -> None:
    lines = module(2)  # 22 lines
    spans = [Focus(20, 90, 3.0, "past the end"), Focus(40, 50, 1.0, "gone")]
    rel, _ = relevance(source(lines, spans), context=2)
    assert len(rel) == len(lines)
    assert rel[19:22] == [1.0, 1.0, 1.0]


def test_anchor_distance_counts_to_the_nearest_focus_start() -> None:
    assert anchor_distance(6, [2, 5]) == [1, 0, 1, 1, 0, 1]
    # Without focus, the distance is the line number: the head of a file first.
    assert anchor_distance(3, []) == [1, 2, 3]
    # Starts outside the file are ignored.
    assert anchor_distance(3, [9]) == [0, 1, 2]


def test_file_weight_is_the_squared_score_ratio() -> None:
    assert file_weight(5.0, 10.0) == pytest.approx(0.25)
    assert file_weight(10.0, 10.0) == 1.0
    assert file_weight(-1.0, 10.0) == 0.0
    assert file_weight(3.0, 0.0) == 1.0  # no best score to compare with


def test_spread_damps_files_with_many_strong_lines() -> None:
    one_span = [1.0] * 4 + [0.0] * 96
    many = [1.0] * 64 + [0.0] * 36
    assert spread(one_span) == pytest.approx(2.0)
    assert spread(many) == pytest.approx(8.0)
    assert spread([0.0] * 10) == 1.0  # never below 1: a weak file's lines are not inflated


def test_core_is_the_strongest_span_with_context_capped_at_size() -> None:
    lines = module(20)  # 220 lines
    focus = [Focus(30, 33, 0.5, "keyword"), Focus(120, 124, 0.9, "defines"), Focus(150, 151, 0.9, "frame")]
    src = source(lines, focus)
    _, signatures = relevance(src, context=3)
    # Equal weights: the shorter span wins.
    assert core_lines(src, signatures) == list(range(150 - CORE_CONTEXT, 151 + CORE_CONTEXT + 1))
    assert core_lines(src, signatures, size=3) == [148, 149, 150]


def test_core_without_focus_is_the_outline_or_the_head() -> None:
    lines = module(10)
    src = source(lines)
    _, signatures = relevance(src, context=3)
    assert core_lines(src, signatures, size=6) == sorted(signatures)[:3]
    plain = source(["x = 1"] * 40)
    assert core_lines(plain, frozenset(), size=10) == [1, 2, 3, 4, 5]


def documented(body: int = excerpt.DOC_MIN_LINES) -> list[str]:
    """A function whose docstring has a summary and ``body`` lines of parameter prose."""
    return [
        "def load(path, mode):",
        '    """Load ``path``.',
        "",
        *[f"    arg_{k}: what argument {k} means." for k in range(body)],
        '    """',
        "    with open(path, mode) as handle:",
        "        return handle.read()",
    ]


def test_docstring_prose_keeps_a_share_of_its_relevance_and_the_core_skips_it() -> None:
    lines = documented()
    src = source(lines, [Focus(1, len(lines), 1.0, "named")])
    prose = frozenset(range(4, len(lines) - 1))  # the parameter lines and the closing quotes
    assert excerpt.docstring_bodies(lines, "pkg/steps.py") == prose
    plain, signatures = relevance(src, context=3)
    lowered = discounted(plain, prose)
    for n in range(1, len(lines) + 1):
        expected = plain[n - 1] * (PROSE_RELEVANCE if n in prose else 1.0)
        assert lowered[n - 1] == pytest.approx(expected)
    core = core_lines(src, signatures, size=6, prose=prose)
    assert core == [1, 2, 3, len(lines) - 1, len(lines)]
    assert core_lines(src, signatures, size=6) == [1, 2, 3, 4, 5, 6]
