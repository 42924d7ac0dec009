"""Macro averages of the shared harness's results: over repositories and over languages.

A training set with 25 instances of one repository and one of another says more about a new
repository when every repository counts once: this prints, for each results file, the micro mean,
the mean over repositories and the mean over languages (each language the mean of its
repositories), then a per-language table and, with ``--repos``, the per-repository table.

    python bench/macro.py RESULTS.jsonl [MORE.jsonl ...] [--repos] [--metrics file_all,line_recall]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path

METRICS = ("file_all", "line_recall")


def load(path: Path) -> list[dict[str, object]]:
    """The scored records of one results file (instances with at least one gold file)."""
    with path.open(encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    return [r for r in recs if r.get("gold_files")]


def _value(rec: dict[str, object], metric: str) -> float:
    v = rec.get(metric)
    return float(v) if isinstance(v, (int, float)) else 0.0


def macro(recs: list[dict[str, object]], metric: str) -> tuple[float, float, float]:
    """(micro, macro over repositories, macro over languages) of ``metric``."""
    if not recs:
        return 0.0, 0.0, 0.0
    by_repo: dict[str, list[float]] = defaultdict(list)
    lang_of: dict[str, str] = {}
    for r in recs:
        repo = str(r["repo"]).lower()
        by_repo[repo].append(_value(r, metric))
        lang_of[repo] = str(r.get("split") or "?")
    repo_mean = {k: statistics.fmean(v) for k, v in by_repo.items()}
    by_lang: dict[str, list[float]] = defaultdict(list)
    for repo, m in repo_mean.items():
        by_lang[lang_of[repo]].append(m)
    micro = statistics.fmean(_value(r, metric) for r in recs)
    langs = statistics.fmean(statistics.fmean(v) for v in by_lang.values())
    return micro, statistics.fmean(repo_mean.values()), langs


def per_group(recs: list[dict[str, object]], key: str, metric: str) -> dict[str, tuple[int, float]]:
    """group -> (instances, mean of ``metric``) for ``key`` in ('split', 'repo')."""
    groups: dict[str, list[float]] = defaultdict(list)
    for r in recs:
        groups[str(r.get(key) or "?")].append(_value(r, metric))
    return {k: (len(v), statistics.fmean(v)) for k, v in sorted(groups.items())}


def main(argv: list[str] | None = None) -> int:
    """Print the tables; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", type=Path)
    ap.add_argument("--repos", action="store_true", help="also print the per-repository table")
    ap.add_argument("--metrics", default=",".join(METRICS))
    a = ap.parse_args(argv)
    metrics = [m.strip() for m in a.metrics.split(",") if m.strip()]
    runs = {p.name if len(a.results) == 1 else str(p): load(p) for p in a.results}
    # Compare on the instances every run scored, so a partial run is not judged on other ones.
    common = set.intersection(*({str(r["instance_id"]) for r in recs} for recs in runs.values()))
    runs = {k: [r for r in v if str(r["instance_id"]) in common] for k, v in runs.items()}
    print(f"{len(common)} instances scored by every run\n")
    print("| run | metric | micro | macro repos | macro languages |\n| --- | --- | --- | --- | --- |")
    for name, recs in runs.items():
        for m in metrics:
            mi, mr, ml = macro(recs, m)
            print(f"| {name} | {m} | {mi:.3f} | {mr:.3f} | {ml:.3f} |")
    for key in ("split", "repo") if a.repos else ("split",):
        print(f"\n| {key} | n | " + " | ".join(f"{name} {m}" for name in runs for m in metrics) + " |")
        print("| --- | --- |" + " --- |" * (len(runs) * len(metrics)))
        tables = {(name, m): per_group(recs, key, m) for name, recs in runs.items() for m in metrics}
        groups = sorted(next(iter(tables.values())))
        for g in groups:
            n = next(iter(tables.values()))[g][0]
            cells = " | ".join(
                f"{tables[(name, m)].get(g, (0, 0.0))[1]:.3f}" for name in runs for m in metrics
            )
            print(f"| {g} | {n} | {cells} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
