"""The one reader of ``context-packages.yaml``, for the packager and the secret scanner alike:
find the file (``--config``, then LOOKUP under the repository), parse it once with line marks,
validate it whole, and hand back the document each consumer takes its typed section from
(:func:`ctxaction.config.load.config_of`, :func:`ctxaction.config.secrets.secrets_of`).

A file is validated whole wherever it is read, so ``build``, ``scan`` and the hook agree on what
is broken. Validation is skipped for a text already found valid (:mod:`ctxaction.config.cache`),
which keeps ``jsonschema`` out of most hook runs; the scanner's section of such a text is stored
with it, so :func:`read_secrets` then parses no YAML either.
"""

from __future__ import annotations

from pathlib import Path

from ctxaction.config.secrets import SecretsConfig, as_json, from_json, secrets_of
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


def read_secrets(root: Path | None, explicit: Path | None = None) -> SecretsConfig:
    """The validated ``secrets:`` section for ``root`` (or ``explicit``), defaults without a
    file; ConfigError naming every problem of a broken file. For a text validated before, the
    section comes from the cache as JSON, without parsing YAML (which is most of a hook run's
    cost with a config); any doubt about the stored entry means reading the file as ``build``
    does."""
    path = find_config(root, explicit)
    if path is None:
        return SecretsConfig()
    from ctxaction.config import cache

    text, source = read_text(path), str(path)
    stored = cache.stored_section(text)
    section = from_json(stored, source) if stored is not None else None
    if section is None:
        if stored is not None:
            cache.forget_section(text)
        section = secrets_of(checked(text, source))
        cache.remember_section(text, as_json(section))
    return section
