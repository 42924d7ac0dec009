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
from typing import Any, Protocol

import numpy as np
from cv_folds import fold_path  # bench/cv_folds.py: the --cv-dir files
from scipy.optimize import minimize

from ctxaction.rank.scoring import PLACED

HERE = Path(__file__).resolve().parent
SHIPPED = HERE.parent / "ctxaction" / "defaults" / "scoring.json"
NEGATIVES = 60  # hardest non-gold items (by today's score) paired with each gold one


class Group:
    """Items ranked against each other (one instance's files, or one gold file's definitions):
    their feature matrix, gold mask and tie-break keys; ``n_gold`` counts gold items not listed."""

    def __init__(self, key: str, repo: str, lang: str, x: np.ndarray, gold: np.ndarray,
                 ties: list[str], n_gold: int, unranked_zero: bool) -> None:
        self.key, self.repo, self.lang = key, repo.lower(), lang
        self.x, self.gold, self.ties, self.n_gold = x, gold, ties, n_gold
        # Definitions with no evidence are never focused: a zero score is no rank at all.
        self.unranked_zero = unranked_zero


def _records(path: Path) -> list[dict[str, Any]]:
    recs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in recs if not r.get("error") and r.get("gold")]


def file_groups(recs: list[dict[str, Any]], names: Sequence[str]) -> list[Group]:
    """One group per instance: its candidates' prior × signal values."""
    out = []
    for r in recs:
        cands = r["candidates"]
        x = np.array(
            [[float(c["prior"]) * min(1.0, max(0.0, float(c["signals"].get(n, 0.0)))) for n in names]
             for c in cands], dtype=float,
        ).reshape(len(cands), len(names))
        gold = np.array([c["path"] in r["gold"] for c in cands], dtype=bool)
        out.append(Group(r["instance_id"], r["repo"], r.get("split") or "?", x, gold,
                         [c["path"] for c in cands], len(r["gold"]), False))
    return out


def definition_matrix(defs: Sequence[dict[str, Any]], names: Sequence[str]) -> np.ndarray:
    """The dumped definitions' evidence features, one row each (test code inside a source file
    discounted as the package does)."""
    from ctxaction.rank.evidence import TEST_CODE_FACTOR

    return np.array(
        [[float(d["features"].get(n, 0.0)) * (TEST_CODE_FACTOR if d["in_test"] else 1.0)
          for n in names] for d in defs], dtype=float,
    ).reshape(len(defs), len(names))


def definition_groups(recs: list[dict[str, Any]], names: Sequence[str]) -> list[Group]:
    """One group per gold file with a gold definition: its definitions' evidence features."""
    out = []
    for r in recs:
        for c in r["candidates"]:
            defs = c.get("definitions") or []
            if not any(d["gold"] for d in defs):
                continue
            x = definition_matrix(defs, names)
            gold = np.array([d["gold"] for d in defs], dtype=bool)
            out.append(Group(f"{r['instance_id']}:{c['path']}", r["repo"], r.get("split") or "?", x, gold,
                             [f"{d['start']:08d}" for d in defs], int(gold.sum()), True))
    return out


def ranks(g: Group, w: np.ndarray) -> list[int]:
    """1-based rank of each listed gold item (ties as the package breaks them); a large number
    for a definition without evidence."""
    s = g.x @ w if len(g.ties) else np.zeros(0)
    order = sorted(range(len(g.ties)), key=lambda i: (-round(float(s[i]), 6), g.ties[i]))
    pos = {i: k + 1 for k, i in enumerate(order)}
    return [pos[int(i)] if not (g.unranked_zero and s[i] <= 0) else 10**6 for i in np.flatnonzero(g.gold)]


def metrics(g: Group, w: np.ndarray, cutoffs: Sequence[int]) -> dict[str, float]:
    """Per group: share of gold items in the top K, all of them in the top K, 1/first rank."""
    r = ranks(g, w)
    out: dict[str, float] = {}
    for k in cutoffs:
        hit = sum(1 for x in r if x <= k)
        out[f"recall@{k}"] = hit / max(1, g.n_gold)
        out[f"all@{k}"] = float(hit == g.n_gold)
    out["mrr"] = 1.0 / min(r) if r else 0.0
    return out


def macro(scored: list[tuple[Group, dict[str, float]]]) -> dict[str, float]:
    """Each metric averaged over repositories, then over languages (mean of their repositories)."""
    by_repo: dict[str, list[dict[str, float]]] = defaultdict(list)
    lang: dict[str, str] = {}
    for g, m in scored:
        by_repo[g.repo].append(m)
        lang[g.repo] = g.lang
    out: dict[str, float] = {}
    for key in scored[0][1]:
        repo_mean = {r: statistics.fmean(m[key] for m in ms) for r, ms in by_repo.items()}
        langs: dict[str, list[float]] = defaultdict(list)
        for r, v in repo_mean.items():
            langs[lang[r]].append(v)
        out[f"{key} repos"] = statistics.fmean(repo_mean.values())
        out[f"{key} langs"] = statistics.fmean(statistics.fmean(v) for v in langs.values())
    return out


def _pairs(groups: list[Group], w0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Difference vectors gold − negative, and each pair's weight (every repository sums to 1)."""
    per_repo: dict[str, int] = defaultdict(int)
    for g in groups:
        if g.gold.any() and not g.gold.all():
            per_repo[g.repo] += 1
    diffs, weights = [], []
    for g in groups:
        if not g.gold.any() or g.gold.all():
            continue
        today = g.x @ w0
        neg = np.flatnonzero(~g.gold)
        neg = neg[np.argsort(-today[neg], kind="stable")][:NEGATIVES]
        pos = np.flatnonzero(g.gold)
        d = (g.x[pos][:, None, :] - g.x[neg][None, :, :]).reshape(-1, g.x.shape[1])
        diffs.append(d)
        weights.append(np.full(len(d), 1.0 / (len(d) * per_repo[g.repo])))
    return np.vstack(diffs), np.concatenate(weights)


def fit(groups: list[Group], w0: np.ndarray, l2: float, scale: float, kind: str = "pairs") -> np.ndarray:
    """Non-negative weights minimizing the weighted pairwise logistic loss (``pairs``) or the
    softmax loss of the gold items within their group (``softmax``: rewards the top place), plus
    an L2 pull toward the hand-set prior ``w0`` (what the dev split taught stays unless the data
    says otherwise)."""
    if kind == "softmax":
        return _fit_softmax(groups, w0, l2, scale)
    d, pw = _pairs(groups, w0)
    pw = pw / pw.sum()

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = scale * (d @ w)
        # log(1 + e^-z), computed stably; its derivative is -sigmoid(-z).
        value = float(pw @ np.logaddexp(0.0, -z)) + l2 * float((w - w0) @ (w - w0))
        grad = -scale * (d.T @ (pw / (1.0 + np.exp(np.clip(z, -50, 50))))) + 2 * l2 * (w - w0)
        return value, grad

    res = minimize(loss, w0.copy(), jac=True, method="L-BFGS-B", bounds=[(0.0, None)] * len(w0))
    return np.asarray(res.x)


def _fit_softmax(groups: list[Group], w0: np.ndarray, l2: float, scale: float) -> np.ndarray:
    usable = [g for g in groups if g.gold.any() and not g.gold.all()]
    per_repo: dict[str, int] = defaultdict(int)
    for g in usable:
        per_repo[g.repo] += 1
    weight = np.array([1.0 / per_repo[g.repo] for g in usable])
    weight /= weight.sum()

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = l2 * float((w - w0) @ (w - w0)), 2 * l2 * (w - w0)
        for g, gw in zip(usable, weight, strict=True):
            s = scale * (g.x @ w)
            m = s.max()
            p = np.exp(s - m)
            z = p.sum()
            p /= z
            gold = g.x[g.gold]
            value += gw * float(np.mean(m + np.log(z) - s[g.gold]))
            grad += gw * scale * (p @ g.x - gold.mean(axis=0))
        return value, grad

    res = minimize(loss, w0.copy(), jac=True, method="L-BFGS-B", bounds=[(0.0, None)] * len(w0))
    return np.asarray(res.x)


class HasRepo(Protocol):
    """What :func:`folds` reads of a group."""

    repo: str


def folds(groups: Sequence[HasRepo], k: int) -> list[set[str]]:
    """Repositories split into k folds of about equal group counts (largest first, greedy)."""
    count: dict[str, int] = defaultdict(int)
    for g in groups:
        count[g.repo] += 1
    out: list[set[str]] = [set() for _ in range(k)]
    size = [0] * k
    for repo, n in sorted(count.items(), key=lambda kv: (-kv[1], kv[0])):
        i = size.index(min(size))
        out[i].add(repo)
        size[i] += n
    return out


def report(title: str, scored: list[tuple[Group, dict[str, float]]]) -> None:
    """Two lines: the metrics macro-averaged over repositories, then over languages."""
    m = macro(scored)
    cells = "  ".join(f"{k}={v:.3f}" for k, v in m.items() if k.endswith("repos"))
    print(f"{title:<34} {cells}")
    cells = "  ".join(f"{k}={v:.3f}" for k, v in m.items() if k.endswith("langs"))
    print(f"{'':<34} {cells}")


def study(label: str, groups: list[Group], names: list[str], today: dict[str, float],
          cutoffs: Sequence[int], a: argparse.Namespace, now: dict[str, float]) -> dict[str, float]:
    """Today's weights, fitted on all, and leave-repositories-out CV; returns the fitted weights
    scaled so the largest is ``top`` (packing and focus read only ratios)."""
    w_today = np.array([today.get(n, 0.0) for n in names])
    print(f"\n== {label}: {len(groups)} groups, {len({g.repo for g in groups})} repositories, "
          f"{sum(1 for g in groups if g.gold.any())} with a gold item listed")
    report("hand-set prior weights", [(g, metrics(g, w_today, cutoffs)) for g in groups])
    w_now = np.array([now.get(n, 0.0) for n in names])
    if not np.array_equal(w_now, w_today):  # the definitions ship hand-set weights, not the prior
        report("shipped weights", [(g, metrics(g, w_now, cutoffs)) for g in groups])
    w_all = fit(groups, w_today, a.l2, a.scale, a.loss)
    report("fitted on all (optimistic)", [(g, metrics(g, w_all, cutoffs)) for g in groups])
    cv: list[tuple[Group, dict[str, float]]] = []
    for k, held in enumerate(folds(groups, a.folds)):
        w = fit([g for g in groups if g.repo not in held], w_today, a.l2, a.scale, a.loss)
        cv += [(g, metrics(g, w, cutoffs)) for g in groups if g.repo in held]
        if a.cv_dir is not None:
            # Each fold's weights and held-out repositories, for bench/replay.py --cv-dir.
            a.cv_dir.mkdir(parents=True, exist_ok=True)
            body = {label: dict(zip(names, map(float, w), strict=True)), "repos": sorted(held)}
            fold_path(a.cv_dir, label, k).write_text(json.dumps(body, indent=1))
    report(f"leave-repos-out CV ({a.folds} folds)", cv)
    # A signal the training data never shows (a PR's changed files: every instance is an issue)
    # cannot be fitted: it keeps its lead over the strongest fitted signal as today.
    seen = [i for i in range(len(names)) if any(g.x[:, i].any() for g in groups)]
    top = max(today.values())
    peak = max(float(w_all[i]) for i in seen) or 1.0
    lead = top / (max(today.get(names[i], 0.0) for i in seen) or 1.0)
    fitted = {
        n: round(top * float(v) / peak if i in seen else lead * today.get(n, 0.0), 4)
        for i, (n, v) in enumerate(zip(names, w_all, strict=True))
    }
    for n in names:
        print(f"  {n:<18} {today.get(n, 0.0):>6.2f} -> {fitted[n]:.3f}")
    return fitted


def main(argv: list[str] | None = None) -> int:
    """Fit, cross-validate, report; with --write store the weights. Returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("features", type=Path)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--l2", type=float, default=0.02, help="pull toward the hand-set prior")
    ap.add_argument("--scale", type=float, default=1.0, help="score units per logit")
    ap.add_argument("--loss", choices=("pairs", "softmax"), default="softmax")
    ap.add_argument("--only", choices=("files", "definitions"), help="fit one of the two")
    ap.add_argument("--cv-dir", type=Path, help="write each fold's weights and held-out repositories here")
    ap.add_argument("--write", action="store_true", help="store the weights fitted on every repository")
    a = ap.parse_args(argv)

    recs = _records(a.features)
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    # The fit starts from, and is pulled toward, the hand-set prior (not the last fit: refitting
    # must not drift).
    prior = shipped["prior"]
    if a.only != "definitions":
        today = dict(prior["files"])
        # A placement (the habit of most commits) is no evidence to weigh: its number stays.
        placed = {PLACED: shipped["files"].get(PLACED, prior["files"].get(PLACED, 1.0))}
        today.pop(PLACED, None)
        seen = {n for r in recs for c in r["candidates"] for n in c["signals"]}
        names = sorted((seen | set(today)) - {PLACED})
        groups = file_groups(recs, names)
        shipped["files"] = study("files", groups, names, today, (3, 5, 10), a, shipped["files"]) | placed
    if a.only != "files":
        today = dict(prior["definitions"])
        names = sorted(today)
        groups = definition_groups(recs, names)
        shipped["definitions"] = study("definitions", groups, names, today, (1, 3), a, shipped["definitions"])
    if a.write:
        SHIPPED.write_text(json.dumps(shipped, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {SHIPPED}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
