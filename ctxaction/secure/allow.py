"""Allowlisting people already know: inline markers and config allowlists (paths, regexes, stopwords)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# Inline markers of ctxaction, detect-secrets and gitleaks, on the secret's line.
INLINE_MARKERS: tuple[str, ...] = (
    "ctxaction: allow",
    "ctxaction:allow",
    "pragma: allowlist secret",
    "gitleaks:allow",
)
# detect-secrets' marker for the following line.
NEXTLINE_MARKER = "pragma: allowlist nextline secret"


@dataclass(frozen=True)
class Allowlist:
    """Config allowlist: ``paths`` (gitignore patterns), ``regexes`` (searched in the secret and
    its line), ``stopwords`` (substrings of the secret, case-insensitive), ``rules`` disabled."""

    paths: tuple[str, ...] = ()
    regexes: tuple[str, ...] = ()
    stopwords: tuple[str, ...] = ()
    disabled_rules: tuple[str, ...] = ()
    _compiled: tuple[re.Pattern[str], ...] = field(default=(), init=False, repr=False, compare=False)
    _spec: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_compiled", tuple(re.compile(r) for r in self.regexes))
        spec = None
        if self.paths:
            import pathspec  # only when configured: keeps the hook's start-up light

            spec = pathspec.GitIgnoreSpec.from_lines(self.paths)
        object.__setattr__(self, "_spec", spec)

    def path_allowed(self, path: str) -> bool:
        """True when findings in ``path`` are allowlisted as a whole."""
        return bool(self._spec and path and self._spec.match_file(path))

    def secret_allowed(self, secret: str, line: str) -> bool:
        """True when a regex matches the secret or its line, or the secret holds a stopword."""
        lower = secret.lower()
        if any(word.lower() in lower for word in self.stopwords):
            return True
        return any(rx.search(secret) or rx.search(line) for rx in self._compiled)


def inline_allowed(lines: Sequence[str], previous: str) -> bool:
    """True when any of the secret's lines carries an inline marker, or the line before it
    carries detect-secrets' next-line marker."""
    if NEXTLINE_MARKER in previous:
        return True
    return any(marker in line for line in lines for marker in INLINE_MARKERS)
