"""Replay stored rankings through the rest of the line (filter → budget → render) and score them.

Ranking is the slow part of a build (git searches over the whole repository); packing is not. This
takes the dump of ``bench/features.py`` (every candidate's signals, score and focus spans), rescores
the candidates with the shipped weights (or ``--weights FILE``), and runs ``pipeline.build`` with
a ranker that returns them, in the same fresh repositories, so packing changes and fitted weights
can be judged on the whole training set in minutes. Metrics are the harness's (``file_all``,
``line_recall`` over the fix's gold lines), macro-averaged over repositories and languages.

    python bench/replay.py bench/out/features.jsonl --workdir /tmp/ctx-features \
        [--weights W.json] [--set ctxaction.pack.budget.GLIMPSE_LINES=20] [--out R.jsonl]

Only the candidates the dump holds are replayed (phase 1 as it ran then); files that move into the
focused top 15 without focus spans of their own get none (a conservative approximation).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from overrides import apply  # bench/overrides.py: the --set values


def one(args: tuple[dict[str, Any], str, dict[str, float] | None, list[str], int]) -> dict[str, Any]:
    """Replay one instance; the harness's metrics for it."""
    rec, workdir, weights, settings, budget = args
    apply(settings)
    from ctxaction.model import Candidate, Focus
    from ctxaction.pipeline import BuildOptions, build
    from ctxaction.rank.scoring import score
    from ctxaction.task import read_issue_file

    iid = rec["instance_id"]
    cands = [
        Candidate(c["path"], signals=c["signals"], prior=c["prior"], score=c["score"],
                  focus=[Focus(f[0], f[1], f[2], f[3] if len(f) > 3 else "") for f in c["focus"]],
                  # Older dumps lack reasons: stand-ins of a typical length keep the headings' cost.
                  reasons=c.get("reasons") or [f"{s}: {c['path'][-40:]}" for s in c["signals"]])
        for c in rec["candidates"]
    ]
    if weights is not None:
        cands = [c for c in score(cands, weights) if c.score > 0]
    wt = Path(workdir) / "wt" / iid
    task = read_issue_file(Path(workdir) / "issues" / f"{iid}.md")
    # The harness's record fields bench/macro.py and bench/cv_grid.py read, so replays compare as builds do.
    out: dict[str, Any] = {"instance_id": iid, "repo": rec["repo"], "split": rec["split"],
                           "gold_files": sorted(rec["gold"])}
    try:
        result = build(BuildOptions(repo=wt, task=task, budget=budget, fmt="json"),
                       ranker=lambda *_: cands)
    except Exception as exc:  # a replay error is a result, as in the harness
        out.update(status=f"{type(exc).__name__}: {exc}", file_all=False, line_recall=0.0)
        return out
    ranges = {f.path: f.ranges for f in result.package.files}
    gold: dict[str, list[int]] = rec["gold"]
    total = sum(len(v) for v in gold.values())
    hit = sum(1 for p, lines in gold.items() for n in lines
              if any(a <= n <= b for a, b in ranges.get(p, ())))
    out.update(status="ok", file_all=all(p in ranges for p in gold),
               line_recall=hit / total if total else 0.0,
               file_recall=sum(p in ranges for p in gold) / len(gold), n_files=len(ranges),
               total_tokens=result.package.total_tokens,
               ranges={p: [list(r) for r in rs] for p, rs in ranges.items()})  # for bench/losses.py
    return out


def summary(results: list[dict[str, Any]]) -> str:
    """Micro and macro (repositories, languages) means of file_all and line_recall."""
    from macro import macro  # bench/macro.py: one definition of the averages

    lines = []
    for metric in ("file_all", "line_recall"):
        micro, repos, langs = macro(results, metric)
        lines.append(f"{metric:<12} micro={micro:.3f} repos={repos:.3f} langs={langs:.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Replay every dumped instance and print the summary; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("features", type=Path)
    ap.add_argument("--workdir", required=True, help="bench/features.py's --workdir")
    ap.add_argument("--weights", type=Path, help="scoring.json-shaped file whose 'files' weights rescore")
    ap.add_argument("--set", action="append", default=[], help="module.ATTR=value override")
    ap.add_argument("--budget", type=int, default=6000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--cv-dir", type=Path, help="bench/fit.py --cv-dir output: per-fold weights")
    a = ap.parse_args(argv)
    weights = json.loads(a.weights.read_text())["files"] if a.weights else None
    recs = [json.loads(line) for line in a.features.read_text().splitlines() if line.strip()]
    recs = [r for r in recs if not r.get("error") and r.get("gold")]
    work = [(r, a.workdir, weights, a.set, a.budget) for r in recs]
    if a.cv_dir:
        # Leave-repositories-out: each instance replayed with the weights of the fold that held
        # its repository out.
        from cv_folds import file_weights_by_repo  # bench/cv_folds.py: fit.py's --cv-dir files

        fold_of = file_weights_by_repo(a.cv_dir)
        work = [(r, a.workdir, fold_of[r["repo"].lower()], a.set, a.budget) for r in recs]
    with ProcessPoolExecutor(a.jobs) as pool:
        results = list(pool.map(one, work, chunksize=4))
    bad = [r for r in results if r["status"] != "ok"]
    for r in bad[:5]:
        print(f"{r['instance_id']}: {r['status']}", file=sys.stderr)
    if a.out:
        a.out.write_text("".join(json.dumps(r) + "\n" for r in results))
    print(f"{len(results)} instances, {len(bad)} errors, mean files "
          f"{statistics.fmean(r.get('n_files', 0) for r in results):.1f}")
    print(summary(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
