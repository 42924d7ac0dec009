"""Phase 3: keep secrets and junk out. Every packaged text passes through here.

A candidate is excluded (and listed with the reason) when its path is sensitive (built-in
patterns, the config's ``sensitive_paths``, ``.contextignore``, ``--exclude``), when the
inventory marks it binary / LFS pointer / minified / generated / vendored / lockfile / symlink
leaving the repo, when it is too big, unreadable, or a dump of personal data. What is kept is
redacted before it is rendered: secrets become ``[REDACTED:rule-id]``, the line count unchanged.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ctxaction.config.secrets import SecretsConfig
from ctxaction.model import Candidate, Excluded
from ctxaction.repo.files import MAX_FILE_BYTES, RepoView, split_lines
from ctxaction.repo.memo import cached
from ctxaction.secure import Detector, PathRules, bulk_personal_data, default_detector, redact_with
from ctxaction.secure.globs import gitignore_spec


@dataclass(frozen=True)
class Readable:
    """A candidate that passed the filter, with its redacted lines."""

    candidate: Candidate
    lines: list[str]


@dataclass
class Filtered:
    """The filter's result: what may be packed, what may not (and why), and notes."""

    kept: list[Readable] = field(default_factory=list)
    excluded: list[Excluded] = field(default_factory=list)


class Redactor:
    """Redacts texts and keeps count of what it replaced (counts only, never the secrets).

    ``detector`` carries the config's ``secrets:`` allowlist (default: every rule, no allowlist).
    """

    def __init__(self, detector: Detector | None = None) -> None:
        self.detector = detector or default_detector()
        self.counts: dict[str, int] = {}
        self._lines: dict[str, list[str]] = {}

    def lines(self, path: str, lines: Sequence[str]) -> list[str]:
        """A file's lines with secrets redacted (computed once per path; line count unchanged)."""
        if path not in self._lines:
            self._lines[path] = split_lines(self("".join(f"{line}\n" for line in lines), path))
        return self._lines[path]

    def __call__(self, text: str, path: str = "") -> str:
        """``text`` with secrets replaced; ``path`` labels where the findings were."""
        clean, findings = redact_with(self.detector, text, path)
        if findings:
            where = path or "the task text"
            self.counts[where] = self.counts.get(where, 0) + len(findings)
        return clean

    def warnings(self, places: Collection[str] | None = None) -> list[str]:
        """One line per place (all, or those in ``places``) that held secrets."""
        return [
            f"{n} secret(s) redacted in {where}"
            for where, n in sorted(self.counts.items())
            if places is None or where in places
        ]


def configured_detector(section: SecretsConfig) -> Detector:
    """The secret detector with the config's ``secrets:`` section applied."""
    from ctxaction.secure.rules import ALL_RULES
    from ctxaction.secure.settings import settings_of

    return Detector(ALL_RULES, settings_of(section).allowlist) if section.source else default_detector()


def sensitive_paths(root: Path, config_path: Path | None) -> PathRules:
    """The repository's sensitive-path rules: built-in patterns, the config's ``sensitive_paths``
    and ``.contextignore`` (what the packager refuses, every reader of files refuses too)."""
    from ctxaction.config.load import load_config

    return PathRules.from_repo(root, load_config(root, config_path).sensitive_paths)


class PathFilter:
    """Path-level exclusion: sensitive patterns, ``--exclude`` patterns and the inventory's verdicts."""

    def __init__(self, repo: RepoView, rules: PathRules, exclude: Sequence[str] = ()) -> None:
        self.repo, self.rules = repo, rules
        self._exclude = gitignore_spec(exclude) if exclude else None

    def reason(self, path: str) -> str | None:
        """Why ``path`` must stay out, or None."""
        sensitive = self.rules.reason(path)
        if sensitive:
            return sensitive
        if self._exclude is not None and self._exclude.match_file(path):
            return "excluded by --exclude"
        entry = self.repo.file(path)
        if entry is None:
            return "not tracked"
        if entry.skip_reason:
            return entry.skip_reason
        if entry.size > MAX_FILE_BYTES:
            return f"too large ({entry.size // 1024} KiB > {MAX_FILE_BYTES // 1024} KiB)"
        return None


def read_checked(repo: RepoView, path: str) -> tuple[list[str] | None, str | None]:
    """(lines, None) for a readable text file, else (None, why it cannot be packed).

    The lines are not redacted yet: scanning is the costly part, so only what gets packed is
    redacted (:meth:`Redactor.lines`), and the package is rendered from those lines only.
    """
    text = repo.read_text(path)
    if text is None:
        return None, "binary or unreadable"
    if not text.strip():
        return None, "empty file"
    # A warm view (the MCP server) scans each file once per repository state.
    personal = cached(repo.memo, ("personal", path, text), functools.partial(bulk_personal_data, text, path))
    if personal:
        return None, personal
    return split_lines(text), None


def filter_candidates(
    candidates: Sequence[Candidate],
    repo: RepoView,
    paths: PathFilter,
    limit: int,
) -> Filtered:
    """Phase 3 over ranked candidates: the first ``limit`` that pass, with their lines.

    Excluded entries are reported only for candidates (files the ranking proposed), so the list
    says what the package would have held, not every secret file of the repository.
    """
    out = Filtered()
    for candidate in candidates:
        if len(out.kept) >= limit:
            break
        reason = paths.reason(candidate.path)
        lines: list[str] | None = None
        if reason is None:
            lines, reason = read_checked(repo, candidate.path)
        if reason is not None or lines is None:
            out.excluded.append(Excluded(candidate.path, reason or "unreadable"))
            continue
        out.kept.append(Readable(candidate, lines))
    return out
