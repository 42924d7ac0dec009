"""One run of the action for one request: comment gate → thread → git prep → build → deliver.

:class:`ActionRun` takes the request :mod:`ctxaction.github.action` made of the runner's
environment and answers it: the thread read through the API (or from the payload without a
token), the package built from the checked-out workspace (a PR head read from git objects, never
checked out), then hand-off files, artifact, comment and job summary as asked. A thread with
nothing left to answer on (deleted, moved to another repository, Issues turned off) is a notice
and exit 0; a read-only token (fork PRs) or a locked thread sends the package to the job summary
instead of a comment.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Mapping
from pathlib import Path

from ctxaction.errors import CtxError, GitHubError
from ctxaction.github import checkout
from ctxaction.github.client import Client
from ctxaction.github.command import Command
from ctxaction.github.comment import CommentContext, compose
from ctxaction.github.deliver import (
    MARKER_RE,
    SUMMARY_LIMIT,
    append_file,
    final_body,
    fit_package,
    format_outputs,
    posted_text,
    utf8_len,
    write_artifacts,
)
from ctxaction.github.event import Request
from ctxaction.github.fetch import Thread, fetch_thread, payload_thread
from ctxaction.github.gate import Gate
from ctxaction.github.handoff.excludes import keep_out_of_commits
from ctxaction.github.handoff.preset import resolve_preset
from ctxaction.github.handoff.write import write_handoff
from ctxaction.github.inputs import Inputs
from ctxaction.github.log import Log
from ctxaction.model import Package
from ctxaction.output import owner_for
from ctxaction.pipeline import BuildOptions, build_package, render
from ctxaction.secure import redact


class ActionRun:
    """One run for one request; holds the client, the log and the outputs being collected."""

    def __init__(self, inputs: Inputs, request: Request, workspace: Path, env: Mapping[str, str], log: Log):
        self.inputs = inputs
        self.request = request
        self.workspace = workspace
        self.env = env
        self.log = log
        api = env.get("GITHUB_API_URL") or None
        self.client = Client(request.repo, inputs.token, api) if inputs.token else None
        self.owner = owner_for(workspace)
        self.outputs = dict.fromkeys(("package-path", "comment-url"), "")
        self.outputs.update(tokens="0", files="0", truncated="false")
        self.gate = Gate(self.client, inputs, request, log) if self.client else None
        self.head_note = ""

    def execute(self) -> int:
        """Run the request to the end; returns the exit code."""
        command = Command()
        try:
            if self.gate is not None and self.request.comment is not None:
                decided = self.gate.decide(pin=self.pin_head)
                if decided is None:
                    return 0
                command = decided
            thread = self.thread()
            for warning in thread.warnings:
                self.log.annotate("warning", warning)
            package = self.build(thread, command)
            self.deliver(package, thread, command)
        except GitHubError as exc:
            notice = self.nothing_to_answer(exc)
            if notice is None:
                return self.fail(exc)
            # Deleted or transferred after the event (spam is removed within minutes), or Issues
            # turned off: nothing is left to package or to answer on, and nobody has anything to fix.
            self.log.annotate("notice", notice)
            return 0
        except (CtxError, OSError) as exc:
            # A refused read (403) is a workflow without the permission it names, not a fork PR:
            # their read-only token still reads. Only posting falls back to the summary (deliver).
            return self.fail(exc)
        except Exception as exc:  # a bug: keep the traceback, still answer the commenter
            sys.stderr.write(redact(traceback.format_exc())[0])
            return self.fail(RuntimeError(f"unexpected {type(exc).__name__}: {exc}"))
        if self.gate is not None:
            self.gate.done()
        return 0

    def fail(self, exc: Exception) -> int:
        """One ``::error::``; a collaborator's command also gets 😕 and the reason as the reply."""
        message = exc.one_line() if isinstance(exc, CtxError) else " ".join(str(exc).split())
        self.log.annotate("error", message)
        if self.gate is not None:
            self.gate.failed(message)
        return 1

    def nothing_to_answer(self, exc: GitHubError) -> str | None:
        """The notice for a run left with nothing to answer on (the repository's Issues turned off,
        the thread deleted or moved to another repository), or None when ``exc`` is an error."""
        number, repo = self.request.number, self.request.repo
        if exc.issues_disabled:
            # About the repository, not the thread: no need to ask the thread again.
            return (
                f"issues are disabled for {repo}, so the action has nothing to answer on #{number} "
                f"({exc.one_line()}); to package issues, turn Issues on in the repository's "
                "Settings → General → Features"
            )
        proof = self.vanished(exc)
        if proof is None:
            return None
        if proof.moved:
            return f"#{number} is no longer in {repo}: nothing to package ({proof.one_line()})"
        kind = "pull request" if self.request.is_pr else "issue"
        return (
            f"#{number} is gone from {repo} (deleted or transferred since the {kind} event): "
            f"nothing to package ({exc.one_line()})"
        )

    def vanished(self, exc: GitHubError) -> GitHubError | None:
        """The answer showing that the issue or PR the event carried left the repository since
        (deleted, or moved to another), or None. A move proves itself: only the thread's own
        issue or PR is read whole (a linked issue's move is a warning), and asking again would
        follow the redirect into the other repository once more. A 404 or 410 may be about
        anything else the run read, so the thread itself is asked again; a 404 also answers a
        token that cannot read the repository at all: that one stays an error. Without a payload
        (input ``number``) a 404 or 410 is a wrong number: an error."""
        if exc.moved:
            return exc
        if not exc.gone or self.client is None or self.request.data is None:
            return None
        try:
            self.client.issue(self.request.number)
        except GitHubError as again:
            if again.moved or again.status == 410 or (again.status == 404 and self.client.readable()):
                return again
        return None

    def pin_head(self) -> None:
        """For a comment on a PR: the head now, read before anything else, and whether it is the
        head the comment saw (the PR unchanged since the comment was written)."""
        comment = self.request.comment
        if comment is None or self.client is None or not self.request.is_pr or self.request.head_sha:
            return
        pull = self.client.pull(self.request.number)
        head = pull.get("head")
        sha = str(head.get("sha") or "") if isinstance(head, Mapping) else ""
        if not sha:
            return
        self.request = _with_head(self.request, sha, pull)
        if self.gate is not None:
            self.gate.request = self.request
        updated = str(pull.get("updated_at") or "")
        saw = bool(comment.created_at) and bool(updated) and updated[:19] <= comment.created_at[:19]
        self.head_note = (
            f"Packaged `{sha[:12]}`, the head of the pull request when the command was posted."
            if saw
            else f"Packaged `{sha[:12]}`, the head of the pull request when this run started; the pull "
            "request changed after the command was posted, so it may be newer than what the comment saw."
        )

    def thread(self) -> Thread:
        """The thread through the API, or from the payload alone when there is no token."""
        if self.client is None:
            return payload_thread(self.request)
        return fetch_thread(
            self.client,
            self.request.number,
            data=self.request.data,
            is_pr=self.request.is_pr,
            head_sha=self.request.head_sha,
        )

    def prepare_git(self, thread: Thread) -> tuple[str | None, str | None]:
        """Deepen a shallow checkout, fetch a PR head as data; returns (ref, rules_ref)."""
        server = self.env.get("GITHUB_SERVER_URL", "")
        try:
            with checkout.credentials(self.workspace, self.inputs.token, server):
                return checkout.prepare(
                    self.workspace,
                    self.request.number,
                    thread.head_sha if thread.task.kind == "pr" else "",
                    thread.base_sha,
                    self.inputs.history_depth,
                    info=self.log.line,
                    warn=lambda message: self.log.annotate("warning", message),
                )
        finally:
            checkout.give_back(self.workspace, self.owner)

    def config_path(self) -> Path | None:
        return self.workspace / self.inputs.config if self.inputs.config else None

    def build(self, thread: Thread, command: Command) -> Package:
        """Build the package for the thread (PR heads read from objects, never checked out)."""
        checkout.require_checkout(self.workspace)
        ref, rules_ref = self.prepare_git(thread)
        options = BuildOptions(
            repo=self.workspace,
            task=thread.task,
            profile=command.profile or self.inputs.task,
            budget=command.budget or self.inputs.budget,
            config_path=self.config_path(),
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
        """Hand-off files, then artifact, comment, summary as asked; a read-only or missing token
        falls back to the summary."""
        wanted = self.inputs.outputs
        fmt = command.fmt or self.inputs.fmt
        self.hand_off(package)
        if "artifact" in wanted:
            rendered = {name: posted_text(render(package, name)) for name in {"markdown", "json", fmt}}
            stem = f"{'pr' if thread.task.kind == 'pr' else 'issue'}-{self.request.number}"
            paths = write_artifacts(self.workspace, self.inputs.artifact_dir, stem, rendered, self.owner)
            self.outputs["package-path"] = paths[fmt]
            self.log.line(f"package written to {paths[fmt]}")
        summary = "summary" in wanted or self.client is None
        if "comment" in wanted and self.client is not None:
            try:
                self.upsert(package, thread)
            except GitHubError as exc:
                if not (exc.read_only or exc.locked):
                    raise
                if exc.locked:
                    why = (
                        f"#{self.request.number} is locked and GitHub takes comments there from "
                        "collaborators only: unlock it, or pass a collaborator's token as `github-token`"
                    )
                elif _from_fork(self.request):
                    why = "the token is read-only, as it always is on pull requests from forks"
                else:
                    why = exc.one_line()
                self.log.annotate("notice", f"the package is in the job summary instead of a comment: {why}")
                summary = True
        self.write_summary(package, full=summary)

    def hand_off(self, package: Package) -> None:
        """Write .ctxaction/package.md, package.json (and the host's prompt file); set the outputs.
        The package body goes to files and outputs only, never to the log."""
        preset = resolve_preset(self.workspace, self.config_path(), self.inputs.agent)
        handoff = write_handoff(
            self.workspace,
            package,
            preset,
            redact(render(package, "markdown"))[0],
            redact(render(package, "json"))[0],
            markdown_limit=self.inputs.markdown_limit,
            owner=self.owner,
        )
        artifacts = (self.inputs.artifact_dir,) if "artifact" in self.inputs.outputs else ()
        excluded = keep_out_of_commits(self.workspace, preset, self.owner, artifacts)
        self.outputs.update(handoff.outputs())
        kept = f"; kept out of commits by {excluded}" if excluded else ""
        written = f"{handoff.package_path} ({handoff.size} bytes, {preset.name})"
        self.log.line(f"package written to {written}{kept}")

    def where_full(self) -> str:
        """Where a reader finds the whole package when the comment does not hold it."""
        wanted = self.inputs.outputs
        places = []
        if "artifact" in wanted:
            places.append(f"the `{self.inputs.artifact_dir}` artifact")
        if "summary" in wanted:
            places.append(f"[the job summary]({self.run_url()})" if self.run_url() else "the job summary")
        flag = "--pr" if self.request.is_pr else "--issue"
        places.append(f"`ctxaction build {flag} {self.request.number}` run locally")
        return ", ".join(places[:-1]) + (" or " if len(places) > 1 else "") + places[-1]

    def run_url(self) -> str:
        run_id = self.env.get("GITHUB_RUN_ID", "")
        server = self.env.get("GITHUB_SERVER_URL") or "https://github.com"
        return f"{server}/{self.request.repo}/actions/runs/{run_id}" if run_id else ""

    def upsert(self, package: Package, thread: Thread) -> None:
        """Create our comment, or update in place the one we posted before (marker *and* author, or a
        bot's comment led by the marker when our login is a guess: ``Client.find_ours``): one
        comment per issue or PR, whatever the preset, across reruns and pushes."""
        assert self.client is not None
        ctx = CommentContext(
            server=self.env.get("GITHUB_SERVER_URL") or "https://github.com",
            repo=self.request.repo,
            where_full=self.where_full(),
            head_note=self.head_note,
            style=self.inputs.comment_style,
        )
        body, truncated = compose(package, ctx)
        body = final_body(body)
        existing = self.client.find_ours(reversed(thread.comments), MARKER_RE, self.inputs.bot_login)
        url = ""
        if existing is not None and existing.body == body:
            url = existing.url
        elif existing is not None:
            try:
                url = self.client.update_comment(existing, body)
            except GitHubError as exc:
                # Deleted between the listing and now (the build takes a while): post it anew.
                if exc.status != 404:
                    raise
                self.log.line(f"comment {existing.id} was deleted meanwhile: posting a new one")
                existing = None
        if existing is None:
            _, url = self.client.create_comment(self.request.number, body)
        self.outputs.update({"comment-url": url, "truncated": "true" if truncated else "false"})
        self.log.line(f"comment {'updated' if existing else 'created'}: {url}")

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
        append_file(path, redact(text)[0] + "\n")

    def write_outputs(self) -> None:
        """Write the collected outputs to ``$GITHUB_OUTPUT`` (if the runner gave one)."""
        path = self.env.get("GITHUB_OUTPUT")
        if path:
            # Outputs are read by later steps and shown in the run's log: redacted like the rest.
            append_file(path, format_outputs({k: redact(v)[0] for k, v in self.outputs.items()}))


def _from_fork(request: Request) -> bool:
    """A pull request event whose head lives in another repository (or a deleted one): GitHub gives
    such runs a read-only token whatever the workflow's ``permissions:`` say."""
    if request.event not in ("pull_request", "pull_request_review", "pull_request_review_comment"):
        return False
    head = (request.data or {}).get("head")
    repo = head.get("repo") if isinstance(head, Mapping) else None
    name = repo.get("full_name") if isinstance(repo, Mapping) else None
    return not isinstance(name, str) or name.lower() != request.repo.lower()


def _with_head(request: Request, sha: str, pull: Mapping[str, object]) -> Request:
    from dataclasses import replace

    return replace(request, head_sha=sha, data={**(request.data or {}), **pull})
