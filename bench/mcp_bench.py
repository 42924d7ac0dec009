"""The MCP server's warm index: first ``get_package`` against later ones on the same HEAD.

Clones a repository (a bare mirror is cloned with ``--shared`` into a temp folder), creates the
server in-process and calls its ``get_package`` tool through the SDK (argument validation and
all), once per task: the first call pays for imports, the tokenizer and the repository's
inventory; the later ones find the warm index. As the peer in the same run, each task is also
answered by a server without a warm index (a fresh workspace), and both answers must be equal.
Then the over-cap path: a profile budget above the tool-output cap, re-fitted from the ranked
candidates against the old way (a second full build at the capped budget).

    python bench/mcp_bench.py /work/.mirror/sphinx-doc+sphinx/repo [--tasks 5]

Tasks are the messages of the repository's newest non-merge commits (title line, body), so any
repository works without a task file.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio


def _rss_mib() -> float:
    """Current resident memory of this process (VmRSS), MiB."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _tasks(root: Path, n: int) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(root), "log", "--no-merges", f"-n{n}", "--format=%s%n%n%b%x1e"],
        capture_output=True, check=True,
    ).stdout.decode("utf-8", "replace")
    return [t.strip() for t in out.split("\x1e") if t.strip()][:n]


def _checkout(source: Path, into: Path) -> Path:
    bare = subprocess.run(
        ["git", "-C", str(source), "rev-parse", "--is-bare-repository"], capture_output=True, text=True
    ).stdout.strip()
    if bare != "true":
        return source
    from ctxaction.repo.warm import RACY_NS

    target = into / source.parent.name
    subprocess.run(["git", "clone", "-q", "--shared", str(source), str(target)], check=True)
    # Files written within RACY_NS of a build are not trusted by the warm index (their stat may
    # not show a change made in the same clock tick): a server starts after the checkout.
    time.sleep(2 * RACY_NS / 1e9)
    return target


def _call(server: Any, task: str, budget: int | None = None) -> tuple[float, str]:
    args: dict[str, Any] = {"task": task} if budget is None else {"task": task, "budget": budget}
    start = time.perf_counter()
    result = anyio.run(server.call_tool, "get_package", args)
    elapsed = time.perf_counter() - start
    if result.is_error:
        raise SystemExit(f"get_package failed: {result.content}")
    return elapsed, "".join(getattr(block, "text", "") for block in result.content)


def _over_cap(root: Path, task: str, scratch: Path) -> dict[str, float]:
    """Seconds for an over-cap package (a profile budget above the cap): the server's whole answer
    now (build, then re-fit from the ranked candidates) against before (two full builds, no warm
    index), and the second step alone: re-fit against a full build at the capped budget."""
    from dataclasses import replace

    from ctxaction.mcp_server import MAX_RESULT_TOKENS, Workspace, build, parse_task
    from ctxaction.model import Candidate
    from ctxaction.pipeline import BuildOptions
    from ctxaction.pipeline import build as pipeline_build
    from ctxaction.rank import collect

    config = scratch / "over-cap.yaml"
    config.write_text(
        "version: 1\nprofiles:\n  default:\n    max_files: 60\n    budget:\n      total_tokens: 60000\n",
        encoding="utf-8",
    )
    ws = Workspace(root, config_path=config)
    parsed = parse_task(ws, task)
    opts = BuildOptions(repo=root, task=parsed, profile="default", config_path=config, fmt="markdown")
    capped = replace(opts, budget=MAX_RESULT_TOKENS)
    start = time.perf_counter()
    first = pipeline_build(opts)
    old = pipeline_build(capped)
    before = time.perf_counter() - start
    start = time.perf_counter()
    answer = build(ws, parsed, None, "default")
    now = time.perf_counter() - start
    ranked: list[Candidate] = []

    def recording(*args: Any) -> list[Candidate]:
        ranked.extend(collect(*args))
        return ranked

    pipeline_build(opts, recording, ws.warm)
    start = time.perf_counter()
    refit = pipeline_build(capped, lambda *_: ranked, ws.warm)
    refit_seconds = time.perf_counter() - start
    start = time.perf_counter()
    pipeline_build(capped, warm=ws.warm)
    rebuild_seconds = time.perf_counter() - start
    if not old.rendered == answer.rendered == refit.rendered:
        raise SystemExit("the re-fitted package differs from a build at the capped budget")
    return {
        "tokens": float(first.package.total_tokens), "now": now, "before": before,
        "refit": refit_seconds, "rebuild": rebuild_seconds,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the bench and print its table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("repo", type=Path, help="a git work tree or a bare mirror")
    parser.add_argument("--tasks", type=int, default=5, help="tasks to answer (default 5)")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="mcp-bench-"))
    try:
        root = _checkout(args.repo.resolve(), scratch)
        tasks = _tasks(root, args.tasks)
        rss_start = _rss_mib()
        from ctxaction.mcp_server import Workspace, create_server

        ws = Workspace(root)
        server = create_server(ws)
        first, first_text = _call(server, tasks[0])
        rss_first = _rss_mib()
        warm: list[float] = []
        cold: list[float] = []
        for task in [*tasks[1:], tasks[0]]:
            seconds, text = _call(server, task)
            warm.append(seconds)
            peer_seconds, peer_text = _call(create_server(Workspace(root)), task)
            cold.append(peer_seconds)
            if text != peer_text or (task is tasks[0] and text != first_text):
                raise SystemExit("a warm answer differs from the cold one")
        rss_end = _rss_mib()
        over = _over_cap(root, tasks[0], scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    median = statistics.median(warm)
    print(f"repository            {args.repo} ({len(tasks)} tasks, warm hits {ws.warm.hits})")
    print(f"first call            {first:6.2f} s")
    print(f"warm calls            median {median:.2f} s, max {max(warm):.2f} s")
    print("per task (warm, cold)  " + ", ".join(f"{w:.2f}/{c:.2f}" for w, c in zip(warm, cold, strict=True)))
    print(f"cold peers (no index) median {statistics.median(cold):.2f} s, max {max(cold):.2f} s")
    print(f"warm / first          {median / first:.2f} (worst {max(warm) / first:.2f})")
    print(f"warm / cold peer      {median / statistics.median(cold):.2f}")
    print(f"RSS                   {rss_start:.0f} MiB before, {rss_first:.0f} after the first call, "
          f"{rss_end:.0f} after all; peak {peak:.0f} MiB")
    print(f"over-cap package      {over['tokens']:.0f} tokens > cap: answered in {over['now']:.2f} s "
          f"(before: two cold builds, {over['before']:.2f} s, ratio {over['now'] / over['before']:.2f})")
    print(f"  second step alone   re-fit {over['refit']:.2f} s, full build at the cap "
          f"{over['rebuild']:.2f} s (ratio {over['refit'] / over['rebuild']:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
