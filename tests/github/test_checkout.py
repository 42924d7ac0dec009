"""Workspace preparation with real git: safe.directory via env, deepening, PR heads as data."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from ctxaction.github import checkout
from tests.github.runner import clone, make_upstream
from tests.gitrepo import GitRepo


def test_safe_directory_through_the_environment(tmp_path: Path) -> None:
    env: dict[str, str] = {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "core.abbrev",
        "GIT_CONFIG_VALUE_0": "9",
    }
    checkout.trust_directory(tmp_path, env)
    checkout.trust_directory(tmp_path, env)  # idempotent
    assert env["GIT_CONFIG_COUNT"] == "2" and env["GIT_CONFIG_VALUE_1"] == str(tmp_path)
    out = subprocess.run(
        ["git", "config", "--get-all", "safe.directory"],
        env={**os.environ, **env, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == str(tmp_path)


def test_shallow_clone_is_detected_and_deepened(tmp_path: Path) -> None:
    up, _, _ = make_upstream(tmp_path / "up")
    ws = clone(up, tmp_path / "ws", depth=1)
    assert checkout.is_shallow(ws.root)
    assert ws.git("rev-list", "--count", "HEAD").strip() == "1"
    assert checkout.deepen(ws.root, 2) is None
    assert ws.git("rev-list", "--count", "HEAD").strip() == "3"
    assert "history-depth: 0" in (checkout.deepen(ws.root, 0) or "")


def test_deepen_without_a_remote_says_why(tmp_path: Path) -> None:
    up, _, _ = make_upstream(tmp_path / "up")
    ws = clone(up, tmp_path / "ws", depth=1)
    ws.git("remote", "remove", "origin")
    assert "no 'origin' remote" in (checkout.deepen(ws.root, 10) or "")


def test_pull_head_is_fetched_as_objects_only(tmp_path: Path) -> None:
    up, main, pr_head = make_upstream(tmp_path / "up")
    ws = clone(up, tmp_path / "ws")
    assert not checkout.has_commit(ws.root, pr_head)
    refs_before = ws.git("for-each-ref")
    assert checkout.fetch_pull_head(ws.root, 1, pr_head, depth=50) is None
    assert checkout.has_commit(ws.root, pr_head)
    assert ws.git("rev-parse", "HEAD").strip() == main  # nothing checked out
    assert ws.git("for-each-ref") == refs_before  # no ref written
    assert ws.git("status", "--porcelain") == ""
    assert "PR_HEAD_MARKER" not in (ws.root / "src/hello/greet.py").read_text(encoding="utf-8")


def test_pull_head_in_a_shallow_clone_stays_shallow(tmp_path: Path) -> None:
    up, _, pr_head = make_upstream(tmp_path / "up")
    ws = clone(up, tmp_path / "ws", depth=1)
    assert checkout.fetch_pull_head(ws.root, 1, pr_head, depth=1) is None
    assert checkout.has_commit(ws.root, pr_head) and checkout.is_shallow(ws.root)


def test_pull_head_problems_are_reported(tmp_path: Path) -> None:
    up, _, _ = make_upstream(tmp_path / "up")
    ws = clone(up, tmp_path / "ws")
    assert "not a commit id" in (checkout.fetch_pull_head(ws.root, 1, "--upload-pack=evil", 1) or "")
    moved = "f" * 40
    assert "force-pushed" in (checkout.fetch_pull_head(ws.root, 1, moved, 1) or "")
    assert checkout.fetch_pull_head(ws.root, 99, moved, 1) is not None  # no such ref


def test_credentials_only_for_the_server_and_only_meanwhile(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.git("remote", "add", "origin", "https://github.com/o/r.git")
    before = dict(os.environ)
    with checkout.credentials(repo.root, "ghs_secret", "https://github.com"):
        count = int(os.environ["GIT_CONFIG_COUNT"])
        keys = {os.environ[f"GIT_CONFIG_KEY_{i}"] for i in range(count)}
        assert "http.https://github.com/.extraheader" in keys
    assert dict(os.environ) == before
    with checkout.credentials(repo.root, "ghs_secret", "https://ghe.example.com"):
        assert dict(os.environ) == before  # another server: no header
    repo.git("config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic eA==")
    with checkout.credentials(repo.root, "ghs_secret", "https://github.com"):
        assert dict(os.environ) == before  # the checkout persisted one already
