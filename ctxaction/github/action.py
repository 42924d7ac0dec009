"""``ctxaction action``: the whole GitHub Action run, from the runner's environment to delivery.

One straight flow: inputs → event → (command gate) → thread → git prep → build → deliver →
outputs. Everything comes from the environment a runner gives a container action (``INPUT_*``,
``GITHUB_*``), so the same code runs, and is tested, outside a container. Failures end in one
``::error::`` and exit 1 — except a read-only token (fork PRs), which still gets the package into
the job summary, a notice, and exit 0.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Mapping
from pathlib import Path

from ctxaction.agents import get_preset
from ctxaction.config import ConfigError
from ctxaction.github import checkout
from ctxaction.github.client import Client, GitHubError, ThreadComment, find_own, role_at_least
from ctxaction.github.command import Command, CommandError, command_line, parse_args, reply_for
from ctxaction.github.deliver import (
    COMMENT_LIMIT,
    MARKER,
    MARKER_RE,
    REPLY_MARKER,
    SUMMARY_LIMIT,
    append_file,
    fit_package,
    format_outputs,
    posted_text,
    utf8_len,
    write_artifacts,
)
from ctxaction.github.event import REPO_RE, EventError, Request, Skip, TriggerComment, load_event
from ctxaction.github.fetch import Thread, fetch_thread
from ctxaction.github.inputs import InputError, Inputs, fail_on_error, read_inputs
from ctxaction.github.log import Log, quoted_log
from ctxaction.handoff import (
    compact_comment,
    packaged_sha,
    resolve_preset,
    sha_note,
    write_handoff,
)
from ctxaction.model import Package
from ctxaction.pipeline import BudgetError, BuildError, BuildOptions, build_package, render
from ctxaction.repo.git import RepoError
from ctxaction.secure import redact
from ctxaction.secure.globs import PatternError
from ctxaction.task import TaskError
from ctxaction.tokens import TokenizerError

BUILD_ERRORS = (
    BuildError, BudgetError, ConfigError, PatternError, RepoError, TaskError, TokenizerError, OSError,
)  # fmt: skip


class ActionRun:
    """One run for one request; holds the client, the log and the outputs being collected."""

    def __init__(self, inputs: Inputs, request: Request, workspace: Path, env: Mapping[str, str], log: Log):
        self.inputs = inputs
        self.request = request
        self.workspace = workspace
        self.env = env
        self.log = log
        self.client = Client(request.repo, inputs.token, env.get("GITHUB_API_URL") or None)
        self.outputs = dict.fromkeys(("package-path", "comment-url"), "")
        self.outputs.update(tokens="0", files="0", truncated="false")
        self.preset = get_preset("generic")

    def execute(self) -> int:
        """Run the request to the end; returns the exit code."""
        comment = self.request.comment
        command = Command()
        try:
            if comment is not None:
                gate = self.gate(comment)
                if gate is None:
                    return 0
                command = gate
            thread = fetch_thread(
                self.client,
                self.request.number,
                data=self.request.data,
                is_pr=self.request.is_pr,
                head_sha=self.request.head_sha,
            )
            for warning in thread.warnings:
                self.log.annotate("warning", warning)
            package = self.build(thread, command)
            self.deliver(package, thread, command)
        except GitHubError as exc:
            if exc.read_only:
                self.log.annotate("notice", f"{exc}: the token is read-only (a fork PR?); nothing posted")
                return 0
            return self.fail(exc, comment)
        except BUILD_ERRORS as exc:
            return self.fail(exc, comment)
        except Exception as exc:  # a bug: keep the traceback, still answer the commenter
            traceback.print_exc()
            return self.fail(RuntimeError(f"unexpected {type(exc).__name__}: {exc}"), comment)
        if comment is not None:
            self.react(comment, "rocket")
        return 0

    def gate(self, comment: TriggerComment) -> Command | None:
        """The command of an ``issue_comment`` when it may run; None (with a reason logged) if not."""
        if comment.is_bot or MARKER_RE.search(comment.body) or REPLY_MARKER in comment.body:
            self.log.line(f"comment {comment.id} is by a bot or is ours: ignored")
            return None
        args = command_line(comment.body, self.inputs.command)
        if args is None:
            self.log.line(f"comment {comment.id} does not start with {self.inputs.command}: ignored")
            return None
        try:
            command = parse_args(args)
        except CommandError as exc:
            self.refuse(comment, str(exc))
            return None
        role = self.client.role(comment.author)
        if not role_at_least(role, self.inputs.min_permission):
            self.refuse(
                comment,
                f"{comment.author} has {role} access to this repository; "
                f"{self.inputs.command} needs {self.inputs.min_permission} or more",
            )
            return None
        self.react(comment, "eyes")
        return command

    def refuse(self, comment: TriggerComment, reason: str) -> None:
        """Answer a command that will not run: 😕 and a short reply saying why."""
        self.log.annotate("notice", f"{self.inputs.command} refused: {reason}")
        self.react(comment, "confused")
        body = f"{REPLY_MARKER}\n{reply_for(reason, self.inputs.command)}"
        try:
            self.client.create_comment(self.request.number, posted_text(body))
        except GitHubError as exc:
            self.log.annotate("warning", f"could not reply: {exc}")

    def react(self, comment: TriggerComment, content: str) -> None:
        """Add a reaction; a failure is only a warning."""
        try:
            self.client.react(self.request.number, comment.id, content)
        except GitHubError as exc:
            self.log.annotate("warning", f"could not add the {content} reaction: {exc}")

    def fail(self, exc: Exception, comment: TriggerComment | None) -> int:
        """One ``::error::``; for a command, 😕 and a reply with the reason too."""
        message = str(exc)
        self.log.annotate("error", message)
        if comment is not None:
            self.refuse(comment, message)
        return 1

    def prepare_git(self, thread: Thread) -> tuple[str | None, str | None]:
        """Deepen a shallow checkout, fetch a PR head as data; returns (ref, rules_ref)."""
        with checkout.credentials(self.workspace, self.inputs.token, self.env.get("GITHUB_SERVER_URL", "")):
            return checkout.prepare(
                self.workspace,
                self.request.number,
                thread.head_sha if thread.task.kind == "pr" else "",
                thread.base_sha,
                self.inputs.history_depth,
                info=self.log.line,
                warn=lambda message: self.log.annotate("warning", message),
            )

    def build(self, thread: Thread, command: Command) -> Package:
        """Build the package for the thread (PR heads read from objects, never checked out)."""
        ref, rules_ref = self.prepare_git(thread)
        config = self.workspace / self.inputs.config if self.inputs.config else None
        options = BuildOptions(
            repo=self.workspace,
            task=thread.task,
            profile=command.profile or self.inputs.task,
            budget=command.budget or self.inputs.budget,
            config_path=config,
            fmt=command.fmt or self.inputs.fmt,
            include=list(command.include),
            exclude=list(command.exclude),
            ref=ref,
            rules_ref=rules_ref,
            history_depth=self.inputs.history_depth or None,
            agent=self.inputs.agent or None,
        )
        package = build_package(options)
        self.outputs.update(tokens=str(package.total_tokens), files=str(len(package.files)))
        self.outputs["file-count"] = str(len(package.files))
        return package

    def deliver(self, package: Package, thread: Thread, command: Command) -> None:
        """Artifact, comment, summary as asked; a read-only token falls back to the summary."""
        wanted = self.inputs.outputs
        fmt = command.fmt or self.inputs.fmt
        where = self.where_full(wanted, thread.task.kind)
        self.hand_off(package)
        if "artifact" in wanted:
            rendered = {name: posted_text(render(package, name)) for name in {"markdown", "json", fmt}}
            stem = f"{'pr' if thread.task.kind == 'pr' else 'issue'}-{self.request.number}"
            paths = write_artifacts(self.workspace, self.inputs.artifact_dir, stem, rendered)
            self.outputs["package-path"] = paths[fmt]
            self.log.line(f"package written to {paths[fmt]}")
        summary = "summary" in wanted
        if "comment" in wanted:
            try:
                self.upsert(package, thread, where)
            except GitHubError as exc:
                if not exc.read_only:
                    raise
                self.log.annotate(
                    "notice",
                    "the token cannot comment here (read-only, as for pull requests from forks): "
                    "the package is in the job summary instead",
                )
                summary = True
        self.write_summary(package, full=summary)

    def hand_off(self, package: Package) -> None:
        """Write .ctxaction/package.md, package.json (and the host's prompt file); set the outputs.
        The package body goes to files and outputs only, never to the log."""
        config = self.workspace / self.inputs.config if self.inputs.config else None
        self.preset = resolve_preset(self.workspace, config, self.inputs.agent)
        handoff = write_handoff(
            self.workspace,
            package,
            self.preset,
            redact(render(package, "markdown"))[0],
            redact(render(package, "json"))[0],
            markdown_limit=self.inputs.markdown_limit,
        )
        self.outputs.update(handoff.outputs())
        self.log.line(f"package written to {handoff.package_path} ({handoff.size} bytes, {self.preset.name})")

    def where_full(self, wanted: frozenset[str], kind: str) -> str:
        """Where a reader finds the whole package when the comment is shortened."""
        places = []
        if "artifact" in wanted:
            places.append(f"the `{self.inputs.artifact_dir}` artifact")
        if "summary" in wanted:
            server = self.env.get("GITHUB_SERVER_URL", "https://github.com")
            run_id = self.env.get("GITHUB_RUN_ID", "")
            run_url = f"{server}/{self.request.repo}/actions/runs/{run_id}"
            places.append(f"[the job summary]({run_url})" if run_id else "the job summary")
        flag = "--pr" if kind == "pr" else "--issue"
        places.append(f"`ctxaction build {flag} {self.request.number}` run locally")
        return ", ".join(places[:-1]) + (" or " if len(places) > 1 else "") + places[-1]

    def upsert(self, package: Package, thread: Thread, where: str) -> None:
        """Create our comment, or update the one we posted before (marker *and* author)."""

        def frame(body: str, shortened: str) -> str:
            note = (
                f"\n\n> **Shortened to fit GitHub's comment limit:** {shortened}. The full package: {where}."
                if shortened
                else ""
            )
            return f"{MARKER}\n{body}{note}\n"

        if self.preset.name == "generic":
            full = fit_package(package, lambda p: render(p, "markdown"), COMMENT_LIMIT, frame=frame)
            body, truncated = full[0] + sha_note(package.head), full[1]
        else:
            body, truncated = self.compact(package), False
        login = self.client.own_login(self.inputs.bot_login)
        # The newest of ours: older ones were superseded (and minimized) by it.
        existing = find_own(reversed(thread.comments), MARKER_RE, login)
        if existing is not None and self.superseded(existing, package):
            self.minimize(existing)
            existing = None
        if existing is None:
            _, url = self.client.create_comment(self.request.number, body)
        elif existing.body == body:
            url = existing.url
        else:
            url = self.client.update_comment(existing, body)
        self.outputs.update({"comment-url": url, "truncated": "true" if truncated else "false"})
        self.log.line(f"comment {'updated' if existing else 'created'}: {url}")

    def compact(self, package: Package) -> str:
        """The short comment agent presets get (the package itself is in the files)."""
        server = self.env.get("GITHUB_SERVER_URL", "https://github.com")
        run_id = self.env.get("GITHUB_RUN_ID", "")
        repo_url = f"{server}/{self.request.repo}"
        body = compact_comment(
            package,
            commit_url=f"{repo_url}/commit/{package.head}" if package.head else "",
            full_url=f"{repo_url}/actions/runs/{run_id}" if run_id else "",
            full_label="this run's artifact and job summary",
        )
        return posted_text(f"{MARKER}\n{body}\n")

    def superseded(self, existing: ThreadComment, package: Package) -> bool:
        """A PR comment about an older head: replaced by a new comment, not edited in place."""
        old = packaged_sha(existing.body)
        return bool(self.request.is_pr and old and package.head and old != package.head)

    def minimize(self, comment: ThreadComment) -> None:
        """Hide our stale comment; failing to is only a warning."""
        try:
            self.client.minimize_comment(comment)
            self.log.line(f"comment {comment.id} minimized as outdated")
        except GitHubError as exc:
            self.log.annotate("warning", f"could not minimize the outdated comment: {exc}")

    def write_summary(self, package: Package, full: bool) -> None:
        """A status line always; the whole package too when asked (capped at 1 MiB)."""
        path = self.env.get("GITHUB_STEP_SUMMARY")
        if not path:
            return
        kind = "PR" if package.task.kind == "pr" else "issue"
        head = (
            f"### Context package for {kind} #{self.request.number}\n\n"
            f"{package.total_tokens} tokens, {len(package.files)} files"
            + (f", comment: {self.outputs['comment-url']}" if self.outputs["comment-url"] else "")
            + "\n\n"
        )
        text = head
        if full:
            body, _ = fit_package(
                package, lambda p: render(p, "markdown"), SUMMARY_LIMIT - utf8_len(head) - 1024, utf8_len
            )
            text += body
        append_file(path, text + "\n")

    def write_outputs(self) -> None:
        """Write the collected outputs to ``$GITHUB_OUTPUT`` (if the runner gave one)."""
        path = self.env.get("GITHUB_OUTPUT")
        if path:
            append_file(path, format_outputs(self.outputs))


def main(env: Mapping[str, str] | None = None, log: Log | None = None) -> int:
    """Run the action with ``env`` (default: this process's environment); returns the exit code.

    With ``fail-on-error: false`` every failure is a warning and the exit code 0, so a context
    problem never blocks the agent step that follows."""
    env = os.environ if env is None else env
    fail_open = not fail_on_error(env)
    log = log or Log(fail_open=fail_open)
    try:
        code = _run(env, log)
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
        raise EventError(f"GITHUB_REPOSITORY must be owner/name to use input 'number', got {repo[:80]!r}")
    event = env.get("GITHUB_EVENT_NAME", "")
    if inputs.number != "branch":
        return Request(event=event, action="", repo=repo, number=int(inputs.number), is_pr=None)
    branch = env.get("GITHUB_HEAD_REF") or env.get("GITHUB_REF_NAME") or ""
    if not branch:
        return Skip("input 'number' is 'branch' but the runner names no branch (GITHUB_REF_NAME)")
    number = Client(repo, inputs.token, env.get("GITHUB_API_URL") or None).open_pull(branch)
    if number is None:
        return Skip(f"no open pull request has branch {branch[:100]!r} as its head: nothing to package")
    return Request(event=event, action="", repo=repo, number=number, is_pr=True)


def _run(env: Mapping[str, str], log: Log) -> int:
    """The run itself (see :func:`main`)."""
    try:
        inputs = read_inputs(env)
    except InputError as exc:
        log.annotate("error", str(exc))
        return 1
    if env.get("GITHUB_ACTIONS") == "true":
        log.line(f"::add-mask::{inputs.token}")
    workspace = Path(env.get("GITHUB_WORKSPACE") or os.getcwd()).resolve()
    config = (workspace / inputs.config).resolve() if inputs.config else workspace
    if not config.is_relative_to(workspace) or (inputs.config and not config.is_file()):
        log.annotate("error", f"input 'config': {inputs.config} is not a file inside the workspace")
        return 1
    checkout.trust_directory(workspace, os.environ)
    if inputs.scan:
        from ctxaction.github.scan import run_scan

        return run_scan(inputs, workspace, env, log)
    try:
        request = (
            explicit_request(inputs, env)
            if inputs.number
            else load_event(
                env.get("GITHUB_EVENT_NAME", ""),
                env.get("GITHUB_EVENT_PATH", ""),
                repository=env.get("GITHUB_REPOSITORY", ""),
                allow_edited=inputs.edited_comments,
            )
        )
    except (EventError, GitHubError) as exc:
        log.annotate("error", str(exc))
        return 1
    if isinstance(request, Skip):
        log.annotate("notice", request.reason)
        return 0
    if request.comment is not None:
        log.line("triggering comment:\n" + quoted_log(posted_text(request.comment.body[:2000])))
    run = ActionRun(inputs, request, workspace, env, log)
    try:
        return run.execute()
    finally:
        run.write_outputs()
