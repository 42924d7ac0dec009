"""The effective configuration as YAML, for ``ctxaction config show``."""

from __future__ import annotations

import yaml

from ctxaction.config.model import Config
from ctxaction.config.source import BUILTIN


class _PlainDumper(yaml.SafeDumper):
    """Writes shared sub-trees (inherited profile parts) out in full instead of as &anchors."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def effective_yaml(config: Config) -> str:
    """The effective configuration as YAML, headed by where it comes from."""
    if config.source == BUILTIN:
        header = "# effective configuration: the built-in defaults (no context-packages.yaml found)\n"
    else:
        header = f"# effective configuration: the built-in defaults merged with {config.source}\n"
    body = yaml.dump(config.data, Dumper=_PlainDumper, sort_keys=False, default_flow_style=None, width=100)
    return header + body
