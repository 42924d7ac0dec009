"""The repository's rule files (CLAUDE.md, AGENTS.md, .cursor/rules …) and its skills index.

Rule files come by priority layer from the config's ``rules.sources``: layers 1–2 are always
packed (cut to their ``max_lines``), later layers only while the rules share has room. A file
whose frontmatter scopes it (``globs:`` / ``paths:``, Cursor's ``alwaysApply: false``) is packed
only when a selected file matches. Nested CLAUDE.md / AGENTS.md on the directory path of a
selected file join layer 2. Skills give name and description only; the agent opens the body.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pathspec
import yaml

from ctxaction.config import RuleSource
from ctxaction.model import RuleFile, Skill
from ctxaction.repo.files import RepoView, split_lines
from ctxaction.tokens import Counter

ALWAYS = 2  # layers up to this one are always packed
NESTED_NAMES = ("CLAUDE.md", "AGENTS.md")
_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
DESCRIPTION_CHARS = 240


@dataclass(frozen=True)
class RuleText:
    """A rule file's body (frontmatter removed) and the globs that scope it (empty = everywhere)."""

    path: str
    body: str
    scope: tuple[str, ...]


def frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """(frontmatter mapping, body) of a Markdown/MDC file; ({}, text) when it has none or it is bad."""
    match = _FRONTMATTER.match(text)
    if not match:
        return {}, text
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return {}, text[match.end():]
    return (data if isinstance(data, dict) else {}), text[match.end():]


def scope_of(meta: dict[str, Any]) -> tuple[str, ...]:
    """Globs from ``globs:`` / ``paths:`` (a list or a comma-separated string)."""
    if meta.get("alwaysApply") is True:
        return ()
    globs: list[str] = []
    for key in ("globs", "paths"):
        value = meta.get(key)
        items = value if isinstance(value, list) else str(value or "").split(",")
        globs += [str(item).strip() for item in items if str(item).strip()]
    return tuple(globs)


def matches_any(globs: Sequence[str], paths: Sequence[str]) -> bool:
    """Whether any of ``paths`` matches any glob (gitignore-style wildcards)."""
    spec = pathspec.GitIgnoreSpec.from_lines(globs)
    return any(spec.match_file(path) for path in paths)


def _anchored(pattern: str) -> pathspec.GitIgnoreSpec:
    # Config patterns name files from the repository root: "CLAUDE.md" is the root one only
    # (nested ones are found along the selected files' paths).
    return pathspec.GitIgnoreSpec.from_lines([pattern if pattern.startswith("/") else f"/{pattern}"])


def nested_rule_paths(tracked: set[str], selected: Sequence[str]) -> list[str]:
    """CLAUDE.md / AGENTS.md in the folders on the way to each selected file (not the root)."""
    out: list[str] = []
    for path in selected:
        folder = posixpath.dirname(path)
        chain: list[str] = []
        while folder:
            chain.append(folder)
            folder = posixpath.dirname(folder)
        for directory in reversed(chain):
            for name in NESTED_NAMES:
                candidate = f"{directory}/{name}"
                if candidate in tracked and candidate not in out:
                    out.append(candidate)
    return out


def pack_rules(
    repo: RepoView, sources: Sequence[RuleSource], selected: Sequence[str], share: int, counter: Counter,
    *, nested: bool = True, native: Sequence[str] = (), clean: Callable[[str, str], str] = lambda t, _: t,
) -> list[RuleFile]:
    """Rule files for a package whose files are ``selected``, within ``share`` tokens for layers 3+.

    ``native`` globs name rule files the agent loads by itself: they are listed, not inlined.
    ``clean`` (text, path) → text is applied to every body (secret redaction).
    """
    tracked = {f.path for f in repo.tracked() if f.skip_reason is None}
    native_spec = pathspec.GitIgnoreSpec.from_lines(native) if native else None
    layered: list[tuple[int, int | None, str]] = []
    seen: set[str] = set()
    for source in sources:
        spec = _anchored(source.pattern)
        for path in sorted(p for p in tracked if spec.match_file(p) and p not in seen):
            seen.add(path)
            layered.append((source.priority, source.max_lines, path))
    if nested:
        root_caps = {s.pattern: s.max_lines for s in sources}
        for path in nested_rule_paths(tracked, selected):
            if path not in seen:
                seen.add(path)
                layered.append((ALWAYS, root_caps.get(posixpath.basename(path)), path))
    layered.sort(key=lambda item: item[0])
    out: list[RuleFile] = []
    used = 0
    for priority, max_lines, path in layered:
        if native_spec is not None and native_spec.match_file(path):
            out.append(RuleFile(path, "", 0, False, priority))
            continue
        meta, body = frontmatter(repo.read_text(path) or "")
        scope = scope_of(meta)
        if scope and not matches_any(scope, selected):
            continue
        lines = split_lines(clean(body.strip("\n"), path))
        if not lines:
            continue
        truncated = max_lines is not None and len(lines) > max_lines
        text = "\n".join(lines[:max_lines] if truncated else lines) + "\n"
        tokens = counter.count(text)
        if priority > ALWAYS and used + tokens > share:
            continue
        used += tokens
        out.append(RuleFile(path, text, tokens, truncated, priority))
    return out


def skills_index(
    repo: RepoView, patterns: Sequence[str], clean: Callable[[str, str], str] = lambda t, _: t,
) -> list[Skill]:
    """Name and description of every skill file matching ``patterns`` (bodies left out)."""
    specs = [_anchored(p) for p in patterns]
    out: list[Skill] = []
    for entry in repo.tracked():
        if entry.skip_reason is not None or not any(s.match_file(entry.path) for s in specs):
            continue
        meta, _ = frontmatter(repo.read_text(entry.path) or "")
        name = str(meta.get("name") or posixpath.basename(posixpath.dirname(entry.path)) or entry.path)
        description = " ".join(str(meta.get("description") or "").split())
        if len(description) > DESCRIPTION_CHARS:
            description = description[: DESCRIPTION_CHARS - 1].rstrip() + "…"
        out.append(Skill(entry.path, clean(name, entry.path), clean(description, entry.path)))
    return out
