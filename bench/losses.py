"""Where a package loses the fix's lines: every gold line of the training set, by its fate.

Reads a dump of ``bench/features.py`` (candidates, their focus spans, every definition of the gold
files with its evidence) and the ``--out`` of ``bench/replay.py`` on that dump (the packaged line
ranges per file), and puts each gold line in one bucket:

- ``hit``: packaged;
- ``absent top5`` / ``absent 5-14`` / ``absent 15+``: its file is a candidate at that rank but not
  packaged; ``not candidate``: its file is not among the candidates at all;
- ``focused``: its file is packaged and a focus span holds it (the budget ran out first);
- ``def long``: inside a definition with evidence points too long to be shown whole (focused by its
  head and windows around its evidence, which missed the line);
- ``def scored`` / ``def unscored``: inside a shorter definition with or without evidence points, in
  no focus span (a scored one ranked below the file's best ``MAX_DEFS``); ``no definition``: in no
  function, method or class (imports, tables, top-level code).

Shares are macro averages over repositories within each language, then over languages (``ALL``
averages every repository), like the harness's. The buckets say which stage to work on next:

    python bench/replay.py FEAT.jsonl --workdir W --out REPLAY.jsonl
    python bench/losses.py FEAT.jsonl REPLAY.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

BUCKETS = ("hit", "absent top5", "absent 5-14", "absent 15+", "not candidate",
           "focused", "def long", "def scored", "def unscored", "no definition")  # fmt: skip


def _points(features: dict[str, float], weights: dict[str, float]) -> float:
    return sum(weights.get(k, 0.0) * v for k, v in features.items())


def fate(
    line: int,
    rank: int | None,
    ranges: list[list[int]] | None,
    cand: dict[str, Any] | None,
    weights: dict[str, float],
    long_lines: int,
) -> str:
    """The bucket of one gold line of a file at ``rank`` (None: no candidate) packaged as ``ranges``;
    a definition longer than ``long_lines`` is one focus shows by its head and windows."""
    if ranges is None:
        if rank is None:
            return "not candidate"
        return "absent top5" if rank < 5 else "absent 5-14" if rank < 15 else "absent 15+"
    if any(a <= line <= b for a, b in ranges):
        return "hit"
    cand = cand or {}
    if any(f[0] <= line <= f[1] for f in cand.get("focus") or []):
        return "focused"
    inner = [
        d for d in cand.get("definitions") or [] if d["kind"] != "variable" and d["start"] <= line <= d["end"]
    ]
    if not inner:
        return "no definition"
    smallest = min(inner, key=lambda d: d["end"] - d["start"])
    if _points(smallest["features"], weights) <= 0:
        return "def unscored"
    return "def long" if smallest["end"] - smallest["start"] + 1 > long_lines else "def scored"


def tally(
    features: Path, replay: Path, weights: dict[str, float], long_lines: int
) -> dict[str, dict[str, Counter[str]]]:
    """language -> repository -> bucket counts."""
    dumped: dict[str, dict[str, Any]] = {}
    with features.open(encoding="utf-8") as fh:
        for raw in fh:
            rec = json.loads(raw)
            if "candidates" in rec:
                dumped[rec["instance_id"]] = rec
    out: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    with replay.open(encoding="utf-8") as fh:
        for raw in fh:
            res = json.loads(raw)
            rec = dumped.get(res["instance_id"])
            if rec is None or "ranges" not in res:
                continue
            cands = {c["path"]: (i, c) for i, c in enumerate(rec["candidates"])}
            counts = out[rec["split"]][rec["repo"]]
            for path, lines in rec["gold"].items():
                rank, cand = cands.get(path, (None, None))
                for n in lines:
                    counts[fate(n, rank, res["ranges"].get(path), cand, weights, long_lines)] += 1
    return out


def shares(repos: list[Counter[str]]) -> dict[str, float]:
    """Mean over repositories of each bucket's share of the repository's gold lines."""
    return {b: statistics.fmean(c[b] / max(1, sum(c.values())) for c in repos) for b in BUCKETS}


def main(argv: list[str] | None = None) -> int:
    """Print the table; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("features", type=Path, help="bench/features.py dump")
    ap.add_argument("replay", type=Path, help="bench/replay.py --out of the same dump")
    a = ap.parse_args(argv)
    from ctxaction.rank.focus import MAX_BODY_LINES
    from ctxaction.rank.weights import definition_weights

    counts = tally(a.features, a.replay, dict(definition_weights()), MAX_BODY_LINES)
    if not counts:
        print("no instance of the replay is in the dump (or the replay has no ranges)", file=sys.stderr)
        return 0
    print("| language | " + " | ".join(BUCKETS) + " |")
    print("| --- " * (len(BUCKETS) + 1) + "|")
    rows = [(lang, list(repos.values())) for lang, repos in sorted(counts.items())]
    rows.append(("ALL", [c for _, repos in rows for c in repos]))
    for lang, repos in rows:
        s = shares(repos)
        print(f"| {lang} | " + " | ".join(f"{s[b]:.3f}" for b in BUCKETS) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
