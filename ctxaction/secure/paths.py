"""Sensitive path rules with gitignore semantics: built-in patterns, config patterns, ``.contextignore``.

The packager's filter asks :meth:`PathRules.reason` about every candidate file; a non-None answer
keeps the file out of the package and says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ctxaction.secure.globs import PatternError, gitignore_spec
from ctxaction.secure.redaction import quoted

# Files that hold credentials by their nature. Templates (``.env.example``) are let back in:
# agents need them, and their content is still scanned and redacted.
DEFAULT_PATTERNS: tuple[str, ...] = (
    "*.env",
    ".env",
    ".env.*",
    "!.env.example",
    "!.env.sample",
    "!.env.template",
    "!.env.dist",
    "!.env.defaults",
    "!*.env.example",
    "!*.env.sample",
    "!*.env.template",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "*.kdbx",
    "*.ppk",
    "*.ovpn",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "!id_*.pub",
    "**/secrets/**",
    "**/secret/**",
    "**/credentials/**",
    "**/.secrets/**",
    "secrets.yml",
    "secrets.yaml",
    "secrets.json",
    "secrets.toml",
    "*.secret",
    "*.secrets",
    "credentials",
    "credentials.json",
    "credentials.yml",
    "credentials.yaml",
    "client_secret*.json",
    "service-account*.json",
    "service_account*.json",
    "*-credentials.json",
    ".aws/credentials",
    ".aws/config",
    ".netrc",
    "_netrc",
    ".pgpass",
    ".my.cnf",
    ".pypirc",
    ".git-credentials",
    ".htpasswd",
    "htpasswd",
    ".dockercfg",
    ".docker/config.json",
    ".kube/config",
    "kubeconfig",
    "*.kubeconfig",
    "*.tfstate",
    "*.tfstate.backup",
    "*.tfvars",
    "!*.example.tfvars",
    "wp-config.php",
    # production configs
    "config/production.*",
    "config/prod.*",
    "**/config/production/**",
    "production.env",
    "prod.env",
    "application-prod.properties",
    "application-prod.yml",
    "application-prod.yaml",
    "application-production.properties",
    "application-production.yml",
    "application-production.yaml",
    "appsettings.Production.json",
    "settings/production.py",
    "settings/prod.py",
    "config/master.key",
    "config/credentials.yml.enc",
    "config/credentials/*.key",
)

CONTEXTIGNORE = ".contextignore"


# Where a pattern came from, for the reason string: ("default" | "config" | ".contextignore", line).
_Source = tuple[str, int]


class PathRules:
    """Ordered gitignore patterns: built-ins, then config patterns, then ``.contextignore``.

    Later patterns win (as in one ``.gitignore``), so ``.contextignore`` can re-include a file
    with ``!path`` or exclude more.
    """

    def __init__(
        self, patterns: Sequence[str], sources: Sequence[_Source], ignore_file: str = CONTEXTIGNORE
    ) -> None:
        """Raises :class:`PatternError` naming the file and line (or config key) of a bad pattern,
        the pattern quoted as every message quotes a value (redacted, then cut)."""
        self._patterns = list(patterns)
        self._sources = list(sources)
        try:
            self._spec = gitignore_spec(self._patterns)
        except PatternError as exc:
            kind, line = self._sources[exc.index]
            where = f"{ignore_file}:{line}" if kind == CONTEXTIGNORE else f"sensitive_paths[{line - 1}]"
            raise PatternError(exc.index, exc.pattern, exc.problem, where, quoted(exc.pattern)) from None

    @classmethod
    def from_repo(cls, root: Path | None, extra_patterns: Sequence[str] = ()) -> PathRules:
        """Rules for a repository: defaults, ``extra_patterns`` (config) and ``root/.contextignore``."""
        patterns: list[str] = []
        sources: list[_Source] = []
        for i, pattern in enumerate(DEFAULT_PATTERNS, 1):
            patterns.append(pattern)
            sources.append(("default", i))
        for i, pattern in enumerate(extra_patterns, 1):
            patterns.append(pattern)
            sources.append(("config", i))
        ignore = root / CONTEXTIGNORE if root else None
        if ignore and ignore.is_file() and not ignore.is_symlink():
            lines = ignore.read_text(encoding="utf-8", errors="replace").split("\n")
            for number, raw in enumerate(lines, 1):
                line = raw.rstrip("\r")
                if line.strip() and not line.lstrip().startswith("#"):
                    patterns.append(line)
                    sources.append((CONTEXTIGNORE, number))
        return cls(patterns, sources, str(ignore) if ignore else CONTEXTIGNORE)

    def reason(self, path: str) -> str | None:
        """Why ``path`` (repo-relative, ``/``-separated) is sensitive, or None when it is not."""
        result = self._spec.check_file(path.lstrip("/"))
        if not result.include or result.index is None:
            return None
        kind, line = self._sources[result.index]
        if kind == CONTEXTIGNORE:
            return f"{CONTEXTIGNORE}: line {line}"
        if kind == "config":
            return f"excluded by config ({self._patterns[result.index]})"
        return f"sensitive path ({self._patterns[result.index]})"
