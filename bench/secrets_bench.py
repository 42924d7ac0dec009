"""Secrets engine benchmark: ctxaction beside detect-secrets, in one run.

1. Accuracy on the labelled corpus (tests/fixtures/secrets/corpus.tsv): precision, recall, F1.
2. Hook speed: a commit of 10 staged files of ordinary code, whole process (interpreter start
   included): ``ctxaction-secrets`` vs ``detect-secrets-hook`` on the same files, runs
   interleaved, median of N, wall-clock and CPU time (user + system, the git processes a hook
   waits for included); a bare ``python -c pass`` is timed alongside, since on a loaded machine
   only ratios and "above interpreter start" mean anything, and CPU time is the steadier of the
   two when other work competes for the cores.
3. Redaction throughput (what ``ctxaction build`` pays per packed file): ``redact()`` over every
   text file of a real tree in-process, MB/s and ms per 10 KB, vs detect-secrets' ``scan_file``.
4. CLI scan throughput (MB/s) over the tree: ``ctxaction scan DIR`` vs
   ``detect-secrets scan --all-files DIR``.

``--compare DIR`` adds a row for another copy of the package (e.g. ``git archive`` of an older
commit) to the hook and redaction measurements, so before/after come from the same run.
``--profile`` prints where a hook run's time goes (import times, cProfile).

Usage: python bench/secrets_bench.py [--tree DIR] [--runs N] [--max-mb MB] [--compare DIR]
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

from ctxaction.config.source import default_text  # noqa: E402
from tests.secrets_corpus import Case, load, score  # noqa: E402

CONFIG_SECRETS = """
secrets:
  allowlist:
    paths: ["tests/fixtures/**"]
    stopwords: ["dummy"]
  disabled_rules: [generic-password]
"""

BIN = Path(sys.executable).parent
MIRROR = Path("/work/.mirror/sphinx-doc+sphinx/repo")
_SUFFIXES = ".py .pyi .js .ts .css .html .md .rst .txt .json .yml .yaml .toml .cfg .ini .sh .c .h .xml"
TEXT_SUFFIXES = frozenset(_SUFFIXES.split())


def _tool(name: str) -> str:
    found = BIN / name
    if found.exists():
        return str(found)
    which = shutil.which(name)
    if which is None:
        sys.exit(f"{name} not found: pip install {'detect-secrets' if 'detect' in name else '-e .'} first")
    return which


def _env(code: Path = ROOT) -> dict[str, str]:
    """The environment for timed runs: bytecode caching on (as in a normal install), and
    ``code`` (this checkout, or another copy of the package) first on the path. Timed
    programs run in a scratch folder, so the current directory cannot shadow it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(code)
    return env


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


def _ordinary_code(tree: Path, count: int = 10) -> list[Path]:
    """``count`` Python files of 4–16 KB spread over the tree (deterministic)."""
    files = sorted(
        p for p in tree.rglob("*.py") if 4000 <= p.stat().st_size <= 16000 and ".git" not in p.parts
    )
    if len(files) < count:
        files = sorted(p for p in ROOT.joinpath("ctxaction").rglob("*.py") if p.stat().st_size > 2000)
    step = max(1, len(files) // count)
    return files[::step][:count]


# What the console script does, with the entry point the copy of the package has.
_ENTRY = (
    "import sys, ctxaction.hook as hook\n"
    "run = getattr(hook, 'run', None)\n"
    "run() if run else sys.exit(hook.main())"
)


def hook_repo(work: Path, tree: Path) -> tuple[Path, list[str]]:
    """A repository under ``work`` with ten ordinary source files of ``tree`` staged (the usual
    commit a hook run checks); returns it and the staged names."""
    repo = work / "hookrepo"
    repo.mkdir()
    _git(repo, "init", "-q")
    names = []
    for i, src in enumerate(_ordinary_code(tree)):
        name = f"pkg/m{i}_{src.name}"
        (repo / name).parent.mkdir(exist_ok=True)
        shutil.copy(src, repo / name)
        names.append(name)
    _git(repo, "add", "-A")
    return repo, names


def hook_speed(work: Path, tree: Path, runs: int, compare: Path | None) -> None:
    repo, names = hook_repo(work, tree)
    # A config file read through --config (outside the repository, so the same 10 files are
    # scanned): the commented defaults plus a secrets: section. "known valid" is the usual commit
    # (the text was validated before and is in the cache); "not cached" validates every run, as
    # after an edit (its cache home is a file, so nothing can be remembered).
    config = work / "context-packages.yaml"
    config.write_text(default_text() + CONFIG_SECRETS, encoding="utf-8")
    blocked = work / "no-cache"
    blocked.write_text("", encoding="utf-8")
    with_config = [_tool("ctxaction-secrets"), "--config", str(config), *names]
    commands: dict[str, tuple[list[str], dict[str, str]]] = {
        "python -c pass": ([sys.executable, "-c", "pass"], _env()),
        "ctxaction-secrets": ([_tool("ctxaction-secrets"), *names], _env()),
        "  --config, known valid": (with_config, {**_env(), "XDG_CACHE_HOME": str(work / "cache")}),
        "  --config, not cached": (with_config, {**_env(), "XDG_CACHE_HOME": str(blocked)}),
        "detect-secrets-hook": ([_tool("detect-secrets-hook"), *names], _env()),
    }
    if compare is not None:
        # The console script names this checkout's entry point; an older copy may have another.
        label = f"ctxaction-secrets ({compare.name})"
        commands[label] = ([sys.executable, "-c", _ENTRY, *names], _env(compare))
        env = {**_env(compare), "XDG_CACHE_HOME": str(work / "cache")}
        commands[f"  --config ({compare.name})"] = ([sys.executable, "-c", _ENTRY, *with_config[1:]], env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    codes: dict[str, int] = {}
    for run in range(runs + 1):  # run 0 warms caches and writes bytecode; not counted
        for name, (cmd, env) in commands.items():
            start = time.perf_counter()
            proc = subprocess.Popen(
                cmd, cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = codes[name] = os.waitstatus_to_exitcode(status)
            if run:
                times[name].append(time.perf_counter() - start)
                cpu[name].append(usage.ru_utime + usage.ru_stime)  # git processes waited for included
    median = {name: statistics.median(values) for name, values in times.items()}
    cpu_median = {name: statistics.median(values) for name, values in cpu.items()}
    size = sum((repo / n).stat().st_size for n in names) / 1024
    bare, bare_cpu = median["python -c pass"], cpu_median["python -c pass"]
    print(f"hook on a 10-file commit ({size:.0f} KiB of .py, median of {runs} interleaved runs):")
    print(f"  {'':34s} {'wall':>10s}  {'CPU':>9s}")
    for name, value in median.items():
        above = "" if name.startswith("python") else f"  ({(value - bare) * 1000:6.1f} ms above it)"
        spent = f"{value * 1000:7.1f} ms  {cpu_median[name] * 1000:6.1f} ms"
        print(f"  {name:34s} {spent}  exit {codes[name]}{above}")
    ours, theirs = median["ctxaction-secrets"], median["detect-secrets-hook"]
    cpu_ours, cpu_theirs = cpu_median["ctxaction-secrets"], cpu_median["detect-secrets-hook"]
    print(f"  ratio ctxaction / detect-secrets = {ours / theirs:.3f} (CPU time: {cpu_ours / cpu_theirs:.3f})")
    for name in ("  --config, known valid", "  --config, not cached"):
        ratio, cpu_ratio = median[name] / theirs, cpu_median[name] / cpu_theirs
        print(f"  ratio ctxaction {name.strip()} / detect-secrets = {ratio:.3f} (CPU time: {cpu_ratio:.3f})")
    start_ratio, cpu_start_ratio = ours / bare, cpu_ours / bare_cpu
    print(f"  ratio ctxaction / bare interpreter start = {start_ratio:.2f} (CPU time: {cpu_start_ratio:.2f})")
    if compare is not None:
        label = f"ctxaction-secrets ({compare.name})"
        print(f"  ratio now / {compare.name} = {ours / median[label]:.2f} (CPU time: ", end="")
        print(f"{cpu_ours / cpu_median[label]:.2f})")
        now, old = median["  --config, known valid"], median[f"  --config ({compare.name})"]
        print(f"  ratio now --config, known valid / {compare.name} --config = {now / old:.2f}")


def export_head(git_dir: Path, target: Path) -> Path:
    """The files of ``git_dir``'s HEAD written into ``target`` (a new folder), which is returned."""
    target.mkdir()
    archive = subprocess.run(
        ["git", "--git-dir", str(git_dir), "archive", "HEAD"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def _tree(work: Path, given: Path | None) -> Path:
    if given is not None:
        return given
    if MIRROR.exists():
        return export_head(MIRROR, work / "tree")
    return ROOT


def _text_files(tree: Path, max_mb: float, suffixes: frozenset[str] = TEXT_SUFFIXES) -> list[Path]:
    """Text files drawn evenly from the whole tree (shuffled with a fixed seed), up to ``max_mb``."""
    import random

    pool = [
        p
        for p in sorted(tree.rglob("*"))
        if p.suffix in suffixes and p.is_file() and not p.is_symlink() and ".git" not in p.parts
    ]
    random.Random(0).shuffle(pool)
    chosen, total = [], 0
    for path in pool:
        size = path.stat().st_size
        if total + size > max_mb * 1e6:
            break
        chosen.append(path)
        total += size
    return chosen


_REDACT_RUN = """
import sys, time
from pathlib import Path
from ctxaction.secure import redact
paths = [Path(p) for p in sys.argv[1:]]
texts = [(p.as_posix(), p.read_bytes().decode("utf-8", "replace")) for p in paths]
redact("warm-up: API_KEY = 'x'", "x.py")
start = time.perf_counter()
for name, text in texts:
    redact(text, name)
print(time.perf_counter() - start, sum(len(t) for _, t in texts))
"""

_DETECT_SECRETS_RUN = """
import sys, time
from detect_secrets.core.scan import scan_file
from detect_secrets.settings import default_settings
with default_settings():
    start = time.perf_counter()
    for name in sys.argv[1:]:
        list(scan_file(name))
print(time.perf_counter() - start, 0)
"""


def redact_throughput(work: Path, tree: Path, max_mb: float, compare: Path | None) -> None:
    files = _text_files(tree, max_mb)
    mb = sum(p.stat().st_size for p in files) / 1e6
    code = _text_files(tree, max_mb / 2, frozenset({".py"}))
    code_mb = sum(p.stat().st_size for p in code) / 1e6
    rows: list[tuple[str, str, Path, list[Path], float]] = [
        ("ctxaction redact()", _REDACT_RUN, ROOT, files, mb),
        ("  .py files only", _REDACT_RUN, ROOT, code, code_mb),
    ]
    if compare is not None:
        rows.append((f"ctxaction redact() ({compare.name})", _REDACT_RUN, compare, files, mb))
    rows.append(("detect-secrets scan_file()", _DETECT_SECRETS_RUN, ROOT, files, mb))
    print(f"redaction throughput over {len(files)} text files of {tree.name} ({mb:.1f} MB), in-process:")
    speed = {}
    for name, program, snapshot, paths, size in rows:
        out = subprocess.run(
            [sys.executable, "-c", program, *map(str, paths)],
            cwd=work,
            env=_env(snapshot),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        seconds = float(out[0])
        speed[name] = size / seconds
        per_10k = seconds / (size * 1e6 / 10_000) * 1000
        print(f"  {name:36s} {size / seconds:8.2f} MB/s  {per_10k:7.3f} ms per 10 KB")
    print(
        "  ratio ctxaction / detect-secrets = "
        f"{speed['ctxaction redact()'] / speed['detect-secrets scan_file()']:.1f}x faster"
    )


def throughput(work: Path, tree: Path, max_mb: float) -> None:
    files = _text_files(tree, max_mb)
    mb = sum(p.stat().st_size for p in files) / 1e6
    folder = work / "scan"
    for path in files:
        target = folder / path.relative_to(tree)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    timings = {}
    for name, cmd in (
        ("ctxaction scan", [_tool("ctxaction"), "scan", "--no-ignore", "--format", "json", "."]),
        ("detect-secrets scan", [_tool("detect-secrets"), "scan", "--all-files", "."]),
    ):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=folder, env=_env(), capture_output=True, check=False)
        timings[name] = time.perf_counter() - start
    print(f"CLI scan throughput over {len(files)} text files of {tree.name} ({mb:.1f} MB), whole process:")
    for name, seconds in timings.items():
        print(f"  {name:24s} {mb / seconds:7.2f} MB/s ({seconds:.1f} s)")
    ratio = timings["detect-secrets scan"] / timings["ctxaction scan"]
    print(f"  ratio ctxaction / detect-secrets = {ratio:.1f}x faster")


_PROFILE_RUN = """
import cProfile, pstats, sys
from ctxaction.hook import main
profile = cProfile.Profile()
profile.runcall(main, sys.argv[1:])
pstats.Stats(profile, stream=sys.stdout).sort_stats("cumulative").print_stats(18)
"""


def profile(work: Path, runs: int) -> None:
    repo = work / "hookrepo"
    names = sorted(p.relative_to(repo).as_posix() for p in (repo / "pkg").iterdir())
    best: dict[str, int] = {}
    for _ in range(runs):
        err = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "ctxaction.hook", *names],
            cwd=repo,
            env=_env(),
            capture_output=True,
            text=True,
            check=False,
        ).stderr
        for line in err.split("\n"):
            parts = line.split("|")
            if len(parts) == 3 and parts[1].strip().isdigit() and not parts[2].startswith("   "):
                name = parts[2].strip()
                best[name] = min(best.get(name, 10**9), int(parts[1]))
    print(f"hook imports, cumulative µs (best of {runs}), top-level modules over 1 ms:")
    for name, micros in sorted(best.items(), key=lambda kv: -kv[1]):
        if micros >= 1000:
            print(f"  {micros:8d}  {name}")
    out = subprocess.run(
        [sys.executable, "-c", _PROFILE_RUN, *names], cwd=repo, env=_env(), capture_output=True, text=True
    ).stdout
    print("hook cProfile (in-process, after imports of ctxaction.hook):")
    print("\n".join("  " + line for line in out.strip().split("\n")[-24:]))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, help="folder for the throughput runs (default: sphinx mirror)")
    parser.add_argument("--runs", type=int, default=9, help="hook runs per tool (median)")
    parser.add_argument("--max-mb", type=float, default=4.0, help="text megabytes of the tree to scan")
    parser.add_argument("--compare", type=Path, help="another copy of the package to time alongside")
    parser.add_argument("--profile", action="store_true", help="also print import times and a cProfile")
    parts = ("corpus", "hook", "redact", "scan")
    parser.add_argument("--skip", action="append", default=[], choices=parts, help="skip a part")
    args = parser.parse_args(argv)
    _tool("detect-secrets")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        tree = _tree(work, args.tree)
        if "corpus" not in args.skip:
            corpus_accuracy(work)
        if "hook" not in args.skip:
            hook_speed(work, tree, args.runs, args.compare)
            if args.profile:
                profile(work, args.runs)
        if "redact" not in args.skip:
            redact_throughput(work, tree, args.max_mb, args.compare)
        if "scan" not in args.skip:
            throughput(work, tree, args.max_mb)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
