"""GitHub REST through PyGithub: the handful of calls the action makes, with bounded retries.

PyGithub's own retry and throttling are switched off (``retry=None``, no pauses between
requests): a run makes a few requests, so pausing a second before each write buys nothing, and
our own loop here retries what GitHub says is retryable — 429, 403 with ``Retry-After`` or a
rate-limit message, and 5xx on reads — honouring ``Retry-After`` and ``x-ratelimit-reset`` up to
a cap, a bounded number of times. Everything else becomes one ``GitHubError`` that says which
call failed, with GitHub's message and the details a 422 lists. So does an issue or pull request
that a redirect brought from another repository (status 301): the client reads and writes its
one repository only.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote, urlsplit

import requests
from github import Auth, Github, GithubException, UnknownObjectException
from github.IssueComment import IssueComment

from ctxaction import __version__
from ctxaction.errors import GitHubError as GitHubError
from ctxaction.sanitize import AGENT_HANDLES
from ctxaction.secure import clip

DEFAULT_API_URL = "https://api.github.com"
ACTIONS_BOT = "github-actions[bot]"
PERMISSION_RANK = {"none": 0, "read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}
# The permission API reports the legacy name (admin/write/read/none) in `permission` and the
# fine-grained role in `role_name`; PERMISSION_RANK orders them.
ROLES = tuple(sorted(PERMISSION_RANK, key=PERMISSION_RANK.__getitem__))
MAX_ITEMS = 3000
# What a workflow's `permissions:` must grant for each call. The issues endpoints (an issue's or a
# PR's thread, its comments and their reactions) accept either `issues` or `pull-requests`;
# `issues` is named because it covers issues and pull requests alike.
ISSUES_READ = "issues: read"
ISSUES_WRITE = "issues: write"
PULLS_READ = "pull-requests: read"
_PAT_PREFIXES = ("ghp_", "github_pat_", "gho_", "ghu_")
# GitHub answers 301 for an issue transferred to another repository (and for anything of a renamed
# one), and PyGithub follows every 301 with no way to refuse it: the issue or pull request it
# returns is checked to be this repository's before anything reads it (see Client._here).
MOVED = (
    "the answer is not this repository's (the issue was transferred, or the repository renamed): "
    "nothing is read from or posted to another repository"
)
_API_REPO_RE = re.compile(r"/repos/([^/]+/[^/?#]+)")
T = TypeVar("T")


@dataclass(frozen=True)
class ThreadComment:
    """A comment of an issue/PR thread as listed by the API."""

    id: int
    author: str
    is_bot: bool
    body: str
    created_at: str
    association: str
    url: str
    handle: Any = None


def repository_of(item: Mapping[str, Any]) -> str:
    """``owner/name`` an issue or pull request object says it belongs to ("" when it names none):
    from ``repository_url`` or ``url`` (``…/repos/OWNER/NAME…``, GitHub Enterprise's too), else
    from ``html_url`` (``https://HOST/OWNER/NAME/…``)."""
    for key in ("repository_url", "url"):
        if m := _API_REPO_RE.search(str(item.get(key) or "")):
            return m.group(1)
    parts = urlsplit(str(item.get("html_url") or "")).path.strip("/").split("/")
    return "/".join(parts[:2]) if len(parts) >= 2 else ""


def role_at_least(role: str, minimum: str) -> bool:
    """True when ``role`` is ``minimum`` or more powerful; unknown roles count as none."""
    return PERMISSION_RANK.get(role, 0) >= PERMISSION_RANK[minimum]


class Client:
    """The REST calls of one repository. ``sleep`` and the caps are parameters for tests and tools."""

    def __init__(
        self,
        repo: str,
        token: str,
        base_url: str | None = None,
        *,
        attempts: int = 4,
        max_wait: float = 60.0,
        timeout: int = 30,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.repo_name = repo
        self.token = token
        self.attempts = max(1, attempts)
        self.max_wait = max_wait
        self.sleep = sleep
        self._gh = Github(
            auth=Auth.Token(token),
            base_url=(base_url or DEFAULT_API_URL).rstrip("/"),
            per_page=100,
            retry=None,
            timeout=timeout,
            user_agent=f"ctxaction/{__version__}",
            seconds_between_requests=None,
            seconds_between_writes=None,
            lazy=True,
        )
        self._repo = self._gh.get_repo(repo)
        # The login our comments are written by, once known for certain: a personal token's user,
        # or the author GitHub reports for a comment this run created.
        self._login = ""

    def _call(self, what: str, fn: Callable[[], T], *, write: bool = False, permission: str = "") -> T:
        """Run ``fn`` (one logical call, possibly several pages) with bounded retries; ``permission``
        is the workflow permission it needs, named in the error when GitHub refuses the token."""
        waited = 0.0
        attempt = 1
        while True:
            try:
                return fn()
            except GithubException as exc:
                status, message = exc.status, _message(exc)
                wait = _rate_limit_wait(status, message, exc.headers or {})
                if wait is None and status >= 500 and not write:
                    wait = float(2 ** (attempt - 1))
                if wait is None or attempt >= self.attempts:
                    raise GitHubError(what, status, message, permission) from exc
                if wait > self.max_wait or waited + wait > self.max_wait * 2:
                    raise GitHubError(
                        what,
                        status,
                        f"{message} (GitHub asks to wait {wait:.0f}s, more than the "
                        f"{self.max_wait:.0f}s this run may wait: try again later)",
                    ) from exc
            except (requests.ConnectionError, requests.Timeout) as exc:
                if write or attempt >= self.attempts:
                    raise GitHubError(what, 0, f"{type(exc).__name__}: {exc}") from exc
                wait = float(2 ** (attempt - 1))
            self.sleep(wait)
            waited += wait
            attempt += 1

    def _here(self, what: str, item: dict[str, Any]) -> dict[str, Any]:
        """``item`` (an issue or pull request) when it is this repository's; else a redirect took
        the call elsewhere, which is a :attr:`~ctxaction.errors.GitHubError.moved` error. An object
        that names no repository proves no move (a proxy or an older GitHub Enterprise may leave
        the URLs out): it is taken as asked."""
        owner = repository_of(item)
        if owner and owner.lower() != self.repo_name.lower():
            raise GitHubError(what, 301, MOVED)
        return item

    def issue(self, number: int) -> dict[str, Any]:
        """The issue (or PR-as-issue) object, refused when it is another repository's."""
        what = f"get issue #{number}"
        found = self._call(what, lambda: dict(self._repo.get_issue(number).raw_data), permission=ISSUES_READ)
        return self._here(what, found)

    def readable(self) -> bool:
        """Whether the token can read the repository: tells an issue gone from the repository (404)
        from a token that sees nothing there (404 too)."""
        try:
            self._call(
                f"get repository {self.repo_name}",
                lambda: self._gh.requester.requestJsonAndCheck("GET", f"/repos/{self.repo_name}"),
            )
        except GitHubError:
            return False
        return True

    def pull(self, number: int) -> dict[str, Any]:
        """The pull request object (head/base refs and SHAs), refused when it is another
        repository's."""
        what = f"get pull request #{number}"
        found = self._call(what, lambda: dict(self._repo.get_pull(number).raw_data), permission=PULLS_READ)
        return self._here(what, found)

    def comments(self, number: int, limit: int = MAX_ITEMS) -> list[ThreadComment]:
        """The thread's comments, oldest first, every page (up to ``limit``)."""

        def fetch() -> list[ThreadComment]:
            out = []
            for c in _capped(self._repo.get_issue(number).get_comments(), limit):
                user = c.user
                login = user.login if user else "ghost"
                out.append(
                    ThreadComment(
                        id=c.id,
                        author=login,
                        is_bot=bool(user and (user.type == "Bot" or login.endswith("[bot]"))),
                        body=c.body or "",
                        created_at=c.created_at.isoformat() if c.created_at else "",
                        association=c.author_association or "",
                        url=c.html_url or "",
                        handle=c,
                    )
                )
            return out

        return self._call(f"list comments of #{number}", fetch, permission=ISSUES_READ)

    def pull_files(self, number: int, limit: int = MAX_ITEMS) -> list[str]:
        """Paths the PR changes (new names; removed files included), every page."""
        return self._call(
            f"list files of pull request #{number}",
            lambda: [f.filename for f in _capped(self._repo.get_pull(number).get_files(), limit)],
            permission=PULLS_READ,
        )

    def role(self, user: str) -> str:
        """``user``'s role on the repository (none/read/triage/write/maintain/admin)."""

        def fetch() -> str:
            try:
                _, data = self._gh.requester.requestJsonAndCheck(
                    "GET", f"/repos/{self.repo_name}/collaborators/{quote(user, safe='')}/permission"
                )
            except UnknownObjectException:  # not a collaborator (or a deleted user)
                return "none"
            role = str(data.get("role_name") or "")
            return role if role in ROLES else str(data.get("permission") or "none")

        return self._call(f"get the permission of {user}", fetch)

    def react(self, number: int, comment_id: int, content: str) -> None:
        """Add a reaction (eyes, rocket, confused, …) to a thread comment."""
        self._call(
            f"add reaction '{content}'",
            lambda: self._repo.get_issue(number).get_comment(comment_id).create_reaction(content),
            write=True,
            permission=ISSUES_WRITE,
        )

    def create_comment(self, number: int, body: str) -> tuple[int, str]:
        """Post a new comment; returns its id and web URL. Its author becomes our login for the
        rest of the run (see :meth:`own_login`)."""

        def post() -> tuple[int, str, str]:
            created = self._repo.get_issue(number).create_comment(body)
            author = created.user.login if created.user else ""
            return created.id, created.html_url or "", author or ""

        comment_id, url, author = self._call(
            f"comment on #{number}", post, write=True, permission=ISSUES_WRITE
        )
        # The only place an installation token's login shows: GET /user refuses such tokens.
        self._login = self._login or author
        return comment_id, url

    def update_comment(self, comment: ThreadComment, body: str) -> str:
        """Replace the body of one of our comments; returns its web URL."""
        handle: IssueComment = comment.handle
        self._call(
            f"update comment {comment.id}", lambda: handle.edit(body), write=True, permission=ISSUES_WRITE
        )
        return comment.url

    def open_pull(self, branch: str) -> int | None:
        """The number of the open pull request whose head is ``branch`` of this repository, if any."""
        owner = self.repo_name.split("/", 1)[0]

        def fetch() -> int | None:
            for pull in self._repo.get_pulls(state="open", head=f"{owner}:{branch}"):
                return int(pull.number)
            return None

        return self._call(f"find the open pull request of branch {branch}", fetch, permission=PULLS_READ)

    def viewer_login(self) -> str:
        """The login the token acts as (works for personal tokens, not for app tokens)."""
        return self._call("get the token's user", lambda: str(self._gh.get_user().login))

    def own_login(self, configured: str = "") -> str:
        """Who our comments are written by: configured, else the login this run learned (a personal
        token's user, or the author of a comment it created), else the Actions bot, a guess that
        :meth:`login_known` reports."""
        if configured:
            return configured
        if not self._login and self.token.startswith(_PAT_PREFIXES):
            self._login = self.viewer_login()
        return self._login or ACTIONS_BOT

    def login_known(self, configured: str = "") -> bool:
        """Whether :meth:`own_login` is certain. It is not for an installation token with nothing
        configured: the Actions token and a GitHub App's (which posts as ``<app-slug>[bot]``) both
        start with ``ghs_``, and GET /user refuses both."""
        return bool(configured or self._login or self.token.startswith(_PAT_PREFIXES))

    def find_ours(
        self, comments: Iterable[ThreadComment], marker: re.Pattern[str], configured: str = ""
    ) -> ThreadComment | None:
        """Our earlier comment carrying ``marker`` (:func:`find_own`), by any bot account when our
        login is only a guess."""
        login = self.own_login(configured)
        return find_own(comments, marker, login, any_bot=not self.login_known(configured))


def find_own(
    comments: Iterable[ThreadComment], marker: re.Pattern[str], login: str, *, any_bot: bool = False
) -> ThreadComment | None:
    """Our comment: the first one carrying ``marker`` *and* written by ``login``.

    Both are needed: anyone can paste the marker, and a write token can edit anyone's comment.
    With ``any_bot`` (``login`` is a guess), failing that: the first comment written by a bot
    account, not an agent's, whose body *starts* with ``marker``.
    """
    comments = list(comments)
    # The guessed login first, wherever it stands: with the Actions token, the default, that
    # comment is certainly ours, so no other bot's comment is ever preferred to it.
    for comment in comments:
        if comment.author.lower() == login.lower() and marker.search(comment.body):
            return comment
    if not any_bot:
        return None
    for comment in comments:
        # A bot account, because a person can paste the marker; at the very start, because a bot
        # quoting our comment in its reply carries it further down; not an agent's bot, because an
        # agent writes what a commenter asks for (and 'bot-login' refuses agents' names, so such a
        # login never posts ours). Callers list newest first, so the newest such comment wins.
        if comment.is_bot and marker.match(comment.body) and not _agent_login(comment.author):
            return comment
    return None


def _agent_login(login: str) -> bool:
    lowered = login.lower()
    return any(handle in lowered for handle in AGENT_HANDLES)


def _capped(items: Iterable[T], limit: int) -> list[T]:
    out: list[T] = []
    for item in items:
        if len(out) >= limit:
            break
        out.append(item)
    return out


def _message(exc: GithubException) -> str:
    """GitHub's message, redacted and cut, with the details a 422 lists in ``errors[]``: its
    "Validation Failed" alone does not say what to fix ("Body is too long (maximum is 65536
    characters)" does)."""
    data = exc.data
    if not isinstance(data, dict):
        return clip(str(data or exc), 300, "")
    message = str(data.get("message") or data)
    details = _details(data.get("errors")) if data.get("message") else ""
    return clip(f"{message}: {details}" if details else message, 300, "")


def _details(errors: object) -> str:
    """The entries of a GitHub error's ``errors[]``, each its ``message``, else the resource,
    field and code it names (``Label name invalid``); GitHub also lists plain strings there."""
    out = []
    for entry in errors if isinstance(errors, list) else ():
        if isinstance(entry, dict):
            named = (str(entry[key]) for key in ("resource", "field", "code") if entry.get(key))
            text = str(entry.get("message") or " ".join(named))
        else:
            text = str(entry)
        if text:
            out.append(text)
    return "; ".join(out)


def _rate_limit_wait(status: int, message: str, headers: dict[str, Any]) -> float | None:
    """Seconds to wait before retrying a rate-limited response, or None when it is not one."""
    lowered = {str(k).lower(): str(v) for k, v in headers.items()}
    limited = status == 429 or (
        status == 403 and ("retry-after" in lowered or "rate limit" in message.lower())
    )
    if not limited:
        return None
    retry_after = lowered.get("retry-after", "")
    if retry_after.isdigit():
        return float(retry_after)
    if lowered.get("x-ratelimit-remaining") == "0" and lowered.get("x-ratelimit-reset", "").isdigit():
        return max(0.0, int(lowered["x-ratelimit-reset"]) - time.time()) + 1.0
    # Secondary limit without a hint: GitHub asks to wait at least a minute.
    return 60.0
