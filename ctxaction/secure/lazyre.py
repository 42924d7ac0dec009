"""Regexes compiled on first use.

A hook run is a fresh interpreter each time, and compiling a pattern costs far more than running
it over a short line; most helper patterns are needed only when a rule has already matched. So
module-level patterns are declared here and compiled the first time they are used.
"""

from __future__ import annotations

import re
from collections.abc import Iterator


class LazyPattern:
    """A ``re`` pattern compiled the first time one of its methods is called."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern."""
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def match(self, string: str, pos: int = 0) -> re.Match[str] | None:
        """:meth:`re.Pattern.match`."""
        return self.compiled.match(string, pos)

    def search(self, string: str, pos: int = 0) -> re.Match[str] | None:
        """:meth:`re.Pattern.search`."""
        return self.compiled.search(string, pos)

    def fullmatch(self, string: str) -> re.Match[str] | None:
        """:meth:`re.Pattern.fullmatch`."""
        return self.compiled.fullmatch(string)

    def finditer(self, string: str) -> Iterator[re.Match[str]]:
        """:meth:`re.Pattern.finditer`."""
        return self.compiled.finditer(string)

    def sub(self, repl: str, string: str) -> str:
        """:meth:`re.Pattern.sub`."""
        return self.compiled.sub(repl, string)
