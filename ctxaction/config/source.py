"""Where ``context-packages.yaml`` is, and its values with the line of every key.

Nothing here validates (see :mod:`ctxaction.config.validate`). The pre-commit hook imports this
module on every run, so it brings in nothing a run without a config file does not need: PyYAML
only when there is a file to parse, and no ``dataclasses`` or ``importlib.resources`` (which load
``inspect``, ``tempfile`` and more, a tenth of a hook run).
"""

from __future__ import annotations

import os
from pathlib import Path

from ctxaction.errors import ConfigError, KeyPath
from ctxaction.readfile import inside, special_kind

TYPE_CHECKING = False
if TYPE_CHECKING:
    import yaml

DEFAULT_FILE = "context-packages.yaml"
LOOKUP = (".github/context-packages.yaml", "context-packages.yaml")
BUILTIN = "<built-in defaults>"


DEFAULTS = Path(__file__).resolve().parent.parent / "defaults"


class Document:
    """One config file: its text, its plain values (as YAML typed them: unchecked) and the
    1-based line of every key path."""

    __slots__ = ("data", "lines", "source", "text")

    def __init__(self, source: str, text: str, data: dict[str, object], lines: dict[KeyPath, int]) -> None:
        self.source, self.text, self.data, self.lines = source, text, data, lines

    def line(self, path: KeyPath) -> int | None:
        """The line of ``path``, else of its nearest parent that has one."""
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None

    def error(self, path: KeyPath, message: str) -> ConfigError:
        """A problem at ``path`` of this file."""
        return ConfigError(self.source, shown_path(path), self.line(path), message)


def shown_path(path: KeyPath) -> KeyPath:
    """``path`` for a message: a key is the user's text too, and one of 70,000 characters (an
    explicit ``? key``) is quoted like a value (:func:`ctxaction.secure.quoted`), cut."""
    from ctxaction.secure import QUOTE_WIDTH, quoted  # on an error only: the hook's runs stay light

    return tuple(part if isinstance(part, int) or len(part) <= QUOTE_WIDTH else quoted(part) for part in path)


def find_config(root: Path | None, explicit: Path | None = None) -> Path | None:
    """The config file to use: ``explicit`` (which must be a file), else the first of LOOKUP
    under ``root``, else None.

    A looked-up file is the repository's: a symlink there that leads out of the repository is
    refused, not followed (the repository must not make us read a file of the machine's), and a
    folder or FIFO there is an error rather than silently meaning "no config".
    """
    if explicit is not None:
        if not explicit.exists():
            raise ConfigError(str(explicit), "", None, "config file not found (check --config)")
        _check_regular(explicit, "name a config file with --config")
        return explicit
    if root is None:
        return None
    for rel in LOOKUP:
        candidate = root / rel
        if not os.path.lexists(candidate):
            continue
        if inside(root, candidate) is None:
            raise ConfigError(
                str(candidate), "", None,
                "a symlink to a file outside the repository, which is never read: "
                "replace the link with the file, or pass --config",
            )  # fmt: skip
        _check_regular(candidate, f"the configuration is read from a file at {rel}; move or remove it")
        return candidate
    return None


def _check_regular(path: Path, hint: str) -> None:
    """ConfigError naming what ``path`` is (a folder, a FIFO…) unless it is a regular file (a
    final symlink followed); a dangling symlink is a file that cannot be read."""
    try:
        kind = special_kind(os.stat(path).st_mode)
    except OSError as exc:
        raise ConfigError(str(path), "", None, f"cannot read: {exc.strerror or exc}") from exc
    if kind is not None:
        raise ConfigError(str(path), "", None, f"not a file but {kind}: {hint}")


def read_text(path: Path) -> str:
    """The file's text; ConfigError when it cannot be read or is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), "", None, "not UTF-8 text; save it as UTF-8") from exc
    except OSError as exc:
        raise ConfigError(str(path), "", None, f"cannot read: {exc.strerror or exc}") from exc


def shipped(name: str) -> str:
    """A file of ``ctxaction/defaults`` (package data, installed as plain files)."""
    return (DEFAULTS / name).read_text(encoding="utf-8")


def default_text() -> str:
    """The commented default configuration shipped in the package."""
    return shipped(DEFAULT_FILE)


def parse(text: str, source: str) -> Document:
    """Parse a config document with the bounded loader of :mod:`ctxaction.yamlsafe` (alias and
    depth limits); ConfigError with the line for YAML that cannot be read."""
    import yaml

    from ctxaction import yamlsafe

    try:
        root = yamlsafe.compose(text)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, source) from exc
    lines: dict[KeyPath, int] = {}
    if root is None:
        return Document(source, text, {}, lines)
    try:
        value = _plain(root, (), lines, source, yaml.SafeLoader(""))
    except (yaml.YAMLError, ValueError, OverflowError) as exc:  # `=`, a date like 2001-13-45
        raise _yaml_error(exc, source) from exc
    if not isinstance(value, dict):
        raise ConfigError(source, "", lines[()], "the file must hold a mapping of keys")
    return Document(source, text, value, lines)


def _yaml_error(exc: Exception, source: str) -> ConfigError:
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, "problem", None) or str(exc)
    return ConfigError(source, "", line, f"not valid YAML: {problem}")


def _plain(
    node: yaml.Node, path: KeyPath, lines: dict[KeyPath, int], source: str, loader: yaml.SafeLoader
) -> object:
    """Node tree → plain values, recording the 1-based line of every key path."""
    import yaml

    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[str, object] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            kline = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode) or not isinstance(key, str):
                raise ConfigError(source, shown_path(path), kline, "keys must be plain strings")
            key_path = (*path, key)
            if key in out:
                raise ConfigError(source, shown_path(key_path), kline, "duplicate key; keep one of them")
            out[key] = _plain(value_node, key_path, lines, source, loader)
            lines[key_path] = kline
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item, (*path, i), lines, source, loader) for i, item in enumerate(node.value)]
    # The loader only turns composed scalar nodes into Python values (ints, bools, nulls…).
    value: object = loader.construct_object(node)
    return value
