"""``context-packages.yaml``: profiles, budgets, weights, rule sources, sensitive paths.

The built-in defaults live in ``ctxaction/defaults/context-packages.yaml`` (the file
``ctxaction config init`` writes). A user file found by :func:`find_config` is merged over them.
YAML is read as a node tree so that every error can name the file, the key path and its line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from ctxaction import yamlsafe
from ctxaction.errors import ConfigError as ConfigError
from ctxaction.errors import KeyPath as KeyPath
from ctxaction.rank.scoring import DEFAULT_WEIGHTS

DEFAULT_FILE = "context-packages.yaml"
LOOKUP = (".github/context-packages.yaml", "context-packages.yaml")
SECTIONS = ("files", "rules", "history", "reserve")
BUILTIN = "<built-in defaults>"

class ProfileError(ConfigError):
    """A profile that no configuration defines was asked for (``--task``, the action's ``task``
    input, an MCP argument): the fault is the request, not the file, so the message names the
    profile asked for and where the known ones come from."""

    exit_code = 2

    def __init__(self, name: str, known: Sequence[str], source: str) -> None:
        message = f"no profile {name!r}; known: {', '.join(known)} (from {source}) and auto"
        Exception.__init__(self, message)
        self.source, self.line, self.key, self.message = source, None, "", message
        self.name, self.known = name, tuple(known)

    def __reduce__(self) -> Any:
        return (ProfileError, (self.name, self.known, self.source))


# ---- schema ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MapOf:
    """A mapping with free keys (``keys`` limits them when given) and one value type."""

    value: Any
    keys: frozenset[str] | None = None


@dataclass(frozen=True)
class Nullable:
    """A value that may also be ``null``."""

    value: Any


_RULE_SOURCE = {"pattern": str, "priority": int, "max_lines": Nullable(int)}
_REQUIRED_FILE = {"pattern": str, "max_lines": Nullable(int)}
_PROFILE = {
    "extends": str,
    "labels": [str],
    "required_files": [_REQUIRED_FILE],
    "scoring": MapOf(float, frozenset(DEFAULT_WEIGHTS)),
    "budget": {"total_tokens": int, "shares": MapOf(float, frozenset(SECTIONS))},
    "max_files": int,
    "min_files": int,
    "history_days": int,
    "context_lines": int,
}
_SCHEMA = {
    "version": int,
    "encoding": str,
    "model": Nullable(str),
    "default_profile": str,
    "agent": str,
    "sensitive_paths": [str],
    "rules": {"sources": [_RULE_SOURCE], "nested": bool, "skills": [str]},
    "profiles": MapOf(_PROFILE),
    # Read by the secret scanner and hook (ctxaction.secure.settings, which also checks rule ids,
    # regexes and sizes); accepted here so one file configures both.
    "secrets": {
        "allowlist": {"paths": [str], "regexes": [str], "stopwords": [str]},
        "disabled_rules": [str],
        "max_file_size": int,
    },
}
# Replaced whole when a user file sets them, never merged key by key: a partial `shares` would
# silently keep defaults that no longer add up.
_ATOMIC = frozenset({"shares"})
_TYPE_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}


def _describe(spec: Any) -> str:
    if isinstance(spec, Nullable):
        return f"{_describe(spec.value)} or null"
    if isinstance(spec, list):
        return "a list"
    if isinstance(spec, (dict, MapOf)):
        return "a mapping"
    return _TYPE_NAMES[spec]


# ---- YAML with line numbers -------------------------------------------------------------------


def _plain(
    node: yaml.Node,
    path: KeyPath,
    lines: dict[KeyPath, int],
    source: str,
    loader: yaml.SafeLoader,
) -> Any:
    """Node tree → plain values, recording the 1-based line of every key path."""
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            kline = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode) or not isinstance(key, str):
                raise ConfigError(source, path, kline, "keys must be plain strings")
            key_path = (*path, key)
            if key in out:
                raise ConfigError(source, key_path, kline, "duplicate key")
            out[key] = _plain(value_node, key_path, lines, source, loader)
            lines[key_path] = kline
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item, (*path, i), lines, source, loader) for i, item in enumerate(node.value)]
    return loader.construct_object(node)


def parse_yaml(text: str, source: str) -> tuple[dict[str, Any], dict[KeyPath, int]]:
    """Parse a config document; returns the plain mapping and the line of every key path."""
    try:
        root = yamlsafe.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(source, "", line, f"not valid YAML: {problem}") from exc
    lines: dict[KeyPath, int] = {}
    if root is None:
        return {}, lines
    # The loader only turns composed scalar nodes into Python values (ints, bools, nulls…).
    try:
        value = _plain(root, (), lines, source, yaml.SafeLoader(""))
    except (yaml.YAMLError, ValueError, OverflowError) as exc:  # `=`, a date like 2001-13-45
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(source, "", line, f"not valid YAML: {problem}") from exc
    if not isinstance(value, dict):
        raise ConfigError(source, "", lines[()], "the file must hold a mapping of keys")
    return value, lines


def _check(value: Any, spec: Any, path: KeyPath, lines: Mapping[KeyPath, int], source: str) -> None:
    """Raise ConfigError for the first unknown key or wrongly typed value under ``path``."""

    def fail(message: str, at: KeyPath = path) -> ConfigError:
        return ConfigError(source, at, lines.get(at), message)

    if isinstance(spec, Nullable):
        if value is not None:
            _check(value, spec.value, path, lines, source)
        return
    if isinstance(spec, (dict, MapOf)):
        if not isinstance(value, dict):
            raise fail(f"expected {_describe(spec)}, got {type(value).__name__}")
        for key, item in value.items():
            if isinstance(spec, MapOf):
                if spec.keys is not None and key not in spec.keys:
                    raise fail(f"unknown key; known: {', '.join(sorted(spec.keys))}", (*path, key))
                _check(item, spec.value, (*path, key), lines, source)
            elif key not in spec:
                raise fail(f"unknown key; known: {', '.join(spec)}", (*path, key))
            else:
                _check(item, spec[key], (*path, key), lines, source)
        return
    if isinstance(spec, list):
        if not isinstance(value, list):
            raise fail(f"expected a list, got {type(value).__name__}")
        for i, item in enumerate(value):
            _check(item, spec[0], (*path, i), lines, source)
        return
    ok = isinstance(value, spec) and not (spec is not bool and isinstance(value, bool))
    if spec is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok:
        raise fail(f"expected {_describe(spec)}, got {value!r}")


# ---- merged values ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Origin:
    """Where a merged value was written."""

    source: str
    line: int | None


def _merge(
    base: dict[str, Any],
    over: Mapping[str, Any],
    origins: dict[KeyPath, Origin],
    over_lines: Mapping[KeyPath, int],
    source: str,
    path: KeyPath = (),
) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        here = (*path, key)
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key not in _ATOMIC:
            out[key] = _merge(out[key], value, origins, over_lines, source, here)
        else:
            out[key] = value
            for known in [p for p in origins if p[: len(here)] == here]:
                del origins[known]
            for p, line in over_lines.items():
                if p[: len(here)] == here:
                    origins[p] = Origin(source, line)
        origins[here] = Origin(source, over_lines.get(here))
    return out


@dataclass(frozen=True)
class RequiredFile:
    """A file every package of the profile holds: its first ``max_lines`` lines (None = whole)."""

    pattern: str
    max_lines: int | None


@dataclass(frozen=True)
class RuleSource:
    """Where rule files are found, their priority layer and line cap."""

    pattern: str
    priority: int
    max_lines: int | None


@dataclass(frozen=True)
class Budget:
    """A token ceiling and its section shares (files, rules, history, reserve)."""

    total_tokens: int
    shares: Mapping[str, float]

    def sections(self, total: int | None = None) -> dict[str, int]:
        """Tokens per section for ``total`` (default: the profile's), rounding down."""
        whole = self.total_tokens if total is None else total
        return {name: int(whole * self.shares.get(name, 0.0)) for name in SECTIONS}


@dataclass(frozen=True)
class Profile:
    """A packing profile (bugfix, feature, …) as the pipeline uses it."""

    name: str
    labels: tuple[str, ...]
    required_files: tuple[RequiredFile, ...]
    scoring: dict[str, float]
    budget: Budget
    max_files: int
    min_files: int
    history_days: int
    context_lines: int


@dataclass(frozen=True)
class Config:
    """The effective configuration: defaults with the user's file merged over them."""

    source: str
    encoding: str
    model: str | None
    default_profile: str
    sensitive_paths: tuple[str, ...]
    rule_sources: tuple[RuleSource, ...]
    nested_rules: bool
    skills: tuple[str, ...]
    profiles: dict[str, Profile]
    data: dict[str, Any] = field(repr=False)
    agent: str = "generic"

    def profile(self, name_or_auto: str = "auto", labels: Sequence[str] = ()) -> Profile:
        """The named profile, or for ``auto`` the first whose labels match, else the default."""
        if name_or_auto != "auto":
            if name_or_auto not in self.profiles:
                raise ProfileError(name_or_auto, list(self.profiles), self.source)
            return self.profiles[name_or_auto]
        wanted = {label.strip().lower() for label in labels}
        for profile in self.profiles.values():
            if wanted & {label.lower() for label in profile.labels}:
                return profile
        return self.profiles[self.default_profile]

    @property
    def token_model(self) -> str:
        """What to hand the tokenizer: the model when set, else the encoding."""
        return self.model or self.encoding


def default_text() -> str:
    """The commented default configuration shipped in the package."""
    return (resources.files("ctxaction") / "defaults" / DEFAULT_FILE).read_text(encoding="utf-8")


def find_config(repo_root: Path, explicit: Path | None = None) -> Path | None:
    """The config file to use: ``explicit``, else the first of LOOKUP under ``repo_root``."""
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(str(explicit), "", None, "config file not found")
        return explicit
    for rel in LOOKUP:
        candidate = repo_root / rel
        if candidate.is_file():
            return candidate
    return None


def load_config(repo_root: Path, explicit: Path | None = None) -> Config:
    """Load the effective configuration for ``repo_root`` (see module docstring)."""
    path = find_config(repo_root, explicit)
    if path is None:
        return config_from_text(None, None)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), "", None, "not UTF-8 text") from exc
    except OSError as exc:
        raise ConfigError(str(path), "", None, f"cannot read: {exc.strerror}") from exc
    return config_from_text(text, str(path))


def config_from_text(text: str | None, source: str | None) -> Config:
    """Validate ``text`` (a user file, or None for none) and merge it over the defaults."""
    default_source = BUILTIN
    base, base_lines = parse_yaml(default_text(), default_source)
    origins = {p: Origin(default_source, line) for p, line in base_lines.items()}
    data = base
    if text is not None and source is not None:
        user, user_lines = parse_yaml(text, source)
        _check(user, _SCHEMA, (), user_lines, source)
        data = _merge(base, _inherit(user, base, user_lines, source), origins, user_lines, source)
    _check(data, _SCHEMA, (), {}, source or default_source)
    return _build(data, origins, source or default_source)


def _inherit(
    user: dict[str, Any],
    base: Mapping[str, Any],
    lines: Mapping[KeyPath, int],
    source: str,
) -> dict[str, Any]:
    """Start each new user profile from the profile it extends (default: default_profile)."""
    profiles = user.get("profiles")
    if not isinstance(profiles, dict):
        return user
    default_name = user.get("default_profile", base["default_profile"])
    known = {**base["profiles"], **profiles}
    merged = dict(profiles)
    for name, body in profiles.items():
        if name in base["profiles"]:
            continue
        parent = body.get("extends", default_name)
        if parent not in base["profiles"]:
            extends_line = lines.get(("profiles", name, "extends"), lines.get(("profiles", name)))
            hint = "a built-in profile" if parent in known else "an existing profile"
            raise ConfigError(
                source,
                ("profiles", name, "extends"),
                extends_line,
                f"{parent!r} is not {hint}; known: {', '.join(base['profiles'])}",
            )
        merged[name] = _merge(base["profiles"][parent], body, {}, {}, source)
    return {**user, "profiles": merged}


def _build(data: Mapping[str, Any], origins: Mapping[KeyPath, Origin], fallback: str) -> Config:
    def fail(path: KeyPath, message: str, *also: KeyPath) -> ConfigError:
        # Values checked together (min_files beside max_files) blame the one the user wrote.
        written = [p for p in (path, *also) if p in origins and origins[p].source != BUILTIN]
        at = written[0] if written else path
        origin = origins.get(at, Origin(fallback, None))
        return ConfigError(origin.source, at, origin.line, message)

    profiles: dict[str, Profile] = {}
    for name, body in data["profiles"].items():
        profiles[name] = _profile(name, body, fail)
    if data["default_profile"] not in profiles:
        raise fail(
            ("default_profile",), f"no profile {data['default_profile']!r}; known: {', '.join(profiles)}"
        )
    if data["version"] != 1:
        raise fail(("version",), "only version 1 is supported")
    _check_patterns(data, fail)
    from ctxaction.agents import AGENT_NAMES  # agents builds on this module's types

    if data["agent"] not in AGENT_NAMES:
        raise fail(("agent",), f"unknown agent {data['agent']!r}; known: {', '.join(AGENT_NAMES)}")
    return Config(
        source=fallback,
        encoding=data["encoding"],
        model=data["model"] or None,
        default_profile=data["default_profile"],
        sensitive_paths=tuple(data["sensitive_paths"]),
        rule_sources=tuple(RuleSource(**item) for item in data["rules"]["sources"]),
        nested_rules=data["rules"]["nested"],
        skills=tuple(data["rules"]["skills"]),
        profiles=profiles,
        data=_with_scoring(data, profiles),
        agent=data["agent"],
    )


def pattern_issue(pattern: str) -> str | None:
    """What is wrong with a repository path pattern from the config, or None."""
    from ctxaction.secure.globs import pattern_problem

    if not pattern.strip():
        return "empty pattern"
    if ".." in pattern.lstrip("!").split("/"):
        return f"{pattern!r} climbs out with '..': patterns name files inside the repository"
    problem = pattern_problem(pattern)
    return f"bad pattern {pattern!r}: {problem}" if problem else None


def _check_patterns(data: Mapping[str, Any], fail: Any) -> None:
    """Path patterns compile and stay inside the repository; line caps and layers are sane."""
    checks: list[tuple[KeyPath, str]] = [
        (("sensitive_paths", i), p) for i, p in enumerate(data["sensitive_paths"])
    ]
    checks += [(("rules", "skills", i), p) for i, p in enumerate(data["rules"]["skills"])]
    for i, source in enumerate(data["rules"]["sources"]):
        _check_complete(source, _RULE_SOURCE, ("rules", "sources", i), fail)
        checks.append((("rules", "sources", i, "pattern"), source["pattern"]))
        _check_max_lines(source, ("rules", "sources", i), fail)
        if source["priority"] < 1:
            raise fail(("rules", "sources", i, "priority"), "layers start at 1 (1 and 2 are always packed)")
    for name, body in data["profiles"].items():
        for i, required in enumerate(body.get("required_files", [])):
            at: KeyPath = ("profiles", name, "required_files", i)
            _check_complete(required, _REQUIRED_FILE, at, fail)
            checks.append((("profiles", name, "required_files", i, "pattern"), required["pattern"]))
            _check_max_lines(required, ("profiles", name, "required_files", i), fail)
    for key, pattern in checks:
        problem = pattern_issue(pattern)
        if problem:
            raise fail(key, problem)


def _check_complete(item: Mapping[str, Any], spec: Mapping[str, Any], path: KeyPath, fail: Any) -> None:
    missing = [key for key in spec if key not in item]
    if missing:
        raise fail(path, f"missing {', '.join(missing)}")


def _check_max_lines(item: Mapping[str, Any], path: KeyPath, fail: Any) -> None:
    if item.get("max_lines") is not None and item["max_lines"] < 1:
        got = item["max_lines"]
        raise fail((*path, "max_lines"), f"must be at least 1 (or null for the whole file), got {got}")


def _with_scoring(data: Mapping[str, Any], profiles: Mapping[str, Profile]) -> dict[str, Any]:
    """The merged data with each profile's full weight table, as ``config show`` prints it."""
    shown = {
        name: {**body, "scoring": dict(profiles[name].scoring)} for name, body in data["profiles"].items()
    }
    return {**data, "profiles": shown}


def _profile(name: str, body: Mapping[str, Any], fail: Any) -> Profile:
    here: KeyPath = ("profiles", name)
    missing = [key for key in _PROFILE if key not in body and key != "extends"]
    if missing:
        raise fail(here, f"missing {', '.join(missing)}")
    budget = body["budget"]
    if set(budget) != {"total_tokens", "shares"}:
        raise fail((*here, "budget"), "needs total_tokens and shares")
    if budget["total_tokens"] <= 0:
        raise fail((*here, "budget", "total_tokens"), "must be a positive number of tokens")
    shares = budget["shares"]
    if any(share < 0 for share in shares.values()):
        raise fail((*here, "budget", "shares"), "shares cannot be negative")
    if abs(sum(shares.values()) - 1.0) > 1e-6:
        listed = ", ".join(f"{k} {v:g}" for k, v in shares.items())
        raise fail(
            (*here, "budget", "shares"),
            f"shares must add up to 1 (they add up to {sum(shares.values()):g}: {listed})",
        )
    if body["min_files"] < 0 or body["max_files"] < 1 or body["min_files"] > body["max_files"]:
        raise fail(
            (*here, "min_files"), "need 0 <= min_files <= max_files and max_files >= 1", (*here, "max_files")
        )
    for key in ("history_days", "context_lines"):
        if body[key] < 0:
            raise fail((*here, key), "cannot be negative")
    for key, weight in body["scoring"].items():
        if weight < 0:
            raise fail((*here, "scoring", key), "weights cannot be negative")
    return Profile(
        name=name,
        labels=tuple(body["labels"]),
        required_files=tuple(RequiredFile(**item) for item in body["required_files"]),
        scoring={**DEFAULT_WEIGHTS, **body["scoring"]},
        budget=Budget(budget["total_tokens"], {s: float(shares.get(s, 0.0)) for s in SECTIONS}),
        max_files=body["max_files"],
        min_files=body["min_files"],
        history_days=body["history_days"],
        context_lines=body["context_lines"],
    )


class _PlainDumper(yaml.SafeDumper):
    """Writes shared sub-trees (inherited profile parts) out in full instead of as &anchors."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def effective_yaml(config: Config) -> str:
    """The effective configuration as YAML, for ``ctxaction config show``."""
    if config.source == BUILTIN:
        header = "# effective configuration: the built-in defaults (no context-packages.yaml found)\n"
    else:
        header = f"# effective configuration: the built-in defaults merged with {config.source}\n"
    body = yaml.dump(config.data, Dumper=_PlainDumper, sort_keys=False, default_flow_style=None, width=100)
    return header + body
