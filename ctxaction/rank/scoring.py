"""Phase 2: combine each candidate's normalized signals into one score with the profile's weights.

Pure functions: no git, no files. ``score = prior × Σ weight[signal] × value`` where every value is in
0..1 and ``prior`` discounts tests, docs and data files that no signal named explicitly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ctxaction.model import Candidate

# Weight names a profile's ``scoring`` mapping may set, with the defaults used for any it leaves out.
DEFAULT_WEIGHTS: dict[str, float] = {
    "pr_changed": 3.0,  # the PR's own changed files
    "stack_frame": 1.2,  # a traceback frame inside the file
    "path_mention": 1.0,  # the text names the file (or file:line)
    "symbol_definition": 1.0,  # the file defines a class/function the text names
    "error_message": 0.9,  # the file holds an error/warning message quoted in the text
    "issue_reference": 1.0,  # commits naming the issue number touched the file
    "history_mention": 0.2,  # commits whose message names the text's identifiers touched the file
    "module_mention": 0.7,  # a dotted module path in the text resolves to the file
    "keyword_match": 0.6,  # BM25 of the text's keywords over the file (normalized to the best file)
    "name_match": 0.4,  # defines functions/classes whose names contain the text's keywords
    "symbol_use": 0.4,  # the file uses identifiers the text names (config options, functions)
    "callee": 0.3,  # defines a function that a definition the text names calls (one hop)
    "import_distance": 0.2,  # imports or is imported by a strong candidate
    "blame": 0.3,  # changed by the commits that last touched lines the text names
    "co_change": 0.1,  # changed together with strong candidates
    "test_proximity": 0.2,  # test of a strong candidate, or source of a named test
    "change_frequency": 0.1,  # changed often within the profile's history window
}


def merged_weights(overrides: Mapping[str, float] | None) -> dict[str, float]:
    """DEFAULT_WEIGHTS with a profile's ``scoring`` values laid over them."""
    weights = dict(DEFAULT_WEIGHTS)
    weights.update({k: float(v) for k, v in (overrides or {}).items()})
    return weights


def raw_score(signals: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """Σ weight × value over the signals (values clamped to 0..1; unknown signals weigh 0)."""
    return sum(weights.get(name, 0.0) * min(1.0, max(0.0, value)) for name, value in signals.items())


def score(candidates: Iterable[Candidate], weights: Mapping[str, float]) -> list[Candidate]:
    """Set each candidate's ``score`` and return them best first (ties by path, so stable)."""
    out = list(candidates)
    for c in out:
        c.score = round(c.prior * raw_score(c.signals, weights), 6)
    out.sort(key=lambda c: (-c.score, c.path))
    return out


def parts(candidate: Candidate, weights: Mapping[str, float]) -> dict[str, float]:
    """Each signal's contribution to the score (for ``ctxaction explain``), largest first."""
    contrib = {
        name: round(candidate.prior * weights.get(name, 0.0) * min(1.0, max(0.0, v)), 4)
        for name, v in candidate.signals.items()
    }
    return dict(sorted(contrib.items(), key=lambda kv: -kv[1]))
