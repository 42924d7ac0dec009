"""Untrusted text made safe to print on one line of a terminal or a CI log.

A file name may hold a newline followed by ``::warning ::…`` (a workflow command once it starts a
line of a GitHub Actions log), a carriage return that overwrites what the line said, terminal
escape sequences, or bidirectional overrides that make a name read differently than it is. Every
file name and other untrusted string ctxaction prints in a line-oriented message goes through
:func:`printable`, which shows those characters as visible escapes (``\\n``, ``\\x1b``,
``\\u202e``) and leaves everything else, other languages' letters included, as it is. Standard
library only: the pre-commit hook imports this.
"""

from __future__ import annotations

import re
from functools import lru_cache

_UNSAFE = "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


@lru_cache(maxsize=1)
def _unsafe() -> re.Pattern[str]:
    """Compiled on first use: a hook run with nothing to report never needs it."""
    return re.compile(_UNSAFE)


def printable(text: str) -> str:
    """``text`` with control, line-separator and bidi-override characters escaped."""
    return _unsafe().sub(_escape, text)
