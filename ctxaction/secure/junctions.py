"""Where two string pieces meet with a keyword cut between them: ``"gh" "p_…"``, ``'AK' + 'IA…'``.

Such a key puts no keyword whole on any line, so the keyword pass finds nothing to start a chain
(:mod:`ctxaction.secure.continued`) from. The pass looks for :data:`JOINT_MARKERS` too, the
strings that stand where two pieces meet, and :func:`junctions` keeps the meetings a keyword runs
across: their lines are joined like keyword lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ctxaction.secure.continued import GAP
from ctxaction.secure.lazyre import LazyPattern

# Where a cut may fall inside a keyword (``"gh" "p_…"``, ``'AK' + 'IA…'``), which leaves no
# keyword whole on any line: a keyword character, a closing quote, what may stand between two
# pieces, an opening quote and a keyword character.
_JUNCTION = LazyPattern(rf"(?<=[\w.\-])['\"`]{GAP.pattern}['\"`](?=[\w.\-])")
_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def _joint_markers() -> tuple[str, ...]:
    """What the keyword pass also looks for, so that finding junctions costs no pass of its own:
    a closing quote and what follows it up to the next piece's opening quote, in the layouts
    that string pieces take. On one line: a blank, an operator with or without blanks, or a blank
    and a literal prefix (``" f"``). Across a line break: an operator or a backslash ending the
    line; or nothing, the next piece starting its line (at an indentation of up to 40 spaces or
    6 tabs, after a ``+`` or not) in the same quote. A bare quote at a line's end is not one of
    them: it ends a line of ordinary code in every file, and each such hit would cost more than
    a search of its own. Except before ``\\r\\n``: the indentations again for CRLF would make the
    automaton (built on every hook run) a third larger, and only CRLF files pay for the hits.
    Lowercase, as the pass reads the lowercased text."""
    quotes = "\"'`"
    operators = ("+", " +", "+ ", " + ", "&", " & ", ".", " . ", "..", " .. ")
    prefixes = ("f", "r", "b", "u", "l", "rb", "br", "fr", "rf", "u8", "@", "$")
    between = (" ", *operators, *(" " + prefix for prefix in prefixes))
    trails = ("+", " +", "&", " &", " .", " ..", "\\", " \\")
    indents = (*(" " * n for n in range(41)), *("\t" * n for n in range(1, 7)))
    starts = ["\n" + indent + lead for indent in indents for lead in ("", "+ ")]
    return (
        *(q + gap + r for q in quotes for gap in between for r in quotes),
        *(q + trail + brk for q in quotes for trail in trails for brk in "\n\r"),
        *(q + "\r" for q in quotes),
        *(q + start + q for q in quotes for start in starts),
    )


JOINT_MARKERS = _joint_markers()


def junctions(
    text: str, joints: Iterable[tuple[int, int]], cut: Callable[[str, str], bool], width: int, long_line: int
) -> list[int]:
    """The ``joints`` (spans of :data:`JOINT_MARKERS` strings the keyword pass found, in text
    order) at which two pieces meet with a keyword cut between them: the offset of the first
    piece's closing quote, a spot on its line for :func:`chains`. ``cut(left, right)`` says
    whether a keyword runs from the end of ``left`` into ``right``; ``width`` characters either
    side are enough to hold one. Nearly every joint fails on the character before it or after it,
    before any regex is run (or compiled: a commit of ordinary code needs none); joints on a line
    longer than ``long_line`` are passed over, as :func:`chains` would join nothing there."""
    spots = []
    skip_to = -1  # the end of a long line found before
    for start, end in joints:
        if start < skip_to or not start or text[start - 1] not in _KEY_CHARS:
            continue
        if text[end - 1] in "\"'`" and (end == len(text) or text[end] not in _KEY_CHARS):
            continue  # the marker ends at the next piece's opening quote
        meeting = _JUNCTION.compiled.match(text, start)
        if meeting is None:
            continue
        if text.rfind("\n", max(0, start - long_line), start) < 0 and start >= long_line:
            skip_to = text.find("\n", start) % (len(text) + 1)  # no newline: the rest of the text
            continue
        if cut(text[max(0, start - width) : start], text[meeting.end() : meeting.end() + width]):
            spots.append(start)
    return spots
