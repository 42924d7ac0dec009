"""Two copies of ctxaction's code, A (old) and B (new), built lone and interleaved on the same
instances: the median of B/A ratios of wall time and of CPU time, each side's totals, and whether
every JSON package is byte-identical.

Each build is a fresh interpreter running one ``ctxaction build --format json`` (as a user, an agent
or the action runs it), one at a time; within a round the order of A and B alternates from one
instance to the next and from one round to the next, so load from other processes falls on both
sides alike. The repositories and issues are those the eval harness left in its ``--workdir`` with
``--keep-worktrees`` (``wt/<id>`` and ``issues/<id>.md``; ``--cmd true`` makes them without
building), or a ``bench/features.py`` folder.

    python bench/ab_builds.py --old /path/to/old-checkout --new . --workdir /tmp/ctxaction-eval \
        --rounds 3 [--ids a,b,c] [--limit 10]

``--rounds 1`` is the identity check alone. Absolute times on a shared machine are noise; the
ratio, measured in the same run, is the number to read. CPU time is the build's whole process tree
(its tokenizer child and git included, all waited for): less sensitive to other load than wall
time, and what decides a build's time when every core is busy (two builds at once on two cores).
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _build(code: Path, repo: Path, issue: Path, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one build."""
    argv = [sys.executable, "-m", "ctxaction", "build", "--quiet", "--repo", str(repo), "--issue-file",
            str(issue), "--budget", "6000", "--format", "json", "--output", str(out)]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(code))
    start, cpu = time.perf_counter(), _cpu()
    # ``-m`` puts the working directory first on sys.path: run where no ctxaction folder is, or a
    # checkout there would be timed instead of ``code``.
    subprocess.run(argv, check=True, stdin=subprocess.DEVNULL, env=env, cwd=out.parent)
    return time.perf_counter() - start, _cpu() - cpu


def main(argv: list[str] | None = None) -> int:
    """Print the per-instance and overall figures; returns 0, or 1 when a package differed."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="checkout holding the A code (ctxaction/)")
    ap.add_argument("--new", type=Path, required=True, help="checkout holding the B code")
    ap.add_argument("--workdir", type=Path, required=True, help="harness work folder (wt/, issues/)")
    ap.add_argument("--ids", help="instance ids, comma-separated (default: every work tree)")
    ap.add_argument("--limit", type=int, help="only the first N instances")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    ids = a.ids.split(",") if a.ids else sorted(p.name for p in (a.workdir / "wt").iterdir())
    ids = ids[: a.limit] if a.limit else ids
    sides = {"A": a.old.resolve(), "B": a.new.resolve()}
    # With PYTHONDONTWRITEBYTECODE set, an uncompiled checkout would recompile every module in
    # every build: time an installed copy never pays.
    for code in sides.values():
        compileall.compile_dir(str(code / "ctxaction"), quiet=1)
    times: dict[str, dict[str, list[float]]] = {iid: {"A": [], "B": []} for iid in ids}
    cpus: dict[str, dict[str, list[float]]] = {iid: {"A": [], "B": []} for iid in ids}
    differ: set[str] = set()
    flip = False
    with tempfile.TemporaryDirectory(prefix="ab-builds-") as tmp:
        for _ in range(a.rounds):
            for iid in ids:
                repo, issue = a.workdir / "wt" / iid, a.workdir / "issues" / f"{iid}.md"
                outs = {side: Path(tmp) / f"{side}.json" for side in sides}
                for side in ("B", "A") if flip else ("A", "B"):
                    wall, cpu = _build(sides[side], repo, issue, outs[side])
                    times[iid][side].append(wall)
                    cpus[iid][side].append(cpu)
                flip = not flip
                if outs["A"].read_bytes() != outs["B"].read_bytes():
                    differ.add(iid)
            flip = not flip
    ratios: dict[str, list[float]] = {"wall": [], "cpu": []}
    for iid in ids:
        old, new = statistics.median(times[iid]["A"]), statistics.median(times[iid]["B"])
        cpu_old, cpu_new = statistics.median(cpus[iid]["A"]), statistics.median(cpus[iid]["B"])
        ratios["wall"].append(new / old)
        ratios["cpu"].append(cpu_new / cpu_old)
        mark = "  DIFFERENT" if iid in differ else ""
        print(f"{iid:55} wall A {old:5.2f}s B {new:5.2f}s B/A {new / old:5.3f}  "
              f"cpu A {cpu_old:5.2f}s B {cpu_new:5.2f}s B/A {cpu_new / cpu_old:5.3f}{mark}")  # fmt: skip
    for kind, table in (("wall", times), ("cpu", cpus)):
        total = {side: sum(sum(t[side]) for t in table.values()) for side in sides}
        median, mean = statistics.median(ratios[kind]), statistics.fmean(ratios[kind])
        print(
            f"{kind}: instances {len(ids)} x {a.rounds} rounds: median B/A {median:.3f} (mean {mean:.3f}); "
            f"totals A {total['A']:.1f}s B {total['B']:.1f}s (B/A {total['B'] / total['A']:.3f})"
        )
    print(f"packages identical: {len(ids) - len(differ)} of {len(ids)}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
