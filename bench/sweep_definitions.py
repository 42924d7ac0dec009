"""Choose one definition weight by a grid, judged by ``bench/fit.py``'s own ranking metrics
(recall@1, recall@3: the share of a gold file's gold definitions among its best 1 / 3, macro over
repositories), with leave-repositories-out CV on fit.py's folds.

``bench/fit.py`` fits every definition weight at once with a softmax loss; a weight whose feature
breaks ties among definitions with other evidence (the recent-change feature) can win the loss and
still lose the ranking's top places. This picks such a weight on the metric itself: per fold, the
grid value best on the other folds' repositories, scored on the held-out ones.

    python bench/sweep_definitions.py /tmp/feat.jsonl --weight recent --grid 0,0.1,0.2,0.4,0.7,1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from fit import Group, _records, definition_groups, folds, macro, metrics  # noqa: E402

CUTOFFS = (1, 3)
CHOSEN_BY = ("recall@1 repos", "recall@3 repos")


def scores(groups: list[Group], w: np.ndarray) -> dict[str, float]:
    """fit.py's metrics of ``groups`` under weights ``w``, macro over repositories and languages."""
    return macro([(g, metrics(g, w, CUTOFFS)) for g in groups])


def line(label: str, m: dict[str, float]) -> str:
    return f"{label:<28} " + "  ".join(f"{k} {m[k]:.3f}" for k in CHOSEN_BY)


def main(argv: list[str] | None = None) -> int:
    """Print the grid's in-sample scores and the CV estimate; returns 0."""
    from ctxaction.rank.weights import definition_weights

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("features", type=Path)
    ap.add_argument("--weight", required=True)
    ap.add_argument("--grid", required=True, help="comma-separated values")
    ap.add_argument("--folds", type=int, default=5)
    a = ap.parse_args(argv)
    grid = [float(x) for x in a.grid.split(",")]
    shipped = definition_weights()
    names = sorted(shipped)
    if a.weight not in names:
        ap.error(f"--weight {a.weight!r} is not a definition weight ({', '.join(names)})")
    groups = definition_groups(_records(a.features), names)
    at = names.index(a.weight)

    def weights(value: float) -> np.ndarray:
        w = np.array([shipped[n] for n in names])
        w[at] = value
        return w

    print(f"{len(groups)} gold files, {len({g.repo for g in groups})} repositories")
    for v in grid:
        print(line(f"  {a.weight}={v:g}", scores(groups, weights(v))))
    held_scored: list[tuple[Group, dict[str, float]]] = []
    chosen = []
    for held in folds(groups, a.folds):
        train = [g for g in groups if g.repo not in held]
        best = max(grid, key=lambda v: sum(scores(train, weights(v))[k] for k in CHOSEN_BY))
        chosen.append(best)
        w = weights(best)
        held_scored += [(g, metrics(g, w, CUTOFFS)) for g in groups if g.repo in held]
    print(f"chosen per fold: {chosen}")
    print(line("leave-repos-out CV", macro(held_scored)))
    print(line(f"shipped ({a.weight}={shipped[a.weight]:g})", scores(groups, weights(shipped[a.weight]))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
