"""Definitions index: tree-sitter against the line scanner, per language, on real files.

Takes source files of each language from bare git mirrors (``MIRRORS/owner+name/repo``, read with
``git ls-tree``/``cat-file`` at HEAD), runs both readers on each file (best of ``--repeat`` runs)
and prints per language: files, total seconds of each, the ratio (scanner / tree-sitter, >1 means
tree-sitter is faster), the median per-file ratio, the one-time grammar load, definitions found by
each (qualified names), and a sample of the names only one of them finds. (C/C++ were measured
too and stay with the scanner: see :mod:`ctxaction.repo.symbols_ts`.)
Absolute times on a shared machine are noise; read the ratios.

    python bench/parse_speed.py --mirrors /work/.mirror [--files 40] [--repos 6] [--sample 8]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from ctxaction.repo.files import split_lines
from ctxaction.repo.kinds import language_of, path_skip_reason
from ctxaction.repo.symbols import MAX_CHARS
from ctxaction.repo.symbols_brace import brace_definitions
from ctxaction.repo.symbols_model import Definition
from ctxaction.repo.symbols_ts import available, grammar_of, ts_definitions

LANGS = ("javascript", "typescript", "go", "rust", "java")
MAX_BYTES = 400_000


def _git(gitdir: Path, *args: str) -> str:
    out = subprocess.run(["git", "--git-dir", str(gitdir), *args], capture_output=True, check=False)
    return out.stdout.decode("utf-8", "replace")


def _pick(mirrors: Path, per_lang: int, max_repos: int) -> dict[str, list[tuple[str, str, str]]]:
    """lang -> [(repo, path, text)]: up to ``per_lang`` files from up to ``max_repos`` repositories,
    chosen by a hash of the path (deterministic, spread over each repository)."""
    by_lang: dict[str, dict[str, list[tuple[str, str]]]] = {lang: {} for lang in LANGS}
    for repo_dir in sorted(mirrors.iterdir()):
        gitdir = repo_dir / "repo"
        if not gitdir.is_dir():
            continue
        for row in _git(gitdir, "ls-tree", "-r", "-l", "HEAD").splitlines():
            meta, _, path = row.partition("\t")
            parts = meta.split()
            if len(parts) != 4 or parts[1] != "blob" or not parts[3].isdigit():
                continue
            lang = language_of(path)
            if lang in by_lang and 2_000 <= int(parts[3]) <= MAX_BYTES and path_skip_reason(path) is None:
                by_lang[lang].setdefault(repo_dir.name, []).append((path, parts[2]))
    chosen: dict[str, list[tuple[str, str, str]]] = {}
    for lang, repos in by_lang.items():
        ranked = sorted(repos, key=lambda r: (-min(len(repos[r]), 200), r))[:max_repos]
        files: list[tuple[str, str, str]] = []
        for n in range(per_lang):
            if not ranked:
                break
            repo = ranked[n % len(ranked)]
            entries = sorted(repos[repo], key=lambda e: hashlib.sha1(e[0].encode()).hexdigest())
            k = n // len(ranked)
            if k < len(entries):
                path, sha = entries[k]
                text = _git(mirrors / repo / "repo", "cat-file", "blob", sha)
                files.append((repo, path, text))
        chosen[lang] = files
    return chosen


def _timed(fn: object, repeat: int) -> tuple[float, list[Definition]]:
    best = float("inf")
    out: list[Definition] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    return best, out


def main(argv: list[str] | None = None) -> int:
    """Print the per-language comparison; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirrors", required=True)
    ap.add_argument("--files", type=int, default=40, help="files per language")
    ap.add_argument("--repos", type=int, default=6, help="repositories per language")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sample", type=int, default=8, help="names found by only one reader to show")
    a = ap.parse_args(argv)
    chosen = _pick(Path(a.mirrors), a.files, a.repos)
    print("| language | files | repos | scanner s | tree-sitter s | total ratio | median ratio | "
          "grammar load s | defs scanner | defs tree-sitter | only scanner | only tree-sitter |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    samples: list[str] = []
    for lang in LANGS:
        files = chosen.get(lang, [])
        if not files:
            continue
        t0 = time.perf_counter()
        loaded = available(grammar_of(files[0][1], lang) or "")
        load_s = time.perf_counter() - t0  # grammar and query compiled once per process
        t_scan = t_ts = 0.0
        ratios: list[float] = []
        n_scan = n_ts = only_scan = only_ts = 0
        shown_scan: list[str] = []
        shown_ts: list[str] = []
        for repo, path, text in files:
            text = text[: text.rfind("\n", 0, MAX_CHARS)] if len(text) > MAX_CHARS else text
            s, scan = _timed(lambda t=text, g=lang: brace_definitions(split_lines(t), g), a.repeat)
            p, parsed = _timed(lambda t=text, p=path, g=lang: ts_definitions(t, p, g) or [], a.repeat)
            t_scan += s
            t_ts += p
            ratios.append(s / p if p > 0 else 1.0)
            a_names = Counter(d.qualname for d in scan)
            b_names = Counter(d.qualname for d in parsed)
            n_scan += len(scan)
            n_ts += len(parsed)
            only_scan += sum((a_names - b_names).values())
            only_ts += sum((b_names - a_names).values())
            for name in sorted(a_names - b_names)[:2]:
                line = next(d.start for d in scan if d.qualname == name)
                shown_scan.append(f"{repo}:{path}:{line} {name}")
            for name in sorted(b_names - a_names)[:2]:
                line = next(d.start for d in parsed if d.qualname == name)
                shown_ts.append(f"{repo}:{path}:{line} {name}")
        repos = len({r for r, _, _ in files})
        print(f"| {lang} | {len(files)} | {repos} | {t_scan:.3f} | {t_ts:.3f} | {t_scan / t_ts:.2f} | "
              f"{statistics.median(ratios):.2f} | {load_s:.3f}{'' if loaded else ' (failed)'} | "
              f"{n_scan} | {n_ts} | {only_scan} | {only_ts} |")
        step_a = max(1, len(shown_scan) // a.sample)
        step_b = max(1, len(shown_ts) // a.sample)
        samples.append(f"\n{lang}: only the scanner finds (sample)")
        samples += [f"  {x}" for x in shown_scan[::step_a][: a.sample]]
        samples.append(f"{lang}: only tree-sitter finds (sample)")
        samples += [f"  {x}" for x in shown_ts[::step_b][: a.sample]]
    print("\n".join(samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
