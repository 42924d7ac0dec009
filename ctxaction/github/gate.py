"""Who may make a comment run the action, and how the answer is given.

Order matters: bots and our own comments are dropped first; then the commenter's repository
role is checked *before* anything in the comment is parsed or posted, so a stranger can make
the bot do nothing but read. Refusals are a 😕 reaction only; a collaborator's mistake (bad
arguments, a failed build) also gets one short reply, updated in place on the next mistake.

Without the ``agent`` input only a comment whose first line is the command (``/context``)
runs. With it (agent hand-off mode) the workflow's own trigger decides, so any comment by a
collaborator builds the package; the command's arguments still apply when it is there.
Reactions exist for issue comments only (review comments and reviews get none).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ctxaction.errors import CommandError, GitHubError
from ctxaction.github.client import Client, role_at_least
from ctxaction.github.command import Command, command_line, parse_args, reply_for
from ctxaction.github.deliver import MARKER_RE, REPLY_MARKER, final_body, posted_text
from ctxaction.github.event import Request
from ctxaction.github.inputs import Inputs
from ctxaction.github.log import Log

REPLY_RE = re.compile(re.escape(REPLY_MARKER))


class Gate:
    """The comment gate of one run (``request.comment`` is set)."""

    def __init__(self, client: Client, inputs: Inputs, request: Request, log: Log) -> None:
        self.client = client
        self.inputs = inputs
        self.request = request
        self.log = log
        # True once a collaborator's explicit command is accepted: it gets 👀, then 🚀 or 😕.
        self.answering = False

    @property
    def reactable(self) -> bool:
        comment = self.request.comment
        return comment is not None and comment.kind == "issue"

    def decide(self, pin: Callable[[], None] = lambda: None) -> Command | None:
        """The command to run with, or None (the reason logged, a refusal answered).

        ``pin`` runs once the comment is known to concern us and before the role is asked: the
        run reads the PR head there, as close to the comment as it can."""
        comment = self.request.comment
        assert comment is not None
        if comment.is_bot or MARKER_RE.search(comment.body) or REPLY_MARKER in comment.body:
            self.log.line(f"comment {comment.id} is by a bot or is ours: ignored")
            return None
        args = command_line(comment.body, self.inputs.command)
        agent_mode = bool(self.inputs.agent)
        if args is None and not agent_mode:
            self.log.line(f"comment {comment.id} does not start with {self.inputs.command}: ignored")
            return None
        pin()
        role = self.client.role(comment.author)
        if not role_at_least(role, self.inputs.min_permission):
            what = self.inputs.command if args is not None else "a package"
            need = self.inputs.min_permission
            self.log.annotate("notice", f"{what} refused: the commenter has {role} access, {need} is needed")
            if args is not None:
                self.react("confused")
            return None
        if args is None:
            return Command()
        try:
            command = parse_args(args)
        except CommandError as exc:
            self.log.annotate("notice", f"{self.inputs.command} not run: {exc.one_line()}")
            self.react("confused")
            self.reply(exc.one_line())
            return None
        self.answering = True
        self.react("eyes")
        return command

    def done(self) -> None:
        """The package is delivered: 🚀 for an explicit command."""
        if self.answering:
            self.react("rocket")

    def failed(self, message: str) -> None:
        """The run failed after an accepted command: 😕 and the reason as the (one) reply."""
        if self.answering:
            self.react("confused")
            self.reply(message)

    def react(self, content: str) -> None:
        """Add a reaction to the triggering comment; a failure is only a warning."""
        comment = self.request.comment
        if comment is None or not self.reactable:
            return
        try:
            self.client.react(self.request.number, comment.id, content)
        except GitHubError as exc:
            self.log.annotate("warning", f"could not add the {content} reaction: {exc.one_line()}")

    def reply(self, reason: str) -> None:
        """Our one short reply on the thread: created once, then updated in place."""
        body = final_body(posted_text(f"{REPLY_MARKER}\n{reply_for(reason, self.inputs.command)}"))
        try:
            comments = self.client.comments(self.request.number)
            existing = self.client.find_ours(reversed(comments), REPLY_RE, self.inputs.bot_login)
            if existing is None:
                self.client.create_comment(self.request.number, body)
            elif existing.body != body:
                self.client.update_comment(existing, body)
        except GitHubError as exc:
            self.log.annotate("warning", f"could not reply: {exc.one_line()}")
