"""A loopback fake of the few GitHub REST endpoints the action uses, for tests and bench scripts.

Responses are GitHub's official example bodies (``tests/fixtures/rest``, from the OpenAPI
description; the 422 for a comment over the limit as GitHub was recorded answering) with the
scenario's numbers, logins and texts filled in, and ``https://api.github.com``
rewritten to this server's ``http://127.0.0.1:<port>`` (PyGithub only follows URLs on its
``base_url`` host). An issue or pull request is served as this repository's, its ``url``,
``html_url`` and ``repository_url`` naming it, whichever recorded payload it came from. Lists
paginate with ``Link`` headers like GitHub. Every request is recorded so tests assert the calls
actually made. Failures (rate limits, 5xx, read-only tokens) are injected per scenario, and an
issue can be transferred (:meth:`FakeGitHub.transfer`). Bound to 127.0.0.1 only; each request
handler is bounded by a socket timeout.
"""

from __future__ import annotations

import copy
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

FIXTURES = Path(__file__).parent / "fixtures"
REST = FIXTURES / "rest"
WEBHOOKS = FIXTURES / "webhooks"
READ_ONLY_MESSAGE = "Resource not accessible by integration"
COMMENT_LIMIT = 65_536  # GitHub's cap on a comment body, counted in UTF-16 code units
# GitHub's answer when a token that is not a collaborator's (the workflow token) comments on a
# locked conversation.
LOCKED_MESSAGE = "Unable to create comment because issue is locked."
LOCKING_DOCS = "https://help.github.com/articles/locking-conversations/"
SECONDARY_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
)
NOT_FOUND: tuple[int, dict[str, str], Any] = (404, {}, {"message": "Not Found"})
# GitHub's answer for an issue of a repository with Issues turned off (410 Gone).
ISSUES_DISABLED = {
    "message": "Issues are disabled for this repo",
    "documentation_url": "https://docs.github.com/v3/issues/",
}
REDIRECTS_DOCS = "https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects"


def rest_fixture(name: str) -> Any:
    """One of GitHub's example bodies (a fresh copy)."""
    return json.loads((REST / name).read_text(encoding="utf-8"))


def webhook_fixture(name: str) -> dict[str, Any]:
    """One of the recorded webhook payloads (a fresh copy)."""
    payload: dict[str, Any] = json.loads((WEBHOOKS / name).read_text(encoding="utf-8"))
    return payload


@dataclass
class Recorded:
    """One request the server received."""

    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    authorization: str


@dataclass
class Failure:
    """An injected failure: the next ``times`` requests matching method and path get this answer."""

    method: str
    path: str
    status: int
    message: str
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1
    # GitHub's `errors[]`, the details a 422 gives beside its "Validation Failed".
    errors: list[Any] | None = None


class FakeGitHub:
    """State of the fake: issues, pulls, files, comments, permissions, reactions, injected failures."""

    def __init__(
        self, repo: str = "Codertocat/Hello-World", token_login: str = "github-actions[bot]"
    ) -> None:
        self.repo = repo
        self.token_login = token_login
        self.issues: dict[int, dict[str, Any]] = {}
        self.pulls: dict[int, dict[str, Any]] = {}
        self.files: dict[int, list[str]] = {}
        self.comments: dict[int, list[dict[str, Any]]] = {}
        self.roles: dict[str, str] = {}
        self.reactions: list[tuple[int, str]] = []
        self.failures: list[Failure] = []
        self.read_only = False
        # Issues turned off in the repository's settings (pull requests go on).
        self.issues_disabled = False
        # Transferred issues: number here → (repository id, repository, number there).
        self.moved: dict[int, tuple[int, str, int]] = {}
        self.requests: list[Recorded] = []
        self._next_id = 9_000_000
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""

    # -- scenario set-up -------------------------------------------------------------------

    def add_issue(self, issue: dict[str, Any]) -> None:
        """Serve ``issue`` (an issue object, e.g. from a webhook payload) at its number."""
        self.issues[int(issue["number"])] = copy.deepcopy(issue)
        self.comments.setdefault(int(issue["number"]), [])

    def add_pull(self, pull: dict[str, Any], files: list[str]) -> None:
        """Serve a pull request object and its changed files; its issue view comes along."""
        number = int(pull["number"])
        self.pulls[number] = copy.deepcopy(pull)
        self.files[number] = list(files)
        if number not in self.issues:
            issue: dict[str, Any] = {
                k: pull[k] for k in ("number", "title", "body", "user", "labels", "html_url") if k in pull
            }
            issue["pull_request"] = {"url": f"https://api.github.com/repos/{self.repo}/pulls/{number}"}
            self.add_issue(issue)

    def add_comment(self, number: int, body: str, login: str = "octocat", user_type: str = "User") -> int:
        """Put a comment on the thread (shaped like GitHub's example); returns its id."""
        comment = self._comment(number, body, login, user_type)
        self.comments.setdefault(number, []).append(comment)
        return int(comment["id"])

    def transfer(self, number: int, repo: str, new_number: int) -> None:
        """Transfer issue ``number`` to ``repo``, where it becomes ``new_number``. As GitHub answers
        (measured on a transferred issue): 301 for the issue, its ``Location`` the issue's place
        under ``/repositories/{id}``, which serves it as ``repo``'s; 404 for its comments and the
        rest below it."""
        self.moved[number] = (700_000 + len(self.moved), repo, new_number)

    def fail(
        self,
        method: str,
        path: str,
        status: int,
        message: str,
        times: int = 1,
        errors: list[Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Answer the next ``times`` matching requests (``path`` is a regex) with an error, its
        ``errors[]`` and response ``headers`` when given."""
        self.failures.append(Failure(method, path, status, message, dict(headers or {}), times, errors))

    # -- inspection ------------------------------------------------------------------------

    def calls(self, method: str | None = None, path: str | None = None) -> list[Recorded]:
        """Recorded requests, optionally filtered by method and path regex."""
        return [
            r
            for r in self.requests
            if (method is None or r.method == method) and (path is None or re.search(path, r.path))
        ]

    def posted_bodies(self) -> list[str]:
        """Every comment body sent to the server (created or updated)."""
        return [
            r.body["body"]
            for r in self.requests
            if r.method in ("POST", "PATCH") and "body" in (r.body or {})
        ]

    # -- server ----------------------------------------------------------------------------

    def start(self) -> str:
        """Start serving on 127.0.0.1 (a free port); returns the base URL."""
        fake = self

        class Handler(BaseHTTPRequestHandler):
            timeout = 10

            def log_message(self, format: str, *args: Any) -> None:
                return

            def _handle(self) -> None:
                status, headers, payload = fake.handle(self)
                data = b"" if payload is None else fake.rewrite(json.dumps(payload)).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_DELETE = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        host, port = self._server.server_address[:2]
        assert isinstance(host, str)  # an IPv4 server's address
        self.base_url = f"http://{host}:{port}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05})
        self._thread.daemon = True
        self._thread.start()
        return self.base_url

    def stop(self) -> None:
        """Stop the server and its thread."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def rewrite(self, text: str) -> str:
        """Point GitHub's absolute API URLs at this server."""
        return text.replace("https://api.github.com", self.base_url)

    # -- request handling ------------------------------------------------------------------

    def handle(self, request: BaseHTTPRequestHandler) -> tuple[int, dict[str, str], Any]:
        """Route one request; returns (status, headers, JSON body)."""
        split = urlsplit(request.path)
        length = int(request.headers.get("Content-Length") or 0)
        raw = request.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        method, path, query = request.command, split.path, parse_qs(split.query)
        with self._lock:
            self.requests.append(
                Recorded(method, path, query, body, request.headers.get("Authorization", ""))
            )
            for failure in self.failures:
                if failure.times > 0 and failure.method == method and re.search(failure.path, path):
                    failure.times -= 1
                    answer: dict[str, Any] = {"message": failure.message}
                    if failure.errors is not None:
                        answer["errors"] = failure.errors
                    return failure.status, failure.headers, answer
            if self.read_only and method != "GET":
                return 403, {}, {"message": READ_ONLY_MESSAGE, "documentation_url": "https://docs.github.com"}
            return self._route(method, path, query, body)

    def _route(
        self, method: str, path: str, query: dict[str, list[str]], body: Any
    ) -> tuple[int, dict[str, str], Any]:
        m = re.fullmatch(r"/repos/[^/]+/[^/]+/(.+)", path)
        if method in ("POST", "PATCH") and isinstance(body, dict) and isinstance(body.get("body"), str):
            units = len(body["body"].encode("utf-16-le")) // 2
            if units > COMMENT_LIMIT:
                # GitHub's recorded answers, which differ between creating and editing a comment.
                kind = "create" if method == "POST" else "update"
                return 422, {}, rest_fixture(f"issues.{kind}-comment.422.json")
        if path == "/user" and method == "GET":
            return 200, {}, {"login": self.token_login, "type": "User"}
        if path == f"/repos/{self.repo}" and method == "GET":
            # The webhook payloads' `repository` object is the REST repository object.
            repository = webhook_fixture("issues.opened.json")["repository"]
            repository.update(full_name=self.repo, name=self.repo.split("/")[1])
            return 200, {}, repository
        if m3 := re.fullmatch(r"/repositories/(\d+)/issues/(\d+)", path):
            for number, (repo_id, repo, new_number) in self.moved.items():
                if (repo_id, new_number) == (int(m3.group(1)), int(m3.group(2))) and method == "GET":
                    return 200, {}, self._served(self.issues[number], new_number, repo)
        if not m:
            return 404, {}, {"message": "Not Found"}
        rest = m.group(1)
        m2 = re.fullmatch(r"issues/(\d+)(/.*)?", rest)
        if m2 and self.issues_disabled and int(m2.group(1)) not in self.pulls:
            return 410, {}, ISSUES_DISABLED
        if m2 and int(m2.group(1)) in self.moved:
            repo_id, _, new_number = self.moved[int(m2.group(1))]
            if m2.group(2) or method != "GET":
                return NOT_FOUND
            location = f"{self.base_url}/repositories/{repo_id}/issues/{new_number}"
            return 301, {"Location": location}, {
                "message": "Moved Permanently",
                "url": location,
                "documentation_url": REDIRECTS_DOCS,
            }
        if (m2 := re.fullmatch(r"issues/(\d+)", rest)) and method == "GET":
            issue = self.issues.get(int(m2.group(1)))
            return (200, {}, self._served(issue, int(m2.group(1)))) if issue else NOT_FOUND
        if m2 := re.fullmatch(r"issues/(\d+)/comments", rest):
            number = int(m2.group(1))
            if number not in self.issues:
                return 404, {}, {"message": "Not Found"}
            if method == "GET":
                return self._page(path, query, self.comments[number])
            if method == "POST" and self.issues[number].get("locked"):
                return 403, {}, {"message": LOCKED_MESSAGE, "documentation_url": LOCKING_DOCS}
            if method == "POST":
                comment = self._comment(number, body["body"], self.token_login, "Bot")
                self.comments[number].append(comment)
                return 201, {}, comment
        if (m2 := re.fullmatch(r"issues/comments/(\d+)", rest)) and method == "PATCH":
            for thread in self.comments.values():
                for comment in thread:
                    if comment["id"] == int(m2.group(1)):
                        comment["body"] = body["body"]
                        return 200, {}, comment
            return 404, {}, {"message": "Not Found"}
        if (m2 := re.fullmatch(r"issues/comments/(\d+)/reactions", rest)) and method == "POST":
            self.reactions.append((int(m2.group(1)), body["content"]))
            reaction = rest_fixture("reactions.create-for-issue-comment.201.json")
            reaction["content"] = body["content"]
            return 201, {}, reaction
        if rest == "pulls" and method == "GET":
            owner_branch = (query.get("head") or [""])[0]
            branch = owner_branch.split(":", 1)[-1]
            state = (query.get("state") or ["open"])[0]
            found = [
                p
                for p in self.pulls.values()
                if (not branch or p["head"]["ref"] == branch) and state in ("all", p.get("state", "open"))
            ]
            return self._page(path, query, found)
        if (m2 := re.fullmatch(r"pulls/(\d+)", rest)) and method == "GET":
            pull = self.pulls.get(int(m2.group(1)))
            return (200, {}, self._served(pull, int(m2.group(1)))) if pull else NOT_FOUND
        if (m2 := re.fullmatch(r"pulls/(\d+)/files", rest)) and method == "GET":
            template = rest_fixture("pulls.list-files.200.json")[0]
            files = [{**template, "filename": name} for name in self.files.get(int(m2.group(1)), [])]
            return self._page(path, query, files)
        if (m2 := re.fullmatch(r"collaborators/([^/]+)/permission", rest)) and method == "GET":
            login = m2.group(1)
            role = self.roles.get(login, "read")
            data = rest_fixture("repos.get-collaborator-permission-level.200.admin.json")
            legacy = {"maintain": "write", "triage": "read"}.get(role, role)
            data.update(permission=legacy, role_name=role)
            data["user"]["login"] = login
            return 200, {}, data
        return 404, {}, {"message": "Not Found"}

    def _page(
        self, path: str, query: dict[str, list[str]], items: list[Any]
    ) -> tuple[int, dict[str, str], Any]:
        per_page = min(100, int((query.get("per_page") or ["30"])[0]))
        page = int((query.get("page") or ["1"])[0])
        last = max(1, -(-len(items) // per_page))
        headers = {}
        links = []
        if page < last:
            links.append(f'<{self.base_url}{path}?per_page={per_page}&page={page + 1}>; rel="next"')
            links.append(f'<{self.base_url}{path}?per_page={per_page}&page={last}>; rel="last"')
        if links:
            headers["Link"] = ", ".join(links)
        return 200, headers, items[(page - 1) * per_page : page * per_page]

    def _served(self, item: dict[str, Any], number: int, repo: str = "") -> dict[str, Any]:
        """An issue or pull request as GitHub serves it from ``repo`` (this one by default): its
        number, and the URLs naming its repository, GitHub's own whatever payload it came from."""
        repo = repo or self.repo
        served = copy.deepcopy(item)
        kind = "pulls" if "head" in served else "issues"
        page = "pull" if kind == "pulls" or "pull_request" in served else "issues"
        served.update(
            number=number,
            url=f"https://api.github.com/repos/{repo}/{kind}/{number}",
            html_url=f"https://github.com/{repo}/{page}/{number}",
        )
        if kind == "issues":
            served["repository_url"] = f"https://api.github.com/repos/{repo}"
        return served

    def _comment(self, number: int, body: str, login: str, user_type: str) -> dict[str, Any]:
        comment: dict[str, Any] = rest_fixture("issues.create-comment.201.json")
        self._next_id += 1
        cid = self._next_id
        comment.update(
            id=cid,
            node_id=f"IC_kwDOfake{cid}",
            body=body,
            url=f"https://api.github.com/repos/{self.repo}/issues/comments/{cid}",
            html_url=f"https://github.com/{self.repo}/issues/{number}#issuecomment-{cid}",
            issue_url=f"https://api.github.com/repos/{self.repo}/issues/{number}",
        )
        comment["user"].update(login=login, type=user_type)
        return comment
