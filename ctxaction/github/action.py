"""``ctxaction action``: the whole GitHub Action run, from the runner's environment to delivery.

One straight flow: inputs → event → (comment gate) → thread → git prep → build → deliver →
outputs. Everything comes from the environment a runner gives a container action (``INPUT_*``,
``GITHUB_*``), so the same code runs, and is tested, outside a container. This module turns that
environment into a request (or a scan, or a notice saying why there is nothing to do);
:class:`~ctxaction.github.run.ActionRun` answers the request. Every error a user can cause is a
:class:`~ctxaction.errors.CtxError` and ends in one ``::error::`` line and exit 1; a read-only or
empty token (fork PRs) still gets the package into the job summary, a notice and exit 0.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ctxaction.errors import CtxError, EventError
from ctxaction.github import checkout
from ctxaction.github.client import Client
from ctxaction.github.deliver import posted_text
from ctxaction.github.event import REPO_RE, Request, Skip, load_event
from ctxaction.github.inputs import Inputs, fail_on_error, read_inputs
from ctxaction.github.log import Log, quoted_log
from ctxaction.github.run import ActionRun
from ctxaction.secure import quoted

NO_TOKEN = (
    "input 'github-token' is empty (pull requests from forks get empty secrets): nothing is read "
    "from or posted to GitHub"
)


def main(env: Mapping[str, str] | None = None, log: Log | None = None) -> int:
    """Run the action with ``env`` (default: this process's environment); returns the exit code.

    With ``fail-on-error: false`` every failure is a warning and the exit code 0, so a context
    problem never blocks the agent step that follows."""
    env = os.environ if env is None else env
    fail_open = not fail_on_error(env)
    log = log or Log(fail_open=fail_open)
    try:
        code = _run(env, log)
    except CtxError as exc:
        log.annotate("error", exc.one_line())
        code = 1
    except Exception as exc:
        if not fail_open:
            raise
        log.annotate("warning", f"ctxaction failed ({type(exc).__name__}: {exc})")
        code = 1
    if code and fail_open:
        log.annotate("warning", "no context package this time; continuing because fail-on-error is false")
        return 0
    return code


def explicit_request(inputs: Inputs, env: Mapping[str, str]) -> Request | Skip:
    """The issue or PR the ``number`` input names, whatever the event: a number, or ``branch`` for
    the open PR of the checked-out branch (copilot-setup-steps, where no event names one)."""
    repo = env.get("GITHUB_REPOSITORY", "")
    if not REPO_RE.match(repo):
        raise EventError(f"GITHUB_REPOSITORY must be owner/name to use input 'number', got {quoted(repo)}")
    event = env.get("GITHUB_EVENT_NAME", "")
    if inputs.number != "branch":
        return Request(event=event, action="", repo=repo, number=int(inputs.number), is_pr=None)
    branch = env.get("GITHUB_HEAD_REF") or env.get("GITHUB_REF_NAME") or ""
    if not branch:
        return Skip("input 'number' is 'branch' but the runner names no branch (GITHUB_REF_NAME)")
    number = Client(repo, inputs.token, env.get("GITHUB_API_URL") or None).open_pull(branch)
    if number is None:
        return Skip(f"no open pull request has branch {quoted(branch)} as its head: nothing to package")
    return Request(event=event, action="", repo=repo, number=number, is_pr=True)


def _without_token(request: Request | Skip) -> Request | Skip:
    """What a run without a token can still do: package what the payload holds."""
    if isinstance(request, Skip):
        return request
    if request.comment is not None:
        return Skip(f"{NO_TOKEN}; a comment's author cannot be checked without one, so nothing is packaged")
    if request.data is None or request.is_pr is None:
        return Skip(f"{NO_TOKEN}; this event does not carry the issue or PR, so nothing is packaged")
    return request


def _run(env: Mapping[str, str], log: Log) -> int:
    """The run itself (see :func:`main`)."""
    inputs = read_inputs(env)
    if env.get("GITHUB_ACTIONS") == "true" and inputs.token:
        log.raw(f"::add-mask::{inputs.token}")
    workspace = Path(env.get("GITHUB_WORKSPACE") or os.getcwd()).resolve()
    config = (workspace / inputs.config).resolve() if inputs.config else workspace
    if not config.is_relative_to(workspace) or (inputs.config and not config.is_file()):
        log.annotate("error", f"input 'config': {inputs.config} is not a file inside the workspace")
        return 1
    checkout.trust_directory(workspace, os.environ)
    if inputs.scan:
        from ctxaction.github.scan import run_scan

        return run_scan(inputs, workspace, env, log)
    if inputs.number and not inputs.token:
        log.annotate("notice", f"{NO_TOKEN}; input 'number' needs the API, so nothing is packaged")
        return 0
    request = (
        explicit_request(inputs, env)
        if inputs.number
        else load_event(
            env.get("GITHUB_EVENT_NAME", ""),
            env.get("GITHUB_EVENT_PATH", ""),
            repository=env.get("GITHUB_REPOSITORY", ""),
            allow_edited=inputs.edited_comments,
            agent_mode=bool(inputs.agent),
        )
    )
    if not inputs.token:
        request = _without_token(request)
        if not isinstance(request, Skip):
            log.annotate("notice", f"{NO_TOKEN}; the package goes to the job summary")
    if isinstance(request, Skip):
        log.annotate("notice", request.reason)
        return 0
    if request.comment is not None:
        log.line("triggering comment:\n" + quoted_log(posted_text(request.comment.body)[:2000]))
    run = ActionRun(inputs, request, workspace, env, log)
    try:
        return run.execute()
    finally:
        run.write_outputs()
