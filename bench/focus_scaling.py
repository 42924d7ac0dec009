"""Definition scoring: the linear scorer against the quadratic one it replaced, same run.

1. Agreement on real files: every parsable file of the given bare mirrors (``--mirrors``, the
   ``/work/.mirror`` layout ``owner+name/repo``) is parsed, given seeded random hints on its lines
   and names, and scored by both; any difference in points, order or reasons is a failure.
2. Scaling: N definitions shaped like generated code (methods of one class, flat functions,
   functions nested in each other), with hints on every other line; seconds for each scorer and
   their ratio (the old one only up to ``--oracle-max`` definitions).

    python bench/focus_scaling.py --mirrors /work/.mirror --files 400
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ctxaction.rank.board import Hints
from ctxaction.rank.evidence import Query, score_definitions
from ctxaction.repo.kinds import language_of
from ctxaction.repo.symbols import Definition, definitions
from tests.rank.focus_oracle import score_definitions as oracle

WORDS = ("error", "config", "token", "cache", "retry", "parse", "open", "close")
IDF = {w: 0.5 + i / 4 for i, w in enumerate(WORDS)}


def random_hints(
    rng: random.Random, n_lines: int, defs: list[Definition]
) -> tuple[Hints, dict[str, set[str]]]:
    """Hints on random lines and names of the file (what the finders produce, in shape)."""
    h = Hints()
    names = [d.name for d in defs] or ["x"]

    def some(k: int) -> list[int]:
        return [rng.randint(1, max(1, n_lines)) for _ in range(k)]

    h.frame_lines = {n: f"line {n} of the traceback" for n in some(rng.randint(0, 3))}
    h.message_lines = {n: "the quoted message" for n in some(rng.randint(0, 2))}
    h.option_lines = {n: "the option --x" for n in some(rng.randint(0, 2))}
    h.use_lines = {n: (rng.random(), rng.choice(names)) for n in some(rng.randint(0, 30))}
    h.defined = {rng.choice(names): rng.random() for _ in range(rng.randint(0, 4))}
    h.keyword_lines = {n: set(rng.sample(WORDS, rng.randint(1, 3))) for n in some(rng.randint(0, 60))}
    h.name_lines = {d.start: (rng.random(), d.name) for d in rng.sample(defs, min(len(defs), 5))}
    owners = {rng.choice(names): {rng.choice(names)} for _ in range(3)}
    return h, owners


def mirror_files(mirrors: Path, limit: int, rng: random.Random) -> list[tuple[str, str]]:
    """(label, text) of up to ``limit`` source files with a definition finder, across the mirrors."""
    picked: list[tuple[str, str, str]] = []
    for repo in sorted(mirrors.glob("*/repo")):
        cmd = ["git", "-C", str(repo), "ls-tree", "-r", "-l", "HEAD"]
        listing = subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
        for row in listing.splitlines():
            meta, _, path = row.partition("\t")
            parts = meta.split()
            small = len(parts) == 4 and parts[3].isdigit() and int(parts[3]) < 400_000
            if small and parts[1] == "blob" and language_of(path):
                picked.append((repo.parent.name, path, parts[2]))
    rng.shuffle(picked)
    out = []
    for owner, path, oid in picked[:limit]:
        repo = mirrors / owner / "repo"
        cmd = ["git", "-C", str(repo), "cat-file", "blob", oid]
        data = subprocess.run(cmd, capture_output=True, check=False)
        out.append((f"{owner}:{path}", data.stdout.decode("utf-8", "replace")))
    return out


def agreement(files: list[tuple[str, str]], rng: random.Random) -> int:
    """Compare both scorers on every file (three hint draws each); returns the mismatch count."""
    mismatches = defs_total = 0
    for label, text in files:
        defs = definitions(text, label.split(":", 1)[1])
        defs_total += len(defs)
        n_lines = text.count("\n") + 1
        for _ in range(3):
            h, owners = random_hints(rng, n_lines, defs)
            query = Query(idf=IDF, owners=owners, named=dict(h.defined))
            if score_definitions(defs, h, query) != oracle(defs, h, query):
                mismatches += 1
                print(f"  MISMATCH {label}")
    print(
        f"agreement: {len(files)} real files, {defs_total} definitions, {3 * len(files)} hint draws, "
        f"{mismatches} mismatches"
    )
    return mismatches


def generated(shape: str, n: int) -> tuple[list[Definition], int]:
    """``n`` definitions shaped like a generated file, and its line count (no parsing: the
    parsers read at most MAX_CHARS, which holds fewer definitions than the scorer is tested on)."""
    if shape == "class":  # one class holding n two-line methods
        methods = [Definition(f"f{i}", "method", 2 * i + 2, 2 * i + 3, "Table") for i in range(n)]
        return [Definition("Table", "class", 1, 2 * n + 1), *methods], 2 * n + 1
    if shape == "flat":  # n three-line functions
        return [Definition(f"f{i}", "function", 3 * i + 1, 3 * i + 3) for i in range(n)], 3 * n
    # nested: n functions each inside the previous one
    return [Definition(f"f{i}", "function", i + 1, 2 * n - i) for i in range(n)], 2 * n


def timed(fn: object, *args: object) -> float:
    start = time.perf_counter()
    fn(*args)  # type: ignore[operator]
    return time.perf_counter() - start


def scaling(sizes: list[int], oracle_max: int, rng: random.Random) -> None:
    print(f"{'shape':<8} {'defs':>7} {'linear s':>9} {'quadratic s':>12} {'ratio':>7}")
    for shape in ("class", "flat", "nested"):
        for n in sizes:
            defs, n_lines = generated(shape, n)
            h, owners = random_hints(rng, n_lines, defs)
            h.keyword_lines = {line: {"token", "cache"} for line in range(1, n_lines, 2)}
            query = Query(idf=IDF, owners=owners, named=dict(h.defined))
            fast = timed(score_definitions, defs, h, query)
            if n <= (oracle_max if shape != "nested" else min(oracle_max, 1000)):
                slow = timed(oracle, defs, h, query)
                print(f"{shape:<8} {len(defs):>7} {fast:>9.3f} {slow:>12.3f} {slow / fast:>7.1f}")
            else:
                print(f"{shape:<8} {len(defs):>7} {fast:>9.3f} {'(skipped)':>12} {'':>7}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--sizes", default="2500,5000,10000,20000,40000")
    parser.add_argument("--oracle-max", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bad = 0
    if args.mirrors.is_dir():
        bad = agreement(mirror_files(args.mirrors, args.files, rng), rng)
    scaling([int(s) for s in args.sizes.split(",")], args.oracle_max, rng)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
