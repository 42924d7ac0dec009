"""Values split into pieces the language joins again: ``"sk_live_…" \\`` then ``"…"`` on the next
line, ``("AKIA…" "…")``, ``"ghp_…" +`` then ``"…"``, adjacent C literals, a YAML plain or
folded scalar continued on more indented lines, a literal whose line ends in a backslash inside
it (``"ghp_…\\`` then ``…"``: C and C++ splice the lines, and Python, JS, the shell and YAML's
double quotes drop an escaped line break too).

Each piece alone is too short for its rule, or matches its first part only, so a rule found half
a key and printed the rest. Here every chain of pieces becomes one logical line (the first
piece's line up to its closing quote, the other pieces' contents back to back, the last piece's
line after it) and the rules run over those lines; a hit is mapped back to the scanned text,
where it covers every piece and the quotes, operators and line breaks between them, so the
redaction takes all of it.

A key cut inside its keyword (``"gh" "p_…"``) puts no keyword on any line: where two pieces
meet across one (:mod:`ctxaction.secure.junctions`) starts a chain like a keyword line.

Cost stays proportional to the lines holding a rule keyword or a meeting, never a second pass
over the text: only those lines start a chain, a chain reaches at most :data:`MAX_LINES` lines,
each line is split into literals once, and lines longer than ``LONG_LINE`` (minified code, data
blobs) are never read whole, so they join nothing.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from ctxaction.secure.lazyre import LazyPattern

# A string literal that closes on its line (escapes skipped; an unrolled loop, so linear).
_LITERAL = LazyPattern(
    r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"' r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'" r"|`[^`\\\n]*(?:\\.[^`\\\n]*)*`"
)
# What may stand between two pieces of one value: blanks, one concatenation operator (``+`` in
# JS/Java/C#/Go, ``.``/``..`` in PHP/Perl/Lua, ``&`` in VB) or Python's and the shell's ``\``
# line continuation, at most one line break, then the next literal's prefix (Python ``f``/``b``/
# ``r``, C ``L``/``u8``, C# ``@``/``$``). A comma, a call or a name between them ends the chain.
_OPERATOR = r"(?:[+&]|\.\.?)"
_PREFIX = r"(?:[rRbBuUfFL]{1,2}|u8|[@$])?"
_TRAIL = rf"[ \t]*(?:(?:{_OPERATOR}|\\)[ \t]*)?"  # after a piece, up to the line break
_LEAD = rf"[ \t]*(?:{_OPERATOR}[ \t]*)?{_PREFIX}"  # from the line's start to a piece
GAP = LazyPattern(rf"{_TRAIL}(?:\r?\n{_LEAD}|{_PREFIX})")
# Only a line that ends (starts) this way may continue onto the next (from the previous) line:
# the neighbour is read only then.
_LINE_END = LazyPattern(rf"{_TRAIL}\r?")
_LINE_START = LazyPattern(_LEAD)
# Where two pieces may meet: a quote, what may stand between pieces, a quote (on one line, not
# nothing: ``""`` is an empty string). A keyword line with none near it (nearly all) is left
# after one search of C, before it is split into literals.
_MEETING = LazyPattern(
    rf"['\"`](?:{_TRAIL}\r?\n{_LEAD}|[ \t]+{_PREFIX}|[ \t]*(?:{_OPERATOR}[ \t]*)?[rRbBuUfFL@$]{{1,2}}|"
    rf"[ \t]*{_OPERATOR}[ \t]*)['\"`]"
)
# How far past a line's ends a meeting across its line breaks is looked for (blanks and an
# operator between the piece and the break).
_MARGIN = 64
# A literal left open at its line's end by a backslash, searched after the line's closed literals
# (an escape is read as two characters: a literal ending in two backslashes ends in an escaped
# backslash, not a splice); and the rest of the literal on a following line, from its first
# column: up to its closing quote, or to another backslash at that line's end.
_OPEN = LazyPattern(
    r'"[^"\\\n]*(?:\\.[^"\\\n]*)*\\\r?\Z'
    r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*\\\r?\Z"
    r"|`[^`\\\n]*(?:\\.[^`\\\n]*)*\\\r?\Z"
)
_SPLICED = {
    quote: LazyPattern(rf"[^{quote}\\\n]*(?:\\.[^{quote}\\\n]*)*(?:(?P<closed>{quote})|\\\r?\Z)")
    for quote in "\"'`"
}
# A YAML block scalar indicator (``>``, ``>-``, ``|+2``): the value starts on the next line.
_BLOCK = LazyPattern(r"[>|](?:[-+]?[1-9]?|[1-9][-+])")
MAX_LINES = 32
YAML_SUFFIXES = (".yml", ".yaml")

Span = tuple[int, int]


class Joined:
    """The logical lines of a text's chains, one after another, and the way back to the text."""

    def __init__(self, text: str, chains: Iterable[list[Span]]) -> None:
        parts: list[str] = []
        self.at: list[int] = []  # where each segment starts in the logical text
        self.segments: list[tuple[int, int, int, bool]] = []  # (text start, length, chain, first)
        pos = 0
        for number, chain in enumerate(chains):
            for index, (start, end) in enumerate(chain):
                self.at.append(pos)
                self.segments.append((start, end - start, number, index == 0))
                parts.append(text[start:end])
                pos += end - start
            # A blank line between chains: no rule reads one chain's text as the line before another's.
            parts.append("\n\n")
            pos += 2
        self.text = "".join(parts)

    def locate(self, start: int, end: int) -> Span | None:
        """Where ``start..end`` of the logical text lies in the scanned text, or None when it
        holds nothing a plain scan did not see (it lies within a chain's first segment, which is
        the text as written) or is no piece of one chain."""
        first = bisect.bisect_right(self.at, start) - 1
        last = bisect.bisect_right(self.at, end - 1) - 1
        origin, length, chain, is_first = self.segments[first]
        last_origin, last_length, last_chain, _ = self.segments[last]
        if chain != last_chain or start - self.at[first] >= length or end - self.at[last] > last_length:
            return None
        if first == last and is_first:
            return None
        return origin + start - self.at[first], last_origin + end - self.at[last]

    def unbroken(self, start: int, width: int) -> bool:
        """Whether ``width`` characters from ``start`` lie in one segment (a rule's literal prefix
        may be shown in a preview only when it is written as one piece)."""
        index = bisect.bisect_right(self.at, start) - 1
        return start + width <= self.at[index] + self.segments[index][1]


class _Text:
    """Line bounds and literals of a text, each looked up once and only near keyword lines."""

    def __init__(self, text: str, long_line: int) -> None:
        self.text = text
        self.long_line = long_line
        self._literals: dict[int, list[Span]] = {}
        # Literals already in a chain, and lines a YAML scalar was looked for on: each is part
        # of one chain at most, so no input makes the pass read a line more than a few times.
        self.used: set[int] = set()
        self.yaml_seen: set[int] = set()

    def line(self, pos: int) -> Span | None:
        """Bounds of the line holding ``pos`` (at a newline: the line it ends), None when that
        line is longer than ``long_line``: searches never go further than that."""
        text, limit = self.text, self.long_line
        floor = max(0, pos - limit)
        start = text.rfind("\n", floor, pos) + 1
        if start == 0 and floor > 0:
            return None
        ceiling = start + limit + 1
        end = text.find("\n", pos, ceiling)
        if end < 0:
            if ceiling < len(text):
                return None
            end = len(text)
        return start, end

    def above(self, line: Span) -> Span | None:
        return self.line(line[0] - 1) if line[0] > 0 else None

    def below(self, line: Span) -> Span | None:
        return self.line(line[1] + 1) if line[1] < len(self.text) else None

    def literals(self, line: Span) -> list[Span]:
        """The string literals on ``line``; empty ones (a docstring's quotes) hold no piece."""
        found = self._literals.get(line[0])
        if found is None:
            spans = (m.span() for m in _LITERAL.compiled.finditer(self.text, *line))
            found = [(start, end) for start, end in spans if end - start > 2]
            self._literals[line[0]] = found
        return found

    def linked(self, left: Span, right: Span) -> bool:
        return GAP.compiled.fullmatch(self.text, left[1], right[0]) is not None


def chains(text: str, spots: Iterable[int], path: str, long_line: int) -> list[list[Span]]:
    """The segments of every chain of pieces that touches a line holding one of ``spots``."""
    lines = _Text(text, long_line)
    yaml = not path or path.lower().endswith(YAML_SUFFIXES)
    meeting = _MEETING.compiled.search
    size = len(text)
    # Keyed by where the chain starts (its first line; a spliced literal by its opening quote,
    # second in the key so it never takes the place of a chain of pieces on the same line).
    found: dict[tuple[int, int], list[Span]] = {}
    last = (-1, -1)
    # Every keyword line passes here (thousands in a big file): the common case, no two pieces
    # meeting near it, costs one search of C and no further call.
    for spot in spots:
        if last[0] <= spot <= last[1]:
            continue  # keyword hits come in text order: a line of many is looked up once
        line = lines.line(spot)
        if line is None:
            continue
        last = line
        if meeting(text, max(0, line[0] - _MARGIN), min(size, line[1] + _MARGIN)):
            for run in _quoted(lines, line):
                lines.used.update(start for start, _ in run)
                found[run[0][0], 0] = _quoted_segments(lines, run)
        # A character or two looked at: ``str.endswith`` with bounds parses its arguments on
        # every call, which costs more than the rest of this loop on an ordinary line.
        tail = text[line[1] - 1] if line[1] > line[0] else ""
        if tail == "\\" or (tail == "\r" and text[line[1] - 2 : line[1]] == "\\\r"):
            spliced = _spliced(lines, line)
            if spliced:
                found[spliced[0]] = spliced[1]
        if yaml:
            scalar = _yaml(lines, line)
            if scalar and (scalar[0][0], 0) not in found:
                found[scalar[0][0], 0] = scalar
    return [found[key] for key in sorted(found)]


def _quoted(lines: _Text, line: Span) -> list[list[Span]]:
    """Runs of two or more linked literals through ``line``, extended over the lines around it."""
    literals = lines.literals(line)
    runs = []
    i = 0
    while i < len(literals):
        j = i
        while j + 1 < len(literals) and lines.linked(literals[j], literals[j + 1]):
            j += 1
        run = literals[i : j + 1]
        if run[0][0] in lines.used:
            i = j + 1
            continue
        if i == 0 and _LINE_START.compiled.fullmatch(lines.text, line[0], run[0][0]):
            run = _extend(lines, line, run, up=True)
        if j == len(literals) - 1 and _LINE_END.compiled.fullmatch(lines.text, run[-1][1], line[1]):
            run = _extend(lines, line, run, up=False)
        if len(run) > 1:
            runs.append(run)
        i = j + 1
    return runs


def _extend(lines: _Text, line: Span, run: list[Span], *, up: bool) -> list[Span]:
    """``run`` with the linked literals of the lines above (or below) it, while each whole line
    is a continuation of the value."""
    for _ in range(MAX_LINES):
        nearby = lines.above(line) if up else lines.below(line)
        if nearby is None:
            break
        literals = lines.literals(nearby)
        if not literals:
            break
        edge = literals[-1] if up else literals[0]
        if edge[0] in lines.used:
            break
        if not (lines.linked(edge, run[0]) if up else lines.linked(run[-1], edge)):
            break
        # The linked literals of that line, from the edge inwards.
        taken = [edge]
        order = literals[-2::-1] if up else literals[1:]
        for literal in order:
            if not (lines.linked(literal, taken[-1]) if up else lines.linked(taken[-1], literal)):
                break
            taken.append(literal)
        run = [*reversed(taken), *run] if up else [*run, *taken]
        if len(taken) < len(literals):
            break  # something else on that line: the value starts (or ends) there
        line = nearby
    return run


def _quoted_segments(lines: _Text, run: list[Span]) -> list[Span]:
    """The first piece's line up to its closing quote, each middle piece's content, the last
    piece's content and its line after it."""
    first_line = lines.line(run[0][0])
    last_line = lines.line(run[-1][0])
    assert first_line is not None and last_line is not None  # literals lie on short lines only
    middle = [(start + 1, end - 1) for start, end in run[1:-1]]
    return [(first_line[0], run[0][1] - 1), *middle, (run[-1][0] + 1, last_line[1])]


def _spliced(lines: _Text, line: Span) -> tuple[tuple[int, int], list[Span]] | None:
    """A literal opened on ``line`` and continued past its end by a backslash: the line up to
    that backslash, each following line from its first column (up to its own backslash), and the
    line that closes it, whole; keyed like the chains. None when there is none, when it was
    joined already, or when no line closes it within :data:`MAX_LINES`."""
    text = lines.text
    after = line[0]
    for closed in _LITERAL.compiled.finditer(text, *line):  # empty ones too: ``"" + x\\`` opens none
        after = closed.end()
    opened = _OPEN.compiled.search(text, after, line[1])
    if opened is None or opened.start() in lines.used:
        return None
    lines.used.add(opened.start())
    rest = _SPLICED[text[opened.start()]].compiled
    segments = [(line[0], text.rindex("\\", line[0], line[1]))]
    current = line
    for _ in range(MAX_LINES):
        below = lines.below(current)
        if below is None:
            return None
        piece = rest.match(text, *below)
        if piece is None:
            return None  # a line break the backslash does not escape: not a literal after all
        if piece.group("closed"):
            return (line[0], opened.start()), [*segments, below]
        segments.append((below[0], text.rindex("\\", below[0], below[1])))
        current = below
    return None


def _yaml(lines: _Text, line: Span) -> list[Span] | None:
    """A YAML scalar continued on more indented lines: ``key: sk_live_…`` or ``key: >-`` (or
    ``"ghp_…``, a quoted scalar left open), then one word per line. A line of several words
    ends the value: its first word is the last piece (the line break falls before it)."""
    head = line
    for _ in range(MAX_LINES):  # a keyword on a continuation line: find the key above it
        if head[0] in lines.yaml_seen:
            return None
        lines.yaml_seen.add(head[0])
        if _header(lines.text, head) is not None:
            break
        word = _word(lines.text, head)
        if word is None or (head != line and not word[2]):
            return None
        above = lines.above(head)
        if above is None:
            return None
        head = above
    header = _header(lines.text, head)
    if header is None:
        return None
    indent, cut = header
    words: list[Span] = []
    below = lines.below(head)
    while below is not None and len(words) < MAX_LINES:
        word = _word(lines.text, below)
        if word is None or word[0] - below[0] <= indent:
            break
        words.append(word[:2])
        lines.yaml_seen.add(below[0])
        if not word[2]:
            break
        below = lines.below(below)
    if not words:
        return None
    *middle, last = words
    last_line = lines.line(last[0])
    assert last_line is not None
    return [(head[0], cut), *middle, (last[0], last_line[1])]


def _header(text: str, line: Span) -> tuple[int, int] | None:
    """``(indent, end of the value's first piece)`` when ``line`` is ``key: value`` with a
    one-word value (or a block indicator, cut off: its value is the lines below)."""
    start, end = line
    body = text[start:end].rstrip()
    stripped = body.lstrip(" \t")
    colon = body.rfind(": ")
    if colon < 0 or stripped.startswith("#"):
        return None
    value = body[colon + 2 :].strip()
    if not value or value[0] in "#[{&*" or any(ch.isspace() for ch in value):
        return None
    if len(value) > 1 and value[0] in "\"'" and value[-1] == value[0]:
        return None  # a quoted value closed on its line: nothing continues it
    indent = len(body) - len(stripped)
    if stripped.startswith("- "):  # ``- key: v`` in a list: the key's column counts
        indent += len(stripped) - len(stripped[1:].lstrip(" "))
    if _BLOCK.fullmatch(value):
        return indent, start + body.rindex(value)
    return indent, start + len(body)


def _word(text: str, line: Span) -> tuple[int, int, bool] | None:
    """``(start, end, alone)`` of the first word on ``line`` (a scalar's continuation), or None
    for a blank line, a comment or a list item."""
    start, end = line
    body = text[start:end].rstrip()
    stripped = body.lstrip(" \t")
    if not stripped or stripped[0] == "#" or stripped == "-" or stripped.startswith(("- ", "-\t")):
        return None
    words = stripped.split(None, 1)
    first = start + len(body) - len(stripped)
    return first, first + len(words[0]), len(words) == 1
