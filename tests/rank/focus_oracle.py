"""The definition scorer as it was before it was made linear (quadratic in the definitions), kept
as the oracle the fast one must agree with exactly (tests/rank/test_focus_scaling.py) and as the
baseline of bench/focus_scaling.py."""

from __future__ import annotations

import math
from collections.abc import Mapping

from ctxaction.mentions.words import is_code_like
from ctxaction.rank.board import Hints
from ctxaction.rank.focus import (
    DEFINED_POINTS,
    FRAME_POINTS,
    KEYWORD_POINTS,
    MESSAGE_POINTS,
    NAME_POINTS,
    OPTION_POINTS,
    TEST_CODE_FACTOR,
    USE_POINTS,
)
from ctxaction.repo.symbols import Definition


def score_definitions(
    defs: list[Definition],
    hints: Hints,
    idf: Mapping[str, float],
    kw_norm: float,
    owners: Mapping[str, set[str]],
) -> list[tuple[float, Definition, str]]:
    """(evidence points, definition, why) for definitions with any evidence, best first."""
    out: list[tuple[float, Definition, str]] = []
    for d in defs:
        if d.kind == "variable":
            strength = hints.defined.get(d.name)
            if strength is not None:
                # CONSTANT_NAMES are settings an issue quotes; a plain word is usually a coincidence.
                shaped = 1.0 if is_code_like(d.name) else 0.4
                out.append((DEFINED_POINTS * strength * shaped, d, f"defines {d.qualname}"))
            continue
        inner = [
            x for x in defs if x is not d and x.kind != "variable" and d.start <= x.start and x.end <= d.end
        ]
        owned = _owned_lines(d, inner)
        points = 0.0
        whys: list[str] = []
        frames = [n for n in hints.frame_lines if n in owned]
        if frames:
            points += FRAME_POINTS * min(2, len(frames))
            whys.append(f"traceback line {frames[0]}")
        msgs = [n for n in hints.message_lines if n in owned]
        if msgs:
            points += MESSAGE_POINTS
            whys.append(hints.message_lines[msgs[0]])
        opts = [n for n in hints.option_lines if n in owned]
        if opts:
            points += OPTION_POINTS
            whys.append(hints.option_lines[opts[0]])
        strength = hints.defined.get(d.name)
        if strength is not None:
            qualified = bool(d.parent) and d.parent in owners.get(d.name, set())
            factor = 1.3 if qualified else (0.6 if owners.get(d.name) else 1.0)
            # A class is named for its methods as much as for itself: weigh its head lightly.
            points += DEFINED_POINTS * strength * factor * (0.6 if d.kind == "class" else 1.0)
            whys.insert(0, f"defines {d.qualname}")
        used = {hints.use_lines[n][1]: hints.use_lines[n][0] for n in hints.use_lines if n in owned}
        used.pop(d.name, None)
        if used:
            points += USE_POINTS * sum(used.values())
            whys.append("uses " + ", ".join(sorted(used)[:2]))
        name_hits = [
            v for n, (v, name) in hints.name_lines.items() if name == d.name and d.start <= n <= d.end
        ]
        if name_hits:
            points += NAME_POINTS * max(name_hits)
            whys.append("name matches the issue")
        words: set[str] = set()
        for n, kws in hints.keyword_lines.items():
            if n in owned:
                words |= kws
        if words and d.kind != "class":
            size = max(1, len(owned))
            density = sum(idf.get(w, 0.0) for w in words) / kw_norm / (1.0 + math.log1p(size / 40))
            points += KEYWORD_POINTS * density
            if not whys:
                whys.append("keywords " + ", ".join(sorted(words, key=lambda w: -idf.get(w, 0.0))[:3]))
        if d.in_test:
            points *= TEST_CODE_FACTOR
        if points > 0:
            out.append((points, d, f"{d.qualname}: {'; '.join(whys)}" if whys else d.qualname))
    out.sort(key=lambda t: (-t[0], t[1].start))
    return out


def _owned_lines(d: Definition, inner: list[Definition]) -> set[int]:
    """Lines of ``d`` not inside its nested definitions (a class owns its head, not its methods)."""
    owned = set(range(d.start, d.end + 1))
    for x in inner:
        owned -= set(range(x.start, x.end + 1))
    return owned
