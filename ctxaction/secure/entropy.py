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
