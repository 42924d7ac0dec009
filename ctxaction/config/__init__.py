"""``context-packages.yaml``, read once for the packager and the secret scanner alike.

One module one job, so that the pre-commit hook loads only what it needs:

- :mod:`~ctxaction.config.source`: where the file is, its text, its values and the line of each key
  (no validation; no jsonschema);
- :mod:`~ctxaction.config.schema`: the JSON Schema shipped in the package (``config.schema.json``);
- :mod:`~ctxaction.config.validate` and :mod:`~ctxaction.config.checks`: every problem at once, the
  schema's (``jsonschema``) and those a schema cannot express (shares adding up, patterns that
  compile), each with its file and line;
- :mod:`~ctxaction.config.cache`: content already validated, so the hook does not pay for it again;
- :mod:`~ctxaction.config.read`: the one reader: find, parse, validate;
- :mod:`~ctxaction.config.secrets`: the scanner's typed ``secrets:`` section;
- :mod:`~ctxaction.config.model`, :mod:`~ctxaction.config.merge`, :mod:`~ctxaction.config.load`:
  the packager's typed configuration, the defaults merged with the user's file;
- :mod:`~ctxaction.config.dump`: the effective configuration as YAML (``config show``).

This package's ``__init__`` imports nothing: the hook reaches the light modules directly.
"""
