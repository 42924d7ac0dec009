"""The ``secrets:`` section, typed, for the secret scanner (``scan``, the hook, ``build``'s redaction).

.. code-block:: yaml

    secrets:
      allowlist:
        paths: ["tests/fixtures/**"]      # gitignore patterns: findings there are ignored
        regexes: ["AKIA[A-Z0-9]{4}TEST"]   # searched in the secret and its line
        stopwords: ["dummy", "localdev"]   # substrings of the secret (case-insensitive)
      disabled_rules: [generic-password]
      max_file_size: 2000000               # bytes; larger files are skipped with a note
"""

from __future__ import annotations

from dataclasses import dataclass

from ctxaction.config.source import Document


@dataclass(frozen=True)
class SecretsConfig:
    """What the scanner takes from the config; ``max_file_size`` None keeps the scanner's cap.
    ``source`` is the file it came from ("" without one)."""

    paths: tuple[str, ...] = ()
    regexes: tuple[str, ...] = ()
    stopwords: tuple[str, ...] = ()
    disabled_rules: tuple[str, ...] = ()
    max_file_size: int | None = None
    source: str = ""


def _strings(value: object) -> tuple[str, ...]:
    return tuple(item for item in value if isinstance(item, str)) if isinstance(value, list) else ()


def secrets_of(doc: Document | None) -> SecretsConfig:
    """The section of a validated document (defaults when there is no file or no section)."""
    if doc is None:
        return SecretsConfig()
    section = doc.data.get("secrets")
    section = section if isinstance(section, dict) else {}
    allow = section.get("allowlist")
    allow = allow if isinstance(allow, dict) else {}
    size = section.get("max_file_size")
    return SecretsConfig(
        paths=_strings(allow.get("paths")),
        regexes=_strings(allow.get("regexes")),
        stopwords=_strings(allow.get("stopwords")),
        disabled_rules=_strings(section.get("disabled_rules")),
        max_file_size=size if isinstance(size, int) and not isinstance(size, bool) else None,
        source=doc.source,
    )
