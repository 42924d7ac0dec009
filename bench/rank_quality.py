"""Ranking quality on SWE-bench-style instances, without the packer: where the gold file ranks among
``ctxaction.rank.collect``'s candidates, and how many gold lines a simple excerpt of the top-weighted
focus spans covers under a token budget (a stand-in for the real packer, for tuning the ranker).

Gold files/lines come from the harness's own parser (``swebench.py`` imported from --harness, never
copied). Work trees are built the harness's way and reused across runs (--workdir).

    python bench/rank_quality.py --harness ../shared/eval --mirrors /path/to/mirrors [--budget 4500]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ctxaction.model import Candidate
from ctxaction.rank import collect
from ctxaction.repo.files import open_repo
from ctxaction.task import parse_issue_text
from ctxaction.tokens import Counter, get_counter

CONTEXT = 3


@dataclass(frozen=True)
class Profile:
    """Default weights (the ranker's own defaults) and a 90-day history window."""

    scoring: dict[str, float]
    history_days: int = 90


def _harness(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("swebench", os.path.join(path, "swebench.py"))
    if spec is None or spec.loader is None:
        raise SystemExit(f"no swebench.py in {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["swebench"] = mod
    spec.loader.exec_module(mod)
    return mod


class _Measure:
    """Token costs for the packer: real o200k counts per line, fixed markup costs."""

    def __init__(self, counter: Counter) -> None:
        self.counter = counter
        self.cache: dict[str, int] = {}

    def text_cost(self, text: str) -> int:
        if text not in self.cache:
            self.cache[text] = self.counter.count(text)
        return self.cache[text]

    def marker_cost(self) -> int:
        return 8

    def range_cost(self) -> int:
        return 4

    def file_overhead(self, candidate: Candidate) -> int:
        return 40


def simulate(
    cands: list[Candidate], lines_of: dict[str, list[str]], budget: int, counter: Counter
) -> dict[str, set[int]]:
    """The team's packer (``ctxaction.pack.budget.pack_files``) over the top candidates."""
    from ctxaction.pack.budget import pack_files
    from ctxaction.pack.lines import FileSource

    sources = [FileSource(c, lines_of[c.path]) for c in cands[:20] if lines_of.get(c.path)]
    packing = pack_files(sources, budget, _Measure(counter), max_files=15, min_files=3, context=3)
    return {f.path: {n for a, b in f.ranges for n in range(a, b + 1)} for f in packing.files}


def main(argv: list[str] | None = None) -> int:
    """Print per-instance gold rank and simulated line recall, then the means."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--harness", default=str(Path(__file__).resolve().parents[2] / "shared" / "eval"))
    ap.add_argument("--instances", default=None)
    ap.add_argument("--mirrors", required=True)
    ap.add_argument("--workdir", default="/tmp/ctx-rank-wt")
    ap.add_argument("--budget", type=int, default=3500, help="tokens of the files section for the packer")
    ap.add_argument("--ids", default="")
    ap.add_argument("--json", default="", help="write per-instance records here")
    a = ap.parse_args(argv)
    sb = _harness(a.harness)
    instances = sb.load_instances(a.instances or os.path.join(a.harness, "data", "swe-bench-lite-dev.json"))
    if a.ids:
        wanted = set(a.ids.split(","))
        instances = [i for i in instances if i["instance_id"] in wanted]
    counter = get_counter()
    profile = Profile(scoring={})
    records = []
    for inst in instances:
        gitdir = sb.resolve_mirror(a.mirrors, inst["repo"], {})
        if gitdir is None:
            print(f"{inst['instance_id']}: no mirror", file=sys.stderr)
            continue
        repo_obj = sb.git_repo(gitdir)
        missing = [p for p, e in repo_obj.tree(inst["base_commit"]).items() if e[1] == "blob" and e[3] < 0]
        where = os.path.join(a.workdir, inst["instance_id"])
        wt = sb.make_worktree(gitdir, inst["base_commit"], where, True, missing)
        task = parse_issue_text(sb.issue_text(inst["problem_statement"]))
        t0 = time.perf_counter()
        view = open_repo(wt)
        cands = collect(view, task, profile)
        seconds = time.perf_counter() - t0
        gold: dict[str, set[int]] = {}
        for fd in sb.parse_patch(inst["patch"]):
            if fd.status != "added" and fd.old_path:
                n = len(view.lines(fd.old_path))
                gold.setdefault(fd.old_path, set()).update(sb.gold_lines(fd, n))
        rank = {c.path: i + 1 for i, c in enumerate(cands)}
        lines_of = {c.path: view.lines(c.path) for c in cands[:20]}
        packed = simulate(cands, lines_of, a.budget, counter)
        total = sum(len(v) for v in gold.values()) or 1
        covered = sum(len(v & packed.get(p, set())) for p, v in gold.items())
        focus_rank = []
        for g, glines in gold.items():
            cand = next((c for c in cands if c.path == g), None)
            spans = cand.focus if cand else []
            focus_rank.append(
                next((i + 1 for i, f in enumerate(spans) if any(f.start <= n <= f.end for n in glines)), None)
            )
        rec = {
            "focus_rank": focus_rank,
            "id": inst["instance_id"],
            "gold_rank": [rank.get(g) for g in gold],
            "file_all": all(g in packed for g in gold),
            "line_recall": covered / total,
            "seconds": round(seconds, 3),
            "top": [c.path for c in cands[:5]],
        }
        records.append(rec)
        print(
            f"{rec['id']:40s} rank={rec['gold_rank']} focus={rec['focus_rank']} in={int(rec['file_all'])} "
            f"lines={rec['line_recall']:.2f} t={seconds:.2f}s",
            flush=True,
        )
    if records:
        n = len(records)
        top1 = sum(1 for r in records if all(x == 1 for x in r["gold_rank"])) / n
        top5 = sum(1 for r in records if all(x is not None and x <= 5 for x in r["gold_rank"])) / n
        print(
            f"\nn={n} file_all={sum(r['file_all'] for r in records) / n:.3f} "
            f"line_recall={sum(r['line_recall'] for r in records) / n:.3f} top1={top1:.3f} top5={top5:.3f} "
            f"median_s={statistics.median(r['seconds'] for r in records):.2f}"
        )
    if a.json:
        Path(a.json).write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
