"""Fit the ranking's signal weights on the training set and report leave-repositories-out CV.

Reads the dump of ``bench/features.py`` (every candidate's signals and the fix's gold files), fits
the weights of ``score = prior × Σ weight[signal] × value`` with a pairwise logistic loss (each gold
file should outscore the non-gold candidates of its instance; every repository weighs the same,
weights kept non-negative so a signal never counts against a file), and reports file-ranking
quality as macro averages over repositories and languages:

* the weights shipped today (as they are in the dump's package),
* the fitted weights, scored on the repositories they were fitted on (optimistic),
* leave-repositories-out cross-validation: fitted on the other folds' repositories, scored on the
  held-out fold's (the honest estimate for a repository never seen).

``--write`` stores the weights fitted on all repositories as the shipped defaults
(``ctxaction/defaults/scoring.json``, plain numbers the package reads without any library).

    python bench/fit.py bench/out/features.jsonl [--folds 5] [--write]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

HERE = Path(__file__).resolve().parent
SHIPPED = HERE.parent / "ctxaction" / "defaults" / "scoring.json"
NEGATIVES = 60  # hardest non-gold candidates (by today's score) paired with each gold file
CUTOFFS = (3, 5, 10)


class Instance:
    """One instance's candidate matrix (prior × signal values) and gold mask."""

    def __init__(self, rec: dict[str, object], names: Sequence[str]) -> None:
        self.id = str(rec["instance_id"])
        self.repo = str(rec["repo"]).lower()
        self.lang = str(rec.get("split") or "?")
        gold = rec.get("gold") or {}
        assert isinstance(gold, dict)
        self.n_gold = len(gold)
        cands = rec.get("candidates") or []
        assert isinstance(cands, list)
        self.paths = [str(c["path"]) for c in cands]
        self.x = np.array(
            [[float(c["prior"]) * min(1.0, max(0.0, float(c["signals"].get(n, 0.0)))) for n in names]
             for c in cands],
            dtype=float,
        ).reshape(len(cands), len(names))
        self.gold = np.array([p in gold for p in self.paths], dtype=bool)


def load(path: Path, known: Sequence[str]) -> tuple[list[Instance], list[str]]:
    """Instances with at least one gold file, and the signal names (``known`` and those seen)."""
    recs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    recs = [r for r in recs if not r.get("error") and r.get("gold")]
    names = sorted({n for r in recs for c in r["candidates"] for n in c["signals"]} | set(known))
    return [Instance(r, names) for r in recs], names


def ranks(inst: Instance, w: np.ndarray) -> list[int]:
    """1-based rank of each gold file among the candidates (ties broken by path, as the package does)."""
    s = inst.x @ w if len(inst.paths) else np.zeros(0)
    order = sorted(range(len(inst.paths)), key=lambda i: (-round(float(s[i]), 6), inst.paths[i]))
    pos = {i: k + 1 for k, i in enumerate(order)}
    return [pos[i] for i in np.flatnonzero(inst.gold)]


def metrics(inst: Instance, w: np.ndarray) -> dict[str, float]:
    """Per instance: share of gold files in the top K, all of them in the top K, 1/first rank."""
    r = ranks(inst, w)
    out: dict[str, float] = {}
    for k in CUTOFFS:
        hit = sum(1 for x in r if x <= k)
        out[f"recall@{k}"] = hit / inst.n_gold
        out[f"all@{k}"] = float(hit == inst.n_gold)
    out["mrr"] = 1.0 / min(r) if r else 0.0
    return out


def macro(scored: list[tuple[Instance, dict[str, float]]]) -> dict[str, float]:
    """Each metric averaged over repositories, then over languages (mean of their repositories)."""
    by_repo: dict[str, list[dict[str, float]]] = defaultdict(list)
    lang: dict[str, str] = {}
    for inst, m in scored:
        by_repo[inst.repo].append(m)
        lang[inst.repo] = inst.lang
    out: dict[str, float] = {}
    for key in scored[0][1]:
        repo_mean = {r: statistics.fmean(m[key] for m in ms) for r, ms in by_repo.items()}
        langs: dict[str, list[float]] = defaultdict(list)
        for r, v in repo_mean.items():
            langs[lang[r]].append(v)
        out[f"{key} repos"] = statistics.fmean(repo_mean.values())
        out[f"{key} langs"] = statistics.fmean(statistics.fmean(v) for v in langs.values())
    return out


def _pairs(insts: list[Instance], w0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Difference vectors gold − negative, and each pair's weight (every repository sums to 1)."""
    per_repo: dict[str, int] = defaultdict(int)
    for inst in insts:
        if inst.gold.any():
            per_repo[inst.repo] += 1
    diffs, weights = [], []
    for inst in insts:
        if not inst.gold.any() or inst.gold.all():
            continue
        today = inst.x @ w0
        neg = np.flatnonzero(~inst.gold)
        neg = neg[np.argsort(-today[neg], kind="stable")][:NEGATIVES]
        gold = np.flatnonzero(inst.gold)
        d = (inst.x[gold][:, None, :] - inst.x[neg][None, :, :]).reshape(-1, inst.x.shape[1])
        diffs.append(d)
        weights.append(np.full(len(d), 1.0 / (len(d) * per_repo[inst.repo])))
    return np.vstack(diffs), np.concatenate(weights)


def fit(insts: list[Instance], w0: np.ndarray, l2: float, scale: float) -> np.ndarray:
    """Non-negative weights minimizing the weighted pairwise logistic loss (+ L2)."""
    d, pw = _pairs(insts, w0)
    pw = pw / pw.sum()

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = scale * (d @ w)
        # log(1 + e^-z), computed stably; its derivative is -sigmoid(-z).
        value = float(pw @ np.logaddexp(0.0, -z)) + l2 * float(w @ w)
        grad = -scale * (d.T @ (pw / (1.0 + np.exp(np.clip(z, -50, 50))))) + 2 * l2 * w
        return value, grad

    res = minimize(loss, w0.copy(), jac=True, method="L-BFGS-B", bounds=[(0.0, None)] * len(w0))
    return np.asarray(res.x)


def folds(insts: list[Instance], k: int) -> list[set[str]]:
    """Repositories split into k folds of about equal instance counts (largest first, greedy)."""
    count: dict[str, int] = defaultdict(int)
    for inst in insts:
        count[inst.repo] += 1
    out: list[set[str]] = [set() for _ in range(k)]
    size = [0] * k
    for repo, n in sorted(count.items(), key=lambda kv: (-kv[1], kv[0])):
        i = size.index(min(size))
        out[i].add(repo)
        size[i] += n
    return out


def report(title: str, scored: list[tuple[Instance, dict[str, float]]]) -> None:
    """One line per metric family."""
    m = macro(scored)
    cells = "  ".join(f"{k}={v:.3f}" for k, v in m.items() if k.endswith("repos"))
    print(f"{title:<34} {cells}")
    cells = "  ".join(f"{k}={v:.3f}" for k, v in m.items() if k.endswith("langs"))
    print(f"{'':<34} {cells}")


def main(argv: list[str] | None = None) -> int:
    """Fit, cross-validate, report; with --write store the weights. Returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("features", type=Path)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--scale", type=float, default=4.0, help="score units per logit")
    ap.add_argument("--write", action="store_true", help="store the weights fitted on every repository")
    a = ap.parse_args(argv)

    from ctxaction.rank.scoring import DEFAULT_WEIGHTS

    insts, names = load(a.features, list(DEFAULT_WEIGHTS))
    w_today = np.array([DEFAULT_WEIGHTS.get(n, 0.0) for n in names])
    repos = {i.repo for i in insts}
    reachable = sum(1 for i in insts if i.gold.any())
    print(f"{len(insts)} instances, {len(repos)} repositories; "
          f"{reachable} with a gold file among the candidates\n")
    report("today's weights", [(i, metrics(i, w_today)) for i in insts])

    w_all = fit(insts, w_today, a.l2, a.scale)
    report("fitted on all (optimistic)", [(i, metrics(i, w_all)) for i in insts])

    cv: list[tuple[Instance, dict[str, float]]] = []
    for held in folds(insts, a.folds):
        train = [i for i in insts if i.repo not in held]
        w = fit(train, w_today, a.l2, a.scale)
        cv += [(i, metrics(i, w)) for i in insts if i.repo in held]
    report(f"leave-repos-out CV ({a.folds} folds)", cv)

    # Scale so the largest weight is 3.0, as today's pr_changed: packing reads only score ratios.
    top = float(w_all.max()) or 1.0
    fitted = {n: round(3.0 * float(v) / top, 4) for n, v in zip(names, w_all, strict=True)}
    print("\nweights (today -> fitted):")
    for n in names:
        print(f"  {n:<18} {DEFAULT_WEIGHTS.get(n, 0.0):>6.2f} -> {fitted[n]:.3f}")
    if a.write:
        body = {
            "about": "Signal weights fitted by bench/fit.py on the training set (pairwise logistic, "
                     "non-negative, repositories weighted equally). Regenerate, do not edit.",
            "weights": fitted,
        }
        SHIPPED.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {SHIPPED}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
