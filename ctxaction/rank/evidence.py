"""Evidence inside one definition: the features that say whether a function, method or class is
where the fix goes, and its points (features × the shipped definition weights).

Pure: plain values in, plain values out. ``bench/features.py`` dumps these features for the fit.
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ctxaction.mentions.words import IDENT_STOP, is_code_like, split_identifier
from ctxaction.rank.board import Hints
from ctxaction.rank.weights import definition_weights
from ctxaction.repo.symbols_model import Definition

# Tests inside a source file (Rust `#[cfg(test)] mod tests`) repeat the names the issue uses; the
# fix is in the code they test.
TEST_CODE_FACTOR = 0.15
# A definition named as the issue names something, in another case convention, holds the fix
# about 0.75 times as often as an exact namesake (on the training set's gold files: 28 of 155
# against 356 of 1,473).
SPELLING_FACTOR = 0.75
# A dispatch prefix (`visit_`, `_print_`, `handleX`, `on_`) is a short verb before the name it handles.
_MAX_PREFIX = 9
_MIN_HANDLED = 3
# A variable this long holds code or a table a fix edits (a CLI command's struct literal with its
# Run closure, a list of supported models): it owns its lines and is scored on them as a function
# is, at a discount, since most long variables are data whose words match by chance (a setup.py's
# dependency lists; at full points they crowded out the files beside them: bench/train/README.md).
LONG_VARIABLE = 5
LONG_VARIABLE_FACTOR = 0.5


def scored_on_lines(d: Definition) -> bool:
    """Whether ``d`` owns its lines and is scored on them: every definition but a short variable
    or a member one (a class's table stays its class's)."""
    return d.kind != "variable" or (not d.parent and d.end - d.start + 1 >= LONG_VARIABLE)


@dataclass(frozen=True)
class Query:
    """What the task asks about, as the definition scorer needs it."""

    idf: Mapping[str, float] = field(default_factory=dict)  # stemmed keyword -> rarity × emphasis
    owners: Mapping[str, set[str]] = field(default_factory=dict)  # member -> owners (Owner.member)
    named: Mapping[str, float] = field(default_factory=dict)  # identifiers the text names -> strength

    # One task, many files and definitions: both are computed once per query.
    @cached_property
    def kw_norm(self) -> float:
        """The four rarest keywords together: a definition holding all of them scores about 1."""
        return sum(sorted(self.idf.values(), reverse=True)[:4]) or 1.0

    def rarity(self, words: Iterable[str]) -> float:
        """How rare ``words`` (a set) are together, against :attr:`kw_norm`. ``fsum``: a set's order
        follows the hash seed, and a plain float sum's last bit follows the order (ties between
        definitions and windows must not)."""
        return math.fsum(self.idf.get(w, 0.0) for w in words) / self.kw_norm

    @cached_property
    def spellings(self) -> dict[tuple[str, ...], float]:
        """The named identifiers of two or more sub-words by their sub-words: ``ListObjectVersions``,
        ``listObjectVersions`` and ``list_object_versions`` are one name in three conventions (an
        API action in the issue, a method in the code)."""
        out: dict[tuple[str, ...], float] = {}
        for name, strength in self.named.items():
            words = tuple(split_identifier(name))
            if len(words) >= 2:
                out[words] = max(out.get(words, 0.0), strength)
        return out

    @cached_property
    def subword_weights(self) -> dict[str, float]:
        """Sub-words of the named identifiers (their strength) and the keywords (their relative
        rarity), each 0..1: what a definition's own name can share with the text."""
        out: dict[str, float] = {}
        top = max(self.idf.values(), default=0.0) or 1.0
        for word, rarity in self.idf.items():
            if len(word) >= 3:
                out[word] = max(out.get(word, 0.0), rarity / top)
        for name, strength in self.named.items():
            for sub in split_identifier(name):
                if len(sub) >= 3 and sub not in IDENT_STOP:
                    out[sub] = max(out.get(sub, 0.0), strength)
        return out


@dataclass(frozen=True)
class Scored:
    """A definition's points, features and the reason shown to the reader."""

    points: float
    definition: Definition
    why: str
    features: dict[str, float]


def owned_runs(defs: list[Definition]) -> dict[int, list[tuple[int, int]]]:
    """Per definition (by index), the runs of lines that no nested definition holds: a class owns
    its head, not its methods; a variable owns lines only when :func:`scored_on_lines`. Definitions
    are visited by start; each nested one is taken from its innermost enclosing one, whose owned
    lines are the gaps its children leave (runs, not sets: a 100,000-line class costs as much as a
    short one)."""
    children: dict[int, list[tuple[int, int]]] = {}
    stack: list[int] = []
    visited: list[int] = []
    for i in sorted(range(len(defs)), key=lambda i: (defs[i].start, -defs[i].end)):
        d = defs[i]
        if not scored_on_lines(d):
            continue
        while stack and defs[stack[-1]].end < d.start:
            stack.pop()
        if stack and d.end <= defs[stack[-1]].end and d.start <= d.end:
            children.setdefault(stack[-1], []).append((d.start, d.end))
        stack.append(i)
        visited.append(i)
    return {i: _gaps(defs[i].start, defs[i].end, children.get(i, [])) for i in visited}


def owned_lines(defs: list[Definition]) -> dict[int, set[int]]:
    """:func:`owned_runs` as sets of line numbers."""
    return {i: {n for a, b in runs for n in range(a, b + 1)} for i, runs in owned_runs(defs).items()}


def _gaps(start: int, end: int, covered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The runs of ``start..end`` outside ``covered`` (sorted by start)."""
    out: list[tuple[int, int]] = []
    cursor = start
    for a, b in covered:
        if a > cursor:
            out.append((cursor, min(a - 1, end)))
        cursor = max(cursor, b + 1)
        if cursor > end:
            break
    if cursor <= end:
        out.append((cursor, end))
    return out


@dataclass
class LineEvidence:
    """The hint lines one definition owns, in the hints' own order: what :func:`features` reads."""

    frames: list[int] = field(default_factory=list)
    messages: list[int] = field(default_factory=list)
    options: list[int] = field(default_factory=list)
    uses: dict[str, float] = field(default_factory=dict)  # name -> strength (the last line's)
    words: set[str] = field(default_factory=set)
    size: int = 0  # owned lines
    name_hits: list[float] = field(default_factory=list)  # name_lines inside its span, for its name
    recent: float = 0.0  # the most recent commit that changed one of its lines (1 = the latest)

    @classmethod
    def of_lines(cls, d: Definition, owned: set[int], hints: Hints) -> LineEvidence:
        """The evidence of one definition from its owned lines (every hint line tested)."""
        ev = cls(size=len(owned))
        ev.frames = [n for n in hints.frame_lines if n in owned]
        ev.messages = [n for n in hints.message_lines if n in owned]
        ev.options = [n for n in hints.option_lines if n in owned]
        ev.uses = {hints.use_lines[n][1]: hints.use_lines[n][0] for n in hints.use_lines if n in owned}
        for n, kws in hints.keyword_lines.items():
            if n in owned:
                ev.words |= kws
        lines = hints.name_lines.items()
        ev.name_hits = [v for n, (v, name) in lines if name == d.name and d.start <= n <= d.end]
        ev.recent = max((v for n, v in hints.recent_lines.items() if n in owned), default=0.0)
        return ev


def gather(defs: list[Definition], hints: Hints) -> dict[int, LineEvidence]:
    """:meth:`LineEvidence.of_lines` for every definition that owns lines, at once: each hint line is
    handed to the definitions owning it, so the cost grows with definitions plus hint lines, not
    their product (a generated file holds tens of thousands of definitions)."""
    runs = owned_runs(defs)
    owners = _LineOwners(runs)
    ev = {i: LineEvidence(size=sum(b - a + 1 for a, b in own)) for i, own in runs.items()}
    for n in hints.frame_lines:
        for i in owners.of(n):
            ev[i].frames.append(n)
    for n in hints.message_lines:
        for i in owners.of(n):
            ev[i].messages.append(n)
    for n in hints.option_lines:
        for i in owners.of(n):
            ev[i].options.append(n)
    for n, (strength, name) in hints.use_lines.items():
        for i in owners.of(n):
            ev[i].uses[name] = strength
    for n, kws in hints.keyword_lines.items():
        for i in owners.of(n):
            ev[i].words |= kws
    for n, value in hints.recent_lines.items():
        for i in owners.of(n):
            ev[i].recent = max(ev[i].recent, value)
    named: dict[str, list[tuple[int, float]]] = {}
    for n, (v, name) in sorted(hints.name_lines.items()):
        named.setdefault(name, []).append((n, v))
    for i in ev:
        d = defs[i]
        hits = named.get(d.name, [])
        lo, hi = bisect_left(hits, (d.start, -math.inf)), bisect_right(hits, (d.end, math.inf))
        ev[i].name_hits = [v for _, v in hits[lo:hi]]
    return ev


class _LineOwners:
    """Line -> the definitions owning it, from their owned runs (sorted; found by bisection)."""

    def __init__(self, runs: Mapping[int, list[tuple[int, int]]]) -> None:
        self._runs = sorted((a, b, i) for i, own in runs.items() for a, b in own)
        self._starts = [a for a, _, _ in self._runs]
        self._reach = list(itertools.accumulate((b for _, b, _ in self._runs), max))
        self._cache: dict[int, list[int]] = {}

    def of(self, line: int) -> list[int]:
        if line not in self._cache:
            out: list[int] = []
            k = bisect_right(self._starts, line) - 1
            # Sorted by start: walk back while some earlier run still reaches the line.
            while k >= 0 and self._reach[k] >= line:
                a, b, i = self._runs[k]
                if a <= line <= b:
                    out.append(i)
                k -= 1
            self._cache[line] = out
        return self._cache[line]


def handled_name(defined: str, named: Mapping[str, float]) -> float:
    """Strength of the named identifier that ``defined`` dispatches on: ``_print_Trace`` for
    ``Trace``, ``visit_call`` for ``call``, ``handleSubmit`` for ``Submit`` (0 when none)."""
    best = 0.0
    low = defined.lower()
    for name, strength in named.items():
        n = name.lower()
        if len(n) < _MIN_HANDLED or n == low or not low.endswith(n):
            continue
        prefix = defined[: len(defined) - len(name)]
        if not prefix or len(prefix) > _MAX_PREFIX or not prefix.strip("_"):
            continue
        # The handled name starts a new word: after `_`, or a capital after a lower-case prefix.
        if prefix.endswith("_") or (defined[len(prefix)].isupper() and prefix[-1].islower()):
            best = max(best, strength)
    return best


def features(
    d: Definition,
    owned: set[int] | LineEvidence,
    hints: Hints,
    query: Query,
    subwords: Mapping[str, float],
) -> tuple[dict[str, float], list[str]]:
    """The definition's evidence features (each ≥ 0) and the reasons they give, strongest first.
    ``owned``: its owned lines, or their evidence already gathered (:func:`gather`)."""
    f: dict[str, float] = {}
    whys: list[str] = []
    if not scored_on_lines(d):
        strength = hints.defined.get(d.name)
        if strength is not None:
            # CONSTANT_NAMES are settings an issue quotes; a plain word is usually a coincidence.
            f["defined"] = strength * (1.0 if is_code_like(d.name) else 0.4)
            whys.append(f"defines {d.qualname}")
        return f, whys
    ev = owned if isinstance(owned, LineEvidence) else LineEvidence.of_lines(d, owned, hints)
    frames = ev.frames
    if frames:
        f["frames"] = float(min(2, len(frames)))
        whys.append(f"traceback line {frames[0]}")
    msgs = ev.messages
    if msgs:
        f["message"] = 1.0
        whys.append(hints.message_lines[msgs[0]])
    opts = ev.options
    if opts:
        f["option"] = 1.0
        whys.append(hints.option_lines[opts[0]])
    name_words = split_identifier(d.name)  # read twice below: a namesake's spelling, shared sub-words
    strength = hints.defined.get(d.name)
    # A class is named for its methods as much as for itself: weigh its head lightly.
    head = 0.6 if d.kind == "class" else 1.0
    if strength is not None:
        qualified = bool(d.parent) and d.parent in query.owners.get(d.name, set())
        factor = 1.3 if qualified else (0.6 if query.owners.get(d.name) else 1.0)
        f["defined"] = strength * factor * head
        whys.insert(0, f"defines {d.qualname}")
    elif d.name not in query.named:
        spelled = query.spellings.get(tuple(name_words))
        if spelled is not None:
            f["defined"] = spelled * SPELLING_FACTOR * head
            whys.insert(0, f"defines {d.qualname} (the issue's name in another case convention)")
    used = dict(ev.uses)
    used.pop(d.name, None)
    if used:
        f["uses"] = sum(used.values())
        whys.append("uses " + ", ".join(sorted(used)[:2]))
    name_hits = ev.name_hits
    if name_hits:
        f["name"] = max(name_hits)
        whys.append("name matches the issue")
    words = ev.words
    if words and d.kind != "class":
        size = max(1, ev.size)
        f["keywords"] = query.rarity(words) / (1.0 + math.log1p(size / 40))
        if not whys:
            whys.append("keywords " + ", ".join(sorted(words, key=lambda w: (-query.idf.get(w, 0.0), w))[:3]))
    subs = [w for w in name_words if len(w) >= 2]
    shared = [s for s in subs if s in subwords]
    if shared:
        f["subtokens"] = min(1.0, sum(subwords[s] for s in shared) / math.sqrt(len(subs)))
    if ev.recent:
        f["recent"] = ev.recent
        whys.append("changed by the file's latest commit" if ev.recent == 1.0 else "changed recently")
    caller = hints.called.get(d.name)
    if caller is not None:
        f["called"] = caller[0]
        whys.append(f"called by {caller[1]}")
    handled = handled_name(d.name, query.named)
    if handled:
        f["dispatch"] = handled
        whys.append("handles a name the issue uses")
    return f, whys


def points(f: Mapping[str, float], weights: Mapping[str, float], in_test: bool) -> float:
    """Σ weight × feature, discounted for test code inside a source file."""
    total = sum(weights.get(k, 0.0) * v for k, v in f.items())
    return total * (TEST_CODE_FACTOR if in_test else 1.0)


def score_definitions(
    defs: list[Definition], hints: Hints, query: Query, weights: Mapping[str, float] | None = None
) -> list[Scored]:
    """Definitions with any evidence, best first (ties by position); ``weights`` default to the
    shipped ones."""
    weights = definition_weights() if weights is None else weights
    evidence = gather(defs, hints)
    subwords = query.subword_weights
    out: list[Scored] = []
    for i, d in enumerate(defs):
        f, whys = features(d, evidence.get(i) or LineEvidence(), hints, query, subwords)
        p = points(f, weights, d.in_test and d.kind != "variable")
        if d.kind == "variable" and scored_on_lines(d):
            p *= LONG_VARIABLE_FACTOR
        if p > 0:
            out.append(Scored(p, d, f"{d.qualname}: {'; '.join(whys)}" if whys else d.qualname, f))
    out.sort(key=lambda s: (-s.points, s.definition.start))
    return out

