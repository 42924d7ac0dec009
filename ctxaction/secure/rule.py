"""What a detection rule is: a bounded regex, its keywords, and the checks a match must pass.

Rules are data in the style of gitleaks' config: an id, a regex whose ``secret`` group (or
whole match) is the credential, keywords of which one must occur for the regex to run at all,
an optional minimum entropy, an optional validator (checksums), and examples that the tests
expand and run. Examples are templates (see :mod:`ctxaction.secure.synth`) so that no
credential-shaped literal lives in this repository.

Plain classes rather than dataclasses: ``dataclasses`` pulls ``inspect`` (and ``ast``, ``dis``)
into every hook run, and a hook run is a fresh interpreter.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Characters that may sit between a key name and its value in code and config:
# ``key = "v"``, ``key: v``, ``"key": "v"``, ``key => 'v'``, ``key := "v"``, ``<key>v</key>``.
ASSIGN = r"""[\w.\-]{0,24}?['"]?[ \t]{0,4}(?:=|:=|::=|=>|:|\?=|\|\|=|,)[ \t]{0,4}[@'"`]?"""
# After a value: any character that cannot continue a token, or the end of the text. Sentence
# punctuation ends a value too ("use ghp_… .", "`sk_live_…`.", "key: AKIA…/"), so prose and
# Markdown do not hide a credential; ``+`` and ``=`` continue one (base64 runs on past the shape).
TOKEN_CHAR = r"[\w+=~]"
END = rf"(?!{TOKEN_CHAR})"

# A lowercase hex UUID, the shape of many vendors' API keys.
UUID = r"[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}"

# How far from a keyword a match may reach; on very long lines (minified code) a rule's regex
# runs in a window this wide on either side of each keyword hit instead of over the whole line.
DEFAULT_REACH = 1200

Check = Callable[[str, "Context"], bool]


class Context:
    """What a check may look at besides the secret.

    ``key`` is the name a value is assigned to (generic rules), ``quote`` the quote that opened
    the value (empty when unquoted), ``after`` the rest of the line after the secret and
    ``label`` what the rule's ``label`` group matched (a URL's scheme, for instance).
    """

    __slots__ = ("after", "key", "label", "line", "match", "path", "quote")

    def __init__(
        self,
        match: str,
        line: str,
        path: str,
        key: str = "",
        quote: str = "",
        after: str = "",
        label: str = "",
    ) -> None:
        self.match = match
        self.line = line
        self.path = path
        self.key = key
        self.quote = quote
        self.after = after
        self.label = label


class Rule:
    """One detector. ``pattern`` must be linear or bounded (no nested unbounded quantifiers).

    Keywords decide where the regex runs. An all-lowercase keyword is looked for in the
    lowercased text, one with capitals (``AKIA``, ``SK``) as written, which keeps short vendor
    prefixes from firing on every ``task`` or ``each``. With ``anchored`` the regex is tried once
    where a keyword starts (its match must begin with the keyword); otherwise it runs over the
    lines holding a keyword hit (within ``reach`` of the hit on very long lines), or over the
    whole text when ``multiline`` (key blocks). A rule without keywords runs over every text.
    ``boundary`` asks for a character that is neither a word character, ``-`` nor ``.`` before
    the secret (checked after matching, so the regex keeps a literal prefix the engine can search
    for quickly; ``.`` keeps ``box.ico-…`` file names from reading as tokens).
    """

    def __init__(
        self,
        id: str,
        description: str,
        pattern: str,
        keywords: tuple[str, ...],
        *,
        entropy: float = 0.0,
        validate: Callable[[str], bool] | None = None,
        check: Check | None = None,
        generic: bool = False,
        min_len: int = 8,
        flags: int = 0,
        multiline: bool = False,
        anchored: bool = False,
        reach: int = DEFAULT_REACH,
        boundary: bool = False,
        tp: tuple[str, ...] = (),
        fp: tuple[str, ...] = (),
    ) -> None:
        self.id = id
        self.description = description
        self.pattern = pattern
        self.keywords = keywords
        self.entropy = entropy
        self.validate = validate
        self.check = check
        self.generic = generic
        self.min_len = min_len
        self.flags = flags
        self.multiline = multiline
        self.anchored = anchored
        self.reach = reach
        self.boundary = boundary
        self.tp = tp
        self.fp = fp
        self._regex: re.Pattern[str] | None = None

    def __repr__(self) -> str:
        return f"Rule({self.id!r})"

    @property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern (compiled on first use so a hook run pays only for rules it needs)."""
        if self._regex is None:
            # ``^`` and ``$`` mean the start and end of a line: a rule runs over a slice of a
            # file, and a credential on line 40 of a ``.npmrc`` is no less one than on line 1.
            self._regex = re.compile(self.pattern, self.flags | re.MULTILINE)
        return self._regex


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
        rule_id, description, pattern, keywords, entropy=entropy, tp=tp, fp=fp, check=check, anchored=True
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
    reach: int = DEFAULT_REACH,
    multiline: bool = False,
    anchored: bool = True,
    boundary: bool = True,
) -> Rule:
    """A rule for a token with a distinctive prefix: the value alone is enough. ``anchored``
    (the default) when every keyword is how the token starts; ``boundary`` (the default) when a
    word character before the prefix makes it a look-alike (see :class:`Rule`)."""
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
        reach=reach,
        multiline=multiline,
        anchored=anchored and not multiline,
        boundary=boundary,
    )
