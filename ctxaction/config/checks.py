"""What the JSON Schema cannot say about a config file: budget shares that add up to 1,
``min_files`` within ``max_files`` once merged with the defaults, profiles that exist, path
patterns that compile and stay in the repository, regexes that compile, rule ids that exist.

Each check looks only at values of the right type (the schema reports the others), so a file
with several kinds of mistakes gets them all reported at once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from typing import TypeGuard

from ctxaction.config.merge import inherit, parent_of
from ctxaction.config.source import Document
from ctxaction.errors import ConfigError, KeyPath
from ctxaction.secure import quoted
from ctxaction.secure.globs import pattern_problem
from ctxaction.secure.rules import by_id


def problems(user: Document, base: Document, reported: frozenset[KeyPath]) -> list[ConfigError]:
    """Every semantic problem of ``user`` (merged over ``base``) not already at a path in
    ``reported`` (the schema's)."""
    found = [
        *_non_finite(user),
        *_patterns(user),
        *_secrets(user),
        *_profiles(user, base),
    ]
    return [error for error, path in found if path not in reported]


Found = Iterator[tuple[ConfigError, KeyPath]]


def _at(doc: Document, path: KeyPath, message: str) -> tuple[ConfigError, KeyPath]:
    return doc.error(path, message), path


def _get(data: object, *keys: str) -> object:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _strings(value: object) -> list[tuple[int, str]]:
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, str)]


def _non_finite(doc: Document) -> Found:
    """JSON Schema numbers have no NaN or infinity; YAML's ``.nan`` and ``.inf`` do."""

    def walk(value: object, path: KeyPath) -> Found:
        if isinstance(value, float) and not math.isfinite(value):
            yield _at(doc, path, f"expected a finite number, got {value!r}")
        elif isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, (*path, key))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                yield from walk(item, (*path, i))

    yield from walk(doc.data, ())


def pattern_issue(pattern: str) -> str | None:
    """What is wrong with a repository path pattern from the config, or None."""
    if not pattern.strip():
        return "empty pattern"
    if ".." in pattern.lstrip("!").split("/"):
        return f"{quoted(pattern)} climbs out with '..': patterns name files inside the repository"
    problem = pattern_problem(pattern)
    return f"bad pattern {quoted(pattern)}: {problem}" if problem else None


def _patterns(doc: Document) -> Found:
    data = doc.data
    listed: list[tuple[KeyPath, str]] = [
        (("sensitive_paths", i), p) for i, p in _strings(data.get("sensitive_paths"))
    ]
    listed += [(("rules", "skills", i), p) for i, p in _strings(_get(data, "rules", "skills"))]
    sources = _get(data, "rules", "sources")
    for i, item in enumerate(sources if isinstance(sources, list) else []):
        if isinstance(item, dict) and isinstance(item.get("pattern"), str):
            listed.append((("rules", "sources", i, "pattern"), item["pattern"]))
    profiles = data.get("profiles")
    for name, body in profiles.items() if isinstance(profiles, dict) else ():
        required = _get(body, "required_files")
        for i, item in enumerate(required if isinstance(required, list) else []):
            if isinstance(item, dict) and isinstance(item.get("pattern"), str):
                listed.append((("profiles", name, "required_files", i, "pattern"), item["pattern"]))
    for path, pattern in listed:
        problem = pattern_issue(pattern)
        if problem:
            yield _at(doc, path, problem)


def _secrets(doc: Document) -> Found:
    allow = _get(doc.data, "secrets", "allowlist")
    for i, pattern in _strings(_get(allow, "paths")):
        problem = pattern_problem(pattern)
        if problem:
            yield _at(doc, ("secrets", "allowlist", "paths", i), f"bad pattern {quoted(pattern)}: {problem}")
    for i, regex in _strings(_get(allow, "regexes")):
        try:
            re.compile(regex)
        except re.error as exc:
            yield _at(doc, ("secrets", "allowlist", "regexes", i), f"invalid regex: {exc}")
    disabled = _strings(_get(doc.data, "secrets", "disabled_rules"))
    if disabled:
        known = by_id()
        for i, rule_id in disabled:
            if rule_id not in known:
                message = f"unknown rule {quoted(rule_id)} (see `ctxaction scan --list-rules`)"
                yield _at(doc, ("secrets", "disabled_rules", i), message)


def _profiles(user: Document, base: Document) -> Found:
    built_in = base.data.get("profiles")
    profiles = user.data.get("profiles")
    if not isinstance(built_in, dict):
        return
    written = profiles if isinstance(profiles, dict) else {}
    for name, body in written.items():
        if name in built_in or not isinstance(body, dict):
            continue
        parent = parent_of(name, body, user.data, base.data)
        if parent not in built_in:
            hint = "a built-in profile" if parent in written else "an existing profile"
            message = f"{quoted(parent)} is not {hint}; known: {', '.join(built_in)}"
            yield _at(user, ("profiles", name, "extends"), message)
    for name, body in written.items():
        shares = _get(body, "budget", "shares")
        if isinstance(shares, dict) and all(_number(v) for v in shares.values()):
            total = sum(shares.values())
            if abs(total - 1.0) > 1e-6:
                listed = ", ".join(f"{k} {v:g}" for k, v in shares.items())
                message = f"shares must add up to 1 (they add up to {total:g}: {listed})"
                yield _at(user, ("profiles", name, "budget", "shares"), message)
    effective = inherit(user.data, base.data).get("profiles")
    merged = {**built_in, **effective} if isinstance(effective, dict) else dict(built_in)
    for name, body in merged.items():
        yield from _files(user, name, _get(built_in, name), body)
    default = user.data.get("default_profile")
    if isinstance(default, str) and default not in merged:
        yield _at(user, ("default_profile",), f"no profile {quoted(default)}; known: {', '.join(merged)}")


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _files(user: Document, name: str, built_in: object, body: object) -> Found:
    """``min_files`` within ``max_files``, one of them perhaps inherited; blames the one written."""
    if not isinstance(body, dict):
        return
    base = built_in if isinstance(built_in, Mapping) else {}
    low = body.get("min_files", base.get("min_files"))
    high = body.get("max_files", base.get("max_files"))
    if not (_int(low) and _int(high)) or low <= high:
        return
    at: KeyPath = ("profiles", name, "min_files")
    if at not in user.lines:
        at = ("profiles", name, "max_files")
    yield _at(user, at, f"min_files ({low}) is more than max_files ({high}); need min_files <= max_files")


def _int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
