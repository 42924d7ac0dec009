"""What a detection rule is: a bounded regex, its keywords, and the checks a match must pass.

Rules are data in the style of gitleaks' config: an id, a regex whose ``secret`` group (or
whole match) is the credential, lowercase keywords that must occur in the text before the regex
runs at all, an optional minimum entropy, an optional validator (checksums), and examples that
the tests expand and run. Examples are templates (see :mod:`ctxaction.secure.synth`) so that no
credential-shaped literal lives in this repository.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

# Characters that may sit between a key name and its value in code and config:
# ``key = "v"``, ``key: v``, ``"key": "v"``, ``key => 'v'``, ``key := "v"``, ``<key>v</key>``.
ASSIGN = r"""[\w.\-]{0,24}?['"]?[ \t]{0,4}(?:=|:=|::=|=>|:|\?=|\|\|=|,)[ \t]{0,4}[@'"`]?"""
# After a value: a quote, a separator, whitespace or end of text (no further value characters).
END = r"""(?=['"`\s;,)<\\\]}&|]|$)"""

# A lowercase hex UUID, the shape of many vendors' API keys.
UUID = r"[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}"

Check = Callable[[str, "Context"], bool]


@dataclass(frozen=True)
class Context:
    """What a check may look at besides the secret.

    ``key`` is the name a value is assigned to (generic rules), ``quote`` the quote that opened
    the value (empty when unquoted) and ``after`` the rest of the line after the secret.
    """

    match: str
    line: str
    path: str
    key: str = ""
    quote: str = ""
    after: str = ""


@dataclass(frozen=True)
class Rule:
    """One detector. ``pattern`` must be linear or bounded (no nested unbounded quantifiers).

    Speed: with ``anchor`` set, the pattern is only tried where the anchor occurs in the
    lowercased text — matched right there (``back == window == 0``) or searched in a window of
    ``back`` characters before and ``window`` after the hit. ``boundary`` asks for a non-word
    character before the secret (checked after matching, so the regex keeps a literal prefix
    the engine can search for quickly).
    """

    id: str
    description: str
    pattern: str
    keywords: tuple[str, ...]
    entropy: float = 0.0
    validate: Callable[[str], bool] | None = None
    check: Check | None = None
    generic: bool = False
    min_len: int = 8
    flags: int = 0
    anchor: str = ""
    back: int = 0
    window: int = 0
    boundary: bool = False
    tp: tuple[str, ...] = field(default=(), repr=False)
    fp: tuple[str, ...] = field(default=(), repr=False)

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern (compiled on first use so a hook run pays only for rules it needs)."""
        return re.compile(self.pattern, self.flags)

    @cached_property
    def anchor_regex(self) -> re.Pattern[str]:
        """``anchor`` compiled: searched in the lowercased text, where a plain (not
        case-insensitive) alternation runs an order of magnitude faster than ``(?i)`` would."""
        return re.compile(self.anchor)


def keyed(
    rule_id: str,
    description: str,
    names: str,
    value: str,
    keywords: tuple[str, ...],
    *,
    entropy: float = 3.0,
    tp: tuple[str, ...] = (),
    fp: tuple[str, ...] = (),
    check: Check | None = None,
) -> Rule:
    """A rule for a vendor whose tokens have no prefix: the vendor's name must label the value.

    ``names`` is a regex alternation of name fragments (``twilio|twlo``); ``value`` the shape of
    the credential itself.
    """
    pattern = rf"(?i)(?:{names}){ASSIGN}(?P<secret>{value}){END}"
    return Rule(
        rule_id, description, pattern, keywords, entropy=entropy, tp=tp, fp=fp, check=check, anchor=names
    )


def prefixed(
    rule_id: str,
    description: str,
    value: str,
    keywords: tuple[str, ...],
    *,
    entropy: float = 0.0,
    validate: Callable[[str], bool] | None = None,
    tp: tuple[str, ...] = (),
    fp: tuple[str, ...] = (),
    min_len: int = 8,
) -> Rule:
    """A rule for a token with a distinctive prefix: the value alone is enough."""
    pattern = rf"(?P<secret>{value}){END}"
    return Rule(
        rule_id,
        description,
        pattern,
        keywords,
        entropy=entropy,
        validate=validate,
        tp=tp,
        fp=fp,
        min_len=min_len,
        boundary=True,
    )
