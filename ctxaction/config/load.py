"""The packager's configuration: the built-in defaults with the user's validated file merged
over them, as typed :class:`~ctxaction.config.model.Config`."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from ctxaction.config.merge import merged
from ctxaction.config.model import (
    SECTIONS,
    Budget,
    Config,
    Profile,
    RawConfig,
    RawProfile,
    RequiredFile,
    RuleSource,
)
from ctxaction.config.read import checked, read_config
from ctxaction.config.secrets import secrets_of
from ctxaction.config.source import BUILTIN, Document, default_text, parse
from ctxaction.rank.scoring import DEFAULT_WEIGHTS


def load_config(repo_root: Path, explicit: Path | None = None) -> Config:
    """The effective configuration for ``repo_root`` (``explicit``, else the file LOOKUP finds,
    else the defaults); ConfigError naming every problem of a broken file."""
    return config_of(read_config(repo_root, explicit))


def config_from_text(text: str | None, source: str | None) -> Config:
    """Validate ``text`` (a user file, or None for none) and merge it over the defaults."""
    if text is None or source is None:
        return config_of(None)
    return config_of(checked(text, source))


def config_of(doc: Document | None) -> Config:
    """The typed configuration of a validated document (None: the defaults alone)."""
    data, _ = merged(parse(default_text(), BUILTIN), doc)
    raw = cast(RawConfig, data)  # valid: checked by the schema and ctxaction.config.checks
    profiles = {name: _profile(name, body) for name, body in raw["profiles"].items()}
    shown = {
        name: {**body, "scoring": dict(profiles[name].scoring)} for name, body in raw["profiles"].items()
    }
    rules = raw["rules"]
    return Config(
        source=doc.source if doc is not None else BUILTIN,
        encoding=raw["encoding"],
        model=raw["model"] or None,
        default_profile=raw["default_profile"],
        sensitive_paths=tuple(raw["sensitive_paths"]),
        rule_sources=tuple(RuleSource(s["pattern"], s["priority"], s["max_lines"]) for s in rules["sources"]),
        nested_rules=rules["nested"],
        skills=tuple(rules["skills"]),
        profiles=profiles,
        # What `config show` prints: each profile with its full weight table.
        data={**data, "profiles": shown},
        agent=raw["agent"],
        secrets=secrets_of(doc),
    )


def _profile(name: str, body: RawProfile) -> Profile:
    shares = body["budget"]["shares"]
    return Profile(
        name=name,
        labels=tuple(body["labels"]),
        required_files=tuple(RequiredFile(f["pattern"], f["max_lines"]) for f in body["required_files"]),
        scoring={**DEFAULT_WEIGHTS, **body["scoring"]},
        budget=Budget(body["budget"]["total_tokens"], {s: float(shares.get(s, 0.0)) for s in SECTIONS}),
        max_files=body["max_files"],
        min_files=body["min_files"],
        history_days=body["history_days"],
        context_lines=body["context_lines"],
    )
