"""The one value every detector returns, and how a match becomes a safe preview and fingerprint."""

from __future__ import annotations

import re
from collections.abc import Mapping

_PREVIEW_WIDTH = 100
_RUN = re.compile(r"[A-Za-z0-9+/=_\-]{16,}")
_FIELDS = ("rule", "line", "column", "preview", "fingerprint", "start", "end", "end_line")


class Finding:
    """A secret found in a text: where it is, which rule, and a redacted preview.

    ``start``/``end`` are character offsets of the secret in the scanned text; ``line`` and
    ``column`` are 1-based and point at ``start``. ``preview`` never holds the full secret.
    An immutable value (a plain class: ``dataclasses`` costs a hook run more than it saves).
    """

    __slots__ = _FIELDS

    rule: str
    line: int
    column: int
    preview: str
    fingerprint: str
    start: int
    end: int
    end_line: int

    def __init__(
        self,
        rule: str,
        line: int,
        column: int,
        preview: str,
        fingerprint: str,
        start: int,
        end: int,
        end_line: int = 0,
    ) -> None:
        values = (rule, line, column, preview, fingerprint, start, end, end_line)
        for name, value in zip(_FIELDS, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Finding is immutable (cannot set {name})")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Finding) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FIELDS)
        return f"Finding({fields})"

    @property
    def last_line(self) -> int:
        """The 1-based line the secret ends on (multi-line secrets such as key blocks)."""
        return self.end_line or self.line


def mask(secret: str, public: int = 0) -> str:
    """A stand-in for ``secret``: its first ``public`` characters, then ``****``.

    ``public`` is the length of the rule's own literal prefix (``ghp_``, ``AKIA``, ``xoxb-``),
    which every token of that kind starts with; nothing of the secret's own characters is shown
    (a password's first four characters are a part of it, and a part is a leak).
    """
    return f"{secret[:public]}****"


def fingerprint(rule: str, secret: str) -> str:
    """Stable id of a secret for baselines: independent of its position, path and line endings."""
    import hashlib  # here, not at import: loading OpenSSL is a cost only findings should pay

    digest = hashlib.sha256(f"{rule}\0{secret.strip()}".encode("utf-8", "replace")).hexdigest()
    return f"{rule}:{digest[:24]}"


def _mask_random(text: str) -> str:
    """``text`` with random-looking runs masked: the context of a finding may hold a secret no
    rule recognised (the other half of a key pair), and a preview is printed."""
    return _RUN.sub(_mask_run, text) if len(text) >= 16 else text


def _mask_run(match: re.Match[str]) -> str:
    run = match.group()
    lower, upper, digit = (any(test(ch) for ch in run) for test in (str.islower, str.isupper, str.isdigit))
    letters = lower or upper
    if (lower + upper + digit >= 3) or (len(run) >= 24 and letters and digit):
        return mask(run)
    return run


def preview_line(line: str, spans: list[tuple[int, int]], public: Mapping[int, int] | None = None) -> str:
    """``line`` with every secret span (offsets within the line) masked, trimmed to a short width.

    ``public`` maps a span's start to the length of its rule's literal prefix, the only part of
    a secret a preview shows (see :func:`mask`)."""
    out: list[str] = []
    pos = 0
    first = len(line)
    for start, end in sorted(spans):
        shown = (public or {}).get(start, 0)
        if start < pos:
            start, shown = pos, 0
        if end <= start:
            continue
        first = min(first, start)
        out.append(_mask_random(line[pos:start]))
        out.append(mask(line[start:end], shown))
        pos = end
    out.append(_mask_random(line[pos:]))
    text = "".join(out).strip()
    masked_first = len("".join(out[:1]).lstrip())
    if len(text) <= _PREVIEW_WIDTH:
        return text
    begin = max(0, min(masked_first, first) - _PREVIEW_WIDTH // 3)
    snippet = text[begin : begin + _PREVIEW_WIDTH]
    return ("…" if begin else "") + snippet + ("…" if begin + _PREVIEW_WIDTH < len(text) else "")
