"""Reading a JSON object from a file, with one clear error for each way it can be wrong."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def read_json_object(path: str | Path, what: str, error: type[Exception]) -> Mapping[str, Any]:
    """The JSON object in ``path``; raises ``error`` naming ``what`` (e.g. "event payload"), the
    file and, for bad JSON, the line. Bytes that are not UTF-8 are replaced, not fatal."""
    try:
        raw = Path(path).read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        raise error(f"cannot read the {what} {path}: {exc.strerror or exc}") from exc
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise error(f"{what} {path} line {exc.lineno}: not valid JSON ({exc.msg})") from exc
    if not isinstance(obj, Mapping):
        raise error(f"{what} {path}: expected a JSON object, got {type(obj).__name__}")
    return obj
