"""A secret split into string pieces, end to end: no piece of it in a package, ``scan`` or the hook.

A real repository holds each language's way of continuing a string (Python ``\\`` and implicit
concatenation, JS/Java ``+``, C adjacent literals and line splices, PHP ``.``, YAML plain and folded
scalars) with a generated key cut in two or three (also inside its prefix), beside ordinary
continued strings (long SQL, messages) that must stay as they are. The values are generated and
cut at run time: no source line holds one.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from ctxaction.hook import install
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo
from tests.leaks.forms import (
    CONFIG,
    PROFILE,
    assert_no_key_pieces,
    commit_through_hook,
    run_ctxaction,
    staged_repo,
)

WINDOW = 8  # no run of this many characters of a key's own part may appear anywhere


def _keys() -> dict[str, tuple[str, str]]:
    """name -> (value, literal prefix a preview may show)."""
    return {
        "gh": (expand("<<gh:ghp>>", "split-e2e-gh"), "ghp_"),
        "stripe": (expand("sk_live_<<alnum:40>>", "split-e2e-stripe"), "sk_live_"),
        "aws": (expand("AKIA<<b32:16>>", "split-e2e-aws"), "AKIA"),
        "slack": (expand("xoxb-<<digits:12>>-<<digits:13>>-<<alnum:24>>", "split-e2e-slack"), "xoxb-"),
        "npm": (expand("<<npm>>", "split-e2e-npm"), "npm_"),
        "gho": (expand("<<gh:gho>>", "split-e2e-gho"), "gho_"),
        "stripe2": (expand("rk_live_<<alnum:30>>", "split-e2e-rk"), "rk_live_"),
        "password": (expand("<<alnum:11>>", "split-e2e-pw") + expand("<<alnum:11>>", "split-e2e-pw2"), ""),
        "ghs": (expand("<<gh:ghs>>", "split-e2e-ghs"), "ghs_"),
        "ghu": (expand("<<gh:ghu>>", "split-e2e-ghu"), "ghu_"),
        "aws2": (expand("AKIA<<b32:16>>", "split-e2e-aws2"), "AKIA"),
    }


KEYS = _keys()


def _cut(name: str, *at: int) -> list[str]:
    value = KEYS[name][0]
    bounds = [0, *at, len(value)]
    return [value[a:b] for a, b in itertools.pairwise(bounds)]


def _files() -> dict[str, str]:
    gh, stripe, aws, slack = _cut("gh", 10, 27), _cut("stripe", 20), _cut("aws", 10), _cut("slack", 22)
    npm, gho, rk, pw = _cut("npm", 16), _cut("gho", 21), _cut("stripe2", 12), _cut("password", 11)
    ghs = _cut("ghs", 15, 30)
    ghu, aws2 = _cut("ghu", 2), _cut("aws2", 2)  # cut inside the prefix: no keyword on any line
    return {
        ".github/context-packages.yaml": CONFIG,
        "leaks/billing.py": f'STRIPE_KEY = "{stripe[0]}" \\\n    "{stripe[1]}"\nTIMEOUT = 5\n',
        "leaks/keys.py": (
            f'GITHUB_TOKEN = (\n    "{gh[0]}"\n    "{gh[1]}"\n    "{gh[2]}"\n)\n'
            f'AWS_KEY_ID = ("{aws[0]}" "{aws[1]}")\n'
            f'DB_PASSWORD = "{pw[0]}" \\\n    "{pw[1]}"\n'
        ),
        "leaks/client.js": f"const slack = '{slack[0]}' +\n  '{slack[1]}';\nexport default slack;\n",
        "leaks/Registry.java": (
            f'class Registry {{\n  static final String NPM = "{npm[0]}"\n      + "{npm[1]}";\n}}\n'
        ),
        "leaks/oauth.c": f'static const char *token = "{gho[0]}"\n                          "{gho[1]}";\n',
        "leaks/pay.php": f"<?php\n$restricted = '{rk[0]}' .\n  '{rk[1]}';\n",
        # A backslash-newline inside the literal: C++ splices the three lines into one.
        "leaks/app_token.cpp": f'static const char *kApp = "{ghs[0]}\\\n{ghs[1]}\\\n{ghs[2]}";\n',
        "leaks/widget.ts": f'const w = "{ghu[0]}" + "{ghu[1]}";\nexport default w;\n',
        "leaks/cfg.py": f'X = (\n    "{aws2[0]}"\n    "{aws2[1]}"\n)\n',
        "leaks/values.yaml": (
            f"stripe:\n  secret_key: {stripe[0]}\n    {stripe[1]}\n"
            f"github:\n  token: >-\n    {gh[0]}\n    {gh[1]}\n    {gh[2]}\n"
        ),
        "leaks/queries.py": (
            "QUERY = (\n"
            '    "SELECT id, password_hash, api_token "\n'
            '    "FROM users WHERE secret_question = %s"\n'
            ")\n"
            'HINT = "Your access token has expired; " + \\\n'
            '    "sign in again to get a new one."\n'
        ),
    }


FILES = _files()
SPLIT = sorted(path for path in FILES if path.startswith("leaks/") and path != "leaks/queries.py")


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    return staged_repo(tmp_path_factory.mktemp("split-staged") / "repo", FILES)


def test_the_hook_blocks_every_split_key_and_prints_no_piece(staged: GitRepo) -> None:
    install(staged.root)  # the plain hook: ``python -I -m ctxaction.hook``
    proc = commit_through_hook(staged, "add clients")
    assert proc.returncode != 0, "the hook let the split keys through"
    assert_no_key_pieces(KEYS, proc.stdout + proc.stderr, WINDOW, "the pre-commit hook")
    reported = {line.split(":", 1)[0] for line in (proc.stdout + proc.stderr).splitlines()}
    assert set(SPLIT) <= reported
    assert "leaks/queries.py" not in reported


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_scan_reports_every_split_key_and_prints_no_piece(staged: GitRepo, fmt: str) -> None:
    run = run_ctxaction(["scan", "--staged", "--format", fmt], staged.root)
    assert run.returncode == 1, run.stderr
    assert_no_key_pieces(KEYS, run.stdout + run.stderr, WINDOW, f"scan --format {fmt}")
    for path in SPLIT:
        assert path in run.stdout, f"{path} not reported"
    assert "leaks/queries.py" not in run.stdout
    if fmt == "json":
        # One finding per key, not one per piece.
        assert len(json.loads(run.stdout)["findings"]) == 13


@pytest.fixture(scope="module")
def committed(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("split-committed") / "repo")
    repo.commit(FILES, "clients")
    return repo


@pytest.mark.parametrize("fmt", ["markdown", "xml", "json"])
def test_build_in_each_format_holds_no_piece(committed: GitRepo, fmt: str, tmp_path: Path) -> None:
    target = tmp_path / f"package.{fmt}"
    args = ["build", "--repo", str(committed.root), "--task", PROFILE, "--format", fmt, "-o", str(target)]
    issue = tmp_path / "issue.txt"
    issue.write_text("Billing client fails\n\nSee leaks/billing.py and leaks/keys.py.\n", encoding="utf-8")
    run = run_ctxaction([*args, "--issue-file", str(issue)], committed.root)
    assert run.returncode == 0, run.stderr
    package = target.read_text(encoding="utf-8")
    assert_no_key_pieces(KEYS, run.stdout + run.stderr + package, WINDOW, f"build --format {fmt}")
    for path in [*SPLIT, "leaks/queries.py"]:
        assert path in package, f"{path} was not packed"
    assert package.count("[REDACTED:") >= 13
    assert "FROM users WHERE secret_question" in package  # ordinary continued strings stay


def test_explain_holds_no_piece(committed: GitRepo, tmp_path: Path) -> None:
    issue = tmp_path / "issue.txt"
    issue.write_text("Slack client fails\n\nSee leaks/client.js and leaks/values.yaml.\n", encoding="utf-8")
    args = ["explain", "--repo", str(committed.root), "--task", PROFILE, "--issue-file", str(issue)]
    run = run_ctxaction(args, committed.root)
    assert run.returncode == 0, run.stderr
    assert_no_key_pieces(KEYS, run.stdout + run.stderr, WINDOW, "explain")
