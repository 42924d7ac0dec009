"""Webhook payloads (real recorded ones) → requests; lenient parsing and clear field errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ctxaction.github.event import EventError, Request, Skip, load_event, parse_event
from tests.ghserver import WEBHOOKS, webhook_fixture


def test_issues_opened_is_a_request_for_the_issue() -> None:
    req = load_event("issues", WEBHOOKS / "issues.opened.json")
    assert isinstance(req, Request)
    assert (req.repo, req.number, req.is_pr, req.action) == ("Codertocat/Hello-World", 1, False, "opened")
    assert req.data is not None and req.data["title"] == "Spelling error in the README file"
    assert req.comment is None


@pytest.mark.parametrize(
    "name",
    [
        "issues.edited.json",
        "issues.labeled.json",
        "issues.opened.empty-body.json",
        "issues.opened.real2023.json",
    ],
)
def test_other_issue_payloads_parse(name: str) -> None:
    req = load_event("issues", WEBHOOKS / name)
    assert isinstance(req, Request) and req.is_pr is False and req.number >= 1


def test_labeled_issue_carries_its_labels() -> None:
    req = load_event("issues", WEBHOOKS / "issues.labeled.json")
    assert isinstance(req, Request)
    assert req.labels == [
        label["name"] for label in webhook_fixture("issues.labeled.json")["issue"]["labels"]
    ]


@pytest.mark.parametrize(
    "name",
    [
        "pull_request.opened.json",
        "pull_request.synchronize.json",
        "pull_request.opened.null-body.json",
        "pull_request.synchronize.real2023.json",
    ],
)
def test_pull_request_payloads_pin_the_head_sha(name: str) -> None:
    payload = webhook_fixture(name)
    req = parse_event("pull_request", payload)
    assert isinstance(req, Request) and req.is_pr is True
    assert req.head_sha == payload["pull_request"]["head"]["sha"]
    assert req.number == payload["pull_request"]["number"]


@pytest.mark.parametrize("action", ["reopened", "ready_for_review"])
def test_pull_request_reopened_and_ready_for_review(action: str) -> None:
    payload = webhook_fixture("pull_request.opened.json")
    payload["action"] = action
    assert isinstance(parse_event("pull_request", payload), Request)


def test_closed_pull_request_and_closed_issue_are_skipped() -> None:
    payload = webhook_fixture("pull_request.opened.json")
    payload["action"] = "closed"
    skip = parse_event("pull_request", payload)
    assert isinstance(skip, Skip) and "closed" in skip.reason
    issue = webhook_fixture("issues.opened.json")
    issue["action"] = "closed"
    assert isinstance(parse_event("issues", issue), Skip)


def test_issue_comment_on_a_pr_is_told_apart_by_issue_pull_request() -> None:
    on_pr = load_event("issue_comment", WEBHOOKS / "issue_comment.created.pr.json")
    on_issue = load_event("issue_comment", WEBHOOKS / "issue_comment.created.issue.json")
    assert isinstance(on_pr, Request) and isinstance(on_issue, Request)
    assert on_pr.is_pr is True and on_issue.is_pr is False
    assert on_pr.comment is not None and on_pr.comment.author == "mmoreiradj" and not on_pr.comment.is_bot
    assert on_pr.head_sha == ""  # the payload has no head: the API must be asked


def test_edited_comments_are_opt_in() -> None:
    path = WEBHOOKS / "issue_comment.edited.pr.json"
    skip = load_event("issue_comment", path)
    assert isinstance(skip, Skip) and "edited-comments" in skip.reason
    assert isinstance(load_event("issue_comment", path, allow_edited=True), Request)


def test_bot_comment_is_flagged() -> None:
    payload = webhook_fixture("issue_comment.created.issue.json")
    payload["comment"]["user"].update(login="dependabot[bot]", type="Bot")
    req = parse_event("issue_comment", payload)
    assert isinstance(req, Request) and req.comment is not None and req.comment.is_bot


def test_workflow_dispatch_reads_the_number_input() -> None:
    base = webhook_fixture("issues.opened.json")
    payload = {"inputs": {"number": "7"}, "ref": "refs/heads/main", "repository": base["repository"]}
    req = parse_event("workflow_dispatch", payload)
    assert isinstance(req, Request) and req.number == 7 and req.is_pr is None and req.data is None


def test_repository_falls_back_to_github_repository() -> None:
    payload = {"inputs": {"number": 3}}
    req = parse_event("workflow_dispatch", payload, repository="octo/widgets")
    assert isinstance(req, Request) and req.repo == "octo/widgets"


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda p: p["issue"].pop("number"), "issue.number"),
        (lambda p: p["issue"].update(number="seven"), "issue.number"),
        (lambda p: p.pop("issue"), "issue"),
        (lambda p: p["repository"].update(full_name="not a repo"), "repository.full_name"),
        (lambda p: p["issue"].update(labels="bug"), "issue.labels"),
    ],
)
def test_bad_payload_names_the_field(mutate, field: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    payload = webhook_fixture("issues.opened.json")
    mutate(payload)
    path = tmp_path / "event.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    with pytest.raises(EventError) as info:
        load_event("issues", path)
    assert f"'{field}'" in str(info.value) and str(path) in str(info.value)


def test_workflow_dispatch_without_number_names_inputs_number() -> None:
    with pytest.raises(EventError, match=r"'inputs\.number' is missing") as info:
        parse_event("workflow_dispatch", {"inputs": {}}, repository="o/r")
    assert "add a `number` input to the workflow_dispatch trigger" in str(info.value)


@pytest.mark.parametrize(
    ("name", "fixture", "source"),
    [
        ("issue_comment", "issue_comment.created.issue.json", "comment"),
        ("issue_comment", "issue_comment.edited.pr.json", "comment"),
        ("pull_request_review_comment", "issue_comment.created.pr.json", "comment"),
    ],
)
def test_a_comment_without_an_author_is_ignored(name: str, fixture: str, source: str) -> None:
    """GitHub's webhook schema lets `user` be null (a deleted account): nobody's role can be asked
    for such a comment, so it runs nothing, like a stranger's (recorded payloads, `user` nulled;
    the review comment borrows the PR comment's objects plus a `pull_request`)."""
    payload = webhook_fixture(fixture)
    payload[source]["user"] = None
    if name == "pull_request_review_comment":
        payload["pull_request"] = webhook_fixture("pull_request.opened.json")["pull_request"]
    skip = parse_event(name, payload, allow_edited=True, agent_mode=True)
    assert isinstance(skip, Skip) and f"{source} {payload[source]['id']} has no author" in skip.reason


def test_unreadable_or_invalid_event_file(tmp_path: Path) -> None:
    with pytest.raises(EventError, match="cannot read"):
        load_event("issues", tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(EventError, match="not valid JSON"):
        load_event("issues", bad)
    with pytest.raises(EventError, match="GITHUB_EVENT_NAME"):
        load_event("", bad)


def test_unhandled_event_is_skipped() -> None:
    skip = parse_event("push", webhook_fixture("issues.opened.json"))
    assert isinstance(skip, Skip) and "push" in skip.reason
