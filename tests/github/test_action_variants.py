"""``ctxaction action`` on payload variants and API answers real repositories produce.

Each payload is a recorded webhook from tests/fixtures/webhooks with the fields the scenario is
about edited (said at each test); the API is the loopback fake of tests/ghserver.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ghserver import COMMENT_LIMIT, FakeGitHub, webhook_fixture
from tests.github.test_action_e2e import World, _fails_with, _issue_world, _routes, _world


@pytest.fixture
def world(tmp_path: Path, fake_github: FakeGitHub) -> World:
    return _world(tmp_path, fake_github)


def test_a_locked_issue_gets_the_package_in_the_summary(world: World) -> None:
    """Labelling a locked issue (issues.labeled.json with `locked: true`, as GitHub sends it for a
    locked conversation): GitHub refuses the workflow token's comment with 403, which is nobody's
    misconfiguration, so the package goes to the summary and the step stays green."""
    payload = webhook_fixture("issues.labeled.json")
    payload["issue"].update(locked=True, active_lock_reason="resolved")
    world.fake.add_issue(payload["issue"])
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert not result.annotations("error")
    (notice,) = result.annotations("notice")
    assert "#1 is locked" in notice and "unlock" in notice
    assert world.fake.comments[1] == []
    assert "Spelling error in the README file" in result.summary


def test_an_issue_deleted_before_the_run_ends_with_a_notice(world: World) -> None:
    """issues.opened.json, and the issue deleted (spam) before the job started: GitHub answers
    410 Gone for it. Nothing is left to package or to comment on: a notice, exit 0."""
    payload = _issue_world(world)
    world.fake.fail("GET", r"/issues/1(/comments)?$", 410, "This issue was deleted", times=2)
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert not result.annotations("error")
    (notice,) = result.annotations("notice")
    assert "#1 is gone" in notice and "This issue was deleted" in notice
    assert _routes(result) == ["GET /issues/1/comments", "GET /issues/1"]


def test_issues_turned_off_get_their_own_notice(world: World) -> None:
    """issues.opened.json, and Issues turned off in the repository's settings since: GitHub answers
    410 "Issues are disabled for this repo", which is not a deleted issue. A notice saying so and
    how to turn them on, exit 0, nothing posted, the thread not asked again."""
    payload = _issue_world(world)
    world.fake.issues_disabled = True
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert not result.annotations("error")
    (notice,) = result.annotations("notice")
    assert "issues are disabled for Codertocat/Hello-World" in notice and "turn Issues on" in notice
    assert "deleted" not in notice and "#1 is gone" not in notice
    assert _routes(result) == ["GET /issues/1/comments"]


def test_a_404_about_something_else_while_the_issue_reads_stays_an_error(world: World) -> None:
    """issues.opened.json with the issue in place, and a 404 on its comments (as a proxy or a
    misrouted API URL would give): the thread itself still answers, so nothing is gone."""
    payload = _issue_world(world)
    world.fake.fail("GET", r"/issues/1/comments$", 404, "Not Found")
    _fails_with(world, payload, "list comments of #1 failed (404): Not Found")


def test_an_issue_transferred_before_the_run_ends_with_a_notice(world: World) -> None:
    """issues.opened.json, and the issue transferred to a repository the token cannot see: the
    API answers 404 for it while the repository itself still reads."""
    payload = webhook_fixture("issues.opened.json")
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert not result.annotations("error")
    (notice,) = result.annotations("notice")
    assert "#1 is gone" in notice and "transferred" in notice
    assert [r.path for r in result.requests] == [
        "/repos/Codertocat/Hello-World/issues/1/comments",
        "/repos/Codertocat/Hello-World/issues/1",
        "/repos/Codertocat/Hello-World",
    ]


def test_an_issue_transferred_where_the_token_reads_ends_with_a_notice(world: World) -> None:
    """issues.opened.json, and the issue transferred to a repository the token can read (public,
    or a token for both): GitHub answers 404 for its comments and 301 for the issue, which
    PyGithub follows there. The answer is refused, as gone: a notice, exit 0, nothing posted."""
    payload = _issue_world(world)
    world.fake.transfer(1, "octo-org/elsewhere", 7)
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert not result.annotations("error")
    (notice,) = result.annotations("notice")
    assert "#1 is no longer in Codertocat/Hello-World" in notice and "transferred" in notice
    assert [f"{r.method} {r.path}" for r in result.requests] == [
        "GET /repos/Codertocat/Hello-World/issues/1/comments",
        "GET /repos/Codertocat/Hello-World/issues/1",
        "GET /repositories/700000/issues/7",  # PyGithub follows every 301; the answer is dropped
    ]


def test_a_number_input_naming_a_transferred_issue_reads_nothing_of_it(world: World) -> None:
    """workflow_dispatch with input `number: 1`, #1 transferred to a repository the token reads:
    the run had no payload to start from, and packages nothing of the other repository's issue."""
    _issue_world(world)
    world.fake.transfer(1, "octo-org/elsewhere", 7)
    repository = {"full_name": world.fake.repo}
    payload = {"inputs": {"number": "1"}, "ref": "refs/heads/main", "repository": repository}
    result = world.run("workflow_dispatch", payload)
    assert result.code == 0, result.stdout + result.stderr
    (notice,) = result.annotations("notice")
    assert "#1 is no longer in Codertocat/Hello-World" in notice
    assert _routes(result) == ["GET /issues/1", "GET /repositories/700000/issues/7"]  # followed once
    assert "Spelling error" not in result.summary + result.stdout


def test_a_404_from_a_token_that_cannot_read_the_repository_stays_an_error(world: World) -> None:
    """The same 404, but the repository does not read either: the token is wrong, not the issue."""
    payload = webhook_fixture("issues.opened.json")
    world.fake.fail("GET", r"^/repos/[^/]+/[^/]+$", 404, "Not Found")
    _fails_with(world, payload, "list comments of #1 failed (404): Not Found")


def test_context_on_an_issue_deleted_before_the_run_is_not_answered(world: World) -> None:
    """issue_comment.created.issue.json with the body `/context`, the issue deleted meanwhile:
    no reply is attempted on a thread that no longer exists."""
    payload = webhook_fixture("issue_comment.created.issue.json")
    payload["comment"]["body"] = "/context"
    world.fake.add_issue(payload["issue"])
    world.fake.roles[payload["comment"]["user"]["login"]] = "write"
    world.fake.fail("GET", r"/issues/1(/comments)?$", 410, "This issue was deleted", times=2)
    result = world.run("issue_comment", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert not result.annotations("error")
    assert not world.fake.calls("POST", r"/issues/1/comments$")


def test_a_failure_reply_fits_the_comment_limit(world: World) -> None:
    """/context by a collaborator (issue_comment.created.issue.json) where the config disables a
    rule named by 70,000 letters: the error quotes the name's start and says its length, and the
    😕 reply, which GitHub refuses with 422 above 65,536 characters (so does the fake), is posted
    within the limit with the reason's start and the usage line."""
    payload = webhook_fixture("issue_comment.created.issue.json")
    payload["comment"]["body"] = "/context"
    world.fake.add_issue(payload["issue"])
    world.fake.roles[payload["comment"]["user"]["login"]] = "write"
    rule = "a" * 70_000
    config = world.workspace.root / "context-packages.yaml"
    config.write_text(f"secrets:\n  disabled_rules: [{rule}]\n", encoding="utf-8")
    result = world.run("issue_comment", payload)
    assert result.code == 1
    (error,) = result.annotations("error")
    assert "unknown rule 'aaaa" in error and "…' (70,000 characters)" in error and len(error) < 500
    assert not result.annotations("warning"), result.annotations("warning")  # no "could not reply"
    (reply,) = world.fake.comments[1]
    assert len(reply["body"].encode("utf-16-le")) // 2 <= COMMENT_LIMIT
    assert "unknown rule 'aaaa" in reply["body"] and "Usage: `/context [profile]" in reply["body"]
