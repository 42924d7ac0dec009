"""Every problem of a config file at once: the JSON Schema's (``jsonschema``) and the semantic
checks', each told as ``file:line: key: what is wrong``, in file order.

``jsonschema`` costs tens of milliseconds to import, so only a file that is not known valid
(:mod:`ctxaction.config.cache`) is brought here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import jsonschema
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

from ctxaction.config import checks
from ctxaction.config.schema import schema
from ctxaction.config.source import BUILTIN, Document, default_text, parse
from ctxaction.errors import ConfigError, ConfigErrors, KeyPath
from ctxaction.secure import quoted

_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}
# Said after a value that is too small: what the limit means.
_MINIMUM_HINTS = {
    "max_lines": " (or null for the whole file)",
    "priority": " (layers 1 and 2 are always packed, 3 and above while the rules share has room)",
}


def _strict_int(_checker: object, instance: object) -> bool:
    # jsonschema takes 3.0 for an integer; a count of files or tokens must be written as one.
    return isinstance(instance, int) and not isinstance(instance, bool)


def _validator() -> Validator:
    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine("integer", _strict_int)
    strict = jsonschema.validators.extend(base, type_checker=checker)  # type: ignore[no-untyped-call]
    validator: Validator = strict(schema())
    return validator


def _shown(value: object) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return quoted(value)


def _expected(kind: object) -> str:
    kinds = [kind] if isinstance(kind, str) else list(kind) if isinstance(kind, list) else []
    return " or ".join(_TYPE_NAMES.get(str(k), str(k)) for k in kinds)


def _messages(error: ValidationError) -> Iterable[tuple[KeyPath, str]]:
    path: KeyPath = tuple(error.absolute_path)
    rule, limit, value = error.validator, error.validator_value, error.instance
    name = str(path[-1]) if path else "value"
    if rule == "additionalProperties" and isinstance(value, dict):
        properties = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        for key in value:
            if key not in properties:
                yield (*path, key), f"unknown key; known: {', '.join(properties)}"
    elif rule == "type":
        yield path, f"expected {_expected(limit)}, got {_shown(value)}"
    elif rule == "required" and isinstance(value, dict) and isinstance(limit, list):
        missing = [key for key in limit if key not in value]
        yield path, f"missing {', '.join(missing)}; each entry needs {', '.join(limit)}"
    elif rule == "minimum":
        yield path, f"must be at least {limit}{_MINIMUM_HINTS.get(name, '')}, got {_shown(value)}"
    elif rule == "exclusiveMinimum":
        yield path, f"must be more than {limit}, got {_shown(value)}"
    elif rule == "maximum":
        yield path, f"must be at most {limit}, got {_shown(value)}"
    elif rule == "const":
        yield path, f"only {name} {limit!r} is supported, got {_shown(value)}"
    elif rule == "enum" and isinstance(limit, list):
        yield path, f"unknown {name} {_shown(value)}; known: {', '.join(map(str, limit))}"
    else:
        yield path, error.message


def schema_problems(doc: Document) -> list[tuple[KeyPath, ConfigError]]:
    """The schema's verdict on ``doc``: one problem per wrong value (a wrong type hides the other
    complaints about the same value)."""
    found: dict[KeyPath, list[str]] = {}
    typed: set[KeyPath] = set()
    # YAML's values: a date or other non-JSON scalar simply fails the schema's types.
    for error in _validator().iter_errors(doc.data):  # type: ignore[arg-type]
        for path, message in _messages(error):
            if error.validator == "type":
                typed.add(path)
            messages = found.setdefault(path, [])
            if message not in messages:  # `required` is one error per missing key
                messages.append(message)
    out: list[tuple[KeyPath, ConfigError]] = []
    for path, messages in found.items():
        kept = [m for m in messages if m.startswith("expected ")] if path in typed else messages
        out.extend((path, doc.error(path, message)) for message in kept)
    return out


def builtin() -> Document:
    """The built-in defaults as a document."""
    return parse(default_text(), BUILTIN)


def problems(doc: Document, base: Document | None = None) -> list[ConfigError]:
    """Every problem of ``doc`` (merged over ``base``, default: the built-in defaults), in file
    order."""
    from_schema = schema_problems(doc)
    reported = frozenset(path for path, _ in from_schema)
    found = [error for _, error in from_schema]
    found += checks.problems(doc, base or builtin(), reported)
    return sorted(found, key=lambda error: error.line or 0)


def validate(doc: Document) -> None:
    """Raise ConfigError naming every problem of ``doc`` (one line), or return when it is valid."""
    found = problems(doc)
    if len(found) == 1:
        raise found[0]
    if found:
        raise ConfigErrors(tuple(found))
