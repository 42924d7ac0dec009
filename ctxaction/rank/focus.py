"""Focus spans: the lines of a candidate that matter, weighted for the excerpter.

Every function in the file is scored on the evidence inside it (traceback lines, quoted messages,
definitions and uses of named symbols, rare keywords, names that match the issue); the best
functions become spans with their bodies, weighted by their share of the best function's evidence,
next to tight windows around the named lines themselves and the imports header. Weights are 0..1;
the excerpter fills by weight, so a clear winner gets its whole body first.
"""

from __future__ import annotations

import itertools
import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping

from ctxaction.mentions.words import is_code_like
from ctxaction.model import Focus
from ctxaction.rank.board import Hints
from ctxaction.repo.symbols import Definition, definitions

MAX_BODY_LINES = 160  # a longer definition is focused on its head and the evidence inside
HEAD_LINES = 25
LINE_CONTEXT = 3
MAX_DEFS = 6
# Windows inside a definition too long to show whole.
MAX_EVIDENCE = 6
EVIDENCE_GAP = 8
# Fixes often add an import: the header is worth a little room in the files that matter.
HEADER_WEIGHT = 0.35
# Top-level constants read by the best definitions: below their readers, above plain context.
CONSTANT_WEIGHT = 0.4
REFERENCING_DEFS = 3
MAX_READS = 6
SMALL_FILE_LINES = 150  # a file this short is offered whole, below its best spans

# Evidence points per kind of hint inside a definition.
FRAME_POINTS = 3.0
MESSAGE_POINTS = 2.5
OPTION_POINTS = 1.0
DEFINED_POINTS = 2.5
USE_POINTS = 1.0
NAME_POINTS = 1.5
KEYWORD_POINTS = 1.2
# Tests inside a source file (Rust `#[cfg(test)] mod tests`) repeat the names the issue uses; the
# fix is in the code they test.
TEST_CODE_FACTOR = 0.15


class _Spans:
    """Collects spans clipped to the file."""

    def __init__(self, n_lines: int) -> None:
        self.n = n_lines
        self.items: list[Focus] = []

    def add(self, start: int, end: int, weight: float, why: str) -> None:
        start, end = max(1, start), min(self.n, end)
        if start <= end and weight > 0:
            self.items.append(Focus(start, end, round(min(1.0, weight), 4), why))


def build_focus(
    path: str, text: str, hints: Hints, idf: Mapping[str, float], owners: Mapping[str, set[str]]
) -> list[Focus]:
    """Focus spans for one file, strongest first (overlaps are left to the excerpter)."""
    n_lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    defs = definitions(text, path)
    spans = _Spans(n_lines)
    _line_windows(spans, hints)
    kw_norm = sum(sorted(idf.values(), reverse=True)[:4]) or 1.0  # the four rarest keywords together
    scored = _score_definitions(defs, hints, idf, kw_norm, owners)
    if scored:
        best = scored[0][0]
        for points, d, why in scored[:MAX_DEFS]:
            weight = 0.25 + 0.7 * points / best
            if d.kind == "variable":
                spans.add(d.start - 1, d.end + 1, weight, why)
            elif d.kind == "class":
                first_member = next(
                    (x.start for x in defs if x.parent == d.name and x.start > d.start), d.end + 1
                )
                spans.add(d.start, min(first_member - 1, d.start + HEAD_LINES), weight, f"{why} (class head)")
            elif d.end - d.start + 1 <= MAX_BODY_LINES:
                spans.add(d.start, d.end, weight, why)
            else:
                spans.add(d.start, d.start + HEAD_LINES, weight, f"{why} (head)")
                for line in _evidence_lines(hints, d, idf, kw_norm):
                    spans.add(line - 8, line + 8, weight * 0.9, f"{why} (around line {line})")
        _referenced_constants(spans, text, defs, [d for _, d, _ in scored[:REFERENCING_DEFS]])
    header_end = _import_header_end(text)
    if header_end:
        spans.add(1, header_end + 1, HEADER_WEIGHT, "imports")
    if n_lines <= SMALL_FILE_LINES:
        spans.add(1, n_lines, 0.45, "whole file (short)")
    return sorted(spans.items, key=lambda f: (-f.weight, f.start))


def _referenced_constants(
    spans: _Spans, text: str, defs: list[Definition], focused: list[Definition]
) -> None:
    """The file's top-level constants (a pattern, a table, a default) that the best-focused
    definitions read: a fix to what a function matches or looks up is often made there."""
    top = {d.name: d for d in defs if d.kind == "variable" and not d.parent and d.end - d.start < 20}
    if not top or not focused:
        return
    lines = text.split("\n")
    names = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(top, key=len, reverse=True)) + r")\b")
    counts: dict[str, list[int]] = {}
    for m in names.finditer(text):
        counts.setdefault(m.group(1), []).append(m.start())
    seen: set[str] = set()
    for d in focused:
        body = "\n".join(lines[d.start - 1 : min(d.end, d.start + MAX_BODY_LINES)])
        for name in dict.fromkeys(names.findall(body)):
            c = top[name]
            # A name read all over the file (a logger, a module alias) points nowhere in particular.
            if name not in seen and not (d.start <= c.start <= d.end) and len(counts[name]) <= MAX_READS:
                seen.add(name)
                spans.add(c.start, c.end, CONSTANT_WEIGHT, f"{name}, read by {d.qualname}")


def _line_windows(spans: _Spans, hints: Hints) -> None:
    """Tight windows around the lines the text names outright."""
    for line, why in hints.frame_lines.items():
        spans.add(line - LINE_CONTEXT, line + LINE_CONTEXT, 1.0, why)
    for line, why in hints.message_lines.items():
        spans.add(line - 2, line + 2, 0.9, f"holds the {why}")
    for line, why in hints.option_lines.items():
        spans.add(line - 2, line + 2, 0.5, f"holds the {why}")
    strongest = sorted(hints.use_lines.items(), key=lambda kv: -kv[1][0])[:12]
    for line, (strength, name) in strongest:
        spans.add(line - 2, line + 2, 0.5 * strength, f"uses {name}")


def _evidence_lines(hints: Hints, d: Definition, idf: Mapping[str, float], kw_norm: float) -> list[int]:
    """The strongest evidence inside a long definition (at most MAX_EVIDENCE windows, one per
    stretch of EVIDENCE_GAP lines): named lines first, then uses by the name's strength, then the
    lines holding the rarest keywords; a long body's fix sits near what the issue names."""
    points: dict[int, float] = {}

    def note(line: int, value: float) -> None:
        if d.start <= line <= d.end:
            points[line] = max(points.get(line, 0.0), value)

    for line in hints.frame_lines:
        note(line, FRAME_POINTS)
    for line in hints.message_lines:
        note(line, MESSAGE_POINTS)
    for line in hints.option_lines:
        note(line, OPTION_POINTS)
    for line, (strength, _) in hints.use_lines.items():
        note(line, USE_POINTS * strength)
    for line, words in hints.keyword_lines.items():
        note(line, KEYWORD_POINTS * 0.5 * sum(idf.get(w, 0.0) for w in words) / kw_norm)
    chosen: list[int] = []
    for line in sorted(points, key=lambda n: (-points[n], n)):
        if all(abs(line - c) > EVIDENCE_GAP for c in chosen):
            chosen.append(line)
        if len(chosen) == MAX_EVIDENCE:
            break
    return sorted(chosen)


def _score_definitions(
    defs: list[Definition],
    hints: Hints,
    idf: Mapping[str, float],
    kw_norm: float,
    owners: Mapping[str, set[str]],
) -> list[tuple[float, Definition, str]]:
    """(evidence points, definition, why) for definitions with any evidence, best first.

    A definition's evidence is what lies on the lines it *owns*: its own lines, not those of the
    definitions nested in it (a class owns its head, not its methods). Each hint line is handed to
    its owners once (:class:`_Owners`), so the cost grows with the definitions plus the hint
    lines, not with their product (a generated file has tens of thousands of definitions).
    """
    blocks = [d for d in defs if d.kind != "variable"]
    own = _Owners(blocks)
    frames = own.collect(hints.frame_lines)
    msgs = own.collect(hints.message_lines)
    opts = own.collect(hints.option_lines)
    used: dict[int, dict[str, float]] = {}
    for n, (weight, name) in hints.use_lines.items():
        for i in own.of(n):
            used.setdefault(i, {})[name] = weight
    words: dict[int, set[str]] = {}
    for n, kws in hints.keyword_lines.items():
        for i in own.of(n):
            words.setdefault(i, set()).update(kws)
    named: dict[str, list[tuple[int, float]]] = {}
    for n, (v, name) in sorted(hints.name_lines.items()):
        named.setdefault(name, []).append((n, v))
    out: list[tuple[float, Definition, str]] = []
    index = {id(d): i for i, d in enumerate(blocks)}
    for d in defs:
        if d.kind == "variable":
            strength = hints.defined.get(d.name)
            if strength is not None:
                # CONSTANT_NAMES are settings an issue quotes; a plain word is usually a coincidence.
                shaped = 1.0 if is_code_like(d.name) else 0.4
                out.append((DEFINED_POINTS * strength * shaped, d, f"defines {d.qualname}"))
            continue
        i = index[id(d)]
        points = 0.0
        whys: list[str] = []
        if i in frames:
            points += FRAME_POINTS * min(2, len(frames[i]))
            whys.append(f"traceback line {frames[i][0]}")
        if i in msgs:
            points += MESSAGE_POINTS
            whys.append(hints.message_lines[msgs[i][0]])
        if i in opts:
            points += OPTION_POINTS
            whys.append(hints.option_lines[opts[i][0]])
        strength = hints.defined.get(d.name)
        if strength is not None:
            qualified = bool(d.parent) and d.parent in owners.get(d.name, set())
            factor = 1.3 if qualified else (0.6 if owners.get(d.name) else 1.0)
            # A class is named for its methods as much as for itself: weigh its head lightly.
            points += DEFINED_POINTS * strength * factor * (0.6 if d.kind == "class" else 1.0)
            whys.insert(0, f"defines {d.qualname}")
        uses = dict(used.get(i, {}))
        uses.pop(d.name, None)
        if uses:
            points += USE_POINTS * sum(uses.values())
            whys.append("uses " + ", ".join(sorted(uses)[:2]))
        hits = named.get(d.name, [])
        lo, hi = bisect_left(hits, (d.start, -math.inf)), bisect_right(hits, (d.end, math.inf))
        if lo < hi:
            points += NAME_POINTS * max(v for _, v in hits[lo:hi])
            whys.append("name matches the issue")
        found = words.get(i)
        if found and d.kind != "class":
            size = max(1, own.size(i))
            density = sum(idf.get(w, 0.0) for w in found) / kw_norm / (1.0 + math.log1p(size / 40))
            points += KEYWORD_POINTS * density
            if not whys:
                whys.append("keywords " + ", ".join(sorted(found, key=lambda w: -idf.get(w, 0.0))[:3]))
        if d.in_test:
            points *= TEST_CODE_FACTOR
        if points > 0:
            out.append((points, d, f"{d.qualname}: {'; '.join(whys)}" if whys else d.qualname))
    out.sort(key=lambda t: (-t[0], t[1].start))
    return out


class _Owners:
    """Which definitions own which lines: a definition owns its lines outside every other
    definition its span contains (same span included, so two definitions with one span own
    nothing of it). Definitions from the parsers nest (a tree): each definition's owned lines are
    its span minus its children's, found in one sorted pass. Spans that overlap without nesting
    are handled too, by subtracting every contained span (slower, never seen from the parsers)."""

    def __init__(self, blocks: list[Definition]) -> None:
        self._blocks = blocks
        spans = _nested_owned(blocks)
        if spans is None:
            spans = _overlapping_owned(blocks)
        self._spans = spans  # per definition: its owned line runs, sorted, disjoint
        runs = sorted((a, b, i) for i, own in enumerate(spans) for a, b in own)
        self._runs = runs
        self._starts = [a for a, _, _ in runs]
        self._ends_max = list(itertools.accumulate((b for _, b, _ in runs), max))
        self._cache: dict[int, list[int]] = {}

    def of(self, line: int) -> list[int]:
        """Indexes of the definitions owning ``line``."""
        if line in self._cache:
            return self._cache[line]
        out: list[int] = []
        k = bisect_right(self._starts, line) - 1
        # Runs are sorted by start: walk back while some earlier run still reaches ``line``.
        while k >= 0 and self._ends_max[k] >= line:
            a, b, i = self._runs[k]
            if a <= line <= b:
                out.append(i)
            k -= 1
        self._cache[line] = out
        return out

    def collect(self, lines: Mapping[int, object]) -> dict[int, list[int]]:
        """Per owning definition, the given lines it owns, in the mapping's order."""
        out: dict[int, list[int]] = {}
        for n in lines:
            for i in self.of(n):
                out.setdefault(i, []).append(n)
        return out

    def size(self, i: int) -> int:
        """How many lines definition ``i`` owns."""
        return sum(b - a + 1 for a, b in self._spans[i])


def _gaps(start: int, end: int, covered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The runs of ``start..end`` outside ``covered`` (sorted by start; may overlap)."""
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


def _nested_owned(blocks: list[Definition]) -> list[list[tuple[int, int]]] | None:
    """Owned runs when the spans form a tree (each one inside or apart from the others), else None."""
    order = sorted(range(len(blocks)), key=lambda i: (blocks[i].start, -blocks[i].end, i))
    children: dict[int, list[int]] = {}
    twinned: set[int] = set()
    stack: list[int] = []
    for i in order:
        d = blocks[i]
        while stack and blocks[stack[-1]].end < d.start:
            stack.pop()
        if stack:
            top = blocks[stack[-1]]
            if d.end > top.end:
                return None
            if (d.start, d.end) == (top.start, top.end):
                twinned |= {i, stack[-1]}
            children.setdefault(stack[-1], []).append(i)
        stack.append(i)
    return [
        []
        if i in twinned
        else _gaps(d.start, d.end, [(blocks[c].start, blocks[c].end) for c in children.get(i, [])])
        for i, d in enumerate(blocks)
    ]


def _overlapping_owned(blocks: list[Definition]) -> list[list[tuple[int, int]]]:
    """Owned runs for spans that may overlap without nesting: every contained span subtracted."""
    order = sorted(range(len(blocks)), key=lambda i: (blocks[i].start, blocks[i].end))
    starts = [blocks[i].start for i in order]
    out: list[list[tuple[int, int]]] = []
    for i, d in enumerate(blocks):
        lo, hi = bisect_left(starts, d.start), bisect_right(starts, d.end)
        inner = [
            (blocks[j].start, blocks[j].end) for j in order[lo:hi] if j != i and blocks[j].end <= d.end
        ]
        out.append(_gaps(d.start, d.end, inner))
    return out


def _import_header_end(text: str) -> int:
    """Last line of the leading imports block (0 when the file does not start with imports)."""
    end = 0
    for i, line in enumerate(text.split("\n")[:200], start=1):
        s = line.strip()
        if s.startswith(("import ", "from ", "#include", "use ", "package ", "require", "const ", "using ")):
            end = i
        elif s and not s.startswith(("#", "//", "/*", "*", '"""', "'''", "@", ")", "(")) and end:
            break
    return end
