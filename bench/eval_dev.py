"""Quality and speed of `ctxaction build` on the SWE-bench Lite dev split, beside BM25, in one run.

Runs the shared harness (../shared/eval/swebench.py) twice at the same budget — the built-in BM25
baseline and `ctxaction build` — then prints the harness's quality tables and a speed line: median
seconds per instance for each, their ratio, and ctxaction's peak memory. Absolute times on a shared
2-core machine are noise; the ratio measured in the same run is the number to read.

    python bench/eval_dev.py --mirrors /path/to/mirrors [--harness ../shared/eval] [--budget 6000] [--cold]

By default the tokenizer's rank files are whatever the machine has cached (warm: after the first
build on a machine). ``--cold`` gives every build an empty cache, as on a fresh runner.

The package's bytecode is compiled first, as ``pip install`` does: with ``PYTHONDONTWRITEBYTECODE``
set (as on these machines) an editable install would otherwise recompile every module in every
build, time that no installed copy pays.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _harness(harness: Path, args: list[str]) -> None:
    subprocess.run([sys.executable, str(harness / "swebench.py"), *args], check=True, cwd=harness)


def _seconds(results: Path) -> list[float]:
    with results.open(encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    return [float(r["packager_s"]) for r in recs if r.get("status") == "ok" and "packager_s" in r]


def main(argv: list[str] | None = None) -> int:
    """Run both packagers and print the comparison; returns 0 on success."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirrors", required=True, help="folder of git mirrors (owner+name/repo)")
    ap.add_argument("--harness", default=str(HERE.parent.parent / "shared" / "eval"))
    ap.add_argument("--instances", help="instances file (default: the harness's dev split)")
    ap.add_argument("--budget", type=int, default=6000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(HERE / "out"), help="folder for the result files")
    ap.add_argument("--extra", default="", help="extra harness options, e.g. '--limit 10'")
    ap.add_argument("--cold", action="store_true", help="an empty tokenizer cache for every build")
    a = ap.parse_args(argv)

    harness = Path(a.harness).resolve()
    # The harness runs in its own folder: a relative path is resolved here first.
    default = harness / "data" / "swe-bench-lite-dev.json"
    instances = str(Path(a.instances).resolve() if a.instances else default)
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    common = ["--instances", instances, "--mirrors", a.mirrors, "--jobs", str(a.jobs),
              "--budgets", str(a.budget), *shlex.split(a.extra)]

    import ctxaction as package

    compileall.compile_dir(str(Path(package.__file__).parent), quiet=1)
    ctxaction = shlex.join([sys.executable, "-m", "ctxaction"])
    rss_file = Path(tempfile.mkstemp(prefix="ctx-rss-", suffix=".tsv")[1])
    os.environ["CTX_BENCH_RSS_FILE"] = str(rss_file)
    if a.cold:
        os.environ["CTX_BENCH_COLD"] = "1"
    cmd = (f"{shlex.quote(sys.executable)} {shlex.quote(str(HERE / 'run_with_rss.py'))} {{instance_id}} "
           f"{ctxaction} build --repo {{repo}} --issue-file {{issue}} --budget {{budget}} "
           "--format json --output {out}")

    bm25, ctx = out / "bm25.jsonl", out / "ctxaction.jsonl"
    _harness(harness, [*common, "--baseline", "bm25", "--out", str(bm25), "--quiet"])
    _harness(harness, [*common, "--cmd", cmd, "--out", str(ctx), "--quiet",
                       "--summary", str(out / "ctxaction.txt")])
    _harness(harness, ["--from-results", str(bm25), str(ctx)])

    t_bm25, t_ctx = _seconds(bm25), _seconds(ctx)
    rss = [int(line.split("\t")[1]) for line in rss_file.read_text().splitlines() if line]
    rss_file.unlink()
    if not t_bm25 or not t_ctx:
        print("no successful runs to time", file=sys.stderr)
        return 1
    m_bm25, m_ctx = statistics.median(t_bm25), statistics.median(t_ctx)
    print(f"\nspeed: median s/instance ctxaction={m_ctx:.2f} bm25={m_bm25:.2f} "
          f"ratio ctxaction/bm25={m_ctx / m_bm25:.2f} (n={len(t_ctx)}, same run, "
          f"tokenizer cache {'cold' if a.cold else 'warm'})")
    if rss:
        print(f"memory: ctxaction peak RSS max={max(rss) / 1024:.0f} MiB "
              f"median={statistics.median(rss) / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
