"""Rule and skill patterns against every tracked path: pathspec's ``match_file`` on every path (the
old way) against :func:`ctxaction.pack.rules.root_matches` (only the paths that start with the
pattern's literal head reach pathspec), on real repositories.

For each repository (a work tree, or a bare mirror read with ``git ls-tree`` at HEAD) the default
configuration's rule sources and skill patterns are each matched against all tracked paths, both
ways, best of ``--repeat`` runs; the two must find the same paths. Prints per repository: paths,
seconds of each way for all patterns, and the ratio (old / new, >1: the new way is faster).
Absolute times on a shared machine are noise; read the ratios.

    python bench/glob_match.py REPO_OR_MIRROR [...] [--repeat 5]
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pathspec

from ctxaction.config.load import config_of
from ctxaction.pack.rules import anchored_spec, root_matches


def tracked_paths(repo: Path) -> list[str]:
    """Paths at HEAD: ``git ls-files`` in a work tree, ``ls-tree`` in a bare mirror."""
    bare = not (repo / ".git").exists() and (repo / "HEAD").is_file()
    args = ["ls-tree", "-r", "--name-only", "-z", "HEAD"] if bare else ["ls-files", "-z"]
    out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True).stdout
    return [p for p in out.decode("utf-8", "replace").split("\0") if p]


def best_of(repeat: int, run: Callable[[], list[list[str]]]) -> tuple[float, list[list[str]]]:
    """Fastest wall time of ``repeat`` runs, and the last run's result."""
    best, result = float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def every_path(specs: list[pathspec.GitIgnoreSpec], paths: list[str]) -> list[list[str]]:
    """The old way: each compiled pattern asked about every path."""
    return [[p for p in paths if spec.match_file(p)] for spec in specs]


def literal_head(patterns: list[str], paths: list[str]) -> list[list[str]]:
    """The new way, as the packer calls it."""
    return [root_matches(p, paths) for p in patterns]


def main(argv: list[str] | None = None) -> int:
    """Print one row per repository; returns 1 when the two ways disagree."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("repos", nargs="+", type=Path)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args(argv)
    config = config_of(None)
    patterns = [s.pattern for s in config.rule_sources] + list(config.skills)
    specs = [anchored_spec(p) for p in patterns]
    print(f"{len(patterns)} patterns (the default rule sources and skills)")
    print("| repository | paths | every path s | literal head s | ratio |")
    print("| --- | --- | --- | --- | --- |")
    disagree = False
    for repo in a.repos:
        paths = tracked_paths(repo)
        old_s, old = best_of(a.repeat, functools.partial(every_path, specs, paths))
        new_s, new = best_of(a.repeat, functools.partial(literal_head, patterns, paths))
        disagree |= old != new
        flag = "" if old == new else " (results differ)"
        name = "/".join(repo.parts[-2:])
        print(f"| {name} | {len(paths)} | {old_s:.4f} | {new_s:.4f} | {old_s / new_s:.2f}{flag} |")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
