"""Run a command and append its peak resident memory (KiB) to $CTX_BENCH_RSS_FILE.

Used by eval_dev.py as a wrapper around each `ctxaction build`, so peak memory is measured for the
packager process tree alone, not for the harness. With $CTX_BENCH_COLD set, each run gets its own
empty TIKTOKEN_CACHE_DIR (removed afterwards): the first run on a machine, nothing cached.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile


def main(argv: list[str]) -> int:
    """``run_with_rss.py LABEL CMD…``: run CMD, record LABEL and its children's peak RSS."""
    label, cmd = argv[0], argv[1:]
    env = dict(os.environ)
    cache = tempfile.mkdtemp(prefix="ctx-cold-cache-") if os.environ.get("CTX_BENCH_COLD") else None
    if cache:
        env["TIKTOKEN_CACHE_DIR"] = cache
    try:
        code = subprocess.call(cmd, env=env)
    finally:
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    target = os.environ.get("CTX_BENCH_RSS_FILE")
    if target:
        with open(target, "a", encoding="utf-8") as f:
            f.write(f"{label}\t{peak_kib}\n")
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
