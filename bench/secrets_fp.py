"""False-alarm rate of the secrets engine on real code that holds no secrets, before/after.

Reads the HEAD tree of every git mirror under ``/work/.mirror/*/`` (bare git dirs, as ``fetch``
leaves them; secret scanners' own repositories are skipped, their test data is secrets on
purpose), scans each text blob with ``ctxaction.secure.scan`` and reports findings per MB of
text: that is the engine's false-positive rate on benign code. ``--compare DIR`` scans the same
blobs with another copy of the package (e.g. ``git archive main ctxaction | tar -x -C DIR``) in
the same run, so before and after come from identical input. Each side runs in its own
interpreter with ``PYTHONPATH`` pointing at its copy.

``--samples N`` lists up to N findings of the current engine per rule as ``repo:path:line`` with
the engine's masked preview (never the value), to inspect and fix false alarms.
``--corpus`` also prints precision/recall on the labelled corpus (tests/fixtures/secrets).

Usage: python bench/secrets_fp.py [--mirrors DIR] [--max-mb-per-repo MB] [--compare DIR]
                                  [--samples N] [--corpus]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIRRORS = Path("/work/.mirror")
# Repositories of secret scanners hold secrets and look-alikes on purpose: not benign code.
SCANNERS = ("gitleaks", "trufflehog", "detect-secrets", "secretlint", "ggshield", "noseyparker", "kingfisher")
MAX_BLOB = 2_000_000


def _git_dirs(root: Path) -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    if not root.is_dir():
        return found
    for entry in sorted(root.iterdir()):
        if not entry.is_dir() or entry.name.startswith(".") or entry.name.endswith(".part"):
            continue
        if any(name in entry.name.lower() for name in SCANNERS):
            continue
        for candidate in (entry / "repo" / ".git", entry / "repo"):
            if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
                found.append((entry.name, candidate))
                break
    return found


def _blobs(git_dir: Path, max_bytes: float) -> Iterator[tuple[str, str]]:
    """``(path, text)`` of the HEAD tree's text blobs, in path order, up to ``max_bytes``."""
    listing = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-l", "-z", "HEAD"],
        capture_output=True,
        check=False,
    ).stdout.decode("utf-8", "replace")
    wanted: list[tuple[str, str]] = []
    for record in listing.split("\0"):
        meta, _, path = record.partition("\t")
        parts = meta.split()
        if len(parts) != 4 or parts[1] != "blob" or not parts[3].isdigit():
            continue
        if 0 < int(parts[3]) <= MAX_BLOB:
            wanted.append((parts[2], path))
    proc = subprocess.Popen(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    total = 0
    try:
        for sha, path in wanted:
            proc.stdin.write(sha.encode() + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline().split()
            if len(header) != 3:
                continue
            data = proc.stdout.read(int(header[2]) + 1)[:-1]
            if b"\0" in data[:8000]:
                continue  # binary
            total += len(data)
            if total > max_bytes:
                break
            yield path, data.decode("utf-8", "replace")
    finally:
        proc.stdin.close()
        proc.kill()
        proc.wait()


def worker(git_dirs: list[tuple[str, Path]], max_mb: float, samples: int) -> dict[str, object]:
    """Scan ``git_dirs`` with the ``ctxaction`` importable here; counts as JSON-ready data."""
    from ctxaction.secure import scan

    repos: dict[str, dict[str, float]] = {}
    rules: Counter[str] = Counter()
    shown: dict[str, list[str]] = {}
    for name, git_dir in git_dirs:
        size = findings = files = 0
        for path, text in _blobs(git_dir, max_mb * 1e6):
            files += 1
            size += len(text.encode("utf-8", "replace"))
            for finding in scan(text, path):
                findings += 1
                rules[finding.rule] += 1
                picked = shown.setdefault(finding.rule, [])
                if len(picked) < samples:
                    picked.append(f"{name}:{path}:{finding.line}: {finding.preview.strip()[:160]}")
        repos[name] = {"mb": size / 1e6, "files": files, "findings": findings}
    return {"repos": repos, "rules": dict(rules), "samples": shown}


def _run(
    code: Path, args: argparse.Namespace, git_dirs: list[tuple[str, Path]], samples: int
) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    # Both sides get the same list: mirrors still being fetched must not appear in only one run.
    names = [str(git_dir) for _, git_dir in git_dirs]
    out = subprocess.run(
        [sys.executable, __file__, "--worker", "--max-mb-per-repo", str(args.max_mb_per_repo),
         "--samples", str(samples), *names],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, object] = json.loads(out)
    return result


def _corpus() -> None:
    sys.path.insert(0, str(ROOT))
    from ctxaction.secure import scan
    from tests.secrets_corpus import load, score

    cases = load()
    predicted = [bool(scan(case.text, case.path)) for case in cases]
    p, r, f = score(cases, predicted)
    secrets = sum(c.secret for c in cases)
    print(f"labelled corpus ({secrets} secrets, {len(cases) - secrets} look-alikes): "
          f"precision {p:.3f}  recall {r:.3f}  F1 {f:.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    """Measure findings per MB on the mirrors (and the labelled corpus with ``--corpus``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=MIRRORS, help="folder of mirrors")
    parser.add_argument("--max-mb-per-repo", type=float, default=40.0, help="text MB read per repository")
    parser.add_argument("--compare", type=Path, help="another copy of the package")
    parser.add_argument("--samples", type=int, default=0, help="findings listed per rule (masked)")
    parser.add_argument("--corpus", action="store_true", help="also score the labelled corpus")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("git_dirs", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        dirs = [(Path(d).parent.parent.name if Path(d).name == ".git" else Path(d).parent.name, Path(d))
                for d in args.git_dirs]
        print(json.dumps(worker(dirs, args.max_mb_per_repo, args.samples)))
        return 0
    if args.corpus:
        _corpus()
    git_dirs = _git_dirs(args.mirrors)
    now = _run(ROOT, args, git_dirs, args.samples)
    then = _run(args.compare, args, git_dirs, 0) if args.compare else None
    repos_now: dict[str, dict[str, float]] = now["repos"]  # type: ignore[assignment]
    repos_then: dict[str, dict[str, float]] = then["repos"] if then else {}  # type: ignore[assignment]
    mb = sum(r["mb"] for r in repos_now.values())
    found = sum(r["findings"] for r in repos_now.values())
    files = sum(r["files"] for r in repos_now.values())
    print(f"{len(repos_now)} mirrors, {files:.0f} text files, {mb:.1f} MB")
    header = f"  {'repository':40s} {'MB':>7s} {'now':>5s}"
    print(header + (f" {'before':>6s}" if then else ""))
    for name, row in sorted(repos_now.items()):
        line = f"  {name:40s} {row['mb']:7.1f} {row['findings']:5.0f}"
        if then:
            line += f" {repos_then.get(name, {}).get('findings', 0):6.0f}"
        print(line)
    print(f"findings per MB: now {found / mb:.3f} ({found} findings)" if mb else "no text scanned")
    if then and mb:
        before = sum(r["findings"] for r in repos_then.values())
        print(f"findings per MB: before {before / mb:.3f} ({before} findings)")
    rules_now: dict[str, int] = now["rules"]  # type: ignore[assignment]
    rules_then: dict[str, int] = then["rules"] if then else {}  # type: ignore[assignment]
    print("findings by rule (now / before):")
    for rule in sorted(set(rules_now) | set(rules_then), key=lambda r: -rules_now.get(r, 0)):
        print(f"  {rule:40s} {rules_now.get(rule, 0):5d} / {rules_then.get(rule, 0) if then else '-'}")
    shown: dict[str, list[str]] = now["samples"]  # type: ignore[assignment]
    for rule, lines in sorted(shown.items()):
        print(f"samples of {rule}:")
        for line in lines:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
