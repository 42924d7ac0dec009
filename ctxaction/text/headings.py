"""Markdown ATX headings (``## Title``), found by one rule (CommonMark's).

A line indented at most three spaces, then one to six ``#``, then a space, a tab or the line's
end, is a heading; its text drops a closing run of ``#`` that a space precedes. Issue bodies,
changelogs and the package's task text all read headings through this.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Prefix only: the rest is trimmed by string methods (an optional closing sequence as a regex
# backtracks cubically over a long line of spaces).
_OPEN = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")


class Heading(NamedTuple):
    """A heading's level (1–6) and its text, stripped (empty for a bare ``###``)."""

    level: int
    text: str


def heading(line: str) -> Heading | None:
    """The heading ``line`` is, or None."""
    m = _OPEN.match(line)
    if m is None:
        return None
    text = line[m.end() :].strip()
    closing = text.rstrip("#")
    if closing != text and (not closing or closing[-1].isspace()):
        text = closing.rstrip()
    return Heading(len(m.group(1)), text)
