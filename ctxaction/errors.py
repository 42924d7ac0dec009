"""Every error a user can cause or fix, in one family: ``CtxError`` and its subclasses.

The CLI, the action and the MCP server catch ``CtxError`` the same way: its message is one line
(what is wrong, where, what to do) and ``exit_code`` says how the CLI ends (2 for usage errors,
1 otherwise). Anything else that escapes is a bug and keeps its traceback.

Subclasses also derive from the built-in exception their callers caught before the family
existed (``ValueError``, ``RuntimeError``, ``OSError``), so older ``except`` clauses still hold.
The modules that raise them re-export their own (``from ctxaction.errors import ConfigError``).
"""

from __future__ import annotations


class CtxError(Exception):
    """A problem in the input, configuration or environment, told in one line."""

    exit_code = 1

    def one_line(self) -> str:
        """The message on a single line (a stray newline must not start a log command)."""
        return " ".join(str(self).split("\n")).strip() or type(self).__name__


class UsageError(CtxError):
    """Bad command arguments."""

    exit_code = 2


class WriteError(CtxError, OSError):
    """A file cannot be written where it was asked to go (not a regular file, a folder, a symlink,
    no permission); nothing was written."""

    exit_code = 2

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "cannot write"


KeyPath = tuple[str | int, ...]


def dotted(path: KeyPath) -> str:
    """``("profiles", "bugfix", "required_files", 0)`` → ``profiles.bugfix.required_files[0]``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


class ConfigError(CtxError):
    """A configuration problem, naming the file, the key and its line. A usage error (exit 2)
    wherever the config is read: build, scan, the hook, ``config show``."""

    exit_code = 2

    def __init__(self, source: str, key: KeyPath | str, line: int | None, message: str) -> None:
        self.source, self.line = source, line
        self.key = key if isinstance(key, str) else dotted(key)
        self.message = message
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {self.key}: {message}" if self.key else f"{where}: {message}")

    def __reduce__(self) -> tuple[type[ConfigError], tuple[str, str, int | None, str]]:
        return (ConfigError, (self.source, self.key, self.line, self.message))


class ConfigErrors(ConfigError):
    """Several configuration problems found together, told in one line: the count, then each
    problem with its file, line and key. ``source``, ``key`` and ``line`` are the first one's."""

    def __init__(self, problems: tuple[ConfigError, ...]) -> None:
        self.problems = problems
        first = problems[0]
        Exception.__init__(self, self.summary(problems))
        self.source, self.line, self.key, self.message = first.source, first.line, first.key, first.message

    @staticmethod
    def summary(problems: tuple[ConfigError, ...]) -> str:
        """``cfg.yaml: 2 problems: (1) cfg.yaml:3: a: …; (2) cfg.yaml:5: b: …``."""
        listed = "; ".join(f"({i}) {problem}" for i, problem in enumerate(problems, 1))
        return f"{problems[0].source}: {len(problems)} problems: {listed}"

    def __reduce__(self) -> tuple[type[ConfigErrors], tuple[tuple[ConfigError, ...]]]:  # type: ignore[override]
        return (ConfigErrors, (self.problems,))


class TaskError(CtxError, ValueError):
    """The task input cannot be read; the message names the file and what to do."""


class RepoError(CtxError):
    """A repository problem explained in one line (what is wrong and what to do)."""


class BuildError(CtxError):
    """A package cannot be built: one line saying why and what to do."""


class BudgetError(CtxError, ValueError):
    """The parts that must be packed do not fit in the budget."""


class TokenizerError(CtxError, RuntimeError):
    """The encoding's ranks are neither cached, shipped nor downloadable."""


class SourceError(CtxError):
    """The scan source cannot be read (not a repository, unknown revision …)."""


class BaselineError(CtxError):
    """The baseline file is missing or malformed; the message says what to do."""


class ScanUsageError(CtxError):
    """Bad scan options or input the user must fix."""

    exit_code = 2


class HookError(CtxError):
    """Hook install/uninstall cannot proceed; the message says why and what to do."""


class InputError(CtxError, ValueError):
    """An action input is missing or invalid."""


class EventError(CtxError, ValueError):
    """The event payload lacks a field the action needs, or has it with the wrong type."""


class CommandError(CtxError, ValueError):
    """A comment command's arguments are wrong; the message is shown to the commenter."""


class FetchError(CtxError, ValueError):
    """A thread cannot be fetched as asked (bad repo name, no token, issue vs PR mismatch)."""


class GitHubError(CtxError, RuntimeError):
    """A REST call failed for good (after retries when they applied)."""

    def __init__(self, what: str, status: int, message: str, permission: str = "") -> None:
        text = f"GitHub API: {what} failed ({status or 'no response'}): {message}"
        self.what = what
        self.status = status
        self.message = message
        # The workflow permission the call needs (``issues: write``), named when it was refused.
        self.permission = permission
        if self.read_only and permission:
            text += f" (the token lacks `{permission}`: add it to the job's `permissions:`)"
        super().__init__(text)

    @property
    def read_only(self) -> bool:
        """The token may not do this here (fork PRs, a ``permissions:`` block without it)."""
        return self.status == 403 and "not accessible by integration" in self.message.lower()

    @property
    def locked(self) -> bool:
        """The conversation is locked: GitHub takes comments from collaborators only, which the
        workflow token is not ("Unable to create comment because issue is locked.")."""
        return self.status == 403 and "is locked" in self.message.lower()

    @property
    def issues_disabled(self) -> bool:
        """The repository has Issues turned off (GitHub: 410 "Issues are disabled for this repo")."""
        return self.status == 410 and "issues are disabled" in self.message.lower()

    @property
    def moved(self) -> bool:
        """What was asked for belongs to another repository now: GitHub redirected (301) to it and
        the client refused what came back (``Client`` reads and writes one repository only)."""
        return self.status == 301

    @property
    def gone(self) -> bool:
        """What was asked for is not there: deleted (410), transferred or deleted out of the
        token's sight (404), or transferred where the token still sees it (301, :attr:`moved`)."""
        return self.status in (301, 404, 410)

    def __reduce__(self) -> tuple[type[GitHubError], tuple[str, int, str, str]]:
        return (GitHubError, (self.what, self.status, self.message, self.permission))


class ToolInputError(CtxError, ValueError):
    """An MCP tool argument the server refuses (bad path, unknown issue …); shown to the model."""
