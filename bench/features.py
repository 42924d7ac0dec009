"""Dump the ranking's signals for every candidate file of every instance, with the fix's gold files.

For each instance (shared harness format: SWE-bench records or Multi-SWE-bench ones) this builds
the harness's fresh repository at the base commit (reusing one that exists), runs phase 1 and 2 of
the pipeline (``ctxaction.rank.collect``) in this process, and writes one JSON line:

    {"instance_id", "repo", "split", "gold": {path: [old lines]}, "n_files",
     "candidates": [{"path", "signals", "prior", "score", "lines", "bytes", "focus"}]}

``bench/fit.py`` fits the scoring weights on these lines. Nothing here changes the package.
With ``--cv-dir`` (``bench/fit.py --cv-dir``'s output) each instance is ranked with the file
weights of the fold that held its repository out: replayed, that dump is the leave-repositories-out
estimate of the whole line, fitted weights included.

    python bench/features.py --instances ../shared/eval/data/train.json --mirrors /work/.mirror \
        --workdir /tmp/ctx-features --out bench/out/features.jsonl [--jobs 2] [--cv-dir CV] \
        [--set ctxaction.mentions.words.TITLE_FACTOR=4]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cv_folds import file_weights_by_repo  # bench/cv_folds.py: fit.py's --cv-dir files
from overrides import apply  # bench/overrides.py: the --set values

HERE = Path(__file__).resolve().parent
DEFAULT_HARNESS = HERE.parent.parent / "shared" / "eval"


def _harness(path: Path) -> object:
    sys.path.insert(0, str(path))
    # The shared harness (../shared/eval, found at run time): worktrees and gold lines as it scores them.
    import swebench  # type: ignore[import-not-found]

    return swebench


def one(args: tuple[dict[str, object], str, str, str, dict[str, float] | None, list[str]]) -> str:
    """The JSON line of one instance (or an error record); ``weights`` (a fold's file weights)
    replace the shipped ones for this instance's ranking, ``settings`` override constants."""
    inst, gitdir, workdir, harness, weights, settings = args
    apply(settings)
    sb = _harness(Path(harness))
    from ctxaction.config.load import load_config
    from ctxaction.rank import FOCUS_FILES, note_recent, rank_files
    from ctxaction.rank.evidence import features, owned_lines
    from ctxaction.rank.focus import build_focus, note_calls
    from ctxaction.repo.files import open_repo
    from ctxaction.repo.symbols import definitions
    from ctxaction.sanitize import clean_task
    from ctxaction.task import read_issue_file

    iid = str(inst["instance_id"])
    rec: dict[str, object] = {"instance_id": iid, "repo": inst["repo"], "split": inst.get("split") or "?"}
    try:
        repo_obj = sb.git_repo(gitdir)  # type: ignore[attr-defined]
        commit = str(inst["base_commit"])
        missing = [p for p, e in repo_obj.tree(commit).items() if e[1] == "blob" and e[3] < 0]
        wt = sb.make_worktree(gitdir, commit, os.path.join(workdir, "wt", iid), True, missing)  # type: ignore[attr-defined]
        source = sb.WorktreeSource(wt)  # type: ignore[attr-defined]
        gold: dict[str, list[int]] = {}
        for fd in sb.parse_patch(str(inst["patch"])):  # type: ignore[attr-defined]
            if fd.status == "added":
                continue
            lines = source.lines(fd.old_path)
            if lines is not None:
                gold[fd.old_path] = sorted(sb.gold_lines(fd, len(lines)))  # type: ignore[attr-defined]
        repo_obj.close()
        issue = Path(workdir) / "issues" / f"{iid}.md"
        issue.parent.mkdir(parents=True, exist_ok=True)
        # Written aside and renamed: another dump of the same work folder may be reading it.
        part = issue.with_name(f"{issue.name}.{os.getpid()}.part")
        part.write_text(sb.issue_text(str(inst["problem_statement"])), encoding="utf-8")  # type: ignore[attr-defined]
        os.replace(part, issue)
        task, _ = clean_task(read_issue_file(issue))
        with open_repo(Path(wt)) as repo:
            profile = load_config(repo.root, None).profile("auto", task.labels)
            if weights is not None:
                profile = dataclasses.replace(profile, scoring={**profile.scoring, **weights})
            ranking = rank_files(repo, task, profile)
            # The recent-change hints of the focused files, and of the gold files for the fit.
            focused = [c.path for c in ranking.candidates[:FOCUS_FILES]]
            note_recent(repo, ranking, [*focused, *(p for p in gold if p not in focused)])
            sizes = {f.path: f.size for f in repo.tracked()}
            subwords = ranking.query.subword_weights
            cands = []
            for rank, c in enumerate(ranking.candidates):
                text = repo.read_text(c.path) if c.path in gold or rank < FOCUS_FILES else None
                hints = ranking.hints(c.path)
                if text is not None and hints is not None and rank < FOCUS_FILES:
                    c.focus = build_focus(c.path, text, hints, ranking.query)
                item: dict[str, object] = {
                    "path": c.path, "signals": c.signals, "prior": c.prior, "score": c.score,
                    "reasons": c.reasons[:3],
                    "bytes": sizes.get(c.path, 0),
                    "lines": text.count("\n") + 1 if text is not None else None,
                    "focus": [[f.start, f.end, f.weight, f.why] for f in c.focus],
                }
                if c.path in gold and text is not None and hints is not None:
                    # Every definition of a gold file with its evidence, labelled by the fix.
                    defs = definitions(text, c.path)
                    owned = owned_lines(defs)
                    note_calls(hints, defs, text.split("\n"))
                    golden = set(gold[c.path])
                    rows = []
                    for i, d in enumerate(defs):
                        f, _ = features(d, owned.get(i, set()), hints, ranking.query, subwords)
                        lines = owned.get(i) or set(range(d.start, d.end + 1))
                        rows.append({
                            "name": d.name, "kind": d.kind, "start": d.start, "end": d.end,
                            "in_test": d.in_test, "features": f, "gold": bool(lines & golden),
                        })
                    item["definitions"] = rows
                cands.append(item)
            rec.update(gold=gold, n_files=len(sizes), candidates=cands)
    except Exception as exc:  # one broken instance must not end the dump
        rec.update(error=f"{type(exc).__name__}: {exc}", trace=traceback.format_exc()[-2000:])
    return json.dumps(rec)


def main(argv: list[str] | None = None) -> int:
    """Dump every selected instance; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--instances", required=True)
    ap.add_argument("--mirrors", required=True)
    ap.add_argument("--harness", default=str(DEFAULT_HARNESS))
    ap.add_argument("--workdir", default="/tmp/ctx-features")
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--instance-ids", default="")
    ap.add_argument("--cv-dir", type=Path, help="bench/fit.py --cv-dir output: rank each instance "
                    "with the file weights of the fold that held its repository out")
    ap.add_argument("--set", action="append", default=[], help="module.ATTR=value override (a ranking "
                    "constant, e.g. ctxaction.mentions.words.TITLE_FACTOR=4)")
    a = ap.parse_args(argv)
    fold_of = file_weights_by_repo(a.cv_dir) if a.cv_dir else {}
    sb = _harness(Path(a.harness).resolve())
    instances = sb.load_instances(a.instances)  # type: ignore[attr-defined]
    keep = {s for s in a.instance_ids.split(",") if s}
    done: set[str] = set()
    out = Path(a.out)
    if out.exists():
        done = {json.loads(line)["instance_id"] for line in out.read_text().splitlines() if line.strip()}
    work = []
    for inst in instances:
        if (keep and inst["instance_id"] not in keep) or inst["instance_id"] in done:
            continue
        gitdir = sb.resolve_mirror(a.mirrors, inst["repo"], {})  # type: ignore[attr-defined]
        if gitdir:
            weights = fold_of[str(inst["repo"]).lower()] if a.cv_dir else None
            work.append((inst, gitdir, a.workdir, str(Path(a.harness).resolve()), weights, a.set))
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as f, ProcessPoolExecutor(a.jobs) as pool:
        for i, line in enumerate(pool.map(one, work), 1):
            f.write(line + "\n")
            f.flush()
            print(f"\r{i}/{len(work)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
