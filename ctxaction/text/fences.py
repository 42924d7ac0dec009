"""Markdown code fences, found and built by one set of rules (CommonMark's).

A line of three or more backticks or tildes, indented at most three spaces, opens a fence (a
backtick fence whose info string holds a backtick is no fence); a line of the same character, at
least as long and followed by nothing but spaces, closes it; an unclosed fence runs to the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CLOSE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")
_BACKTICKS = re.compile(r"`+")


@dataclass
class Block:
    """A run of whole lines: prose, or one fenced code block with its fence lines."""

    code: bool
    lines: list[str]
    fence: str = ""  # the opening fence (code blocks only)
    closed: bool = False

    @property
    def info(self) -> str:
        """The opening line's info string (``python`` of a `` ```python `` line)."""
        return self.lines[0].lstrip(" ")[len(self.fence) :].strip() if self.code else ""

    @property
    def inner(self) -> list[str]:
        """The lines between the fences (all lines of a prose block)."""
        if not self.code:
            return self.lines
        return self.lines[1:-1] if self.closed else self.lines[1:]


def opening(line: str) -> str:
    """The fence ``line`` opens ("" when it opens none)."""
    m = _OPEN.match(line)
    if m is None or (m.group(1)[0] == "`" and "`" in line[m.end() :]):
        return ""
    return m.group(1)


def closes(line: str, fence: str) -> bool:
    """Whether ``line`` closes a block opened by ``fence``."""
    m = _CLOSE.match(line)
    return m is not None and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)


def blocks(text: str) -> list[Block]:
    """``text`` (split on "\\n") as prose and fenced code blocks, in order."""
    out: list[Block] = []
    fence = ""
    for line in text.split("\n"):
        if fence:
            out[-1].lines.append(line)
            if closes(line, fence):
                out[-1].closed, fence = True, ""
            continue
        fence = opening(line)
        if fence:
            out.append(Block(True, [line], fence))
        elif out and not out[-1].code:
            out[-1].lines.append(line)
        else:
            out.append(Block(False, [line]))
    return out


def code_segments(text: str) -> list[tuple[bool, str]]:
    """``text`` as (inside a fenced code block, chunk) runs of whole lines, in order."""
    return [(b.code, "\n".join(b.lines)) for b in blocks(text)]


def open_fence(text: str) -> str:
    """The fence left open at the end of ``text`` ("" when every fence is closed)."""
    found = blocks(text)
    return found[-1].fence if found and found[-1].code and not found[-1].closed else ""


def fence_for(text: str) -> str:
    """A backtick fence that ``text`` cannot close: longer than any backtick run in it, at least three."""
    longest = max((len(m.group()) for m in _BACKTICKS.finditer(text)), default=0)
    return "`" * max(3, longest + 1)
