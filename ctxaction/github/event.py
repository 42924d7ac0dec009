"""The event that started a workflow run (``GITHUB_EVENT_NAME`` / ``GITHUB_EVENT_PATH``) → a request.

Payloads are read leniently: only the fields this action uses are required, new fields are
ignored, ``null`` bodies are empty strings. A missing or mistyped field is one ``EventError``
naming the field (``issue.number``) and the file, never a ``KeyError`` deep in the flow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ctxaction.errors import EventError as EventError
from ctxaction.jsonfile import read_json_object
from ctxaction.secure import quoted

ISSUE_ACTIONS = frozenset({"opened", "edited", "reopened", "labeled"})
PR_ACTIONS = frozenset({"opened", "synchronize", "reopened", "ready_for_review"})
# Agent hand-off mode (the `agent` input): the trigger belongs to the agent's workflow, so the
# events agents start on are packaged too.
AGENT_ISSUE_ACTIONS = ISSUE_ACTIONS | {"assigned"}
AGENT_PR_ACTIONS = PR_ACTIONS | {"labeled", "assigned", "edited"}
SHA_RE = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
REPO_RE = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


@dataclass(frozen=True)
class TriggerComment:
    """The comment that may carry a ``/context`` command (untrusted text)."""

    id: int
    body: str
    author: str
    is_bot: bool
    association: str = ""
    created_at: str = ""
    # "issue" (an issue or PR conversation comment), "review_comment" (on a PR's diff) or "review"
    # (a submitted review's body): reactions exist for the first only.
    kind: str = "issue"


@dataclass(frozen=True)
class Request:
    """What to package: one issue or PR of ``repo``, and the comment that asked, if any.

    ``data`` is the issue or pull-request object from the payload; ``None`` when the payload
    does not carry it (``workflow_dispatch``) and it must be fetched. ``is_pr`` is ``None``
    when only the API can tell.
    """

    event: str
    action: str
    repo: str
    number: int
    is_pr: bool | None
    data: Mapping[str, Any] | None = None
    head_sha: str = ""
    comment: TriggerComment | None = None
    labels: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Skip:
    """The event is valid but nothing should be done (closed issue, a bot's comment, …)."""

    reason: str


class _Fields:
    """Typed, lenient access to a JSON payload; errors name the dotted field path."""

    def __init__(self, payload: Mapping[str, Any], source: str) -> None:
        self.payload = payload
        self.source = source

    def _fail(self, path: str, what: str) -> EventError:
        return EventError(f"event payload {self.source}: field '{path}' {what}")

    def get(self, path: str, default: Any = None) -> Any:
        node: Any = self.payload
        for part in path.split("."):
            if not isinstance(node, Mapping) or node.get(part) is None:
                return default
            node = node[part]
        return node

    def obj(self, path: str) -> Mapping[str, Any]:
        value = self.get(path)
        if value is None:
            raise self._fail(path, "is missing")
        if not isinstance(value, Mapping):
            raise self._fail(path, f"should be an object, not {type(value).__name__}")
        return value

    def number(self, path: str) -> int:
        value = self.get(path)
        if value is None:
            raise self._fail(path, "is missing")
        if isinstance(value, bool):
            raise self._fail(path, "should be a number, not a boolean")
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        if not isinstance(value, int) or value <= 0:
            raise self._fail(path, f"should be a positive number, not {quoted(value)}")
        return value

    def text(self, path: str, required: bool = True) -> str:
        value = self.get(path)
        if value is None:
            if required:
                raise self._fail(path, "is missing")
            return ""
        if not isinstance(value, str):
            raise self._fail(path, f"should be a string, not {type(value).__name__}")
        return value

    def labels(self, path: str) -> list[str]:
        value = self.get(path, [])
        if not isinstance(value, list):
            raise self._fail(path, f"should be a list, not {type(value).__name__}")
        names = []
        for item in value:
            name = item.get("name") if isinstance(item, Mapping) else item
            if isinstance(name, str) and name:
                names.append(name)
        return names


def load_event(name: str, path: str | Path, **options: Any) -> Request | Skip:
    """Read ``path`` (GITHUB_EVENT_PATH) and parse it as a ``name`` (GITHUB_EVENT_NAME) event."""
    if not name:
        raise EventError("GITHUB_EVENT_NAME is not set: run inside GitHub Actions or set it")
    if not path:
        raise EventError("GITHUB_EVENT_PATH is not set: run inside GitHub Actions or set it")
    payload = read_json_object(path, "event payload", EventError)
    return parse_event(name, payload, source=str(path), **options)


def parse_event(
    name: str,
    payload: Mapping[str, Any],
    *,
    source: str = "<payload>",
    repository: str = "",
    allow_edited: bool = False,
    agent_mode: bool = False,
) -> Request | Skip:
    """Turn one event payload into a ``Request`` (or a ``Skip`` saying why not).

    ``repository`` (GITHUB_REPOSITORY) is used when the payload has no ``repository.full_name``.
    ``allow_edited`` also accepts ``issue_comment`` ``edited`` (opt-in: an edit can re-run a
    command someone else wrote long ago). ``agent_mode`` (the ``agent`` input is set) also takes
    the events agent workflows start on: ``assigned``, PR ``labeled``, review comments and reviews.
    """
    f = _Fields(payload, source)
    repo = f.text("repository.full_name", required=False) or repository
    if not repo:
        raise f._fail("repository.full_name", "is missing (and GITHUB_REPOSITORY is not set)")
    if not REPO_RE.match(repo):
        raise f._fail("repository.full_name", f"is not owner/name: {quoted(repo)}")
    action = f.text("action", required=False)
    if name == "issues":
        return _issues(f, repo, action, AGENT_ISSUE_ACTIONS if agent_mode else ISSUE_ACTIONS)
    if name in ("pull_request", "pull_request_target"):
        return _pull_request(f, repo, name, action, AGENT_PR_ACTIONS if agent_mode else PR_ACTIONS)
    if name == "issue_comment":
        return _issue_comment(f, repo, action, allow_edited)
    if name in ("pull_request_review_comment", "pull_request_review") and agent_mode:
        return _review(f, repo, name, action)
    if name == "workflow_dispatch":
        if f.get("inputs.number") is None:
            raise f._fail(
                "inputs.number",
                "is missing: add a `number` input to the workflow_dispatch trigger "
                "(or set the action's `number` input)",
            )
        number = f.number("inputs.number")
        return Request(event=name, action="", repo=repo, number=number, is_pr=None)
    handled = "issues, pull_request, issue_comment, workflow_dispatch"
    if not agent_mode:
        return Skip(f"event '{name}' is not handled ({handled} are; review events with the agent input)")
    return Skip(f"event '{name}' is not handled ({handled}, pull_request_review(_comment) are)")


def _unhandled(event: str, action: str, handled: frozenset[str]) -> Skip:
    listed = ", ".join(sorted(handled))
    return Skip(f"{event} event with action {quoted(action)} is not handled ({listed} are)")


def _issues(f: _Fields, repo: str, action: str, handled: frozenset[str]) -> Request | Skip:
    if action not in handled:
        return _unhandled("issues", action, handled)
    issue = f.obj("issue")
    is_pr = f.get("issue.pull_request") is not None
    return Request(
        event="issues",
        action=action,
        repo=repo,
        number=f.number("issue.number"),
        is_pr=is_pr,
        data=issue,
        labels=f.labels("issue.labels"),
    )


def _pr_request(
    f: _Fields, repo: str, name: str, action: str, comment: TriggerComment | None = None
) -> Request:
    """The request of a pull request payload, pinned to its head commit (an id that is none is
    refused, its text redacted and cut: payload fields are untrusted)."""
    pull = f.obj("pull_request")
    head_sha = f.text("pull_request.head.sha")
    if not SHA_RE.match(head_sha):
        raise f._fail("pull_request.head.sha", f"is not a commit id: {quoted(head_sha)}")
    return Request(
        event=name,
        action=action,
        repo=repo,
        number=f.number("pull_request.number"),
        is_pr=True,
        data=pull,
        head_sha=head_sha,
        comment=comment,
        labels=f.labels("pull_request.labels"),
    )


def _pull_request(f: _Fields, repo: str, name: str, action: str, handled: frozenset[str]) -> Request | Skip:
    if action not in handled:
        return _unhandled(name, action, handled)
    return _pr_request(f, repo, name, action)


def _issue_comment(f: _Fields, repo: str, action: str, allow_edited: bool) -> Request | Skip:
    accepted = {"created", "edited"} if allow_edited else {"created"}
    if action not in accepted:
        hint = "" if allow_edited or action != "edited" else " (set edited-comments: true to accept edits)"
        return Skip(f"issue_comment event with action {quoted(action)} is not handled{hint}")
    issue = f.obj("issue")
    f.obj("comment")
    if (ghost := _authorless(f, "comment")) is not None:
        return ghost
    login = f.text("comment.user.login")
    user_type = f.text("comment.user.type", required=False)
    comment = TriggerComment(
        id=f.number("comment.id"),
        body=f.text("comment.body", required=False),
        author=login,
        is_bot=user_type == "Bot" or login.endswith("[bot]"),
        association=f.text("comment.author_association", required=False),
        created_at=f.text("comment.created_at", required=False),
    )
    return Request(
        event="issue_comment",
        action=action,
        repo=repo,
        number=f.number("issue.number"),
        is_pr=f.get("issue.pull_request") is not None,
        data=issue,
        comment=comment,
        labels=f.labels("issue.labels"),
    )


def _authorless(f: _Fields, source: str) -> Skip | None:
    """A comment whose ``user`` is null (a deleted account, which the webhook schema allows): no
    role can be asked for nobody, so it runs nothing, like a stranger's."""
    if f.get(f"{source}.user") is not None:
        return None
    return Skip(f"{source} {f.number(f'{source}.id')} has no author (a deleted account): ignored")


def _review(f: _Fields, repo: str, name: str, action: str) -> Request | Skip:
    """A review comment on a PR's diff (``created``) or a submitted review: the agent's trigger."""
    wanted = "created" if name == "pull_request_review_comment" else "submitted"
    if action != wanted:
        return Skip(f"{name} event with action {quoted(action)} is not handled ({wanted} is)")
    source = "comment" if name == "pull_request_review_comment" else "review"
    f.obj(source)
    if (ghost := _authorless(f, source)) is not None:
        return ghost
    login = f.text(f"{source}.user.login")
    comment = TriggerComment(
        id=f.number(f"{source}.id"),
        body=f.text(f"{source}.body", required=False),
        author=login,
        is_bot=f.text(f"{source}.user.type", required=False) == "Bot" or login.endswith("[bot]"),
        association=f.text(f"{source}.author_association", required=False),
        created_at=f.text(f"{source}.created_at" if source == "comment" else "review.submitted_at", False),
        kind="review_comment" if source == "comment" else "review",
    )
    return _pr_request(f, repo, name, action, comment)
