"""A secret written with ``\\uXXXX`` escapes, end to end: no piece of it in a package, ``scan`` or
the hook.

A real repository holds a JSON config and a JS client whose keys are written with escapes (the
prefix only, and every character in upper-case hex), beside a translation file full of ordinary
escapes that must stay as it is. The values are generated and escaped at run time.
"""

from __future__ import annotations

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

WINDOW = 8
KEYS = {
    "gh": (expand("<<gh:ghp>>", "escaped-e2e-gh"), "ghp_"),
    "aws": (expand("AKIA<<b32:16>>", "escaped-e2e-aws"), "AKIA"),
}


def _escape(value: str, count: int, form: str = "\\u{:04x}") -> str:
    return "".join(form.format(ord(ch)) for ch in value[:count]) + value[count:]


def _files() -> dict[str, str]:
    gh, aws = KEYS["gh"][0], KEYS["aws"][0]
    return {
        ".github/context-packages.yaml": CONFIG,
        "leaks/config.json": '{\n  "github": {"token": "' + _escape(gh, 4) + '"}\n}\n',
        "leaks/client.js": "const id = '" + _escape(aws, len(aws), "\\u{:04X}") + "';\nexport default id;\n",
        "leaks/i18n.json": (
            '{"hello": "Bonjour, \\u00e7a va ?",\n "link": "\\u003ca href=\\u0022/\\u0022\\u003e"}\n'
        ),
    }


FILES = _files()
ESCAPED = ["leaks/client.js", "leaks/config.json"]


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    return staged_repo(tmp_path_factory.mktemp("escaped-staged") / "repo", FILES)


def test_the_hook_blocks_escaped_keys_and_prints_no_piece(staged: GitRepo) -> None:
    install(staged.root)
    proc = commit_through_hook(staged, "add config")
    assert proc.returncode != 0, "the hook let the escaped keys through"
    assert_no_key_pieces(KEYS, proc.stdout + proc.stderr, WINDOW, "the pre-commit hook")
    reported = {line.split(":", 1)[0] for line in (proc.stdout + proc.stderr).splitlines()}
    assert set(ESCAPED) <= reported
    assert "leaks/i18n.json" not in reported


def test_scan_reports_escaped_keys_and_prints_no_piece(staged: GitRepo) -> None:
    run = run_ctxaction(["scan", "--staged", "--format", "json"], staged.root)
    assert run.returncode == 1, run.stderr
    assert_no_key_pieces(KEYS, run.stdout + run.stderr, WINDOW, "scan --format json")
    found = json.loads(run.stdout)["findings"]
    assert sorted(f["path"] for f in found) == ESCAPED
    assert sorted(f["rule"] for f in found) == ["aws-access-key-id", "github-pat"]


def test_build_holds_no_piece(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.commit(FILES, "config")
    issue = tmp_path / "issue.txt"
    issue.write_text("Client fails\n\nSee leaks/config.json and leaks/client.js.\n", encoding="utf-8")
    target = tmp_path / "package.md"
    args = ["build", "--repo", str(repo.root), "--task", PROFILE, "-o", str(target)]
    run = run_ctxaction([*args, "--issue-file", str(issue)], repo.root)
    assert run.returncode == 0, run.stderr
    package = target.read_text(encoding="utf-8")
    assert_no_key_pieces(KEYS, run.stdout + run.stderr + package, WINDOW, "build")
    for path in [*ESCAPED, "leaks/i18n.json"]:
        assert path in package, f"{path} was not packed"
    assert package.count("[REDACTED:") >= 2
    assert "\\u00e7a va" in package  # ordinary escapes stay
