"""Reading JSON with bounded nesting, and a JSON object from a file with one clear error for each
way it can be wrong. Standard library only: the pre-commit hook imports this."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# Far deeper than any GitHub payload (under 10), far below the recursion limit the decoder hits.
MAX_DEPTH = 100
# A string (closed or not: the decoder reports that) or a bracket; strings may hold brackets.
_TOKEN = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}]')


class TooDeep(json.JSONDecodeError):
    """The JSON nests deeper than the limit (raised at the bracket that goes too deep)."""


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` with a JSONDecodeError at the
    bracket that goes too deep (``json.loads`` itself dies with RecursionError far down)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") > max_depth:
        depth = 0
        for match in _TOKEN.finditer(text):
            token = match.group(0)
            if token in "[{":
                depth += 1
                if depth > max_depth:
                    raise TooDeep(f"nested deeper than {max_depth} levels", text, match.start())
            elif token in "]}":
                depth -= 1
    return json.loads(text)


def read_json_object(path: str | Path, what: str, error: type[Exception]) -> Mapping[str, Any]:
    """The JSON object in ``path``; raises ``error`` naming ``what`` (e.g. "event payload"), the
    file and, for bad JSON, the line. Bytes that are not UTF-8 are replaced, not fatal."""
    try:
        raw = Path(path).read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        raise error(f"cannot read the {what} {path}: {exc.strerror or exc}") from exc
    try:
        obj = loads(raw)
    except json.JSONDecodeError as exc:
        raise error(f"{what} {path} line {exc.lineno}: not valid JSON ({exc.msg})") from exc
    if not isinstance(obj, Mapping):
        raise error(f"{what} {path}: expected a JSON object, got {type(obj).__name__}")
    return obj
