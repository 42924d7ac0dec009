"""Secrets engine benchmark: ctxaction beside detect-secrets, in one run.

1. Accuracy on the labelled corpus (tests/fixtures/secrets/corpus.tsv): precision, recall, F1.
2. Hook speed: a commit of 10 staged files of ordinary code, whole process (interpreter start
   included): ``ctxaction-secrets`` vs ``detect-secrets-hook`` on the same files; median of N runs.
3. Scan throughput (MB/s) over a large real tree: ``ctxaction scan DIR`` vs
   ``detect-secrets scan --all-files DIR``.

Usage: python bench/secrets_bench.py [--tree DIR] [--runs N]
(detect-secrets from PyPI: ``pip install detect-secrets``.) Default tree: a checkout of the
sphinx mirror under /work/.mirror when present, else this repository.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.secrets_corpus import Case, load, score  # noqa: E402

BIN = Path(sys.executable).parent
MIRROR = Path("/work/.mirror/sphinx-doc+sphinx/repo")


def _tool(name: str) -> str:
    found = BIN / name
    if found.exists():
        return str(found)
    which = shutil.which(name)
    if which is None:
        sys.exit(f"{name} not found: pip install {'detect-secrets' if 'detect' in name else '-e .'} first")
    return which


def _git(cwd: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@b.io",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@b.io",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def corpus_accuracy(work: Path) -> None:
    from ctxaction.secure import scan

    cases = load()
    ours = [bool(scan(case.text, case.path)) for case in cases]
    folder = work / "corpus"
    names = []
    for case in cases:
        name = f"case{case.number:03d}/{case.path}"
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(case.text, encoding="utf-8")
        names.append(name)
    proc = subprocess.run(
        [_tool("detect-secrets"), "scan", "--all-files"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    )
    flagged = set(json.loads(proc.stdout)["results"])
    theirs = [name in flagged for name in names]
    print(f"corpus: {sum(c.secret for c in cases)} secrets, {sum(not c.secret for c in cases)} look-alikes")
    _row("ctxaction", cases, ours)
    _row("detect-secrets", cases, theirs)


def _row(name: str, cases: list[Case], predicted: list[bool]) -> None:
    p, r, f = score(cases, predicted)
    print(f"  {name:15s} precision {p:.3f}  recall {r:.3f}  F1 {f:.3f}")


def _median_runtime(cmd: Sequence[str], cwd: Path, runs: int) -> tuple[float, int]:
    times = []
    code = 0
    for _ in range(runs):
        start = time.perf_counter()
        code = subprocess.run(cmd, cwd=cwd, capture_output=True, check=False).returncode
        times.append(time.perf_counter() - start)
    return statistics.median(times), code


def hook_speed(work: Path, runs: int) -> None:
    repo = work / "hookrepo"
    repo.mkdir()
    _git(repo, "init", "-q")
    sources = sorted(p for p in (ROOT / "ctxaction").rglob("*.py") if p.stat().st_size > 2000)[:10]
    names = []
    for i, src in enumerate(sources):
        name = f"pkg/m{i}_{src.name}"
        (repo / name).parent.mkdir(exist_ok=True)
        shutil.copy(src, repo / name)
        names.append(name)
    _git(repo, "add", "-A")
    ours, our_code = _median_runtime([_tool("ctxaction-secrets"), *names], repo, runs)
    theirs, their_code = _median_runtime([_tool("detect-secrets-hook"), *names], repo, runs)
    size = sum((repo / n).stat().st_size for n in names) / 1024
    print(f"hook on a 10-file commit ({size:.0f} KiB, median of {runs}, whole process):")
    print(f"  ctxaction-secrets    {ours * 1000:7.1f} ms (exit {our_code})")
    print(f"  detect-secrets-hook  {theirs * 1000:7.1f} ms (exit {their_code})")
    print(f"  ratio ctxaction / detect-secrets = {ours / theirs:.2f}")


def _tree(work: Path, given: Path | None) -> Path:
    if given is not None:
        return given
    if MIRROR.exists():
        target = work / "tree"
        target.mkdir()
        archive = subprocess.run(
            ["git", "--git-dir", str(MIRROR), "archive", "HEAD"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
        return target
    return ROOT


def throughput(work: Path, given: Path | None) -> None:
    tree = _tree(work, given)
    files = [p for p in tree.rglob("*") if p.is_file() and ".git" not in p.parts and not p.is_symlink()]
    mb = sum(p.stat().st_size for p in files) / 1e6
    ours, _ = _median_runtime([_tool("ctxaction"), "scan", "--no-ignore", "--format", "json", "."], tree, 1)
    theirs, _ = _median_runtime([_tool("detect-secrets"), "scan", "--all-files", "."], tree, 1)
    print(f"scan throughput over {tree.name} ({len(files)} files, {mb:.1f} MB):")
    print(f"  ctxaction scan          {mb / ours:7.2f} MB/s ({ours:.1f} s)")
    print(f"  detect-secrets scan     {mb / theirs:7.2f} MB/s ({theirs:.1f} s)")
    print(f"  ratio ctxaction / detect-secrets = {theirs / ours:.1f}x faster")


def main(argv: Sequence[str] | None = None) -> int:
    """Run all three measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, help="folder for the throughput run")
    parser.add_argument("--runs", type=int, default=7, help="hook runs per tool (median)")
    args = parser.parse_args(argv)
    _tool("detect-secrets")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        corpus_accuracy(work)
        hook_speed(work, args.runs)
        throughput(work, args.tree)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
