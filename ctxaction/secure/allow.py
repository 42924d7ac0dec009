"""Allowlisting people already know: inline markers and config allowlists (paths, regexes, stopwords)."""

from __future__ import annotations

import re
from collections.abc import Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    import pathspec

# Inline markers of ctxaction, detect-secrets and gitleaks, on the secret's line.
INLINE_MARKERS: tuple[str, ...] = (
    "ctxaction: allow",
    "ctxaction:allow",
    "pragma: allowlist secret",
    "gitleaks:allow",
)
# detect-secrets' marker for the following line.
NEXTLINE_MARKER = "pragma: allowlist nextline secret"


class Allowlist:
    """Config allowlist: ``paths`` (gitignore patterns), ``regexes`` (searched in the secret and
    its line), ``stopwords`` (substrings of the secret, case-insensitive), ``rules`` disabled."""

    def __init__(
        self,
        paths: Sequence[str] = (),
        regexes: Sequence[str] = (),
        stopwords: Sequence[str] = (),
        disabled_rules: Sequence[str] = (),
    ) -> None:
        self.paths = tuple(paths)
        self.regexes = tuple(regexes)
        self.stopwords = tuple(word.lower() for word in stopwords)
        self.disabled_rules = tuple(disabled_rules)
        self._compiled = tuple(re.compile(r) for r in self.regexes)
        self._spec: pathspec.GitIgnoreSpec | None = None

    @property
    def paths_ready(self) -> bool:
        """Whether :meth:`path_allowed` is cheap now: no paths, or their patterns compiled. Until
        then a caller may ask only about a file that has findings: compiling loads ``pathspec``
        (whose imports cost more CPU time than half a hook run), which a commit without findings
        never needs."""
        return not self.paths or self._spec is not None

    def __repr__(self) -> str:
        return (
            f"Allowlist(paths={self.paths!r}, regexes={self.regexes!r}, "
            f"stopwords={self.stopwords!r}, disabled_rules={self.disabled_rules!r})"
        )

    def path_allowed(self, path: str) -> bool:
        """True when findings in ``path`` are allowlisted as a whole."""
        if not self.paths or not path:
            return False
        if self._spec is None:
            from ctxaction.secure.globs import gitignore_spec

            self._spec = gitignore_spec(self.paths)
        return bool(self._spec.match_file(path))

    def secret_allowed(self, secret: str, line: str) -> bool:
        """True when a regex matches the secret or its line, or the secret holds a stopword."""
        lower = secret.lower()
        if any(word in lower for word in self.stopwords):
            return True
        return any(rx.search(secret) or rx.search(line) for rx in self._compiled)


def inline_allowed(lines: Sequence[str], previous: str) -> bool:
    """True when any of the secret's lines carries an inline marker, or the line before it
    carries detect-secrets' next-line marker."""
    if NEXTLINE_MARKER in previous:
        return True
    return any(marker in line for line in lines for marker in INLINE_MARKERS)
