"""Run the rules over a text: keyword prefilter, regex, checks, allowlists, overlap resolution."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ctxaction.secure.allow import Allowlist, inline_allowed
from ctxaction.secure.checksums import failed_checksum
from ctxaction.secure.entropy import shannon
from ctxaction.secure.finding import Finding, fingerprint, preview_line
from ctxaction.secure.placeholders import KNOWN_EXAMPLES, is_fake_token
from ctxaction.secure.rule import Context, Rule


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
            for match in rule.regex.finditer(text):
                if "secret" in rule.regex.groupindex:
                    start, end = match.span("secret")
                else:
                    start, end = match.span()
                if start < 0:
                    continue
                lines = lines or _Lines(text)
                if self._accept(rule, match.groupdict(), text[start:end], start, end, lines, path):
                    hits.append(_Hit(rule, start, end))
        if not hits or lines is None:
            return []
        return self._findings(_resolve(hits), lines)

    def _accept(
        self,
        rule: Rule,
        groups: dict[str, str | None],
        secret: str,
        start: int,
        end: int,
        lines: _Lines,
        path: str,
    ) -> bool:
        if len(secret) < rule.min_len or any(example in secret for example in KNOWN_EXAMPLES):
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
            key=groups.get("key") or "",
            quote=groups.get("q") or "",
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
