"""Words an issue writes apart that code writes joined.

"multi-line" is ``multiline`` / ``multi_line`` / ``MultiLine`` in code, and "foreign content"
(said twice, or in the title) may be the enum constant ``ForeignContent``. These forms are weak
identifier candidates: they only add uses and definitions to what other signals find.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ctxaction.mentions.text import Segment

HYPHEN_WEIGHT = 0.45
PAIR_WEIGHT = 0.15
MAX_PHRASES = 6
# Not inside paths or longer kebab chains (gin-gonic/gin, --dry-run-all). A one-letter first part
# counts too: "f-string", "x-axis" and "z-order" are ``fstring``, ``xaxis`` and ``zorder`` in code.
_HYPHEN = re.compile(r"(?<![\w/.-])([A-Za-z][a-z0-9]*)-([a-z][a-z0-9]+)(?![\w/-])")
# Hyphenated words join unless a part is a function word ("built-in", "set-up"): the writer
# joined them on purpose, so generic issue words such as "line" still count.
_FUNCTION_WORDS = "a an and as at be by for from if in into is it no not of off on or out over so the to up"
_FUNCTION = frozenset(_FUNCTION_WORDS.split(" "))
# Two lower-case words side by side (lookahead so pairs overlap: "a b c" → a b, b c).
_PAIR = re.compile(r"(?<![\w-])(?=([a-z][a-z0-9]{2,}) +([a-z][a-z0-9]{2,})(?![\w-]))")


def joined_forms(first: str, second: str) -> list[str]:
    """The ways code joins two words: ``multiline``, ``multi_line``, ``MultiLine``, ``multiLine``."""
    a, b = first.lower(), second.lower()
    return [a + b, f"{a}_{b}", a.capitalize() + b.capitalize(), a + b.capitalize()]


def phrase_identifiers(segs: Iterable[Segment], stop: frozenset[str]) -> dict[str, float]:
    """Joined forms of hyphenated prose words and of word pairs the text repeats or titles.

    ``stop`` holds words that never join (English and generic issue words).
    """
    hyphenated: Counter[tuple[str, str]] = Counter()
    pairs: dict[tuple[str, str], float] = {}  # the title weighs 1.5
    for seg in segs:
        if seg.kind != "prose":
            continue
        # A pair the title and the body both say, or the body says twice, is chosen.
        bonus = 1.5 if seg.title else 1.0
        for m in _HYPHEN.finditer(seg.text):
            key = (m.group(1).lower(), m.group(2).lower())
            if not (set(key) & _FUNCTION):
                hyphenated[key] += 1
                pairs[key] = pairs.get(key, 0.0) + bonus  # "foreign-content" = "foreign content"
        for m in _PAIR.finditer(seg.text):
            key = (m.group(1), m.group(2))
            if not (set(key) & stop):
                pairs[key] = pairs.get(key, 0.0) + bonus
    out: dict[str, float] = {}
    chosen = [k for k, _ in hyphenated.most_common(MAX_PHRASES)]
    chosen += [k for k, n in sorted(pairs.items(), key=lambda kv: -kv[1]) if n >= 2 and k not in chosen]
    for key in chosen[:MAX_PHRASES]:
        weight = HYPHEN_WEIGHT if key in hyphenated else PAIR_WEIGHT
        for form in joined_forms(*key):
            out[form] = max(out.get(form, 0.0), weight)
    return out
