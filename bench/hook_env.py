"""The pre-commit hook's environment: size and first-run install time, before and after, one run.

pre-commit installs a ``language: python`` hook by creating a virtualenv and running
``pip install .`` on the hook's repository, without extras. This script does the same for two
snapshots of this repository (``git archive`` of two revisions; default ``main`` and ``HEAD``),
interleaved: a fresh venv each, ``pip install --no-cache-dir <snapshot>`` timed (downloads from
the configured index included, as on a developer's first commit), then the size of what the
install added to the venv (the empty venv's size subtracted) and the distributions it holds.
Finally it runs each environment's ``ctxaction-secrets`` once in a throwaway repository to show
the hook works there and which heavy modules it loaded (none may be tiktoken, PyGithub, Jinja2).

Usage: python bench/hook_env.py [--before REV] [--after REV] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("tiktoken", "github", "jinja2", "bpe_openai", "git", "requests", "regex")
PROBE = (
    "import sys, runpy\n"
    "sys.argv = ['ctxaction-secrets']\n"
    "try:\n"
    "    runpy.run_module('ctxaction.hook', run_name='__main__')\n"
    "except SystemExit as done:\n"
    "    code = done.code\n"
    f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
    "print(code, ','.join(heavy) or '-')\n"
)


def _size(folder: Path) -> int:
    total = 0
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                total += os.path.getsize(path)
    return total


def _snapshot(rev: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev], cwd=ROOT, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def _install(source: Path, work: Path) -> dict[str, object]:
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    empty = _size(venv)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-cache-dir"]
    pip += ["--disable-pip-version-check"]
    start = time.perf_counter()
    subprocess.run([*pip, str(source)], check=True, capture_output=True)
    seconds = time.perf_counter() - start
    dists = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    repo = work / "repo"
    repo.mkdir()
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    (repo / "a.py").write_text("x = 1\n", encoding="utf-8")
    subprocess.run(["git", "add", "a.py"], cwd=repo, check=True, env=env)
    probe = subprocess.run(
        [str(venv / "bin" / "python"), "-c", PROBE], cwd=repo, capture_output=True, text=True, env=env
    )
    return {
        "seconds": seconds,
        "bytes": _size(venv) - empty,
        "dists": [d for d in dists if not d.lower().startswith(("pip==", "setuptools==", "ctxaction"))],
        "probe": probe.stdout.strip() or probe.stderr.strip().splitlines()[-1:],
    }


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="main", help="revision of the 'before' snapshot (default main)")
    parser.add_argument("--after", default="HEAD", help="revision of the 'after' snapshot (default HEAD)")
    parser.add_argument("--runs", type=int, default=2, help="installs of each, interleaved (default 2)")
    args = parser.parse_args(argv)
    results: dict[str, list[dict[str, object]]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory(prefix="ctxaction-hookenv-") as tmp:
        base = Path(tmp)
        sources = {
            "before": _snapshot(args.before, base / "src-before"),
            "after": _snapshot(args.after, base / "src-after"),
        }
        for run in range(args.runs):
            for label in ("before", "after"):
                results[label].append(_install(sources[label], base / f"{label}-{run}"))
    print(f"hook environment: pip install <snapshot> into a fresh venv, no cache, {args.runs} run(s) each")
    print(
        f"{'':8} {'rev':>10} {'install s (median)':>19} {'added MB':>9} {'dists':>6}"
        "  hook run: exit, heavy modules"
    )
    rows = {}
    for label, rev in (("before", args.before), ("after", args.after)):
        runs = results[label]
        seconds = statistics.median(float(str(r["seconds"])) for r in runs)
        mb = int(str(runs[0]["bytes"])) / 1e6
        dists = runs[0]["dists"]
        assert isinstance(dists, list)
        rows[label] = (seconds, mb)
        print(f"{label:8} {rev:>10} {seconds:19.1f} {mb:9.1f} {len(dists):6}  {runs[0]['probe']}")
        print(f"{'':8} {' '.join(dists)}")
    (sb, mb_b), (sa, mb_a) = rows["before"], rows["after"]
    print(f"after/before: install time {sa / sb:.2f}x, size {mb_a / mb_b:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
