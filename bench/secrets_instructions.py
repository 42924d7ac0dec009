"""What the secrets engine costs in instructions (callgrind), this checkout against another copy.

The clock on a shared machine swings both ways by more than a change to the engine costs; an
instruction count does not. Two counts, each for this checkout and for ``--compare DIR`` (e.g.
``git archive main ctxaction | tar -x -C DIR``), in the same run:

1. ``redact()`` over the text files of each tree (up to ``--max-mb``, drawn as secrets_bench.py
   draws them): a run of two passes less a run of one, so interpreter start, imports, reading
   the files and building the automaton fall out and one warm pass remains.
2. A hook run on a commit of 10 staged Python files (secrets_bench.py's commit), the whole
   process as the shim starts it (the git processes it waits for not counted), beside a bare
   ``python -c pass``.

Default trees: the sphinx mirror (Python, reST) and the libarchive one (C, where byte strings
hold escapes of letters and digits) under /work/.mirror. Needs ``valgrind``.

Usage: python bench/secrets_instructions.py --compare DIR [--tree DIR ...] [--max-mb MB]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from secrets_bench import _ENTRY, _text_files, export_head, hook_repo  # noqa: E402
from secrets_bench import _env as bench_env  # noqa: E402

MIRRORS = Path("/work/.mirror")
TREES = ("sphinx-doc+sphinx", "libarchive+libarchive")

# One warm-up call (imports, the automaton, lazily compiled patterns), then ``passes`` passes.
_REDACT = """
import sys
from pathlib import Path
from ctxaction.secure import redact
passes = int(sys.argv[1])
texts = [(name, Path(name).read_bytes().decode("utf-8", "replace"))
         for name in Path(sys.argv[2]).read_text().splitlines()]
redact("warm-up: API_KEY = 'x'", "x.py")
for _ in range(passes):
    for name, text in texts:
        redact(text, name)
"""
_COLLECTED = re.compile(r"Collected : (\d+)")


def _env(code: Path) -> dict[str, str]:
    """The timed runs' environment (:func:`secrets_bench._env`), hashes fixed: instruction counts
    must not move with the hash seed."""
    return {**bench_env(code), "PYTHONHASHSEED": "0"}


def _count(command: list[str], code: Path, cwd: Path) -> int:
    """Instructions ``command`` runs (its own process only), with ``code`` first on the path."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=cwd,
        env=_env(code),
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    found = _COLLECTED.search(out)
    if found is None:
        sys.exit(f"no instruction count from callgrind: {out[-500:]}")
    return int(found.group(1))


def _tree(work: Path, name: str) -> Path:
    return export_head(MIRRORS / name / "repo", work / name)


def _ratio(label: str, new: int, old: int) -> None:
    print(f"  {label:52s} {new / 1e6:7.1f} M against {old / 1e6:7.1f} M  ({new / old - 1:+.2%})")


def redact_cost(work: Path, trees: list[Path], max_mb: float, compare: Path) -> None:
    for tree in trees:
        files = _text_files(tree, max_mb)
        listing = work / f"{tree.name}.files"
        listing.write_text("\n".join(map(str, files)), encoding="utf-8")
        mb = sum(p.stat().st_size for p in files) / 1e6
        counts = {}
        for code in (ROOT, compare):
            one, two = (
                _count([sys.executable, "-c", _REDACT, str(passes), str(listing)], code, work)
                for passes in (1, 2)
            )
            counts[code] = two - one
        _ratio(f"redact(), one pass over {tree.name} ({mb:.1f} MB)", counts[ROOT], counts[compare])


def hook_cost(work: Path, tree: Path, compare: Path) -> None:
    repo, names = hook_repo(work, tree)
    hook = [sys.executable, "-c", _ENTRY, *names]
    for code in (ROOT, compare):  # bytecode written, as after an install
        subprocess.run(hook, cwd=repo, env=_env(code), capture_output=True, check=False)
    bare = _count([sys.executable, "-c", "pass"], ROOT, repo)
    _ratio("hook on a 10-file commit", _count(hook, ROOT, repo), _count(hook, compare, repo))
    print(f"  {'python -c pass':52s} {bare / 1e6:7.1f} M")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", type=Path, required=True, help="another copy of the package")
    parser.add_argument("--tree", type=Path, action="append", help="folder for redact() (repeatable)")
    parser.add_argument("--max-mb", type=float, default=4.0, help="text megabytes per tree")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("valgrind not found")
    compare = args.compare.resolve()
    with tempfile.TemporaryDirectory(prefix="secrets-instructions-") as tmp:
        work = Path(tmp)
        trees = args.tree or [_tree(work, name) for name in TREES if (MIRRORS / name / "repo").exists()]
        print(f"instructions (callgrind), this checkout against {compare}:")
        hook_cost(work, trees[0], compare)
        redact_cost(work, trees, args.max_mb, compare)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
