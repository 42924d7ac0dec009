"""Run the rules over a text: keyword prefilter, regex, checks, allowlists, overlap resolution."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ctxaction.secure.allow import Allowlist, inline_allowed
from ctxaction.secure.checksums import failed_checksum
from ctxaction.secure.entropy import shannon
from ctxaction.secure.finding import Finding, fingerprint, preview_line
from ctxaction.secure.placeholders import KNOWN_EXAMPLES, is_fake_token
from ctxaction.secure.rule import Context, Rule

_WORD = re.compile(r"[\w\-]")
_KEY_CHAR = re.compile(r"[\w.\-]")
_KEY_PREFIX_MAX = 40


def _matches(rule: Rule, text: str, lower: str) -> Iterator[re.Match[str]]:
    """Matches of ``rule``: everywhere, or only around its anchor's hits (see :class:`Rule`)."""
    if not rule.anchor or len(lower) != len(text):  # lower() changed offsets: no anchoring
        yield from rule.regex.finditer(text)
        return
    seen: set[tuple[int, int]] = set()
    for hit in rule.anchor_regex.finditer(lower):
        if rule.back or rule.window:
            found = rule.regex.search(text, max(0, hit.start() - rule.back), hit.end() + rule.window)
        else:
            found = rule.regex.match(text, hit.start())
        if found and found.span() not in seen:
            seen.add(found.span())
            yield found


def _full_key(text: str, match: re.Match[str]) -> str:
    """The whole name a generic value is assigned to: the matched ``key`` group extended back
    over name characters (``DB_`` in ``DB_PASSWORD``), since matching starts at the keyword."""
    if "key" not in match.re.groupindex or match.start("key") < 0:
        return ""
    start = match.start("key")
    limit = max(0, start - _KEY_PREFIX_MAX)
    while start > limit and _KEY_CHAR.match(text, start - 1):
        start -= 1
    if start and text[start - 1] in "${%":
        return ""  # ``${DB_PASSWORD:-x}``, ``%(password)s``: a reference, not a name
    return text[start : match.end("key")]


@dataclass(frozen=True)
class _Hit:
    rule: Rule
    start: int
    end: int


class _Lines:
    """Offsets ↔ 1-based line numbers, lines split on ``\\n`` only (like git)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        pos = text.find("\n")
        while pos != -1:
            self.starts.append(pos + 1)
            pos = text.find("\n", pos + 1)

    def number(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def bounds(self, number: int) -> tuple[int, int]:
        start = self.starts[number - 1]
        end = self.starts[number] - 1 if number < len(self.starts) else len(self.text)
        return start, end

    def line(self, number: int) -> str:
        start, end = self.bounds(number)
        return self.text[start:end].rstrip("\r")


@dataclass
class Detector:
    """A configured scanner: the rules to run and the allowlist to honour."""

    rules: Sequence[Rule]
    allowlist: Allowlist = field(default_factory=Allowlist)

    def __post_init__(self) -> None:
        disabled = set(self.allowlist.disabled_rules)
        self.rules = [rule for rule in self.rules if rule.id not in disabled]
        self._keywords = sorted({kw for rule in self.rules for kw in rule.keywords})

    def scan(self, text: str, path: str = "") -> list[Finding]:
        """Findings in ``text`` (``path`` tunes path-aware checks and allowlists), in text order."""
        if not text or self.allowlist.path_allowed(path):
            return []
        lower = text.lower()
        present = {kw for kw in self._keywords if kw in lower}
        if not present:
            return []
        lines: _Lines | None = None
        hits: list[_Hit] = []
        for rule in self.rules:
            if rule.keywords and not present.intersection(rule.keywords):
                continue
            for match in _matches(rule, text, lower):
                if "secret" in rule.regex.groupindex:
                    start, end = match.span("secret")
                else:
                    start, end = match.span()
                if start < 0:
                    continue
                lines = lines or _Lines(text)
                if self._accept(rule, match, start, end, lines, path):
                    hits.append(_Hit(rule, start, end))
        if not hits or lines is None:
            return []
        return self._findings(_resolve(hits), lines)

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
        if not rule.generic and is_fake_token(secret):
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
        )
        return rule.check(secret, ctx)

    def _findings(self, hits: Iterable[_Hit], lines: _Lines) -> list[Finding]:
        by_line: dict[int, list[tuple[int, int]]] = {}
        placed = []
        for hit in hits:
            first, last = lines.number(hit.start), lines.number(max(hit.start, hit.end - 1))
            placed.append((hit, first, last))
            for number in range(first, last + 1):
                line_start, line_end = lines.bounds(number)
                by_line.setdefault(number, []).append(
                    (max(hit.start, line_start) - line_start, min(hit.end, line_end) - line_start)
                )
        findings = []
        for hit, first, last in placed:
            line_start, _ = lines.bounds(first)
            secret = lines.text[hit.start : hit.end]
            findings.append(
                Finding(
                    rule=hit.rule.id,
                    line=first,
                    column=hit.start - line_start + 1,
                    preview=preview_line(lines.line(first), by_line[first]),
                    fingerprint=fingerprint(hit.rule.id, secret),
                    start=hit.start,
                    end=hit.end,
                    end_line=last,
                )
            )
        return findings


def _resolve(hits: list[_Hit]) -> list[_Hit]:
    """Drop hits overlapping an earlier-kept one; specific rules are kept before generic ones."""
    kept: list[_Hit] = []
    for hit in sorted(hits, key=lambda h: (h.rule.generic, h.start, h.start - h.end)):
        if not any(hit.start < k.end and k.start < hit.end for k in kept):
            kept.append(hit)
    return sorted(kept, key=lambda h: h.start)
