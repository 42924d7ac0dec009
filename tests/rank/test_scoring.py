"""Scoring is a pure function of signals, priors and weights."""

from __future__ import annotations

import pytest

from ctxaction.model import Candidate
from ctxaction.rank.scoring import DEFAULT_WEIGHTS, merged_weights, parts, raw_score, score
from ctxaction.rank.weights import file_weights


def test_weighted_sum_with_prior_and_clamping() -> None:
    weights = {"keyword_match": 0.5, "path_mention": 2.0}
    c = Candidate("a.py", signals={"keyword_match": 0.4, "path_mention": 1.5, "unknown": 1.0}, prior=0.5)
    assert raw_score(c.signals, weights) == pytest.approx(0.5 * 0.4 + 2.0 * 1.0)
    [scored] = score([c], weights)
    assert scored.score == pytest.approx(0.5 * (0.2 + 2.0))
    assert parts(scored, weights) == {"path_mention": 1.0, "keyword_match": 0.1, "unknown": 0.0}


def test_order_best_first_ties_by_path() -> None:
    weights = {"keyword_match": 1.0}
    cands = [
        Candidate(p, signals={"keyword_match": v}) for p, v in (("b.py", 0.5), ("a.py", 0.5), ("c.py", 0.9))
    ]
    assert [c.path for c in score(cands, weights)] == ["c.py", "a.py", "b.py"]


def test_profile_weights_override_defaults() -> None:
    merged = merged_weights({"keyword_match": 0.1, "custom": 2})
    assert merged["keyword_match"] == 0.1
    assert merged["custom"] == 2.0
    assert merged["stack_frame"] == DEFAULT_WEIGHTS["stack_frame"]
    assert merged_weights(None) == DEFAULT_WEIGHTS


def test_default_weights_are_the_shipped_fitted_ones_and_a_prs_files_lead() -> None:
    assert file_weights() == DEFAULT_WEIGHTS
    # The training set holds only issues, so pr_changed keeps the lead the prior gave it.
    pr = Candidate("pr.py", signals={"pr_changed": 1.0})
    for name in DEFAULT_WEIGHTS:
        if name != "pr_changed":
            other = Candidate("other.py", signals={name: 1.0})
            assert score([other, pr], DEFAULT_WEIGHTS)[0].path == "pr.py", name
    framed = Candidate("framed.py", signals={"stack_frame": 1.0})
    assert score([Candidate("none.py"), framed], DEFAULT_WEIGHTS)[0].path == "framed.py"


def test_board_reasons_do_not_depend_on_the_order_finders_report_them() -> None:
    from ctxaction.rank.board import Board

    def reasons(order: list[tuple[str, str, float]]) -> list[str]:
        board = Board({"a.py"})
        for signal, reason, value in order:
            board.add("a.py", signal, value, reason)
        (cand,) = board.candidates()
        return cand.reasons

    found = [
        ("keyword_match", "keywords: x", 0.5),
        ("symbol_use", "uses Y", 0.5),
        ("path_mention", "named", 0.9),
    ]
    assert reasons(found) == reasons(found[::-1]) == ["named", "keywords: x", "uses Y"]


def test_a_habit_file_is_placed_after_the_best_files_and_adds_no_evidence() -> None:
    from ctxaction.rank.scoring import HABIT_PLACE, PLACED, lifted

    weights = {"keyword_match": 1.0, PLACED: 1.0}
    cands = [Candidate(f"f{i}.py", signals={"keyword_match": 1.0 - i / 10}) for i in range(6)]
    log = Candidate("CHANGES.md", signals={PLACED: 0.8, "keyword_match": 0.1}, prior=0.3)
    ranked = score([log, *cands], weights)
    assert [c.path for c in ranked][: HABIT_PLACE + 1] == [
        *(f"f{i}.py" for i in range(HABIT_PLACE)),
        "CHANGES.md",
    ]
    assert ranked[HABIT_PLACE].score == ranked[HABIT_PLACE - 1].score
    assert raw_score(log.signals, weights) == pytest.approx(0.1)
    # explain shows the lift as the placement's part: the parts add up to the score.
    assert parts(log, weights)[PLACED] == pytest.approx(ranked[HABIT_PLACE].score - 0.03, abs=1e-4)
    assert sum(parts(log, weights).values()) == pytest.approx(log.score, abs=1e-3)
    # A habit file the evidence ranks higher keeps its place; weight 0 switches the placement off.
    strong = Candidate("NEWS.md", signals={PLACED: 0.8, "keyword_match": 0.95})
    assert [c.path for c in score([strong, *cands], weights)][:2] == ["f0.py", "NEWS.md"]
    assert lifted(log, weights) and not lifted(strong, weights) and not lifted(cands[0], weights)
    assert PLACED not in parts(strong, weights)
    off = score([log, *cands], {"keyword_match": 1.0, PLACED: 0.0})
    assert off[-1].path == "CHANGES.md" and off[-1].score == pytest.approx(0.03)
