"""``ctxaction build --issue N / --pr N``: the task fetched through the API, outside Actions."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.ghserver import FakeGitHub, webhook_fixture
from tests.github.runner import clone, entrypoint, make_upstream

REPO = "Codertocat/Hello-World"


def _build(
    workspace: Path, fake: FakeGitHub, *args: str, token: str | None = "ghp_localtoken"
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_TOKEN", "GH_TOKEN", "GITHUB_REPOSITORY")}
    env["GITHUB_API_URL"] = fake.base_url
    if token:
        env["GITHUB_TOKEN"] = token
    return subprocess.run(
        [*entrypoint(), "build", "--repo", str(workspace), "--github-repo", REPO, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_build_issue_and_pr_from_the_api(tmp_path: Path, fake_github: FakeGitHub) -> None:
    upstream, _, _ = make_upstream(tmp_path / "up")
    workspace = clone(upstream, tmp_path / "ws")
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.add_comment(1, "The typo is in the second paragraph.", login="alice")
    fake_github.add_pull(webhook_fixture("pull_request.opened.json")["pull_request"], ["src/hello/greet.py"])

    issue = _build(workspace.root, fake_github, "--issue", "1", "--format", "json")
    assert issue.returncode == 0, issue.stderr
    data = json.loads(issue.stdout)
    assert data["task"]["kind"] == "issue" and data["task"]["number"] == 1
    assert any(f["path"] == "README.md" for f in data["files"])
    assert [f"{r.method} {r.path}" for r in fake_github.requests] == [
        f"GET /repos/{REPO}/issues/1",
        f"GET /repos/{REPO}/issues/1/comments",
    ]
    assert fake_github.requests[0].authorization == "token ghp_localtoken"

    pr = _build(workspace.root, fake_github, "--pr", "2", "--format", "json")
    assert pr.returncode == 0, pr.stderr
    pr_data = json.loads(pr.stdout)
    assert pr_data["task"]["kind"] == "pr"
    assert pr_data["files"][0]["path"] == "src/hello/greet.py"


def test_build_issue_errors_are_one_line(tmp_path: Path, fake_github: FakeGitHub) -> None:
    upstream, _, _ = make_upstream(tmp_path / "up")
    workspace = clone(upstream, tmp_path / "ws")
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    wrong_kind = _build(workspace.root, fake_github, "--pr", "1")
    assert (
        wrong_kind.returncode == 1 and "is an issue, not a pull request: use --issue 1" in wrong_kind.stderr
    )
    missing = _build(workspace.root, fake_github, "--issue", "404")
    assert missing.returncode == 1 and "get issue #404 failed (404)" in missing.stderr
    no_token = _build(workspace.root, fake_github, "--issue", "1", token=None)
    assert no_token.returncode == 1 and "GITHUB_TOKEN" in no_token.stderr
    for result in (wrong_kind, missing, no_token):
        assert "Traceback" not in result.stderr and result.stderr.count("\n") <= 2
