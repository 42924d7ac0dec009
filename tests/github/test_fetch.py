"""Fetching a thread as a Task through the API (the action's and ``build --issue/--pr``'s path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxaction.github.client import ACTIONS_BOT, Client
from ctxaction.github.deliver import MARKER, REPLY_MARKER
from ctxaction.github.fetch import FetchError, closing_issues, fetch_task, fetch_thread, repo_from_remote
from tests.ghserver import FakeGitHub, rest_fixture, webhook_fixture
from tests.gitrepo import GitRepo

REPO = "Codertocat/Hello-World"


def test_closing_issues_keywords_order_and_cap() -> None:
    body = "Fixes #12, closes #7 and resolved: #12. Mentions #99. FIXED #3, resolves #8"
    assert closing_issues(body, own=3) == [12, 7, 8]
    assert closing_issues("fixes #1 fixes #2 fixes #4 fixes #5") == [1, 2, 4]


def test_issue_thread_leaves_out_our_own_comments(fake_github: FakeGitHub) -> None:
    issue = rest_fixture("issues.get.200.json")
    issue["number"] = 1
    del issue["pull_request"]  # GitHub's example issue is a PR's issue view; make it a plain issue
    fake_github.add_issue(issue)
    fake_github.add_comment(1, "I can reproduce it on 3.12.", login="alice")
    fake_github.add_comment(1, f"{MARKER}\nold package", login=ACTIONS_BOT, user_type="Bot")
    fake_github.add_comment(1, f"{REPLY_MARKER}\nCould not run", login=ACTIONS_BOT, user_type="Bot")
    thread = fetch_thread(Client(REPO, "ghs_t", fake_github.base_url), 1)
    assert thread.task.kind == "issue" and thread.task.title == issue["title"]
    assert [c.author for c in thread.task.comments] == ["alice"]
    assert len(thread.comments) == 3  # all of them stay visible to the upsert
    assert thread.task.labels == [label["name"] for label in issue["labels"]]


def test_pr_thread_has_changed_files_head_base_and_closed_issue_text(fake_github: FakeGitHub) -> None:
    pull = webhook_fixture("pull_request.opened.json")["pull_request"]
    pull["body"] = "Fixes #1 and fixes #404"
    fake_github.add_pull(pull, ["README.md", "docs/guide.md"])
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    thread = fetch_thread(Client(REPO, "ghs_t", fake_github.base_url), 2, data=pull, is_pr=True)
    assert thread.task.kind == "pr" and thread.task.changed_files == ["README.md", "docs/guide.md"]
    assert (thread.head_sha, thread.base_sha) == (pull["head"]["sha"], pull["base"]["sha"])
    assert "Linked issue #1: Spelling error in the README file" in thread.task.body
    assert any("#404" in w for w in thread.warnings)
    assert not fake_github.calls("GET", r"/pulls/2$")  # the payload had head and base


def test_a_linked_issue_transferred_elsewhere_is_not_read(fake_github: FakeGitHub) -> None:
    """A PR that fixes #1, and #1 transferred to a repository the token also reads: its text
    stays out of the package (it is another repository's), and a warning says why."""
    pull = webhook_fixture("pull_request.opened.json")["pull_request"]
    pull["body"] = "Fixes #1"
    fake_github.add_pull(pull, ["README.md"])
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.transfer(1, "octo-org/elsewhere", 7)
    thread = fetch_thread(Client(REPO, "ghs_t", fake_github.base_url), 2, data=pull, is_pr=True)
    assert "Linked issue" not in thread.task.body and "Spelling error" not in thread.task.body
    (warning,) = thread.warnings
    assert warning.startswith("linked issue #1 could not be read: the answer is not this repository's")


def test_fetch_task_for_local_builds(fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch) -> None:
    pull = webhook_fixture("pull_request.opened.json")["pull_request"]
    fake_github.add_pull(pull, ["README.md"])
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_local")
    monkeypatch.setenv("GITHUB_API_URL", fake_github.base_url)
    task = fetch_task(2, kind="pr", repo=REPO)
    assert task.kind == "pr" and task.number == 2 and task.changed_files == ["README.md"]
    assert fake_github.requests[0].authorization == "token ghp_local"
    with pytest.raises(FetchError, match="is a pull request: use --pr 2"):
        fetch_task(2, kind="issue", repo=REPO)
    with pytest.raises(FetchError, match="is an issue, not a pull request"):
        fetch_task(1, kind="pr", repo=REPO)
    with pytest.raises(FetchError, match=r"get issue #5 failed \(404\)"):
        fetch_task(5, repo=REPO)


def test_fetch_task_needs_a_repo_and_a_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("GITHUB_TOKEN", "GH_TOKEN", "GITHUB_REPOSITORY"):
        monkeypatch.delenv(var, raising=False)
    repo = GitRepo(tmp_path / "r")
    with pytest.raises(FetchError, match="--github-repo"):
        fetch_task(1, cwd=repo.root)
    with pytest.raises(FetchError, match="owner/name"):
        fetch_task(1, repo="not a repo")
    repo.git("remote", "add", "origin", "git@github.com:octo/widgets.git")
    assert repo_from_remote(repo.root) == "octo/widgets"
    with pytest.raises(FetchError, match="GITHUB_TOKEN"):
        fetch_task(1, cwd=repo.root)
