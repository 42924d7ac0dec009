"""Leave-repositories-out CV of a setting chosen on a grid of full builds.

A weight that fit.py's metrics cannot see (it changes how a file's room is shared, not which
definition ranks first) is chosen on packages: one harness results file per grid value. Choosing
the best on the same repositories it is then scored on is optimistic; this replays the choice per
fold (``bench/fit.py``'s folds over repositories): the grid value with the best macro ``--metric``
on the other folds' repositories, scored on the held-out ones. It prints each value's in-sample
macro averages, each fold's held-out numbers, the value chosen per fold and the CV estimate.

    python bench/cv_grid.py 0=/tmp/w0.jsonl 0.75=/tmp/w075.jsonl 1.5=/tmp/w15.jsonl [--folds 5]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fit import folds  # noqa: E402
from macro import load, macro  # noqa: E402

Records = list[dict[str, object]]


class _Repo:
    """What ``fit.folds`` reads of a group: its repository."""

    def __init__(self, repo: str) -> None:
        self.repo = repo.lower()


def _of(recs: Records, repos: set[str]) -> Records:
    return [r for r in recs if str(r["repo"]).lower() in repos]


def main(argv: list[str] | None = None) -> int:
    """Print the grid's in-sample and cross-validated numbers; returns 0 (2 on a bad argument)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", metavar="VALUE=RESULTS.jsonl")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--metric", default="line_recall", help="what the choice maximises")
    a = ap.parse_args(argv)
    runs: dict[str, Records] = {}
    for item in a.runs:
        value, sep, path = item.partition("=")
        if not sep or not value or not Path(path).is_file():
            ap.error(f"{item!r}: expected VALUE=RESULTS.jsonl naming an existing results file")
        runs[value] = load(Path(path))
    # Every value judged on the instances every run scored.
    common = set.intersection(*({str(r["instance_id"]) for r in recs} for recs in runs.values()))
    runs = {k: [r for r in v if str(r["instance_id"]) in common] for k, v in runs.items()}
    first = next(iter(runs.values()))
    repos = {str(r["repo"]).lower() for r in first}
    # One group per instance, as fit.py counts them: folds of about equal instance counts.
    held_out = folds([_Repo(str(r["repo"])) for r in first], a.folds)

    def score(value: str, among: set[str], metric: str = a.metric) -> float:
        return macro(_of(runs[value], among), metric)[1]

    print(f"{len(common)} instances, {len(repos)} repositories; macro over repositories")
    for value in runs:
        print(f"  {value:<10} file_all {score(value, repos, 'file_all'):.3f}  line_recall "
              f"{score(value, repos, 'line_recall'):.3f}")
    chosen: list[str] = []
    cv: Records = []
    for k, held in enumerate(held_out):
        rest = repos - held
        cells = "  ".join(f"{v}: {score(v, held):.3f}" for v in runs)
        print(f"  fold {k} ({len(held)} repositories held out) {a.metric}: {cells}")
        best = max(runs, key=lambda v: score(v, rest))
        chosen.append(best)
        cv += _of(runs[best], held)
    print(f"chosen per fold: {', '.join(chosen)}")
    print(f"leave-repos-out CV: file_all {macro(cv, 'file_all')[1]:.3f}  "
          f"line_recall {macro(cv, 'line_recall')[1]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
