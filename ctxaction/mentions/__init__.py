"""What a task's text names: paths, stack frames, modules, identifiers, errors, messages, keywords.

Pure functions over text; nothing here touches the repository. Resolution against tracked files
happens in :mod:`ctxaction.rank`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ctxaction.mentions import words
from ctxaction.mentions.frames import Frame, parse_frames
from ctxaction.mentions.phrases import phrase_identifiers
from ctxaction.mentions.text import Segment, drop_setup_dumps, segments
from ctxaction.mentions.words import split_identifier

__all__ = ["Frame", "Mentions", "Segment", "extract", "split_identifier"]


@dataclass
class Mentions:
    """Everything the task text names, before it is resolved against the repository."""

    paths: list[str] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    dotted: list[str] = field(default_factory=list)
    identifiers: dict[str, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    keywords: dict[str, float] = field(default_factory=dict)
    options: list[str] = field(default_factory=list)
    issue_refs: list[int] = field(default_factory=list)
    commit_refs: list[str] = field(default_factory=list)
    scope: list[str] = field(default_factory=list)  # the component the title names first

    @property
    def empty(self) -> bool:
        """True when the text names nothing usable (no words, no code, no paths)."""
        return not (self.paths or self.frames or self.identifiers or self.keywords)


MAX_LINE = 1000  # longer lines (minified blobs, base64) name nothing and would slow the patterns
MAX_TEXT = 200_000


def _clip(text: str) -> str:
    """Bound the text the patterns see: each line and the whole."""
    return "\n".join(line[:MAX_LINE] for line in text[:MAX_TEXT].split("\n"))


def extract(title: str, body: str = "", extra: str = "") -> Mentions:
    """Read title, body and (weaker) extra text such as thread comments into :class:`Mentions`."""
    title, body = _clip(title), drop_setup_dumps(_clip(body))
    segs = segments(title, body)
    raw = f"{title}\n{body}"
    mentions = Mentions(
        paths=words.paths(raw),
        frames=parse_frames(raw),
        dotted=words.dotted_names(segs),
        identifiers={
            **phrase_identifiers(segs, words.STOPWORDS | words.IDENT_STOP),
            **words.kebab_identifiers(segs),
            **words.identifiers(segs),
        },
        errors=words.error_names(raw),
        messages=words.messages(segs),
        keywords=words.keywords(segs),
        options=words.options("\n".join(s.text for s in segs)),
        issue_refs=words.issue_refs(raw),
        commit_refs=words.commit_refs(raw),
        scope=words.title_scope(title),
    )
    for opt in mentions.options:
        name = opt.strip(":-").replace("-", "_")
        mentions.identifiers.setdefault(name, 0.8 if "_" in name else 0.6)
        first, *rest = name.split("_")
        if rest and all(rest):  # option parsers (yargs, commander, clap) also name --dry-run dryRun
            mentions.identifiers.setdefault(first + "".join(r.capitalize() for r in rest), 0.6)
    for name in protocol_methods(raw):
        mentions.identifiers.setdefault(name, PROTOCOL_WEIGHT)
    if extra.strip():
        _merge_weaker(mentions, extract("", extra))
    return mentions


# Python builtins that call a class's own method: an issue about `str(exc)` or "the repr of a
# Foo" is about `Foo.__str__` / `__repr__`.
_PROTOCOL = (
    "str",
    "repr",
    "len",
    "hash",
    "bool",
    "iter",
    "next",
    "format",
    "reversed",
    "abs",
    "round",
    "dir",
    "deepcopy",
)
_PROTOCOL_CALL = re.compile(r"(?<![\w.])(" + "|".join(_PROTOCOL) + r")\(|\b(repr|str)\s+of\b")
PROTOCOL_WEIGHT = 0.6


def protocol_methods(text: str) -> list[str]:
    """Dunder methods that builtin calls in ``text`` reach (``str(x)`` → ``__str__``)."""
    found = {f"__{m.group(1) or m.group(2)}__" for m in _PROTOCOL_CALL.finditer(text)}
    return sorted(found)


def _merge_weaker(into: Mentions, other: Mentions, factor: float = 0.5) -> None:
    """Add a secondary text's mentions at a reduced strength."""
    for p in other.paths:
        if p not in into.paths:
            into.paths.append(p)
    into.frames.extend(f for f in other.frames if f not in into.frames)
    into.dotted.extend(d for d in other.dotted if d not in into.dotted)
    for name, w in other.identifiers.items():
        into.identifiers[name] = max(into.identifiers.get(name, 0.0), w * factor)
    into.errors.extend(e for e in other.errors if e not in into.errors)
    into.messages.extend(m for m in other.messages if m not in into.messages)
    into.options.extend(o for o in other.options if o not in into.options)
    for kw, w in other.keywords.items():
        into.keywords[kw] = into.keywords.get(kw, 0.0) + w * factor
