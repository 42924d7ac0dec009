"""Gitignore-style patterns compiled so that a bad one is named, never a traceback.

``pathspec`` turns each pattern into a regular expression; some patterns (``[z-a]``, a lone
``\\``) do not translate, and ``re.error`` escaped from every place that compiled patterns. Every
pattern list ctxaction compiles (built-in sensitive paths, ``sensitive_paths``, ``.contextignore``,
``--include`` / ``--exclude``, allowlist paths, rule scopes) goes through :func:`gitignore_spec`,
which raises :class:`PatternError` naming the pattern and what is wrong with it; callers add
where it was written (file and line, option, config key).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Sequence

from ctxaction.errors import CtxError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import pathspec


class PatternError(CtxError, ValueError):
    """A pattern that cannot be compiled; ``index`` is its position in the list given, ``where``
    (file and line, option or key) prefixes the message when known."""

    def __init__(self, index: int, pattern: str, problem: str, where: str = "", shown: str = "") -> None:
        self.index, self.pattern, self.problem = index, pattern, problem
        # Whole unless a caller passes ``shown`` (``secure.redaction.quoted``: redacted, then cut):
        # a cut token no longer matches its rule, and this module cannot redact (the detector's
        # allowlist imports it); every printer redacts the message.
        message = f"bad pattern {shown or repr(pattern)}: {problem}"
        super().__init__(f"{where}: {message}" if where else message)


def _compile(patterns: Sequence[str]) -> pathspec.GitIgnoreSpec:
    import pathspec  # here, not at import: the hook only needs it when allowlist paths are set

    # A `[[` in a pattern becomes a regex that Python warns about ("possible nested set"): the
    # warning says nothing to a user, so it is not printed.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return pathspec.GitIgnoreSpec.from_lines(patterns)


def pattern_problem(pattern: str) -> str | None:
    """What is wrong with one pattern, or None when it compiles."""
    try:
        _compile([pattern])
    except re.error as exc:
        return f"{exc.msg} (character classes run low to high, like [a-z]; escape a literal [ as \\[)"
    except ValueError:
        return "not a valid gitignore pattern (a trailing backslash escapes nothing)"
    return None


def gitignore_spec(patterns: Sequence[str]) -> pathspec.GitIgnoreSpec:
    """The compiled patterns; raises :class:`PatternError` for the first one that does not compile."""
    try:
        return _compile(patterns)
    except (re.error, ValueError):
        for index, pattern in enumerate(patterns):
            problem = pattern_problem(pattern)
            if problem is not None:
                raise PatternError(index, pattern, problem) from None
        raise


def valid_only(patterns: Sequence[str]) -> list[str]:
    """The patterns that compile (for patterns written by others, such as a rule file's scope,
    where one bad glob must not stop the run)."""
    return [pattern for pattern in patterns if pattern_problem(pattern) is None]


def matching(spec: pathspec.GitIgnoreSpec, paths: Iterable[str]) -> list[str]:
    """The paths ``spec`` matches, in their order (pathspec's ``match_files``, one call for all)."""
    return list(spec.match_files(paths))
