"""Secrets written with escapes in a string: ``"\\u0067\\u0068\\u0070\\u005f…"`` (JSON, JS, Java,
Python, C#), ``"\\x67\\x68\\x70\\x5f…"`` (C, C++, Python, JS, PHP, Rust, Go), ``"\\u{67}\\u{68}…"``
(JS, Rust, Swift, PHP; ``"\\u{67 68 70}"``, several in one pair of braces, in Ruby), octal
``"\\147\\150\\160…"`` (C, C++, Python, Ruby, PHP, Go, the shell's ``$'…'``), Python's
``"\\U00000067…"`` or HTML and XML character references (``&#103;&#104;``, ``&#x67;&#x68;``) is a
GitHub token once the string is read, but no keyword is written anywhere in it.

The keyword pass also looks for :data:`ESCAPE_MARKERS`, the escapes of the characters tokens are
made of (letters, digits, ``_`` and ``-``; not ``\\u003c``, ``\\u00e9``, ``\\x00``, ``\\x1b``,
``\\0``, ``\\033``, ``\\377``, ``&#39;`` or ``\\u{1F600}``, which JSON encoders, translations,
byte strings, terminal colours, HTML and emoji write all the time). Each line holding one is
decoded, every escape of those kinds in it, whatever it stands for (an escaped backslash stays
as written, so ``\\\\x41`` is no escape; so does a surrogate or a code past U+10FFFF), and the
rules run over the decoded lines. A hit that holds at least one escape is mapped back over the
text it was read from, escapes included, so the redaction takes the string as written; the
others were seen by the plain scan already.

Bytes to text (encodings) is :mod:`ctxaction.secure.decoding`'s job, before any scan; this one
runs inside a scan, on the few lines the keyword pass points at, and has to map every hit back
to the text as written.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from ctxaction.secure.lazyre import LazyPattern

# (The characters are spelled out: ``string`` would be one more module for every hook run.)
_TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
# Lowercase, as the keyword pass reads the lowercased text: ``\u004A`` is found as ``\u004a``,
# ``&#X67;`` as ``&#x67;``. Token characters are U+002D to U+007A, two hex digits, so ``\u{…}``
# is looked for at every width it takes (2 to 6 digits) and before a blank (Ruby's
# ``\u{67 68}``); octal at three digits, the width ``\147`` takes (``\0``, ``\12``, ``\033`` and
# ``\377``, what byte strings write, stand for no token character and wake nothing); character
# references without leading zeros; ``\U00000067`` by what every such escape of a token
# character begins with, ``\U000000`` (found as ``\u000000``; ``\U000000e9`` wakes it too, but
# Python writes that as ``\xe9``). Other paddings (``&#x0067;``, ``\u{ 67}``) are decoded on a
# line that holds a marker but wake none: every marker is one more keyword in the automaton
# that every hook run builds. (Joined, not formatted: f-strings with a nested width cost
# every hook run 2 M instructions more.)
ESCAPE_MARKERS = (
    "\\u000000",
    *(
        marker
        for code in map(ord, _TOKEN_CHARS)
        for hex_ in (f"{code:x}",)
        for marker in (
            "\\u00" + hex_,
            "\\x" + hex_,
            "\\u{" + hex_ + "}",
            "\\u{0" + hex_ + "}",
            "\\u{00" + hex_ + "}",
            "\\u{000" + hex_ + "}",
            "\\u{0000" + hex_ + "}",
            "\\u{" + hex_ + " ",
            f"\\{code:03o}",
            f"&#{code};",
            "&#x" + hex_ + ";",
        )
    ),
)
# An escape, the one group that matched holding its code: ``\uXXXX``, ``\xHH``, octal (one to
# three digits, as C and Python read them: ``\1234`` is ``\123`` and ``4``), ``\UXXXXXXXX``,
# ``\u{H…}`` with one code or several (Ruby), a decimal or hex character reference; or any other
# backslash and the character it escapes (kept as written).
_ESCAPE = LazyPattern(
    r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([0-7]{1,3})|U([0-9a-fA-F]{8})"
    r"|u\{[ \t]*([0-9a-fA-F]{1,6}(?:[ \t]+[0-9a-fA-F]{1,6})*)[ \t]*\}|.)"
    r"|&#(?:[xX]0*([0-9a-fA-F]{1,6})|0*([0-9]{1,7}));"
)
# The base of each group's digits; the group of ``\u{…}``, whose digits may be several codes.
_BASES = (0, 16, 16, 8, 16, 16, 16, 10)
_BRACES = 5
_CODE = LazyPattern(r"[0-9a-fA-F]+")

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
                group = escape.lastindex
                if group is None:
                    continue  # another escape: kept as written
                digits = escape.group(group)
                if group == _BRACES and not digits.isalnum():
                    pieces = _several(escape)  # ``\u{67 68 70}``: a piece of the escape each
                else:
                    code = int(digits, _BASES[group])
                    whole = (code, escape.start(), escape.end() - escape.start())
                    pieces = [whole] if _is_character(code) else None  # else kept as written
                if pieces is None:
                    continue
                if escape.start() > kept:
                    pos = self._add(parts, text[kept : escape.start()], kept, pos)
                for code, origin, length in pieces:
                    self.at.append(pos)
                    self.chunks.append((origin, length, True))
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


def _is_character(code: int) -> bool:
    """Whether an escape's ``code`` is a character: not half a surrogate pair, not past U+10FFFF."""
    return not (0xD800 <= code <= 0xDFFF or code > 0x10FFFF)


def _several(escape: re.Match[str]) -> list[tuple[int, int, int]] | None:
    """The codes of a ``\\u{…}`` holding several, each with the stretch of the escape it is read
    from (its digits and what comes before them; the last one takes the closing brace too), so
    that the stretches lie end to end over the escape; None when one is no character."""
    pieces = []
    left = escape.start()
    for digits in _CODE.compiled.finditer(escape.string, escape.start(_BRACES), escape.end(_BRACES)):
        code = int(digits.group(), 16)
        if not _is_character(code):
            return None  # not a string Ruby reads: kept as written
        pieces.append((code, left, digits.end() - left))
        left = digits.end()
    code, origin, _ = pieces[-1]
    pieces[-1] = (code, origin, escape.end() - origin)
    return pieces


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
