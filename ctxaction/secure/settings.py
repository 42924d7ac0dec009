"""What the secret scanner takes from ``context-packages.yaml``: its ``secrets:`` section as an
:class:`~ctxaction.secure.allow.Allowlist` and a size cap.

The file is read, and validated whole, by the one config reader (:mod:`ctxaction.config.read`),
whose light path imports none of the packager's code and, for a text validated before, no YAML
parser either, so the hook stays fast.
"""

from __future__ import annotations

from pathlib import Path

from ctxaction.config.read import read_secrets
from ctxaction.config.secrets import SecretsConfig
from ctxaction.secure.allow import Allowlist
from ctxaction.secure.sources import DEFAULT_MAX_BYTES


class Settings:
    """What the scanner takes from config."""

    def __init__(
        self, allowlist: Allowlist | None = None, max_file_size: int = DEFAULT_MAX_BYTES, source: str = ""
    ) -> None:
        self.allowlist = allowlist or Allowlist()
        self.max_file_size = max_file_size
        self.source = source


def settings_of(section: SecretsConfig) -> Settings:
    """The scanner's settings for a (validated) ``secrets:`` section."""
    allow = Allowlist(
        paths=section.paths,
        regexes=section.regexes,
        stopwords=section.stopwords,
        disabled_rules=section.disabled_rules,
    )
    size = section.max_file_size if section.max_file_size is not None else DEFAULT_MAX_BYTES
    return Settings(allowlist=allow, max_file_size=size, source=section.source)


def load_settings(root: Path | None, explicit: Path | None = None) -> Settings:
    """Settings from the ``secrets:`` section, or defaults when there is no config or no section;
    ConfigError naming every problem of a broken file."""
    return settings_of(read_secrets(root, explicit))
