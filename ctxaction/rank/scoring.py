"""Phase 2: combine each candidate's normalized signals into one score with the profile's weights.

Pure functions: no git, no files. ``score = prior × Σ weight[signal] × value`` where every value is in
0..1 and ``prior`` discounts tests, docs and data files that no signal named explicitly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ctxaction.model import Candidate
from ctxaction.rank.weights import file_weights

# Weight names a profile's ``scoring`` mapping may set, with the defaults used for any it leaves out:
# fitted by bench/fit.py on the training set and shipped as plain numbers (see rank/weights.py).
# pr_changed: the PR's own changed files; stack_frame: a traceback frame inside the file;
# path_mention: the text names the file; symbol_definition: the file defines a name the text uses;
# error_message: holds a quoted message; issue_reference: commits naming the issue touched it;
# history_mention: commits whose message names the text's identifiers; module_mention: a dotted
# module path resolves to it; keyword_match: BM25 of the keywords; name_match: defines names holding
# the keywords; symbol_use: uses named identifiers; callee: defines what a named definition calls;
# import_distance, co_change, test_proximity: neighbours of strong candidates; blame: changed by the
# commits behind named lines; change_frequency: changed often lately; title_scope: a path part is
# the component the title names ("linter: …").
DEFAULT_WEIGHTS: dict[str, float] = file_weights()
# A placement, not evidence: most of the newest commits touch a habit file (a changelog), so it is
# offered among the best files whatever the task names: its score is raised to ``habit`` × the
# score of the HABIT_PLACE-th best (0 switches it off). Its focus is small (where the latest
# commits changed it), so the place costs the runners-up little.
PLACED = "habit"
HABIT_PLACE = 4


def merged_weights(overrides: Mapping[str, float] | None) -> dict[str, float]:
    """DEFAULT_WEIGHTS with a profile's ``scoring`` values laid over them."""
    weights = dict(DEFAULT_WEIGHTS)
    weights.update({k: float(v) for k, v in (overrides or {}).items()})
    return weights


def raw_score(signals: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """Σ weight × value over the signals (values clamped to 0..1; unknown signals and the
    placement ``habit`` weigh 0)."""
    parts = (weights.get(n, 0.0) * min(1.0, max(0.0, v)) for n, v in signals.items() if n != PLACED)
    return sum(parts)


def score(candidates: Iterable[Candidate], weights: Mapping[str, float]) -> list[Candidate]:
    """Set each candidate's ``score`` and return them best first (ties by path, so stable)."""
    out = list(candidates)
    for c in out:
        c.score = _evidence_score(c, weights)
    out.sort(key=lambda c: (-c.score, c.path))
    evidence = [c for c in out if PLACED not in c.signals]
    if evidence and len(evidence) < len(out):
        floor = round(weights.get(PLACED, 0.0) * evidence[min(HABIT_PLACE, len(evidence)) - 1].score, 6)
        for c in out:
            if PLACED in c.signals and c.score < floor:
                c.score = floor
        # At the floor a habit file follows the file whose score it took.
        out.sort(key=lambda c: (-c.score, PLACED in c.signals, c.path))
    return out


def _evidence_score(candidate: Candidate, weights: Mapping[str, float]) -> float:
    return round(candidate.prior * raw_score(candidate.signals, weights), 6)


def lifted(candidate: Candidate, weights: Mapping[str, float]) -> bool:
    """Whether the habit placement, not the evidence, gave ``candidate`` its score."""
    return PLACED in candidate.signals and candidate.score > _evidence_score(candidate, weights)


def parts(candidate: Candidate, weights: Mapping[str, float]) -> dict[str, float]:
    """Each signal's contribution to the score (for ``ctxaction explain``), largest first; a file
    the habit placement lifted shows the lift as ``habit``, so the parts add up to its score."""
    contrib = {
        name: round(candidate.prior * weights.get(name, 0.0) * min(1.0, max(0.0, v)), 4)
        for name, v in candidate.signals.items()
        if name != PLACED
    }
    if lifted(candidate, weights):
        contrib[PLACED] = round(candidate.score - _evidence_score(candidate, weights), 4)
    return dict(sorted(contrib.items(), key=lambda kv: -kv[1]))
