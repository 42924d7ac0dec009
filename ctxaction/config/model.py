"""The packager's configuration as typed values: profiles, budgets, rule sources.

``Raw*`` describe the merged mapping once it is valid (what the schema guarantees, with every
default filled in); the dataclasses are what the pipeline uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from ctxaction.config.secrets import SecretsConfig
from ctxaction.errors import ConfigError
from ctxaction.secure import quoted

SECTIONS = ("files", "rules", "history", "reserve")


class RawRuleSource(TypedDict):
    pattern: str
    priority: int
    max_lines: int | None


class RawRequiredFile(TypedDict):
    pattern: str
    max_lines: int | None


class RawBudget(TypedDict):
    total_tokens: int
    shares: dict[str, float]


class RawProfile(TypedDict):
    labels: list[str]
    required_files: list[RawRequiredFile]
    scoring: dict[str, float]
    budget: RawBudget
    max_files: int
    min_files: int
    history_days: int
    context_lines: int


class RawRules(TypedDict):
    sources: list[RawRuleSource]
    nested: bool
    skills: list[str]


class RawConfig(TypedDict):
    version: int
    encoding: str
    model: str | None
    agent: str
    default_profile: str
    sensitive_paths: list[str]
    rules: RawRules
    profiles: dict[str, RawProfile]


class ProfileError(ConfigError):
    """A profile that no configuration defines was asked for (``--task``, the action's ``task``
    input, an MCP argument): the fault is the request, not the file, so the message names the
    profile asked for and where the known ones come from."""

    exit_code = 2

    def __init__(self, name: str, known: Sequence[str], source: str) -> None:
        message = f"no profile {quoted(name)}; known: {', '.join(known)} (from {source}) and auto"
        Exception.__init__(self, message)
        self.source, self.line, self.key, self.message = source, None, "", message
        self.name, self.known = name, tuple(known)

    def __reduce__(self) -> tuple[type[ProfileError], tuple[str, tuple[str, ...], str]]:  # type: ignore[override]
        return (ProfileError, (self.name, self.known, self.source))


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
    data: dict[str, object] = field(repr=False)
    agent: str = "generic"
    secrets: SecretsConfig = field(default_factory=SecretsConfig)

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
