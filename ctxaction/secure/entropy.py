"""Cheap measures of how random a candidate value looks (for generic matches)."""

from __future__ import annotations

import math
from collections import Counter
from itertools import pairwise

_HEX = frozenset("0123456789abcdefABCDEF")


def shannon(value: str) -> float:
    """Shannon entropy in bits per character (0 for an empty string)."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def char_classes(value: str) -> int:
    """How many of lower, upper, digit and symbol classes ``value`` uses (0–4)."""
    lower = upper = digit = other = False
    for ch in value:
        if ch.islower():
            lower = True
        elif ch.isupper():
            upper = True
        elif ch.isdigit():
            digit = True
        else:
            other = True
    return lower + upper + digit + other


def is_hex(value: str) -> bool:
    """True when every character is a hex digit."""
    return bool(value) and all(ch in _HEX for ch in value)


def longest_run(value: str) -> int:
    """Length of the longest run of one repeated character."""
    best = run = 0
    prev = ""
    for ch in value:
        run = run + 1 if ch == prev else 1
        prev = ch
        best = max(best, run)
    return best


def sequential_share(value: str) -> float:
    """Share of adjacent pairs that step by +1/-1 (``abcdef``, ``123456``, ``9876``)."""
    if len(value) < 2:
        return 0.0
    steps = sum(1 for a, b in pairwise(value) if abs(ord(b) - ord(a)) == 1)
    return steps / (len(value) - 1)


_VOWELS = frozenset("aeiouyAEIOUY")


def _word_like(chunk: str) -> bool:
    """A run of letters that reads as a word or part of one: a vowel, no long consonant cluster."""
    vowels = sum(ch in _VOWELS for ch in chunk)
    if len(chunk) < 3 or vowels * 5 < len(chunk):
        return False
    run = 0
    for ch in chunk:
        run = 0 if ch in _VOWELS else run + 1
        if run > 4:
            return False
    return True


def wordy(value: str) -> bool:
    """True when ``value`` is a run of words (``AnthropicCredential``, ``sb_temp_nonce123``,
    ``development-secret-at-least-256-bits``, ``RUNSTATE_ACCESS_SENTINEL_42``): a name, not a
    random token.

    The value is cut at separators and case humps; a piece is a word when its letters (a short
    number may end or start it) are three or more, a vowel in five and no run of five
    consonants. Two words
    at least, covering 80% of the value. Random tokens fall apart into pieces with digits inside
    and unpronounceable letters.
    """
    pieces: list[str] = []
    current = ""
    for ch in value:
        if not ch.isalnum():
            pieces.append(current)
            current = ""
        elif current and ch.isupper() and (
            current[-1].islower()
            or (current[-1].isdigit() and not current.isupper() and not current.isdigit())
        ):
            pieces.append(current)
            current = ch
        elif current and ch.islower() and len(current) > 1 and all(c.isupper() for c in current[-2:]):
            pieces.append(current[:-1])  # ``HTTPServer``: the S starts the next word
            current = current[-1] + ch
        else:
            current += ch
    pieces.append(current)
    total = sum(map(len, pieces))
    words = covered = 0
    for piece in pieces:
        core = piece.strip("0123456789")
        if not core:
            covered += len(piece) if len(piece) <= 4 else 0  # a short number
        elif len(piece) <= 2:
            continue
        elif len(piece) - len(core) <= 4 and core.isalpha() and _word_like(core):
            words += 1
            covered += len(piece)
    return words >= 2 and covered >= 0.8 * total
