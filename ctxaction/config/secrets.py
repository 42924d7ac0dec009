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

from ctxaction.config.source import Document


class SecretsConfig:
    """What the scanner takes from the config; ``max_file_size`` None keeps the scanner's cap.
    ``source`` is the file it came from ("" without one). A plain class, not a dataclass: the hook
    builds one on every run and ``dataclasses`` costs more to import than the rest of this."""

    __slots__ = ("disabled_rules", "max_file_size", "paths", "regexes", "source", "stopwords")

    def __init__(
        self,
        *,
        paths: tuple[str, ...] = (),
        regexes: tuple[str, ...] = (),
        stopwords: tuple[str, ...] = (),
        disabled_rules: tuple[str, ...] = (),
        max_file_size: int | None = None,
        source: str = "",
    ) -> None:
        self.paths, self.regexes, self.stopwords = paths, regexes, stopwords
        self.disabled_rules, self.max_file_size, self.source = disabled_rules, max_file_size, source

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SecretsConfig) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"SecretsConfig({shown})"


_LISTS = ("paths", "regexes", "stopwords", "disabled_rules")
_STORED = frozenset((*_LISTS, "max_file_size", "key"))


def as_json(section: SecretsConfig) -> dict[str, object]:
    """The section as JSON values, without its source (the cache stores it beside the text's marker)."""
    out: dict[str, object] = {name: list(getattr(section, name)) for name in _LISTS}
    out["max_file_size"] = section.max_file_size
    return out


def from_json(value: dict[str, object], source: str) -> SecretsConfig | None:
    """The section :func:`as_json` stored, or None for anything of another shape (so the caller
    reads the file instead)."""
    if set(value) != _STORED:
        return None
    lists: dict[str, tuple[str, ...]] = {}
    for name in _LISTS:
        items = value[name]
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            return None
        lists[name] = tuple(items)
    size = value["max_file_size"]
    if size is not None and (not isinstance(size, int) or isinstance(size, bool)):
        return None
    return SecretsConfig(
        paths=lists["paths"],
        regexes=lists["regexes"],
        stopwords=lists["stopwords"],
        disabled_rules=lists["disabled_rules"],
        max_file_size=size,
        source=source,
    )


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
