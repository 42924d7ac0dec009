"""Which agent preset a run hands off to: the ``agent`` input, else ``agent:`` of the config."""

from __future__ import annotations

from pathlib import Path

from ctxaction.agents import AgentPreset, get_preset
from ctxaction.config.load import load_config


def resolve_preset(workspace: Path, config: Path | None, agent: str) -> AgentPreset:
    """The preset of a run: the ``agent`` input when given, else ``agent:`` of the config."""
    if agent:
        return get_preset(agent)
    return get_preset(load_config(workspace, config).agent)
