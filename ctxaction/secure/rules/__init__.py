"""The built-in rule set, gathered from one module per family of services."""

from __future__ import annotations

from ctxaction.secure.rule import Rule
from ctxaction.secure.rules import (
    ai,
    cloud,
    code_hosts,
    databases,
    generic,
    infra,
    keys,
    messaging,
    payments,
    platforms,
    registries,
    saas,
    services,
)

# Specific rules first: when a specific and a generic rule overlap, the specific one is kept.
ALL_RULES: tuple[Rule, ...] = (
    *keys.RULES,
    *cloud.RULES,
    *code_hosts.RULES,
    *ai.RULES,
    *payments.RULES,
    *messaging.RULES,
    *registries.RULES,
    *saas.RULES,
    *platforms.RULES,
    *services.RULES,
    *databases.RULES,
    *infra.RULES,
    *generic.RULES,
)


def by_id() -> dict[str, Rule]:
    """Rules keyed by id."""
    return {rule.id: rule for rule in ALL_RULES}
