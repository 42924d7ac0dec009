"""The ``/context`` comment command: ``/context [profile] [budget=N] [+path …] [-path …] [format=…]``.

Only the first line of a comment counts, and only when it is plain text: a quoted line (``>``),
a fenced or indented code block never runs a command, so quoting someone's ``/context`` in a
reply does not trigger it. Arguments are tokenised like a shell (quotes group words) but never
reach one; their number and length are capped, and anything unknown is an error whose message
is the reply the commenter sees.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from ctxaction.errors import CommandError as CommandError
from ctxaction.secure import clip, quoted

FORMATS = ("markdown", "xml", "json")
MAX_LINE = 500
MAX_ARGS = 20
MAX_PATH = 200
BUDGET_RANGE = (500, 200_000)
PROFILE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
COMMAND_RE = re.compile(r"^/[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
USAGE = "/context [profile] [budget=N] [+path …] [-path …] [format=markdown|xml|json]"
# A reply names the reason in a few lines: a failure's message can be as long as what it quotes
# (a config value of 70,000 characters), and the usage line must still follow it.
MAX_REASON = 1_000



@dataclass(frozen=True)
class Command:
    """A parsed ``/context`` request; ``None`` fields mean "use the configured default"."""

    profile: str | None = None
    budget: int | None = None
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    fmt: str | None = None


def command_line(body: str, command: str = "/context") -> str | None:
    """The argument text after ``command`` when the comment's first line is that command, else None.

    Leading blank lines are skipped; a first line that is quoted, indented as code, or opens a
    code fence is not a command.
    """
    for line in body.replace("\r\n", "\n").split("\n"):
        if not line.strip():
            continue
        if line.startswith(("    ", "\t")):
            return None
        stripped = line.strip()
        if stripped.startswith((">", "```", "~~~")):
            return None
        head, *rest = stripped.split(None, 1)
        if head.lower() != command.lower():
            return None
        return rest[0].strip() if rest else ""
    return None


def parse_args(text: str) -> Command:
    """Parse the argument text of a command; raises ``CommandError`` with a reply-ready message."""
    if len(text) > MAX_LINE:
        raise CommandError(f"the command line is longer than {MAX_LINE} characters")
    try:
        words = shlex.split(text, comments=False, posix=True)
    except ValueError as exc:
        raise CommandError(f"cannot read the arguments ({exc}): close every quote") from exc
    if len(words) > MAX_ARGS:
        raise CommandError(f"too many arguments ({len(words)}, at most {MAX_ARGS})")
    profile: str | None = None
    budget: int | None = None
    fmt: str | None = None
    include: list[str] = []
    exclude: list[str] = []
    for word in words:
        key, eq, value = word.partition("=")
        if word.startswith(("+", "-")):
            (include if word[0] == "+" else exclude).append(_path(word))
        elif eq and key == "budget":
            budget = _budget(value)
        elif eq and key == "format":
            if value not in FORMATS:
                raise CommandError(f"unknown format {_show(value)}: use one of {', '.join(FORMATS)}")
            fmt = value
        elif eq and key == "profile":
            profile = _profile(value)
        elif eq:
            raise CommandError(f"unknown argument {_show(word)}")
        elif profile is None:
            profile = _profile(word)
        else:
            raise CommandError(f"unexpected argument {_show(word)} (the profile is already '{profile}')")
    return Command(profile=profile, budget=budget, include=include, exclude=exclude, fmt=fmt)


def _show(text: str) -> str:
    """Untrusted text echoed in a reply, quoted (:func:`~ctxaction.secure.quoted`): without
    backticks, which would open code in the reply's Markdown, or control characters."""
    return quoted("".join(ch for ch in text if ch.isprintable() and ch != "`"))


def _path(word: str) -> str:
    path = word[1:].strip()
    if not path:
        raise CommandError(f"'{word[0]}' needs a path right after it, like {word[0]}src/app.py")
    if len(path) > MAX_PATH:
        raise CommandError(f"path {_show(path)} is longer than {MAX_PATH} characters")
    parts = path.replace("\\", "/").split("/")
    if path.startswith(("/", "-")) or ".." in parts or not all(ch.isprintable() for ch in path):
        raise CommandError(f"path {_show(path)} must be relative to the repository root, without '..'")
    return path


def _budget(value: str) -> int:
    low, high = BUDGET_RANGE
    # ASCII digits only: str.isdigit() also accepts superscripts and circled digits, which int()
    # then rejects with a ValueError instead of this reply.
    if not re.fullmatch(r"[0-9]{1,7}", value) or not low <= int(value) <= high:
        raise CommandError(f"budget must be a number of tokens from {low} to {high}, not {_show(value)}")
    return int(value)


def _profile(value: str) -> str:
    if not PROFILE_RE.match(value):
        raise CommandError(f"{_show(value)} is not a profile name (letters, digits, '-', '_', '.')")
    return value


def reply_for(error: str, command: str = "/context") -> str:
    """The text of the 😕 reply: what went wrong (its first ``MAX_REASON`` characters; the whole
    message is in the run's log) and the usage line."""
    usage = USAGE.replace("/context", command, 1)
    reason = clip(error, MAX_REASON, "… (cut here: the whole message is in the workflow run's log)")
    return f"Could not run `{command}`: {reason}.\n\nUsage: `{usage}`"
