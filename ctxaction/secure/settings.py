"""The ``secrets:`` section of ``context-packages.yaml`` (allowlists, disabled rules, size cap).

The main config loader belongs to :mod:`ctxaction.config`; this module reads only its own section
(with PyYAML) so that the hook never imports the packager's code. Errors name the file, key and line.

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

import re
from pathlib import Path

from ctxaction.errors import SettingsError as SettingsError
from ctxaction.secure.allow import Allowlist
from ctxaction.secure.sources import DEFAULT_MAX_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LOOKUP = (".github/context-packages.yaml", "context-packages.yaml")
_LIST_KEYS = {"paths", "regexes", "stopwords"}



class Settings:
    """What the scanner takes from config."""

    def __init__(
        self, allowlist: Allowlist | None = None, max_file_size: int = DEFAULT_MAX_BYTES, source: str = ""
    ) -> None:
        self.allowlist = allowlist or Allowlist()
        self.max_file_size = max_file_size
        self.source = source


def find_config(root: Path | None, explicit: Path | None = None) -> Path | None:
    """``explicit`` when given, else the first of ``.github/context-packages.yaml``,
    ``context-packages.yaml`` under ``root``."""
    if explicit is not None:
        return explicit
    if root is None:
        return None
    for name in LOOKUP:
        candidate = root / name
        if candidate.is_file():
            return candidate
    return None


def load_settings(root: Path | None, explicit: Path | None = None) -> Settings:
    """Settings from the ``secrets:`` section, or defaults when there is no config or no section."""
    path = find_config(root, explicit)
    if path is None:
        return Settings()
    import yaml

    from ctxaction import yamlsafe

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SettingsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SettingsError(f"{path}: not UTF-8 text") from None
    try:
        node = yamlsafe.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise SettingsError(f"{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    section = _child(node, "secrets")
    if section is None:
        return Settings(source=str(path))
    return _parse(section, path)


def _child(node: Any, key: str) -> Any:
    import yaml

    if not isinstance(node, yaml.MappingNode):
        return None
    for key_node, value_node in node.value:
        if getattr(key_node, "value", None) == key:
            return value_node
    return None


def _fail(path: Path, node: Any, key: str, message: str) -> SettingsError:
    return SettingsError(f"{path}:{node.start_mark.line + 1}: {key}: {message}")


def _strings(path: Path, node: Any, key: str) -> tuple[str, ...]:
    import yaml

    if not isinstance(node, yaml.SequenceNode):
        raise _fail(path, node, key, "must be a list of strings")
    values = []
    for item in node.value:
        if not isinstance(item, yaml.ScalarNode) or item.tag != "tag:yaml.org,2002:str":
            raise _fail(path, item, key, "must be a list of strings")
        values.append(item.value)
    return tuple(values)


def _parse(section: Any, path: Path) -> Settings:
    import yaml

    if not isinstance(section, yaml.MappingNode):
        raise _fail(path, section, "secrets", "must be a mapping")
    lists: dict[str, tuple[str, ...]] = {}
    disabled: tuple[str, ...] = ()
    max_size = DEFAULT_MAX_BYTES
    for key_node, value in section.value:
        key = key_node.value
        if key == "allowlist":
            if not isinstance(value, yaml.MappingNode):
                raise _fail(path, value, "secrets.allowlist", "must be a mapping")
            for sub_key, sub_value in value.value:
                name = f"secrets.allowlist.{sub_key.value}"
                if sub_key.value not in _LIST_KEYS:
                    raise _fail(path, sub_key, name, f"unknown key; known: {', '.join(sorted(_LIST_KEYS))}")
                lists[sub_key.value] = _strings(path, sub_value, name)
        elif key == "disabled_rules":
            disabled = _strings(path, value, "secrets.disabled_rules")
            _check_rule_ids(path, value, disabled)
        elif key == "max_file_size":
            # YAML ints include 0x1F, 1_000 and 0b101: the loader reads them, not int().
            is_int = value.tag == "tag:yaml.org,2002:int"
            size = yaml.SafeLoader("").construct_yaml_int(value) if is_int else 0
            if size <= 0:
                raise _fail(path, value, "secrets.max_file_size", "must be a positive integer (bytes)")
            max_size = size
        else:
            raise _fail(
                path,
                key_node,
                f"secrets.{key}",
                "unknown key; known: allowlist, disabled_rules, max_file_size",
            )
    if lists.get("paths"):
        _check_paths(path, section, lists["paths"])
    for i, pattern in enumerate(lists.get("regexes", ())):
        try:
            re.compile(pattern)
        except re.error as exc:
            raise SettingsError(f"{path}: secrets.allowlist.regexes[{i}]: invalid regex: {exc}") from None
    allow = Allowlist(
        paths=lists.get("paths", ()),
        regexes=lists.get("regexes", ()),
        stopwords=lists.get("stopwords", ()),
        disabled_rules=disabled,
    )
    return Settings(allowlist=allow, max_file_size=max_size, source=str(path))


def _check_paths(path: Path, section: Any, patterns: tuple[str, ...]) -> None:
    """Every allowlist path pattern compiles; a bad one is named with its line."""
    from ctxaction.secure.globs import PatternError, gitignore_spec

    try:
        gitignore_spec(patterns)
    except PatternError as exc:
        listed = _child(_child(section, "allowlist"), "paths")
        items = listed.value if listed is not None else []
        node = items[exc.index] if exc.index < len(items) else section
        raise _fail(path, node, f"secrets.allowlist.paths[{exc.index}]", str(exc)) from None


def _check_rule_ids(path: Path, node: Any, ids: tuple[str, ...]) -> None:
    from ctxaction.secure.rules import by_id

    known = by_id()
    for rule_id in ids:
        if rule_id not in known:
            raise _fail(
                path,
                node,
                "secrets.disabled_rules",
                f"unknown rule {rule_id!r} (see `ctxaction scan --list-rules`)",
            )
