"""The one reader of ``context-packages.yaml``, for the packager and the secret scanner alike:
find the file (``--config``, then LOOKUP under the repository), parse it once with line marks,
validate it whole, and hand back the document each consumer takes its typed section from
(:func:`ctxaction.config.load.config_of`, :func:`ctxaction.config.secrets.secrets_of`).

A file is validated whole wherever it is read, so ``build``, ``scan`` and the hook agree on what
is broken. Validation is skipped for a text already found valid (:mod:`ctxaction.config.cache`),
which keeps ``jsonschema`` out of most hook runs.
"""

from __future__ import annotations

from pathlib import Path

from ctxaction.config.source import Document, find_config, parse, read_text


def read_config(root: Path | None, explicit: Path | None = None) -> Document | None:
    """The validated config document for ``root`` (or ``explicit``), None when there is none;
    ConfigError naming every problem otherwise."""
    path = find_config(root, explicit)
    if path is None:
        return None
    return checked(read_text(path), str(path))


def checked(text: str, source: str) -> Document:
    """``text`` parsed and validated (unless known valid); ConfigError naming every problem."""
    from ctxaction.config import cache  # hashlib: only when there is a file

    doc = parse(text, source)
    if not cache.is_valid(text):
        from ctxaction.config.validate import validate  # jsonschema: only for unknown content

        validate(doc)
        cache.remember(text)
    return doc
