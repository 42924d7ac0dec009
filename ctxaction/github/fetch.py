"""An issue or PR thread fetched through the REST API → a :class:`Task`.

Shared by the action (where the event payload already holds the issue, saving a request) and by
``ctxaction build --issue N / --pr N`` for people and agents outside Actions. A PR's changed
files are its strongest signal; issues it closes (``Fixes #12``) add their text to the body.
Our own package comments and replies are left out of the thread.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ctxaction.errors import FetchError as FetchError
from ctxaction.github.client import Client, GitHubError, ThreadComment
from ctxaction.github.deliver import MARKER_RE, REPLY_MARKER
from ctxaction.github.event import REPO_RE, Request
from ctxaction.model import Comment, Task
from ctxaction.repo import git
from ctxaction.secure import quoted
from ctxaction.task import task_from_json

CLOSING_RE = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b", re.IGNORECASE)
MAX_LINKED = 3
_REMOTE_RE = re.compile(r"github\.com[:/](?P<repo>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+?)(?:\.git)?/?$")



@dataclass
class Thread:
    """A fetched thread: the task, the raw comment list (for the upsert) and the PR head."""

    task: Task
    comments: list[ThreadComment]
    head_sha: str = ""
    base_sha: str = ""
    warnings: list[str] = field(default_factory=list)


def closing_issues(text: str, own: int | None = None) -> list[int]:
    """Issue numbers a PR body closes (``Fixes #12``), in order, without repeats or itself."""
    seen: list[int] = []
    for m in CLOSING_RE.finditer(text):
        n = int(m.group(1))
        if n != own and n not in seen:
            seen.append(n)
    return seen[:MAX_LINKED]


def is_ours(comment: ThreadComment) -> bool:
    """A package comment or a command reply we posted (by marker; the upsert checks the author too)."""
    return bool(MARKER_RE.search(comment.body)) or REPLY_MARKER in comment.body


def fetch_thread(
    client: Client,
    number: int,
    *,
    data: Mapping[str, Any] | None = None,
    is_pr: bool | None = None,
    head_sha: str = "",
) -> Thread:
    """Fetch what the payload does not hold: the issue (when ``data`` is None), comments, PR files
    and head, and closed issues. Comments are listed even when the payload says there are none,
    because the upsert must see our earlier comment."""
    issue = dict(data) if data is not None else client.issue(number)
    if is_pr is None:
        is_pr = isinstance(issue.get("pull_request"), Mapping) or "head" in issue
    warnings: list[str] = []
    comments = client.comments(number)
    files: list[str] = []
    base_sha = ""
    if is_pr:
        pull = issue if "head" in issue else client.pull(number)
        head_sha = head_sha or _sha(pull, "head")
        base_sha = _sha(pull, "base")
        files = client.pull_files(number)
    task = task_from_json(issue, source=f"#{number}")
    body = task.body
    if is_pr:
        for linked in closing_issues(task.body, number):
            try:
                other = client.issue(linked)
            except GitHubError as exc:
                warnings.append(f"linked issue #{linked} could not be read: {exc.message}")
                continue
            title, text = other.get("title") or "", other.get("body") or ""
            body += f"\n\n---\nLinked issue #{linked}: {title}\n\n{text}"
    task = replace(
        task,
        kind="pr" if is_pr else "issue",
        number=number,
        body=body,
        comments=[_comment(c) for c in comments if not is_ours(c)],
        changed_files=files or task.changed_files,
    )
    return Thread(task=task, comments=comments, head_sha=head_sha, base_sha=base_sha, warnings=warnings)


def payload_thread(request: Request) -> Thread:
    """The thread as far as the event payload tells it (no token: no comments, no PR files)."""
    data = request.data or {}
    is_pr = bool(request.is_pr)
    task = task_from_json(data, source=f"#{request.number}")
    task = replace(task, kind="pr" if is_pr else "issue", number=request.number)
    head = request.head_sha or (_sha(data, "head") if is_pr else "")
    base = _sha(data, "base") if is_pr else ""
    return Thread(task=task, comments=[], head_sha=head, base_sha=base)


def _sha(pull: Mapping[str, Any], side: str) -> str:
    ref = pull.get(side)
    return str(ref.get("sha") or "") if isinstance(ref, Mapping) else ""


def _comment(c: ThreadComment) -> Comment:
    return Comment(c.author, c.body, created_at=c.created_at, association=c.association, is_bot=c.is_bot)


def repo_from_remote(cwd: Path) -> str | None:
    """``owner/name`` of the ``origin`` remote when it is on github.com, else None."""
    url = (git.try_run(cwd, ["remote", "get-url", "origin"]) or "").strip()
    m = _REMOTE_RE.search(url)
    return m.group("repo") if m else None


def fetch_task(
    number: int,
    *,
    kind: str | None = None,
    repo: str | None = None,
    token: str | None = None,
    api_url: str | None = None,
    cwd: Path | None = None,
) -> Task:
    """The Task of issue/PR ``number`` for local use (``ctxaction build --issue N`` / ``--pr N``).

    ``repo`` defaults to ``GITHUB_REPOSITORY``, then the ``origin`` remote of ``cwd``; ``token``
    to ``GITHUB_TOKEN`` then ``GH_TOKEN``; ``api_url`` to ``GITHUB_API_URL``. ``kind`` ("issue"
    or "pr") makes a mismatch an error instead of a surprise.
    """
    repo = repo or os.environ.get("GITHUB_REPOSITORY") or repo_from_remote(cwd or Path.cwd())
    if not repo:
        raise FetchError("cannot tell which GitHub repository: pass --github-repo owner/name")
    if not REPO_RE.match(repo):
        raise FetchError(f"--github-repo must be owner/name, not {quoted(repo)}")
    token = token or os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN")
    if not token:
        raise FetchError("no GitHub token: set GITHUB_TOKEN (or GH_TOKEN) or pass --token")
    client = Client(repo, token, api_url or os.environ.get("GITHUB_API_URL"))
    try:
        issue = client.issue(number)
        is_pr = isinstance(issue.get("pull_request"), Mapping)
        if kind == "pr" and not is_pr:
            raise FetchError(f"{repo}#{number} is an issue, not a pull request: use --issue {number}")
        if kind == "issue" and is_pr:
            raise FetchError(f"{repo}#{number} is a pull request: use --pr {number}")
        thread = fetch_thread(client, number, data=issue, is_pr=is_pr)
    except GitHubError as exc:
        raise FetchError(f"{exc} (repository {repo}; check the number and the token's access)") from exc
    return thread.task
