"""The definition scorer as it was before it was made linear (owned lines as sets, every hint line
tested against every definition), kept as the oracle the linear one must agree with exactly
(tests/rank/test_focus_scaling.py) and as the baseline of bench/focus_scaling.py."""

from __future__ import annotations

import math
from collections.abc import Mapping

from ctxaction.mentions.words import is_code_like, split_identifier
from ctxaction.rank.board import Hints
from ctxaction.rank.evidence import LONG_VARIABLE_FACTOR, Query, Scored, handled_name, points, scored_on_lines
from ctxaction.rank.weights import definition_weights
from ctxaction.repo.symbols_model import Definition


def owned_lines(defs: list[Definition]) -> dict[int, set[int]]:
    """Per definition (by index), its lines that no nested definition holds: a class owns its head,
    not its methods; a variable only when ``scored_on_lines``. Linear in the number of lines and
    definitions: definitions are visited by start, each nested one removed from its innermost
    enclosing one."""
    owned: dict[int, set[int]] = {}
    stack: list[int] = []
    order = sorted(range(len(defs)), key=lambda i: (defs[i].start, -defs[i].end))
    for i in order:
        d = defs[i]
        if not scored_on_lines(d):
            continue
        while stack and defs[stack[-1]].end < d.start:
            stack.pop()
        owned[i] = set(range(d.start, d.end + 1))
        if stack and d.end <= defs[stack[-1]].end:
            owned[stack[-1]] -= owned[i]
        stack.append(i)
    return owned


def features(
    d: Definition, owned: set[int], hints: Hints, query: Query, subwords: Mapping[str, float]
) -> tuple[dict[str, float], list[str]]:
    """The definition's evidence features (each ≥ 0) and the reasons they give, strongest first."""
    f: dict[str, float] = {}
    whys: list[str] = []
    if not scored_on_lines(d):
        strength = hints.defined.get(d.name)
        if strength is not None:
            # CONSTANT_NAMES are settings an issue quotes; a plain word is usually a coincidence.
            f["defined"] = strength * (1.0 if is_code_like(d.name) else 0.4)
            whys.append(f"defines {d.qualname}")
        return f, whys
    frames = [n for n in hints.frame_lines if n in owned]
    if frames:
        f["frames"] = float(min(2, len(frames)))
        whys.append(f"traceback line {frames[0]}")
    msgs = [n for n in hints.message_lines if n in owned]
    if msgs:
        f["message"] = 1.0
        whys.append(hints.message_lines[msgs[0]])
    opts = [n for n in hints.option_lines if n in owned]
    if opts:
        f["option"] = 1.0
        whys.append(hints.option_lines[opts[0]])
    strength = hints.defined.get(d.name)
    if strength is not None:
        qualified = bool(d.parent) and d.parent in query.owners.get(d.name, set())
        factor = 1.3 if qualified else (0.6 if query.owners.get(d.name) else 1.0)
        # A class is named for its methods as much as for itself: weigh its head lightly.
        f["defined"] = strength * factor * (0.6 if d.kind == "class" else 1.0)
        whys.insert(0, f"defines {d.qualname}")
    used = {hints.use_lines[n][1]: hints.use_lines[n][0] for n in hints.use_lines if n in owned}
    used.pop(d.name, None)
    if used:
        f["uses"] = sum(used.values())
        whys.append("uses " + ", ".join(sorted(used)[:2]))
    name_hits = [v for n, (v, name) in hints.name_lines.items() if name == d.name and d.start <= n <= d.end]
    if name_hits:
        f["name"] = max(name_hits)
        whys.append("name matches the issue")
    words: set[str] = set()
    for n, kws in hints.keyword_lines.items():
        if n in owned:
            words |= kws
    if words and d.kind != "class":
        size = max(1, len(owned))
        rarity = sum(query.idf.get(w, 0.0) for w in words) / query.kw_norm
        f["keywords"] = rarity / (1.0 + math.log1p(size / 40))
        if not whys:
            whys.append("keywords " + ", ".join(sorted(words, key=lambda w: (-query.idf.get(w, 0.0), w))[:3]))
    subs = [s for s in split_identifier(d.name) if len(s) >= 2]
    shared = [s for s in subs if s in subwords]
    if shared:
        f["subtokens"] = min(1.0, sum(subwords[s] for s in shared) / math.sqrt(len(subs)))
    handled = handled_name(d.name, query.named)
    if handled:
        f["dispatch"] = handled
        whys.append("handles a name the issue uses")
    return f, whys


def score_definitions(
    defs: list[Definition], hints: Hints, query: Query, weights: Mapping[str, float] | None = None
) -> list[Scored]:
    """Definitions with any evidence, best first (ties by position); ``weights`` default to the
    shipped ones."""
    weights = definition_weights() if weights is None else weights
    owned = owned_lines(defs)
    subwords = query.subword_weights
    out: list[Scored] = []
    for i, d in enumerate(defs):
        f, whys = features(d, owned.get(i, set()), hints, query, subwords)
        p = points(f, weights, d.in_test and d.kind != "variable")
        if d.kind == "variable" and scored_on_lines(d):
            p *= LONG_VARIABLE_FACTOR
        if p > 0:
            out.append(Scored(p, d, f"{d.qualname}: {'; '.join(whys)}" if whys else d.qualname, f))
    out.sort(key=lambda s: (-s.points, s.definition.start))
    return out

