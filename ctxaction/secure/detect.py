"""Run the rules over a text: keyword pass, line-local regexes, checks, allowlists, overlaps.

Speed comes from not running regexes over text that cannot hold a match. One Aho-Corasick pass
(``ahocorasick_rs``, a binding of the Rust ``aho-corasick`` crate) over the lowercased text finds
every keyword of every rule at once; a rule whose match begins at its keyword (vendor prefixes,
``name = value`` assignments) is then tried once right there, any other only over the lines
holding one of its keywords. Measured on a real tree (bench/secrets_bench.py) the automaton is
several times faster than one substring test per keyword, and than one regex alternation of
all keywords, which Python's ``re`` tries branch by branch at every position.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence

from ctxaction.secure.allow import Allowlist, inline_allowed
from ctxaction.secure.checksums import failed_checksum
from ctxaction.secure.continued import Joined, chains
from ctxaction.secure.entropy import shannon
from ctxaction.secure.escapes import ESCAPE_MARKERS, Decoded, escaped_lines
from ctxaction.secure.finding import Finding, fingerprint, preview_line
from ctxaction.secure.junctions import JOINT_MARKERS, junctions
from ctxaction.secure.lazyre import LazyPattern
from ctxaction.secure.placeholders import KNOWN_EXAMPLES, is_fake_token
from ctxaction.secure.rule import Context, Rule
from ctxaction.secure.triggers import Triggers, segments

_WORD = LazyPattern(r"[\w\-.]")
_KEY_CHAR = LazyPattern(r"[\w.\-]")
_NEWLINE = LazyPattern("\n")
_MATCH_END = re.Match.end
# Quote and comment markers that open each line of a key block quoted in a reply (``> ``) or
# commented out (``# ``): a ``>`` is no placeholder's ``<key>`` there.
_LINE_MARKS = LazyPattern(r"\n(?:[ \t]*[>#*;%!]+)+")
_KEY_PREFIX_MAX = 40
_CLOSING = frozenset(".,;:!?>)]}")
# The shortest rest of an overlapping hit still redacted on its own (a shorter one widens the hit
# it touches).
_MIN_REST = 4
# Lines longer than this (minified code, data blobs) are searched in windows around keyword hits.
LONG_LINE = 4096


def _trim_punctuation(text: str, start: int, end: int) -> int:
    """``end`` moved back over closing punctuation (at most a few characters)."""
    limit = max(start, end - 3)
    while end > limit and text[end - 1] in _CLOSING:
        end -= 1
    return end


def _full_key(text: str, match: re.Match[str]) -> str:
    """The whole name a generic value is assigned to: the matched ``key`` group extended back
    over name characters (``DB_`` in ``DB_PASSWORD``), since matching starts at the keyword."""
    if "key" not in match.re.groupindex or match.start("key") < 0:
        return ""
    start = match.start("key")
    limit = max(0, start - _KEY_PREFIX_MAX)
    while start > limit and _KEY_CHAR.match(text, start - 1):
        start -= 1
    if start and text[start - 1] in "{%":
        return ""  # ``${DB_PASSWORD:-x}``, ``%(password)s``: a reference, not a name
    if start and text[start - 1] == "$":
        start -= 1  # ``$password = '…'`` (PHP, Perl): the variable being assigned
    return text[start : match.end("key")]


class _Hit:
    __slots__ = ("end", "order", "public", "rule", "start", "value")

    def __init__(
        self, rule: Rule, order: int, start: int, end: int, public: int = 0, value: str = ""
    ) -> None:
        self.rule = rule
        self.order = order  # the rule's place in the rule list: earlier rules win ties
        self.start = start
        self.end = end
        # How many leading characters are the rule's literal prefix (``ghp_``): a preview shows those.
        self.public = public
        # The secret as its pieces join up, when it is split (see continued.py): what a
        # fingerprint is taken of, so it does not change with how the pieces are laid out.
        self.value = value


def _public_prefix(rule: Rule, text: str, start: int) -> int:
    """The length of the keyword an anchored vendor rule's secret starts with (its match begins
    at a keyword, so those characters are the same in every token of the kind), else 0."""
    if rule.generic or not rule.anchored:
        return 0
    head = text[start : start + max(map(len, rule.keywords), default=0)]
    lowered = head.lower()
    return max(
        (len(k) for k in rule.keywords if (lowered if k == k.lower() else head).startswith(k)), default=0
    )


class _Lines:
    """Offsets ↔ 1-based line numbers, lines split on ``\\n`` only (like git)."""

    def __init__(self, text: str) -> None:
        self.text = text
        # map() over the C method: no Python frame per line, which matters for long files.
        self.starts = [0, *map(_MATCH_END, _NEWLINE.finditer(text))]

    def number(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def bounds(self, number: int) -> tuple[int, int]:
        start = self.starts[number - 1]
        end = self.starts[number] - 1 if number < len(self.starts) else len(self.text)
        return start, end

    def line(self, number: int) -> str:
        start, end = self.bounds(number)
        return self.text[start:end].rstrip("\r")


class Detector:
    """A configured scanner: the rules to run and the allowlist to honour."""

    def __init__(self, rules: Sequence[Rule], allowlist: Allowlist | None = None) -> None:
        self.allowlist = allowlist or Allowlist()
        disabled = set(self.allowlist.disabled_rules)
        self.rules = [rule for rule in rules if rule.id not in disabled]
        self._triggers: Triggers | None = None

    def scan(self, text: str, path: str = "") -> list[Finding]:
        """Findings in ``text`` (``path`` tunes path-aware checks and allowlists), in text order."""
        allow = self.allowlist
        if not text or (allow.paths_ready and allow.path_allowed(path)):
            return []
        spots: list[int] = []
        marks: list[tuple[int, int]] = []
        hits, lines = self._match(text, path, spots, marks)
        # Escapes begin with a backslash or ``&#``, the joints of string pieces with a quote.
        escapes = [start for start, _ in marks if text[start] in "\\&"]
        joints = marks if not escapes else [mark for mark in marks if text[mark[0]] not in "\\&"]
        if joints:
            # A key cut inside its keyword holds no keyword on any line: where pieces meet across one.
            assert self._triggers is not None
            cut = junctions(text, joints, self._triggers.cut, self._triggers.longest, LONG_LINE)
            if cut:
                spots = sorted(spots + cut)
        found = self._joined(text, path, spots) if spots else []
        if escapes:
            found += self._unescaped(text, path, escapes)
        if found:
            lines = lines or _Lines(text)
            hits += [hit for hit in found if not _allowed_inline(hit, lines)]
        if not hits or lines is None or allow.path_allowed(path):
            return []
        return self._findings(_resolve(hits), lines)

    def _match(
        self, text: str, path: str, spots: list[int] | None, marks: list[tuple[int, int]] | None = None
    ) -> tuple[list[_Hit], _Lines | None]:
        """Every rule's accepted matches in ``text``, and its lines once a regex matched; where
        keywords were found goes to ``spots``, where the markers of places string pieces meet
        and of escapes were found to ``marks``."""
        if self._triggers is None:
            self._triggers = Triggers(self.rules, (*JOINT_MARKERS, *ESCAPE_MARKERS))
        lines: _Lines | None = None
        hits: list[_Hit] = []
        seen: set[tuple[str, int, int]] = set()
        for index, start, end, clipped in segments(self._triggers, text, LONG_LINE, spots, marks):
            rule = self.rules[index]
            regex = rule.regex
            if end < 0:
                found = regex.match(text, start)
                matches: Iterable[re.Match[str]] = (found,) if found else ()
            else:
                matches = regex.finditer(text, start, end)
            for match in matches:
                if clipped and match.end() >= end:
                    continue  # the window may have cut the value short; a wider one sees it whole
                span = match.span("secret") if "secret" in regex.groupindex else match.span()
                if span[0] < 0 or (rule.id, *span) in seen:
                    continue
                seen.add((rule.id, *span))
                lines = lines or _Lines(text)
                if self._accept(rule, match, span[0], span[1], lines, path):
                    public = _public_prefix(rule, text, span[0]) if span[0] == match.start() else 0
                    hits.append(_Hit(rule, index, *span, public))
                elif rule.generic:
                    # A free-form value swallows the sentence's closing punctuation ("… is X>",
                    # "password X!)"): judge it once more without.
                    end = _trim_punctuation(text, *span)
                    if end < span[1] and self._accept(rule, match, span[0], end, lines, path):
                        hits.append(_Hit(rule, index, span[0], end))
        return hits, lines

    def _joined(self, text: str, path: str, spots: list[int]) -> list[_Hit]:
        """Hits in the values that string pieces around the keyword lines join into (see
        continued.py), placed over every piece in ``text``."""
        found = chains(text, spots, path, LONG_LINE)
        if not found:
            return []
        joined = Joined(text, found)
        hits, _ = self._match(joined.text, path, None)
        placed = []
        for hit in hits:
            where = joined.locate(hit.start, hit.end)
            if where is not None:
                public = hit.public if joined.unbroken(hit.start, hit.public) else 0
                placed.append(_Hit(hit.rule, hit.order, *where, public, joined.text[hit.start : hit.end]))
        return placed

    def _unescaped(self, text: str, path: str, escapes: list[int]) -> list[_Hit]:
        """Hits in the lines holding escapes of token characters (``\\uXXXX``, ``\\xHH``,
        ``\\u{H…}``, octal, ``&#103;`` and the others escapes.py reads), read decoded, placed over
        the escapes they were read from in ``text``."""
        decoded = Decoded(text, escaped_lines(text, escapes, LONG_LINE))
        hits, _ = self._match(decoded.text, path, None)
        placed = []
        for hit in hits:
            where = decoded.locate(hit.start, hit.end)
            if where is not None:
                placed.append(_Hit(hit.rule, hit.order, *where, 0, decoded.text[hit.start : hit.end]))
        return placed

    def _accept(
        self, rule: Rule, match: re.Match[str], start: int, end: int, lines: _Lines, path: str
    ) -> bool:
        secret = lines.text[start:end]
        if len(secret) < rule.min_len or any(example in secret for example in KNOWN_EXAMPLES):
            return False
        if rule.boundary and start and _WORD.match(lines.text, start - 1):
            return False
        if (rule.validate and not rule.validate(secret)) or failed_checksum(secret):
            return False
        if rule.entropy and shannon(secret) < rule.entropy:
            return False
        if not rule.generic and is_fake_token(_LINE_MARKS.sub("\n", secret) if rule.multiline else secret):
            return False
        first, last = lines.number(start), lines.number(max(start, end - 1))
        line = lines.line(first)
        if self.allowlist.secret_allowed(secret, line):
            return False
        previous = lines.line(first - 1) if first > 1 else ""
        if inline_allowed([lines.line(n) for n in range(first, last + 1)], previous):
            return False
        if rule.check is None:
            return True
        _, line_end = lines.bounds(last)
        ctx = Context(
            match=secret,
            line=line,
            path=path,
            key=_full_key(lines.text, match),
            quote=(match.group("q") if "q" in match.re.groupindex else "") or "",
            after=lines.text[end:line_end].rstrip("\r"),
            label=(match.group("label") if "label" in match.re.groupindex else "") or "",
        )
        return rule.check(secret, ctx)

    def _findings(self, hits: Iterable[_Hit], lines: _Lines) -> list[Finding]:
        by_line: dict[int, list[tuple[int, int]]] = {}
        public: dict[int, dict[int, int]] = {}  # line -> span start in the line -> prefix shown
        placed = []
        for hit in hits:
            first, last = lines.number(hit.start), lines.number(max(hit.start, hit.end - 1))
            placed.append((hit, first, last))
            for number in range(first, last + 1):
                line_start, line_end = lines.bounds(number)
                by_line.setdefault(number, []).append(
                    (max(hit.start, line_start) - line_start, min(hit.end, line_end) - line_start)
                )
            if hit.public:
                public.setdefault(first, {})[hit.start - lines.bounds(first)[0]] = hit.public
        findings = []
        for hit, first, last in placed:
            line_start, _ = lines.bounds(first)
            secret = hit.value or lines.text[hit.start : hit.end]
            findings.append(
                Finding(
                    rule=hit.rule.id,
                    line=first,
                    column=hit.start - line_start + 1,
                    preview=preview_line(lines.line(first), by_line[first], public.get(first)),
                    fingerprint=fingerprint(hit.rule.id, secret),
                    start=hit.start,
                    end=hit.end,
                    end_line=last,
                )
            )
        return findings


def _allowed_inline(hit: _Hit, lines: _Lines) -> bool:
    """Whether an inline marker allows a joined hit: on any line its pieces span (the logical
    line it was judged on holds only the first and the last of them), or the line before."""
    first, last = lines.number(hit.start), lines.number(max(hit.start, hit.end - 1))
    previous = lines.line(first - 1) if first > 1 else ""
    return inline_allowed([lines.line(n) for n in range(first, last + 1)], previous)


def _resolve(hits: list[_Hit]) -> list[_Hit]:
    """One hit per stretch of text; specific rules are kept before generic ones. A hit that
    overlaps kept ones keeps what reaches past them (a greedy key body running into the next
    key block must not hide the rest of that block from redaction)."""
    kept: list[_Hit] = []
    for hit in sorted(hits, key=lambda h: (h.rule.generic, h.start, h.start - h.end, h.order)):
        for start, end in _uncovered(hit.start, hit.end, kept):
            if (start, end) == (hit.start, hit.end):
                kept.append(hit)
            elif end - start >= _MIN_REST:
                kept.append(_Hit(hit.rule, hit.order, start, end))
            else:
                _absorb(kept, start, end)
    return sorted(kept, key=lambda h: h.start)


def _absorb(kept: list[_Hit], start: int, end: int) -> None:
    """Widen the kept hit that ``start..end`` touches over it. Too short to be redacted on its
    own, a rest is still part of a secret (``password = "ghp_…!ab"``: the password's ``!ab``)."""
    for k in kept:
        if k.end == start:
            k.end = end
            return
        if k.start == end:
            k.start, k.public = start, 0
            return


def _uncovered(start: int, end: int, kept: list[_Hit]) -> list[tuple[int, int]]:
    """The parts of ``start..end`` that no kept hit covers."""
    parts = [(start, end)]
    for k in kept:
        if k.start < end and start < k.end:
            parts = [
                piece
                for a, b in parts
                for piece in ((a, min(b, k.start)), (max(a, k.end), b))
                if piece[0] < piece[1]
            ]
    return parts
