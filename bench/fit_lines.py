"""Search the definition weights for the lines a package can hold, with leave-repositories-out CV.

``bench/fit.py --only definitions`` fits the weights of a definition's evidence points by where
the gold definitions rank (softmax or pairs), and its fits rank them better (recall@3 up) but
lose lines in the packages: the weights that rank a gold definition higher also favour long
definitions, which spend the budget. This script scores weights by what a file's share of the
budget would hold instead. In every gold file of the dump, the definitions with evidence are
taken in score order while their lines fit in ``--lines`` (a long definition, past
``focus.MAX_BODY_LINES``, costs and shows only its head), and the score is the share of the
file's gold lines they hold, averaged over repositories. The weights are searched one at a time on
a grid of factors (coordinate ascent, two passes) from the shipped ones, and reported as:

* the shipped weights,
* searched on every repository (optimistic),
* leave-repositories-out CV (searched on four folds of repositories, scored on the fifth).

A simulation, not the packer (no fading context, no windows around evidence, one budget for every
file): it says whether a weight change is worth a dump and a replay, not what the packages gain.

    python bench/fit_lines.py FEATURES.jsonl [--lines 150] [--folds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from fit import SHIPPED, _records, definition_matrix, folds

from ctxaction.rank.focus import HEAD_LINES, MAX_BODY_LINES

FACTORS = (0.0, 0.5, 0.75, 1.33, 2.0)
FROM_ZERO = (0.25, 0.5)  # a weight at 0 has no scale to multiply: these are tried instead
PASSES = 2
LONG_COST = 40  # lines a long definition's head and evidence windows take, about


@dataclass
class GoldFile:
    """One gold file's definitions with evidence features, each one's cost in lines and the gold
    lines it would show."""

    repo: str
    x: np.ndarray
    starts: list[int]
    costs: list[int]
    shows: list[frozenset[int]]
    n_gold: int


def gold_files(records: Sequence[dict[str, Any]], names: Sequence[str]) -> list[GoldFile]:
    """Every gold file of the dump with definitions and gold lines."""
    out = []
    for rec in records:
        for cand in rec.get("candidates") or []:
            gold = set(rec["gold"].get(cand["path"]) or ())
            defs = [d for d in cand.get("definitions") or [] if d["kind"] != "variable"]
            if not gold or not defs:
                continue
            costs, shows = [], []
            for d in defs:
                size = d["end"] - d["start"] + 1
                end = d["end"] if size <= MAX_BODY_LINES else d["start"] + HEAD_LINES - 1
                costs.append(size if size <= MAX_BODY_LINES else LONG_COST)
                shows.append(frozenset(line for line in gold if d["start"] <= line <= end))
            x = definition_matrix(defs, names)
            out.append(GoldFile(rec["repo"].lower(), x, [d["start"] for d in defs], costs, shows, len(gold)))
    return out


def held(f: GoldFile, w: np.ndarray, lines: int) -> float:
    """Share of ``f``'s gold lines shown by its best definitions under ``w`` within ``lines``."""
    score = f.x @ w
    ranked = sorted(
        (i for i in range(len(score)) if score[i] > 0),
        key=lambda i: (-round(float(score[i]), 6), f.starts[i]),
    )
    used, shown = 0, set[int]()
    for i in ranked:
        if used + f.costs[i] <= lines:
            used += f.costs[i]
            shown |= f.shows[i]
    return len(shown) / f.n_gold


def macro(files: Sequence[GoldFile], w: np.ndarray, lines: int) -> float:
    """:func:`held` averaged over each repository's gold files, then over repositories."""
    by_repo: dict[str, list[float]] = defaultdict(list)
    for f in files:
        by_repo[f.repo].append(held(f, w, lines))
    return statistics.fmean(statistics.fmean(v) for v in by_repo.values())


def search(files: Sequence[GoldFile], w0: np.ndarray, lines: int) -> np.ndarray:
    """Coordinate ascent from ``w0``: each weight in turn set to its best value on the grid."""
    w: np.ndarray = w0.copy()
    best = macro(files, w0, lines)
    for _ in range(PASSES):
        for i in range(len(w)):
            for value in sorted({w[i] * f for f in FACTORS} | (set(FROM_ZERO) if w[i] == 0 else set())):
                trial = w.copy()
                trial[i] = value
                got = macro(files, trial, lines)
                if got > best + 1e-4:
                    w, best = trial, got
    return w


def main(argv: list[str] | None = None) -> int:
    """Report the shipped, searched and cross-validated scores. Returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("features", type=Path)
    ap.add_argument("--lines", type=int, default=150, help="a gold file's room, in lines")
    ap.add_argument("--folds", type=int, default=5)
    a = ap.parse_args(argv)

    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))["definitions"]
    names = sorted(shipped)
    files = gold_files(_records(a.features), names)
    w0 = np.array([shipped[n] for n in names])
    print(f"{len(files)} gold files, {len({f.repo for f in files})} repositories, room {a.lines} lines")
    print(f"shipped weights                 {macro(files, w0, a.lines):.4f}")
    w_all = search(files, w0, a.lines)
    print(f"searched on all (optimistic)    {macro(files, w_all, a.lines):.4f}")
    by_repo: dict[str, list[float]] = defaultdict(list)
    for fold in folds(files, a.folds):
        w = search([f for f in files if f.repo not in fold], w0, a.lines)
        for f in files:
            if f.repo in fold:
                by_repo[f.repo].append(held(f, w, a.lines))
    cv = statistics.fmean(statistics.fmean(v) for v in by_repo.values())
    print(f"leave-repos-out CV ({a.folds} folds)    {cv:.4f}")
    for n, before, after in zip(names, w0, w_all, strict=True):
        print(f"  {n:<12} {before:>6.3f} -> {after:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
