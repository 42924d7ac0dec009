"""Focus spans: the lines of a candidate that matter, weighted for the excerpter.

Every function in the file is scored on the evidence inside it (traceback lines, quoted messages,
definitions and uses of named symbols, rare keywords, names that match the issue); the best
functions become spans with their bodies, weighted by their share of the best function's evidence,
next to tight windows around the named lines themselves and the imports header. Weights are 0..1;
the excerpter fills by weight, so a clear winner gets its whole body first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ctxaction.model import Focus
from ctxaction.rank.board import Hints
from ctxaction.rank.callees import local_calls
from ctxaction.rank.evidence import Query, score_definitions
from ctxaction.rank.weights import definition_weights
from ctxaction.repo.kinds import language_of
from ctxaction.repo.symbols import Definition, definitions
from ctxaction.repo.symbols_lex import C_FAMILY
from ctxaction.text import fences, headings

MAX_BODY_LINES = 160  # a longer definition is focused on its head and the evidence inside
# The head of such a definition, or of a class above its first member: its signature and opening
# lines; the room past them goes to the windows around its evidence (training set, all 454,
# leave-repositories-out: 15 chosen in every fold over 10 / 15 / 25 / 40; bench/train/README.md).
HEAD_LINES = 15
# The body of a short class made mostly of its own lines (see _declarative), below its head.
DECLARATIVE_BODY = 0.7
DOC_LINES = 30
LINE_CONTEXT = 3
MAX_DEFS = 16
# Windows inside a definition too long to show whole.
MAX_EVIDENCE = 6
EVIDENCE_GAP = 8  # evidence lines this far apart at least, each shown this far either side
# Fixes often add an import: the header is worth a little room in the files that matter.
HEADER_WEIGHT = 0.35
# Top-level constants read by the best definitions: below their readers, above plain context.
CONSTANT_WEIGHT = 0.4
REFERENCING_DEFS = 3
# How far below a class's first line (decorators, attributes) the line naming it is looked for.
ENCLOSING_SEARCH = 12
ENCLOSING_SHARE = 0.99
MAX_READS = 6
SMALL_FILE_LINES = 150  # a file this short is offered whole, below its best spans
# A habit file (a changelog) takes the next entry where its latest commit wrote one.
HABIT_RUNS = 3
HABIT_CONTEXT = 3
HABIT_WEIGHT = 0.9
# ... and the end of each part of its newest section, where an entry on another subject goes.
SECTION_PARTS = 8
SECTION_WEIGHT = 0.6

# The lines a commit tied to the task changed ("a regression from 0d987211", "Fix #123" before this
# one): windows over its biggest runs, as strong as a quoted message's.
COMMIT_RUNS = 8
COMMIT_RUN_LINES = 30
COMMIT_WEIGHT = 0.9

# Evidence points per kind of hint, for choosing windows inside a long definition.
FRAME_POINTS = 3.0
MESSAGE_POINTS = 2.5
OPTION_POINTS = 1.0
USE_POINTS = 1.0
KEYWORD_POINTS = 1.2


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
    path: str, text: str, hints: Hints, query: Query, defs: list[Definition] | None = None
) -> list[Focus]:
    """Focus spans for one file, strongest first (overlaps are left to the excerpter); ``defs``
    are the file's definitions when the caller has them already."""
    n_lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    defs = definitions(text, path) if defs is None else defs
    lines = text.split("\n")
    note_calls(hints, defs, lines)
    spans = _Spans(n_lines)
    _line_windows(spans, hints)
    _named_commit(spans, hints.commit_lines)
    if hints.habit:
        _latest_change(spans, hints.recent_lines)
        if path.lower().endswith((".md", ".markdown")):
            _section_ends(spans, lines)
    weights = definition_weights()
    prototypes = language_of(path) in C_FAMILY  # the languages whose declarations are definitions
    recent_points = weights.get("recent", 0.0)  # a recent change's pull on a long body's windows
    scored = score_definitions(defs, hints, query, weights)
    if scored:
        best = scored[0].points
        focused: list[tuple[Definition, float]] = []
        for s in scored[:MAX_DEFS]:
            points, d, why = s.points, s.definition, s.why
            weight = 0.25 + 0.7 * points / best
            focused.append((d, weight))
            if d.kind == "variable" and d.end - d.start + 1 <= MAX_BODY_LINES:
                spans.add(d.start - 1, d.end + 1, weight, why)
            elif d.kind == "class":
                first_member = next(
                    (x.start for x in defs if x.parent == d.name and x.start > d.start), d.end + 1
                )
                spans.add(d.start, min(first_member - 1, d.start + HEAD_LINES), weight, f"{why} (class head)")
                if _declarative(d, defs):  # from its first member: a class of none shows its head
                    spans.add(first_member, d.end, weight * DECLARATIVE_BODY, f"{why} (class body)")
            elif d.end - d.start + 1 <= MAX_BODY_LINES:
                spans.add(_declaration_doc(lines, d) if prototypes else d.start, d.end, weight, why)
            else:
                spans.add(d.start, d.start + HEAD_LINES, weight, f"{why} (head)")
                for line in _evidence_lines(hints, d, query, recent_points):
                    around = f"{why} (around line {line})"
                    spans.add(line - EVIDENCE_GAP, line + EVIDENCE_GAP, weight * 0.9, around)
        _referenced_constants(spans, text, lines, defs, [s.definition for s in scored[:REFERENCING_DEFS]])
        _enclosing_lines(spans, lines, defs, focused)
    header_end = _import_header_end(lines)
    if header_end:
        spans.add(1, header_end + 1, HEADER_WEIGHT, "imports")
    # A habit file is shown for where its next entry goes, never whole.
    if n_lines <= SMALL_FILE_LINES and not hints.habit:
        spans.add(1, n_lines, 0.45, "whole file (short)")
    return sorted(spans.items, key=lambda f: (-f.weight, f.start))


def _declarative(d: Definition, defs: list[Definition]) -> bool:
    """A short class whose lines are mostly its own (fields, a lexer's token table, enum
    members), not its methods': its body is what it is, so it is shown below its head. A class
    of methods is shown by its head, each method by its own evidence."""
    size = d.end - d.start + 1
    if size > MAX_BODY_LINES:
        return False
    members = (x for x in defs if x.parent == d.name and x.kind in ("method", "function"))
    methods = sum(x.end - x.start + 1 for x in members)
    return 2 * methods < size


def _declaration_doc(lines: list[str], d: Definition) -> int:
    """First line of a C/C++ declaration's doc comment (a header's prototype is documented right
    above it, and a fix to a documented function often changes that text), or the declaration's
    own start; a definition with a body starts at its own line, and so does a class's member: its
    documented declarations would spend a header's share on comments (CLI11's App.hpp crowded out
    the fix's lines in App_inl.hpp on the polyglot set; the training set was even)."""
    if d.parent or d.kind not in ("function", "method") or not lines[d.end - 1].rstrip().endswith(";"):
        return d.start
    top = d.start - 1  # 1-based line above
    if top >= 1 and lines[top - 1].rstrip().endswith("*/"):
        while top > 1 and d.start - top < DOC_LINES and "/*" not in lines[top - 1]:
            top -= 1
        return top if "/*" in lines[top - 1] else d.start
    while top >= 1 and d.start - top < DOC_LINES and lines[top - 1].lstrip().startswith("//"):
        top -= 1
    return top + 1


def note_calls(hints: Hints, defs: list[Definition], lines: list[str]) -> None:
    """The file's definitions that its named ones call, as ``hints.called`` (``lines``: the file
    split on "\\n")."""
    hints.called = local_calls(defs, lines, hints.defined) if hints.defined else {}


def _latest_change(spans: _Spans, recent_lines: Mapping[int, float]) -> None:
    """Windows around the first runs of lines the file's latest commit changed."""
    label = "where its latest commit changed it"
    latest = [n for n, v in recent_lines.items() if v >= 1.0]
    for start, end in _runs(latest, 2 * HABIT_CONTEXT)[:HABIT_RUNS]:
        spans.add(start - HABIT_CONTEXT, end + HABIT_CONTEXT, HABIT_WEIGHT, label)


def _named_commit(spans: _Spans, commit_lines: Mapping[int, str]) -> None:
    """Windows over the biggest runs of lines that the commits tied to the task changed."""
    runs = _runs(commit_lines, 2 * LINE_CONTEXT)
    # The biggest runs are what the commit was about; one-line runs are often imports and renames.
    for start, end in sorted(runs, key=lambda r: (r[0] - r[1], r[0]))[:COMMIT_RUNS]:
        end = min(end, start + COMMIT_RUN_LINES - 1)
        spans.add(start - LINE_CONTEXT, end + LINE_CONTEXT, COMMIT_WEIGHT, commit_lines[start])


def _runs(lines: Iterable[int], gap: int) -> list[tuple[int, int]]:
    """Line numbers as (first, last) runs, in order; a line at most ``gap`` past a run's last
    joins it."""
    runs: list[tuple[int, int]] = []
    for n in sorted(lines):
        if runs and n - runs[-1][1] <= gap:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def _section_ends(spans: _Spans, lines: list[str]) -> None:
    """The end of each part of a Markdown changelog's newest section (``## Unreleased`` →
    ``### Compiler``, ``### Bug fixes`` …): a new entry goes last in the part its subject belongs
    to, which need not be the part the latest commit wrote in."""
    heads: list[tuple[int, int]] = []  # (0-based line, level), outside code fences
    fence = ""
    for i, line in enumerate(lines):
        if fence:
            fence = "" if fences.closes(line, fence) else fence
        elif fence := fences.opening(line):
            continue
        elif not line[:1].isspace() and (atx := headings.heading(line)) is not None and atx.text:
            heads.append((i, atx.level))  # an indented one belongs to a list entry's text
    section = next((k for k in range(len(heads)) if _parts(heads, k)), None)
    if section is None:
        return
    parts = _parts(heads, section)
    # The title holds the releases, a release its parts: go down to the first that holds leaves.
    while inner := _parts(heads, parts[0]):
        section, parts = parts[0], inner
    level = heads[section][1]
    close = next((n for n, lv in heads[section + 1 :] if lv <= level), None)
    if close is None:  # a title over the whole file: its parts are the releases, not one's parts
        return
    starts = [heads[k][0] for k in parts][:SECTION_PARTS]
    for j, start in enumerate(starts):
        stop = starts[j + 1] if j + 1 < len(starts) else close
        last = next((n for n in range(stop - 1, start, -1) if lines[n].strip()), start)
        title = lines[start].strip().lstrip("#").strip()[:60]
        spans.add(last + 1, stop + 1, SECTION_WEIGHT, f"end of {title}")


def _parts(heads: list[tuple[int, int]], k: int) -> list[int]:
    """Indices of the headings directly under heading ``k`` (the shallowest level inside it)."""
    inner: list[int] = []
    for j in range(k + 1, len(heads)):
        if heads[j][1] <= heads[k][1]:
            break
        inner.append(j)
    if not inner:
        return []
    top = min(heads[j][1] for j in inner)
    return [j for j in inner if heads[j][1] == top]


def _enclosing_lines(
    spans: _Spans, lines: list[str], defs: list[Definition], focused: list[tuple[Definition, float]]
) -> None:
    """The line that opens the class (impl, module) around each focused member, just below the
    member's weight: packed with it (an excerpt of a method says whose method it is), never taken
    for the file's strongest span."""
    for d, weight in focused:
        if not d.parent or d.kind == "variable":
            continue
        owners = (
            e for e in defs
            if e.name == d.parent and e.kind != "variable" and e.start < d.start <= d.end <= e.end
        )
        owner = min(owners, key=lambda e: e.end - e.start, default=None)
        if owner is None:
            continue
        # Decorators and attributes open the span; the line naming the owner is the one to show.
        head = next(
            (n for n in range(owner.start, min(owner.start + ENCLOSING_SEARCH, d.start))
             if n <= len(lines) and re.search(rf"\b{re.escape(owner.name)}\b", lines[n - 1])),
            owner.start,
        )
        spans.add(head, head, weight * ENCLOSING_SHARE, f"{owner.qualname}, holding {d.name}")


def _referenced_constants(
    spans: _Spans, text: str, lines: list[str], defs: list[Definition], focused: list[Definition]
) -> None:
    """The file's top-level constants (a pattern, a table, a default) that the best-focused
    definitions read: a fix to what a function matches or looks up is often made there."""
    top = {d.name: d for d in defs if d.kind == "variable" and not d.parent and d.end - d.start < 20}
    if not top or not focused:
        return
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


def _evidence_lines(
    hints: Hints, d: Definition, query: Query, recent_points: float
) -> list[int]:
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
        note(line, KEYWORD_POINTS * 0.5 * query.rarity(words))
    for line, value in hints.recent_lines.items():
        note(line, recent_points * value)
    chosen: list[int] = []
    for line in sorted(points, key=lambda n: (-points[n], n)):
        if all(abs(line - c) > EVIDENCE_GAP for c in chosen):
            chosen.append(line)
        if len(chosen) == MAX_EVIDENCE:
            break
    return sorted(chosen)


def _import_header_end(lines: list[str]) -> int:
    """Last line of the leading imports block (0 when the file does not start with imports)."""
    end = 0
    for i, line in enumerate(lines[:200], start=1):
        s = line.strip()
        if s.startswith(("import ", "from ", "#include", "use ", "package ", "require", "const ", "using ")):
            end = i
        elif s and not s.startswith(("#", "//", "/*", "*", '"""', "'''", "@", ")", "(")) and end:
            break
    return end
