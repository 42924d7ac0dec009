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
# commits behind named lines; change_frequency: changed often lately.
DEFAULT_WEIGHTS: dict[str, float] = file_weights()


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
