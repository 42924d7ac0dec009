"""Secrets written with escapes in a string: ``"\\u0067\\u0068\\u0070\\u005f…"`` (JSON, JS, Java,
Python, C#), ``"\\x67\\x68\\x70\\x5f…"`` (C, C++, Python, JS, PHP, Rust, Go) or
``"\\u{67}\\u{68}…"`` (JS, Rust, Swift, PHP) is a GitHub token once the string is read, but no
keyword is written anywhere in it.

The keyword pass also looks for :data:`ESCAPE_MARKERS`, the escapes of the characters tokens are
made of (letters, digits, ``_`` and ``-``; not ``\\u003c``, ``\\u00e9``, ``\\x00``, ``\\x1b`` or
``\\u{1F600}``, which JSON encoders, translations, byte strings and emoji write all the time).
Each line holding one is decoded, every escape of those three kinds in it, whatever it stands
for (an escaped backslash stays as written, so ``\\\\x41`` is no escape; so does a surrogate
or a code past U+10FFFF), and the rules run over the decoded lines. A hit that holds at least
one escape is mapped back over the text it was read from, escapes included, so the redaction
takes the string as written; the others were seen by the plain scan already.

Bytes to text (encodings) is :mod:`ctxaction.secure.decoding`'s job, before any scan; this one
runs inside a scan, on the few lines the keyword pass points at, and has to map every hit back
to the text as written.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from ctxaction.secure.lazyre import LazyPattern

# Lowercase, as the keyword pass reads the lowercased text (``\u004A`` is found as ``\u004a``).
# (The characters are spelled out: ``string`` would be one more module for every hook run.)
_TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
# ``\u{…}`` takes 1 to 6 digits; its markers are the shortest form, which is what people and
# encoders write, and the four-digit one of the ``\uXXXX`` habit. Other paddings are decoded on a
# line that holds a marker but wake none: each form is 64 more keywords in the automaton that
# every hook run builds.
ESCAPE_MARKERS = tuple(
    marker
    for code in map(ord, _TOKEN_CHARS)
    for marker in (f"\\u{code:04x}", f"\\x{code:02x}", f"\\u{{{code:x}}}", f"\\u{{{code:04x}}}")
)
# An escape: ``\uXXXX``, ``\u{H…}`` or ``\xHH`` (the one group that matched holds the code), or
# any other backslash and the character it escapes (kept as written).
_ESCAPE = LazyPattern(r"\\(?:u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\}|x([0-9a-fA-F]{2})|.)")

Span = tuple[int, int]


class Decoded:
    """The decoded lines of a text, one after another, and the way back to the text."""

    def __init__(self, text: str, lines: Iterable[Span]) -> None:
        parts: list[str] = []
        # One entry per run of characters kept as written and per decoded escape: where it
        # starts in the decoded text, where in the scanned text, how long it is there, and
        # whether it is an escape (one character here, as long as it is written there).
        self.at: list[int] = []
        self.chunks: list[tuple[int, int, bool]] = []
        pos = 0
        for start, end in lines:
            kept = start
            for escape in _ESCAPE.compiled.finditer(text, start, end):
                if escape.lastindex is None:
                    continue  # another escape: kept as written
                code = int(escape.group(escape.lastindex), 16)
                if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                    continue  # half a surrogate pair, or no character at all: kept as written
                if escape.start() > kept:
                    pos = self._add(parts, text[kept : escape.start()], kept, pos)
                self.at.append(pos)
                self.chunks.append((escape.start(), escape.end() - escape.start(), True))
                parts.append(chr(code))
                pos += 1
                kept = escape.end()
            pos = self._add(parts, text[kept:end], kept, pos)
            # A blank line between lines: no rule reads one line's text as the line before another's.
            pos = self._add(parts, "\n\n", -1, pos)
        self.text = "".join(parts)

    def _add(self, parts: list[str], piece: str, origin: int, pos: int) -> int:
        if piece:
            self.at.append(pos)
            self.chunks.append((origin, len(piece), False))
            parts.append(piece)
        return pos + len(piece)

    def locate(self, start: int, end: int) -> Span | None:
        """Where ``start..end`` of the decoded text lies in the scanned text, or None when it
        holds no escape (a plain scan saw it) or runs across the gap between two lines."""
        first = bisect.bisect_right(self.at, start) - 1
        last = bisect.bisect_right(self.at, end - 1) - 1
        chunks = self.chunks[first : last + 1]
        if not any(escaped for _, _, escaped in chunks) or any(origin < 0 for origin, _, _ in chunks):
            return None
        origin, _, escaped = chunks[0]
        left = origin if escaped else origin + start - self.at[first]
        origin, length, escaped = chunks[-1]
        right = origin + length if escaped else origin + end - self.at[last]
        return left, right


def escaped_lines(text: str, marks: Iterable[int], long_line: int) -> list[Span]:
    """The lines holding ``marks`` (escapes the keyword pass found), each once, in text order; a
    line longer than ``long_line`` (a minified bundle, JSON on one line) is read in a window of
    that width around its escapes instead of whole."""
    spans: list[Span] = []
    size = len(text)
    for mark in marks:
        if spans and mark < spans[-1][1]:
            continue  # marks come in text order: this line (or window) is taken already
        floor = max(0, mark - long_line)
        start = text.rfind("\n", floor, mark) + 1
        end = text.find("\n", mark, mark + long_line)
        if end < 0:
            end = size if mark + long_line >= size else -1
        if (start == 0 and floor > 0) or end < 0 or end - start > long_line:
            start, end = max(0, mark - long_line // 2), min(size, mark + long_line // 2)
        if spans and start < spans[-1][1]:
            start = spans[-1][1]  # a window reaching into the previous one: each character once
        spans.append((start, end))
    return spans
