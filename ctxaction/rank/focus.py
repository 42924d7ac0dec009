"""Focus spans: the lines of a candidate that matter, weighted for the excerpter.

Traceback lines, definitions of named symbols with their bodies, the code around quoted messages and
named identifiers, keyword-dense functions, and the imports header. Weights are 0..1; the excerpter
takes spans in descending weight until the file's share of the budget is spent.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ctxaction.model import Focus
from ctxaction.rank.board import Hints
from ctxaction.repo.symbols import Definition, definitions, innermost

MAX_BODY_LINES = 160  # a longer definition is focused on its head and the named lines inside
HEAD_LINES = 25
LINE_CONTEXT = 3


def build_focus(
    path: str, text: str, hints: Hints, idf: dict[str, float], owners: dict[str, set[str]]
) -> list[Focus]:
    """Focus spans for one file, strongest first, overlapping spans kept (the excerpter merges)."""
    n_lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    defs = definitions(text, path)
    spans: list[Focus] = []

    def add(start: int, end: int, weight: float, why: str) -> None:
        start, end = max(1, start), min(n_lines, end)
        if start <= end and weight > 0:
            spans.append(Focus(start, end, round(min(1.0, weight), 4), why))

    def add_body(d: Definition, weight: float, why: str) -> None:
        if d.end - d.start + 1 <= MAX_BODY_LINES:
            add(d.start, d.end, weight, why)
        else:
            add(d.start, d.start + HEAD_LINES, weight, why + " (head)")

    for line, why in hints.frame_lines.items():
        add(line - LINE_CONTEXT, line + LINE_CONTEXT, 1.0, why)
        d = innermost(defs, line)
        if d is not None and d.kind != "class":
            add_body(d, 0.7, f"{d.qualname}, around {why}")
    for d in defs:
        strength = hints.defined.get(d.name)
        if strength is None:
            continue
        qualified = d.parent and d.parent in owners.get(d.name, set())
        weight = strength * (1.0 if qualified or not owners.get(d.name) else 0.7)
        if d.kind == "class" and d.end - d.start + 1 > MAX_BODY_LINES // 2:
            first_member = next((x.start for x in defs if x.parent == d.name and x.start > d.start), d.end)
            add(
                d.start, min(first_member - 1, d.start + HEAD_LINES), weight, f"defines {d.name} (class head)"
            )
        else:
            add_body(d, weight, f"defines {d.qualname}")
    for line, (strength, name) in hints.name_lines.items():
        d = next((x for x in defs if x.name == name and x.start <= line <= x.end), None)
        if d is not None:
            add_body(d, 0.3 + 0.45 * strength, f"{d.qualname}: name matches the issue")
    for line, why in hints.message_lines.items():
        add(line - 2, line + 2, 0.9, f"holds the {why}")
        d = innermost(defs, line)
        if d is not None and d.kind != "class":
            add_body(d, 0.6, f"{d.qualname}, around the {why}")
    for line, (strength, name) in sorted(hints.use_lines.items(), key=lambda kv: -kv[1][0])[:20]:
        add(line - 2, line + 2, 0.6 * strength, f"uses {name}")
        d = innermost(defs, line)
        if d is not None and d.kind != "class" and d.name != name:
            add_body(d, 0.45 * strength, f"{d.qualname}, uses {name}")
    _keyword_regions(defs, hints, idf, add)
    header_end = _import_header_end(text)
    if header_end:
        add(1, header_end, 0.1, "imports")
    spans.sort(key=lambda f: (-f.weight, f.start))
    return spans


def _keyword_regions(
    defs: list[Definition], hints: Hints, idf: dict[str, float], add: Callable[[int, int, float, str], None]
) -> None:
    """The functions holding the most distinct, rare keywords (up to three)."""
    if not hints.keyword_lines or not idf:
        return
    scored: list[tuple[float, Definition, list[str]]] = []
    for d in defs:
        if d.kind == "class":
            continue
        words: set[str] = set()
        for line, kws in hints.keyword_lines.items():
            if d.start <= line <= d.end:
                words |= kws
        if words:
            value = sum(idf.get(w, 0.0) for w in words) / (1.0 + math.log1p((d.end - d.start + 1) / 40))
            scored.append((value, d, sorted(words, key=lambda w: -idf.get(w, 0.0))))
    if not scored:
        return
    scored.sort(key=lambda t: -t[0])
    best = scored[0][0]
    for value, d, names in scored[:3]:
        weight = 0.2 + 0.35 * value / best
        why = f"{d.qualname}: keywords {', '.join(names[:3])}"
        if d.end - d.start + 1 <= MAX_BODY_LINES:
            add(d.start, d.end, weight, why)
        else:
            add(d.start, d.start + HEAD_LINES, weight, why + " (head)")


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
