"""The same repository and task give the same package, whatever the interpreter's hash seed.

Python seeds string hashing per process, so anything that walks a set of names (which name a
line's use is credited to, the order a float sum adds up a set of keywords' weights, a directory's
files cut short) could change a package between two runs of the same build. Each build here is a
fresh process with its own seed, on a real repository built for the case.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.gitrepo import GitRepo

NAMES = ["start_rev", "end_rev", "author_pool", "pad_text"]
WORDS = ["changeset", "revision", "authors", "diff", "html", "attribs", "apool", "timeslider"]


def _long_module() -> str:
    body = []
    for i in range(240):
        a, b = NAMES[i % 4], NAMES[(i + 1) % 4]
        w1, w2, w3 = WORDS[i % 8], WORDS[(i + 3) % 8], WORDS[(i + 5) % 8]
        body.append(f"    x{i} = merge({a}, {b})  # {w1} {w2} {w3}")
    head = "def create_diff_html(start_rev, end_rev, author_pool, pad_text):\n"
    return head + "\n".join(body) + "\n    return x0\n"


def test_a_build_does_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    files = {f"src/pad_{k}.py": _long_module() for k in range(3)}
    files["src/api.py"] = (
        "from src.pad_0 import create_diff_html\n\n\n"
        "def handler(start_rev, end_rev):\n    return create_diff_html(start_rev, end_rev, None, '')\n"
    )
    repo.commit(files)
    issue = tmp_path / "issue.md"
    issue.write_text(
        "# createDiffHTML fails between start_rev and end_rev\n\n"
        "The changeset diff html for a revision range with `start_rev` and `end_rev` drops the "
        "authors from `author_pool`; the timeslider shows attribs from the apool of `pad_text`.\n",
        encoding="utf-8",
    )
    packages = set()
    for seed in ("1", "2", "3", "4"):
        out = tmp_path / f"package-{seed}.json"
        subprocess.run(
            [sys.executable, "-I", "-m", "ctxaction", "build", "--repo", str(repo.root), "--issue-file",
             str(issue), "--budget", "1500", "--format", "json", "--output", str(out)],
            env={**os.environ, "PYTHONHASHSEED": seed}, check=True, capture_output=True,
        )  # fmt: skip
        packages.add(out.read_text(encoding="utf-8"))
    assert len(packages) == 1
    assert "src/pad_" in packages.pop()
