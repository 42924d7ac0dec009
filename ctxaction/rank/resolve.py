"""Resolve what the text names (paths, frames, modules) to tracked files."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from ctxaction.repo.imports import ModuleIndex

# Names too common to identify a file by themselves.
_GENERIC_NAMES = frozenset(
    {"__init__.py", "index.js", "index.ts", "index.tsx", "mod.rs", "lib.rs", "main.rs", "main.go", "main.py",
     "__main__.py", "utils.py", "setup.py", "conftest.py", "util.js", "utils.js", "main.c", "main.cpp"}
)  # fmt: skip


@dataclass(frozen=True)
class Resolved:
    """A tracked file a mention points at, and how sure the match is (0..1)."""

    path: str
    confidence: float


def resolve_path(raw: str, idx: ModuleIndex) -> list[Resolved]:
    """Tracked files matching the longest trailing run of ``raw``'s path components."""
    parts = [p for p in raw.replace("\\", "/").split("/") if p and p not in (".", "~")]
    if not parts:
        return []
    name = parts[-1]
    cands = idx.by_name.get(name, [])
    if not cands:
        return []
    scored: list[tuple[int, str]] = []
    for cand in cands:
        cparts = cand.split("/")
        n = 0
        while n < min(len(parts), len(cparts)) and parts[-1 - n] == cparts[-1 - n]:
            n += 1
        scored.append((n, cand))
    best = max(n for n, _ in scored)
    winners = [c for n, c in scored if n == best]
    if best >= 2 or (best == len(parts) and name not in _GENERIC_NAMES):
        return [Resolved(c, 1.0 / len(winners)) for c in winners[:4]]
    # Only the file name matched.
    unique = len(winners) == 1 and name not in _GENERIC_NAMES
    if len(parts) == 1:
        return [Resolved(c, 0.25 / len(winners)) for c in winners] if len(winners) <= 3 else []
    # A longer path whose directories did not match is probably outside the repo (stdlib, deps).
    return [Resolved(winners[0], 0.4)] if unique else []


def resolve_module(dotted: str, idx: ModuleIndex) -> list[Resolved]:
    """Files for a dotted module path (``pkg.sub.mod.Class`` → ``pkg/sub/mod.py``)."""
    parts = dotted.split(".")
    while parts:
        hit = idx.by_module.get(".".join(parts))
        if hit:
            confidence = 1.0 if len(parts) >= 2 else 0.3
            ranked = sorted(hit, key=lambda p: (posixpath.basename(p) == "__init__.py", len(p)))
            return [Resolved(p, confidence / len(ranked)) for p in ranked[:3]]
        parts = parts[:-1]
    return []
