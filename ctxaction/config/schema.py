"""The JSON Schema of ``context-packages.yaml`` (draft 2020-12), shipped in the package.

Validation (:mod:`ctxaction.config.validate`) and editors use the same file: ``ctxaction config
schema`` prints it, and ``ctxaction config init`` points editors at :data:`SCHEMA_URL` with a
``# yaml-language-server: $schema=`` line. The URL names the release tag of the installed
version, so an editor checks a file against the schema this version validates with.
"""

from __future__ import annotations

from ctxaction import __version__
from ctxaction.config.source import shipped

SCHEMA_FILE = "config.schema.json"
SCHEMA_URL = (
    f"https://raw.githubusercontent.com/ctxaction/ctxaction/v{__version__}/ctxaction/defaults/{SCHEMA_FILE}"
)
MODELINE = f"# yaml-language-server: $schema={SCHEMA_URL}"


def schema_text() -> str:
    """The schema file's text."""
    return shipped(SCHEMA_FILE)


def schema() -> dict[str, object]:
    """The schema as a mapping."""
    import json  # not at import: the hook reads only the schema's text (for its cache key)

    value: dict[str, object] = json.loads(schema_text())
    return value
