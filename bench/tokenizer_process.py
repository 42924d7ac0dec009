"""A lone `ctxaction build` with the tokenizer in its child process against the same build loading
it in-process: median wall time of each, their ratio, and whether the packages are identical.

Builds run one at a time, the two ways interleaved, each in a fresh interpreter (as a user, an agent
or the action runs one). The in-process way is the same CLI with the build's
``separate_tokenizer`` switched off. The repositories and issues are those a ``bench/features.py``
or ``bench/replay.py`` run left in its work folder (``wt/<id>`` and ``issues/<id>.md``).

    python bench/tokenizer_process.py --workdir /tmp/ctx-feat-py --rounds 5 [--ids a,b,c]

Absolute times on a shared machine are noise; the ratio, measured in the same run, is the number.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The CLI as is (child process) or with the option switched off (in-process): nothing else differs.
_RUN = """
import dataclasses, sys
from ctxaction.commands import build
if sys.argv[1] == "in-process":
    options = build._options
    build._options = lambda args: dataclasses.replace(options(args), separate_tokenizer=False)
from ctxaction.cli import main
raise SystemExit(main(sys.argv[2:]))
"""


def _build(way: str, repo: Path, issue: Path, out: Path) -> float:
    argv = [sys.executable, "-c", _RUN, way, "build", "--quiet", "--repo", str(repo), "--issue-file",
            str(issue), "--budget", "6000", "--format", "json", "--output", str(out)]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Print each way's median, the ratio and whether every package matched; returns 0, or 1 when
    a package differed."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workdir", type=Path, required=True, help="a features.py / replay.py work folder")
    ap.add_argument("--ids", help="instance ids (default: the first four in the folder)")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args(argv)
    ids = a.ids.split(",") if a.ids else sorted(p.name for p in (a.workdir / "wt").iterdir())[:4]
    times: dict[str, list[float]] = {"child": [], "in-process": []}
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.rounds):
            for iid in ids:
                repo, issue = a.workdir / "wt" / iid, a.workdir / "issues" / f"{iid}.md"
                outs = {way: Path(tmp) / f"{way}.json" for way in times}
                for way in times:
                    times[way].append(_build(way, repo, issue, outs[way]))
                same = same and outs["child"].read_bytes() == outs["in-process"].read_bytes()
    child, local = statistics.median(times["child"]), statistics.median(times["in-process"])
    print(f"{len(ids)} instances x {a.rounds} rounds: median {child:.2f} s with the tokenizer's child "
          f"process, {local:.2f} s in-process, ratio {child / local:.2f}; "
          f"packages {'identical' if same else 'DIFFERENT'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
