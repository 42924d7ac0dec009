"""Build an eval set (Multi-SWE-bench records) from its cases.tsv, issues/ and git mirrors.

Each case names a real fix commit and the GitHub issue(s) it resolves. The record's base is the
fix commit's first parent; its fix_patch is the commit's diff restricted to non-test source files
(tests, docs, changelogs, examples and build files are left out, as Multi-SWE-bench keeps tests in
a separate test_patch); its issue text is the issue's title and description as stored in
issues/<owner>+<name>+<number>.md (first line title, blank line, body), never the PR or commit
message.

    python bench/polyglot/build_instances.py --mirrors /work/.mirror
    python bench/polyglot/build_instances.py --mirrors /work/.mirror --set bench/pybig

A set is a folder holding cases.tsv and issues/; instances.json and SOURCES.md are written there.
Python cases (family ``python``) take ``.py`` files as their source; the others the compiled and
scripting languages below.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE_EXT = {".js", ".mjs", ".cjs", ".ts", ".tsx", ".go", ".rs", ".java",
              ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh"}
PYTHON_EXT = {".py"}
NON_SOURCE_PARTS = {"test", "tests", "testing", "__tests__", "spec", "fixtures", "testdata",
                    "bench", "benches", "benchmark", "benchmarks", "examples", "example",
                    "fuzz", "docs", "doc"}


def is_fix_source(path: str, family: str = "") -> bool:
    """True for a non-test source file of ``family``'s languages whose change belongs in the gold
    fix_patch."""
    low = path.lower()
    if Path(low).suffix not in (PYTHON_EXT if family == "python" else SOURCE_EXT):
        return False
    if set(re.split(r"[/._-]", low)) & NON_SOURCE_PARTS:
        return False
    name = low.rsplit("/", 1)[-1]
    if name.startswith("test_") or name == "conftest.py":
        return False
    return not (low.endswith("_test.go") or re.search(r"(test|tests|spec)\.[a-z]+$", low))


def git(gitdir: Path, *args: str) -> str:
    """Run git against a bare mirror and return stdout (decoded leniently)."""
    out = subprocess.run(["git", "--git-dir", str(gitdir), *args], capture_output=True, check=True)
    return out.stdout.decode("utf-8", errors="replace")


def read_issue(path: Path) -> tuple[str, str]:
    """Split an issue file into (title, body)."""
    text = path.read_text(encoding="utf-8")
    title, _, body = text.partition("\n")
    return title.strip(), body.lstrip("\n").rstrip() + "\n"


def build_record(
    mirrors: Path, folder: Path, family: str, repo: str, commit: str, numbers: list[int]
) -> dict[str, object]:
    """One Multi-SWE-bench record for a case line."""
    owner, name = repo.split("/")
    gitdir = mirrors / f"{owner}+{name}" / "repo"
    sha = git(gitdir, "rev-parse", f"{commit}^{{commit}}").strip()
    base = git(gitdir, "rev-parse", f"{sha}^1").strip()
    changed = git(gitdir, "diff", "--name-only", base, sha).split("\n")
    files = [f for f in changed if f and is_fix_source(f, family)]
    if not files:
        raise SystemExit(f"{repo}@{commit}: no source file changed")
    patch = git(gitdir, "diff", base, sha, "--", *files)
    issues = []
    for n in numbers:
        title, body = read_issue(folder / "issues" / f"{owner}+{name}+{n}.md")
        issues.append({"number": n, "title": title, "body": body})
    return {"org": owner, "repo": name, "number": numbers[0],
            "instance_id": f"{owner}__{name}-{numbers[0]}", "split": family,
            "base": {"sha": base}, "fix_commit": sha, "fix_patch": patch,
            "fix_files": files, "resolved_issues": issues,
            "issue_urls": [f"https://github.com/{repo}/issues/{n}" for n in numbers]}


def sources_md(records: list[dict[str, object]], folder: Path) -> str:
    """SOURCES.md: per instance the repo, fix commit, gold files and where the issue text came from."""
    rows = [f"# Sources of the {folder.name} eval set", "",
            "Every instance is a real GitHub issue and the real commit that fixed it. The issue text "
            "(title + description, no comments, no PR text) was taken from the stored GitHub issue "
            "thread returned by the `search` tool's `issues` corpus for the URL below, and saved "
            "verbatim in `issues/`; a few long descriptions are truncated where the stored excerpt "
            "ended. Base = first parent of the fix commit; gold = the fix commit's changes to "
            "non-test source files. Rebuild with `python bench/polyglot/build_instances.py "
            f"--mirrors /work/.mirror{'' if folder == HERE else ' --set bench/' + folder.name}`.", "",
            "| instance | family | fix commit | gold files | issue (text source) |",
            "| --- | --- | --- | --- | --- |"]
    for r in records:
        files = ", ".join(f"`{f}`" for f in r["fix_files"])  # type: ignore[attr-defined]
        urls = " ".join(r["issue_urls"])  # type: ignore[arg-type]
        rows.append(f"| {r['instance_id']} | {r['split']} | {str(r['fix_commit'])[:12]} | {files} | {urls} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the set's instances.json and SOURCES.md; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirrors", required=True, help="folder of git mirrors (owner+name/repo)")
    ap.add_argument("--set", default=str(HERE), help="the set's folder (default: this one, polyglot)")
    ap.add_argument("--out", help="instances file (default: instances.json in the set's folder)")
    a = ap.parse_args(argv)
    folder = Path(a.set).resolve()
    out = Path(a.out) if a.out else folder / "instances.json"
    records = []
    for line in (folder / "cases.tsv").read_text(encoding="utf-8").split("\n"):
        if not line.strip() or line.startswith("#"):
            continue
        family, repo, commit, nums = line.split("\t")
        records.append(build_record(Path(a.mirrors), folder, family, repo, commit,
                                    [int(n) for n in nums.split(",")]))
    out.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    (folder / "SOURCES.md").write_text(sources_md(records, folder), encoding="utf-8")
    print(f"{len(records)} records -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
