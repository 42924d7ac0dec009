"""History scans in real repositories: ``scan --history``, ``scan --diff`` over a range, and the
pre-push hook through a real ``git push`` to a bare remote."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.cli import main
from ctxaction.hook import PUSH_SHIM, install, uninstall
from ctxaction.hook import main as hook_main
from ctxaction.secure.history import HistoryRange, history
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo, git_env

ROOT = Path(__file__).resolve().parents[2]
KEY = expand('API_KEY = "<<alnum:32>>"\n', "history")
SECRET = KEY.split('"')[1]
KEY2 = expand('TOKEN = "<<gh:ghp>>"\n', "history2")


def scan(repo: GitRepo, *args: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.chdir(repo.root)
    return main(["scan", *args])


def added_then_removed(repo: GitRepo) -> str:
    """Three commits: clean, one adding KEY as line 3 of a.py, one removing it; returns the sha
    of the commit that added it."""
    repo.commit({"a.py": "x = 1\ny = 2\n"}, "clean", date="2020-01-01T00:00:00")
    sha = repo.commit({"a.py": "x = 1\ny = 2\n" + KEY}, "oops", date="2021-01-01T00:00:00")
    repo.commit({"a.py": "x = 1\ny = 2\n"}, "remove", date="2022-01-01T00:00:00")
    return sha


def test_history_finds_a_key_added_and_removed(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    sha = added_then_removed(repo)
    assert scan(repo, monkeypatch=monkeypatch) == 0  # the work tree is clean
    assert scan(repo, "--history", monkeypatch=monkeypatch) == 1
    out, err = capsys.readouterr()
    assert out == f'a.py:3:12: generic-secret API_KEY = "****" (commit {sha[:12]})\n'
    assert SECRET not in out + err
    assert scan(repo, "--history", "--format", "json", monkeypatch=monkeypatch) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["commit"], f["path"], f["line"]) for f in found] == [(sha, "a.py", 3)]
    # Ranges and dates select commits.
    assert scan(repo, "--history", f"{sha}..HEAD", monkeypatch=monkeypatch) == 0
    assert scan(repo, "--history", f"{sha}~1..{sha}", monkeypatch=monkeypatch) == 1
    assert scan(repo, "--history", "HEAD~1", monkeypatch=monkeypatch) == 1
    assert scan(repo, "--history", "--since", "2021-06-01", monkeypatch=monkeypatch) == 0
    assert scan(repo, "--history", "--since", "2020-06-01", monkeypatch=monkeypatch) == 1


def test_diff_over_a_range_reports_what_its_commits_added(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    sha = added_then_removed(repo)
    assert scan(repo, "--diff", "HEAD~2", monkeypatch=monkeypatch) == 1
    assert f'a.py:3:12: generic-secret API_KEY = "****" (commit {sha[:12]})' in (
        capsys.readouterr().out
    )
    assert scan(repo, "--diff", "HEAD~1", monkeypatch=monkeypatch) == 0
    # A secret still in the net diff is reported once, as the net diff shows it.
    repo.commit({"b.py": KEY2})
    assert scan(repo, "--diff", "HEAD~1", monkeypatch=monkeypatch) == 1
    assert capsys.readouterr().out.count("b.py:1:") == 1


def test_line_numbers_hunks_paths_and_skipped_content(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    body = [f"v{i} = {i}\n" for i in range(40)]
    repo.commit({"dir with space/ü.py": "".join(body), "bin.dat": b"\0\1\2"})
    body[4] = KEY
    body[30] = KEY2
    # Two hunks far apart, a binary change, a deletion, and a rename in one commit.
    repo.git("mv", "bin.dat", "moved.dat")
    repo.commit({"dir with space/ü.py": "".join(body), "moved.dat": b"\0\1\3" + KEY.encode()})
    assert scan(repo, "--history", monkeypatch=monkeypatch) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0] for line in out] == ["dir with space/ü.py:5:12", "dir with space/ü.py:31:10"]


def test_hunks_are_kept_apart_and_numbered_as_in_the_file(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.commit({"s.txt": "".join(f"{i}\n" for i in range(1, 11))})
    repo.commit({"s.txt": "1\nTWO\nTHREE\n4\n5\n6\n7\n8\nNINE\n10\n"})
    blobs = list(history(repo.root, HistoryRange(["HEAD~1..HEAD"]), max_bytes=10_000))
    assert [(b.path, b.text, b.line_map) for b in blobs] == [("s.txt", "TWO\nTHREE\n\nNINE", (2, 3, 0, 9))]


def test_merges_count_only_their_own_new_lines(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit({"a.py": "x = 1\n"})
    repo.git("checkout", "-q", "-b", "side")
    side = repo.commit({"b.py": KEY})
    repo.git("checkout", "-q", "main")
    repo.commit({"c.py": "z = 3\n"})
    repo.git("merge", "-q", "--no-ff", "--no-commit", "side")
    repo.write("evil.py", KEY2)  # content only the merge commit adds
    repo.git("add", "evil.py")
    repo.git("commit", "-q", "-m", "merge")
    merge = repo.git("rev-parse", "HEAD").strip()
    assert scan(repo, "--history", monkeypatch=monkeypatch) == 1
    out = capsys.readouterr().out.splitlines()
    assert sorted(out) == sorted(
        [
            f'b.py:1:12: generic-secret API_KEY = "****" (commit {side[:12]})',
            next(line for line in out if line.startswith("evil.py:1:")),
        ]
    )
    assert merge[:12] in next(line for line in out if line.startswith("evil.py:1:"))


def test_history_usage_errors(
    make_repo: Callable[..., GitRepo],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = make_repo()
    repo.commit({"a.py": "x = 1\n"})
    assert scan(repo, "--history", "no-such-branch", monkeypatch=monkeypatch) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "ctxaction scan: unknown revision or range 'no-such-branch'"
        " (check it with `git log`)"
    ]
    assert scan(repo, "--history=--output=/tmp/x", monkeypatch=monkeypatch) == 2
    assert "not a revision" in capsys.readouterr().err
    assert scan(repo, "--since", "2020-01-01", monkeypatch=monkeypatch) == 2
    assert "--since needs --history" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "--history"]) == 2
    assert "not a git repository" in capsys.readouterr().err


def test_history_skips_an_oversized_addition_with_a_note(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.write("context-packages.yaml", "secrets:\n  max_file_size: 1000\n")
    sha = repo.commit({"big.txt": "x = 1\n" * 400 + KEY})
    assert scan(repo, "--history", monkeypatch=monkeypatch) == 0
    err = capsys.readouterr().err
    size = 2400 + len(KEY)
    assert (
        f"note: big.txt (commit {sha[:12]}): skipped: {size:,} bytes added is over the 1,000-byte limit"
        in err
    )


# ---- pushes ------------------------------------------------------------------------------------


def _git(cwd: Path, *args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = git_env({"CTXACTION_PYTHON": sys.executable, **(extra or {})})
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)


def with_remote(make_repo: Callable[..., GitRepo], tmp_path: Path) -> GitRepo:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    repo = make_repo()
    repo.git("remote", "add", "origin", str(remote))
    return repo


def test_shim_in_repo_matches_the_installed_pre_push_hook() -> None:
    assert (ROOT / "hooks" / "pre-push").read_text(encoding="utf-8") == PUSH_SHIM
    assert os.access(ROOT / "hooks" / "pre-push", os.X_OK)


def test_pre_push_hook_blocks_a_push_of_a_key_added_and_removed(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = with_remote(make_repo, tmp_path)
    repo.commit({"a.py": "x = 1\n"})
    assert _git(repo.root, "push", "-q", "origin", "main").returncode == 0
    hooks = repo.root / ".git" / "hooks"
    log = tmp_path / "legacy-stdin"
    (hooks / "pre-push").write_text(f"#!/bin/sh\ncat >> '{log}'\n", encoding="utf-8")
    (hooks / "pre-push").chmod(0o755)
    assert "existing hook now runs first" in install(repo.root, pre_push=True)
    assert not (hooks / "pre-commit").exists()

    sha = repo.commit({"a.py": "x = 1\n" + KEY})
    repo.commit({"a.py": "x = 1\n"})
    blocked = _git(repo.root, "push", "origin", "main")
    assert blocked.returncode != 0
    assert f'a.py:2:12: generic-secret API_KEY = "****" (commit {sha[:12]})' in blocked.stdout
    assert SECRET not in blocked.stdout + blocked.stderr
    assert "refs/heads/main" in log.read_text(encoding="utf-8")  # the kept hook saw git's stdin
    assert (
        _git(repo.root, "ls-remote", "origin", "main").stdout.split()[0]
        != repo.git("rev-parse", "HEAD").strip()
    )

    # A new branch: only commits no remote has yet are scanned (main's old key is not repeated).
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit({"b.py": "y = 2\n"})
    assert _git(repo.root, "push", "--no-verify", "-q", "origin", "main").returncode == 0
    clean = _git(repo.root, "push", "origin", "feature")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    repo.commit({"c.py": KEY2})
    repo.commit({"c.py": ""})
    assert _git(repo.root, "push", "origin", "feature").returncode != 0
    # Deleting a remote branch pushes no commits.
    assert _git(repo.root, "push", "origin", ":feature").returncode == 0
    assert "restored the previous hook" in uninstall(repo.root, pre_push=True)


def test_pre_commit_framework_push_refs(
    make_repo: Callable[..., GitRepo],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = with_remote(make_repo, tmp_path)
    first = repo.commit({"a.py": "x = 1\n"})
    sha = repo.commit({"a.py": "x = 1\n" + KEY})
    last = repo.commit({"a.py": "x = 1\n"})
    monkeypatch.chdir(repo.root)
    for name in ("FROM_REF", "TO_REF", "REMOTE_NAME", "LOCAL_BRANCH"):
        monkeypatch.delenv(f"PRE_COMMIT_{name}", raising=False)
    assert hook_main(["a.py"]) == 0  # pre-commit stage: nothing staged
    # What pre-commit sets for a push of first..last: the files it passes do not matter.
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", first)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", last)
    assert hook_main(["a.py"]) == 1
    assert f"(commit {sha[:12]})" in capsys.readouterr().out
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", sha)
    assert hook_main([]) == 0
    # A new branch holding the root commit: pre-commit passes no refs, only the branch.
    monkeypatch.delenv("PRE_COMMIT_FROM_REF")
    monkeypatch.delenv("PRE_COMMIT_TO_REF")
    monkeypatch.setenv("PRE_COMMIT_REMOTE_NAME", "origin")
    monkeypatch.setenv("PRE_COMMIT_LOCAL_BRANCH", "refs/heads/main")
    assert hook_main([]) == 1
    repo.git("push", "-q", "--no-verify", "origin", "main")
    assert hook_main([]) == 0  # everything is on the remote now


def test_push_through_the_pre_commit_framework(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    """pre-commit's own pre-push hook, installed for real, hands the pushed range to ours."""
    repo = with_remote(make_repo, tmp_path)
    entry = f"{sys.executable} -m ctxaction.hook"
    repo.commit(
        {
            "a.py": "x = 1\n",
            ".pre-commit-config.yaml": (
                "repos:\n  - repo: local\n    hooks:\n      - id: ctxaction-secrets-push\n"
                f"        name: secrets in pushed commits\n        entry: {entry}\n"
                "        language: system\n        always_run: true\n        pass_filenames: false\n"
                "        stages: [pre-push]\n"
            ),
        }
    )
    assert _git(repo.root, "push", "-q", "origin", "main").returncode == 0
    home = {"PRE_COMMIT_HOME": str(tmp_path / "pc-home")}
    installed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install", "--hook-type", "pre-push"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **home},
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    sha = repo.commit({"a.py": "x = 1\n" + KEY})
    repo.commit({"a.py": "x = 1\n"})
    blocked = _git(repo.root, "push", "origin", "main", extra=home)
    assert blocked.returncode != 0, blocked.stdout + blocked.stderr
    assert f"(commit {sha[:12]})" in blocked.stdout + blocked.stderr
    assert SECRET not in blocked.stdout + blocked.stderr


def test_repository_config_cannot_hide_lines(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Config that changes git's patch output (merged hunks, no root diff, no prefixes) is overridden."""
    repo = make_repo()
    body = [f"v{i} = {i}\n" for i in range(12)]
    root = repo.commit({"a.py": KEY2, "b.py": "".join(body)})
    body[2], body[5] = "v2 = 'two'\n", KEY
    sha = repo.commit({"b.py": "".join(body)})
    for key, value in (("diff.interHunkContext", "10"), ("log.showRoot", "false"), ("diff.noprefix", "true")):
        repo.git("config", key, value)
    assert scan(repo, "--history", monkeypatch=monkeypatch) == 1
    out = capsys.readouterr().out
    assert f"b.py:6:12: generic-secret API_KEY = \"****\" (commit {sha[:12]})" in out
    assert "a.py:1:10: github-pat" in out and root[:12] in out
