"""The user's file merged over the built-in defaults, remembering where each value was written.

Mappings merge key by key; lists and ``shares`` are replaced whole (a partial ``shares`` would
silently keep defaults that no longer add up). A profile the defaults do not have starts from the
one it ``extends`` (default: ``default_profile``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ctxaction.config.source import Document
from ctxaction.errors import KeyPath

ATOMIC = frozenset({"shares"})


@dataclass(frozen=True)
class Origin:
    """Where a merged value was written."""

    source: str
    line: int | None


def merge(
    base: Mapping[str, object],
    over: Mapping[str, object],
    origins: dict[KeyPath, Origin],
    over_lines: Mapping[KeyPath, int],
    source: str,
    path: KeyPath = (),
) -> dict[str, object]:
    """``over`` laid over ``base``; ``origins`` is updated to name ``source`` for what it set."""
    out = dict(base)
    for key, value in over.items():
        here = (*path, key)
        below = out.get(key)
        if isinstance(value, dict) and isinstance(below, dict) and key not in ATOMIC:
            out[key] = merge(below, value, origins, over_lines, source, here)
        else:
            out[key] = value
            for known in [p for p in origins if p[: len(here)] == here]:
                del origins[known]
            for p, line in over_lines.items():
                if p[: len(here)] == here:
                    origins[p] = Origin(source, line)
        origins[here] = Origin(source, over_lines.get(here))
    return out


def parent_of(
    name: str, body: Mapping[str, object], user: Mapping[str, object], base: Mapping[str, object]
) -> str:
    """The profile a new profile ``name`` starts from."""
    extends = body.get("extends")
    if isinstance(extends, str):
        return extends
    default = user.get("default_profile", base.get("default_profile"))
    return default if isinstance(default, str) else name


def inherit(user: Mapping[str, object], base: Mapping[str, object]) -> dict[str, object]:
    """The user's data with each new profile laid over the built-in profile it extends. A profile
    whose parent is not built in is left as written (the checks report it)."""
    profiles = user.get("profiles")
    built_in = base.get("profiles")
    if not isinstance(profiles, dict) or not isinstance(built_in, dict):
        return dict(user)
    merged: dict[str, object] = {}
    for name, body in profiles.items():
        parent = built_in.get(parent_of(name, body, user, base)) if isinstance(body, dict) else None
        if name in built_in or not isinstance(body, dict) or not isinstance(parent, dict):
            merged[name] = body
        else:
            merged[name] = merge(parent, body, {}, {}, "")
    return {**user, "profiles": merged}


def merged(base: Document, user: Document | None) -> tuple[dict[str, object], dict[KeyPath, Origin]]:
    """The effective data and the origin of every key path."""
    origins = {p: Origin(base.source, line) for p, line in base.lines.items()}
    if user is None:
        return dict(base.data), origins
    data = merge(base.data, inherit(user.data, base.data), origins, user.lines, user.source)
    return data, origins
