"""Action inputs from ``INPUT_*`` environment variables, validated into one typed value.

The runner passes ``with:`` values as ``INPUT_<NAME UPPERCASED>`` with hyphens kept
(``INPUT_GITHUB-TOKEN``); some launchers (and shells) can only set underscores, so
``INPUT_GITHUB_TOKEN`` is read as a fallback. ``required: true`` in action.yml is not enforced
by the runner, so every value is checked here and a bad one is a single ``InputError`` that
names the input, what it got and what it accepts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ctxaction.agents import AGENT_NAMES
from ctxaction.errors import InputError as InputError
from ctxaction.github.client import ROLES
from ctxaction.github.command import BUDGET_RANGE, COMMAND_RE, FORMATS, PROFILE_RE
from ctxaction.sanitize import AGENT_HANDLES
from ctxaction.secure import quoted

OUTPUTS = ("comment", "artifact", "summary")
COMMENT_STYLES = ("compact", "full")
TRUE = frozenset({"true", "yes", "on", "1"})
FALSE = frozenset({"false", "no", "off", "0", ""})
HISTORY_RANGE = (0, 100_000)
MARKDOWN_RANGE = (0, 500_000)
ARTIFACT_DIR_RE = re.compile(r"^[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*$")



@dataclass(frozen=True)
class Inputs:
    """The validated ``with:`` values of one run."""

    token: str
    task: str = "auto"
    budget: int | None = None
    config: str = ""
    outputs: frozenset[str] = frozenset({"comment", "summary"})
    command: str = "/context"
    min_permission: str = "write"
    fmt: str = "markdown"
    history_depth: int = 500
    edited_comments: bool = False
    bot_login: str = ""
    artifact_dir: str = "context-package"
    agent: str = ""
    fail_on_error: bool = True
    markdown_limit: int = 30_000
    number: str = ""
    scan: bool = False
    comment_style: str = "compact"


def raw_input(env: Mapping[str, str], name: str) -> str:
    """The trimmed value of input ``name`` (``INPUT_NAME-WITH-HYPHENS``, else underscores)."""
    upper = name.upper()
    value = env.get(f"INPUT_{upper}")
    if value is None:
        value = env.get(f"INPUT_{upper.replace('-', '_')}", "")
    return value.strip()


def _int(name: str, value: str, low: int, high: int) -> int:
    if not re.fullmatch(r"\d+", value) or not low <= int(value) <= high:
        raise InputError(f"input '{name}': expected a whole number from {low} to {high}, got {quoted(value)}")
    return int(value)


def _bool(name: str, value: str) -> bool:
    lowered = value.lower()
    if lowered in TRUE:
        return True
    if lowered in FALSE:
        return False
    raise InputError(f"input '{name}': expected true or false, got {quoted(value)}")


def _choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise InputError(f"input '{name}': expected one of {', '.join(choices)}, got {quoted(value)}")
    return value


def _outputs(value: str) -> frozenset[str]:
    items = [item for item in re.split(r"[\s,]+", value.lower()) if item]
    if not items:
        raise InputError(f"input 'output': name at least one of {', '.join(OUTPUTS)}")
    for item in items:
        _choice("output", item, OUTPUTS)
    return frozenset(items)


def read_inputs(env: Mapping[str, str]) -> Inputs:
    """Validate every input; raises ``InputError`` on the first bad one."""

    def get(name: str, default: str = "") -> str:
        return raw_input(env, name) or default

    # Empty is allowed: pull requests from forks get empty secrets, and the run then falls back
    # to the job summary (see action.py) instead of failing.
    token = get("github-token")
    task = get("task", "auto")
    if not PROFILE_RE.match(task):
        raise InputError(f"input 'task': expected 'auto' or a profile name, got {quoted(task)}")
    budget_text = get("budget")
    command = get("command", "/context")
    if not COMMAND_RE.match(command):
        raise InputError(f"input 'command': expected a slash and a word like /context, got {quoted(command)}")
    bot_login = get("bot-login")
    if bot_login and not re.fullmatch(r"[A-Za-z0-9-]+(?:\[bot\])?", bot_login):
        raise InputError(f"input 'bot-login': expected a GitHub login, got {quoted(bot_login)}")
    # Other agents find their sticky comment by a bot whose login contains their name
    # (claude-code-action: any Bot login containing "claude"): ours must never match.
    clash = next((h for h in AGENT_HANDLES if h in bot_login.lower()), None)
    if clash:
        raise InputError(
            f"input 'bot-login': {quoted(bot_login)} contains '{clash}', which another agent's "
            "sticky-comment lookup would take for its own: use a login without an agent's name"
        )
    artifact_dir = get("artifact-dir", "context-package")
    if not ARTIFACT_DIR_RE.match(artifact_dir) or ".." in artifact_dir.split("/"):
        raise InputError(f"input 'artifact-dir': expected a workspace folder, got {quoted(artifact_dir)}")
    return Inputs(
        token=token,
        task=task,
        budget=_int("budget", budget_text, *BUDGET_RANGE) if budget_text else None,
        config=get("config"),
        outputs=_outputs(get("output", "comment,summary")),
        command=command,
        min_permission=_choice("min-permission", get("min-permission", "write"), ROLES[1:]),
        fmt=_choice("format", get("format", "markdown"), FORMATS),
        history_depth=_int("history-depth", get("history-depth", "500"), *HISTORY_RANGE),
        edited_comments=_bool("edited-comments", get("edited-comments", "false")),
        bot_login=bot_login,
        artifact_dir=artifact_dir,
        agent=_agent(get("agent")),
        fail_on_error=_bool("fail-on-error", get("fail-on-error", "true")),
        markdown_limit=_int("markdown-limit", get("markdown-limit", "30000"), *MARKDOWN_RANGE),
        number=_number(get("number")),
        scan=_bool("scan", get("scan", "false")),
        comment_style=_choice("comment-style", get("comment-style", "compact").lower(), COMMENT_STYLES),
    )


def _number(value: str) -> str:
    """``""`` (the event says), an issue/PR number, or ``branch`` (the open PR of the branch)."""
    if value and value != "branch":
        _int("number", value, 1, 10**9)
    return value


def _agent(value: str) -> str:
    """``""`` (the config decides) or one of the agent presets."""
    if value and value.lower() not in AGENT_NAMES:
        known = ", ".join(AGENT_NAMES)
        raise InputError(f"input 'agent': expected one of {known} (or empty), got {quoted(value)}")
    return value.lower()


def fail_on_error(env: Mapping[str, str]) -> bool:
    """The ``fail-on-error`` input, read first and leniently: even with other inputs broken, a
    run that asked to fail open must not fail (an unreadable value counts as ``true``, and
    :func:`read_inputs` then rejects it with an error naming the input)."""
    return raw_input(env, "fail-on-error").lower() not in FALSE - {""}
