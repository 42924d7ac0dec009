"""The repository's rule files (CLAUDE.md, AGENTS.md, .cursor/rules …) and its skills index.

Rule files come by priority layer from the config's ``rules.sources``: layers 1–2 are always
packed (cut to their ``max_lines``), later layers only while the rules share has room. A file
whose frontmatter scopes it (``globs:`` / ``paths:``, Cursor's ``alwaysApply: false``) is packed
only when a selected file matches. Nested CLAUDE.md / AGENTS.md on the directory path of a
selected file join layer 2. Skills give name and description only; the agent opens the body.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pathspec
import yaml

from ctxaction import yamlsafe
from ctxaction.config.model import RuleSource
from ctxaction.model import RuleFile, Skill
from ctxaction.repo.files import RepoView, split_lines
from ctxaction.repo.memo import RepoMemo, cached
from ctxaction.secure.globs import gitignore_spec, matching, valid_only
from ctxaction.tokens import Counter

ALWAYS = 2  # layers up to this one are always packed
NESTED_NAMES = ("CLAUDE.md", "AGENTS.md")
_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
DESCRIPTION_CHARS = 240
# Where a pattern's literal head ends: a wildcard, a class or an escape.
_GLOB_START = re.compile(r"[*?\[\\]")


def frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """(frontmatter mapping, body) of a Markdown/MDC file; ({}, text) when it has none or it is bad."""
    match = _FRONTMATTER.match(text)
    if not match:
        return {}, text
    try:
        data = yamlsafe.load(match.group(1))
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
    """Whether any of ``paths`` matches any glob (gitignore-style wildcards); globs that do not
    compile (a rule file's scope is written by others) match nothing."""
    spec = gitignore_spec(valid_only(globs))
    return any(spec.match_file(path) for path in paths)


def anchored_spec(pattern: str) -> pathspec.GitIgnoreSpec:
    """A config pattern compiled as the packer reads it: anchored at the repository root."""
    # Config patterns name files from the repository root: "CLAUDE.md" is the root one only
    # (nested ones are found along the selected files' paths).
    return gitignore_spec([pattern if pattern.startswith("/") else f"/{pattern}"])


def root_matches(pattern: str, paths: Iterable[str]) -> list[str]:
    """The paths a config pattern (anchored at the root) matches, in their order.

    A path it matches starts with the pattern's literal head (``.claude/rules/`` of
    ``.claude/rules/**/*.md``, all of ``CLAUDE.md``), so only those reach pathspec: in a repository
    of 28,000 files that is a handful instead of every path for every pattern (bench/glob_match.py).
    """
    head = _GLOB_START.split(pattern.lstrip("/"), maxsplit=1)[0].rstrip()
    return matching(anchored_spec(pattern), (p for p in paths if p.startswith(head)))


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
    """Rule files for a package whose files are ``selected``, within ``share`` tokens.

    Layers 1–2 are always packed but cut (head kept, with a marker) so that together they fit
    ``share``; layers 3+ only take what they leave. Files with the same text (``CLAUDE.md`` a
    symlink to ``AGENTS.md``, or a copy) are packed once with a note naming the alias.
    ``native`` globs name rule files the agent loads by itself: they are listed, not inlined, and
    a file with the same text as one of them is left out too.
    ``clean`` (text, path) → text is applied to every body (secret redaction).
    """
    files = {f.path: f for f in repo.tracked() if f.skip_reason is None}
    native_spec = gitignore_spec(native) if native else None
    entries: list[RuleFile | _Text] = []  # in packing order; natives are final already
    texts: list[_Text] = []
    loaded: set[tuple[str, ...]] = set()  # texts the agent loads itself through a native file
    for priority, max_lines, path in _layered(set(files), sources, selected, nested, repo.memo):
        meta, body = frontmatter(repo.read_text(path) or "")
        lines = split_lines(clean(body.strip("\n"), path))
        if native_spec is not None and native_spec.match_file(path):
            entries.append(RuleFile(path, "", 0, False, priority))
            loaded.add(tuple(lines))
            continue
        scope = scope_of(meta)
        if scope and not matches_any(scope, selected):
            continue
        if lines:
            texts.append(_Text(path, priority, max_lines, lines, files[path].is_symlink))
            entries.append(texts[-1])
    texts = [t for t in _dedupe(texts) if tuple(t.lines) not in loaded]
    always = [t for t in texts if t.priority <= ALWAYS]
    caps = _fair_caps([counter.count(t.render()) for t in always], share)
    packed = {id(t): _cut(t, cap, counter) for t, cap in zip(always, caps, strict=True)}
    used = sum(r.tokens for r in packed.values())
    for text in texts:
        if text.priority <= ALWAYS:
            continue
        rule = _cut(text, None, counter)
        if used + rule.tokens <= share:
            used += rule.tokens
            packed[id(text)] = rule
    return [
        e if isinstance(e, RuleFile) else packed[id(e)]
        for e in entries
        if isinstance(e, RuleFile) or id(e) in packed
    ]


@dataclass
class _Text:
    """A rule file's cleaned lines before cutting, and the paths that carry the same text."""

    path: str
    priority: int
    max_lines: int | None
    lines: list[str]
    is_symlink: bool
    aliases: list[str] = field(default_factory=list)

    def render(self, keep: int | None = None) -> str:
        """The text with at most ``keep`` (and ``max_lines``) lines, an alias note and a cut marker."""
        limit = len(self.lines) if self.max_lines is None else min(self.max_lines, len(self.lines))
        if keep is not None:
            limit = min(limit, keep)
        head = [f"({', '.join(self.aliases)}: same text as {self.path}, packed once)"] if self.aliases else []
        tail = (
            [f"… rule file truncated: {limit} of {len(self.lines)} lines, open {self.path} for the rest"]
            if limit < len(self.lines)
            else []
        )
        return "\n".join([*head, *self.lines[:limit], *tail]) + "\n"

    def kept(self, keep: int | None) -> int:
        """Lines of the body that ``render(keep)`` shows."""
        limit = len(self.lines) if self.max_lines is None else min(self.max_lines, len(self.lines))
        return limit if keep is None else min(limit, keep)


def _layered(
    tracked: set[str], sources: Sequence[RuleSource], selected: Sequence[str], nested: bool,
    memo: RepoMemo | None = None,
) -> list[tuple[int, int | None, str]]:
    """(priority, max_lines, path) of every rule file, by priority (config order within one);
    ``memo`` keeps each pattern's matches for the repository state."""
    layered: list[tuple[int, int | None, str]] = []
    seen: set[str] = set()
    for source in sources:
        find = functools.partial(root_matches, source.pattern, tracked)
        matched = cached(memo, ("rule_files", source.pattern), find)
        for path in sorted(p for p in matched if p not in seen):
            seen.add(path)
            layered.append((source.priority, source.max_lines, path))
    if nested:
        root_caps = {s.pattern: s.max_lines for s in sources}
        for path in nested_rule_paths(tracked, selected):
            if path not in seen:
                seen.add(path)
                layered.append((ALWAYS, root_caps.get(posixpath.basename(path)), path))
    layered.sort(key=lambda item: item[0])
    return layered


def _dedupe(texts: list[_Text]) -> list[_Text]:
    """One entry per distinct text: a regular file is preferred over a symlink to it."""
    by_text: dict[tuple[str, ...], _Text] = {}
    out: list[_Text] = []
    for text in texts:
        key = tuple(text.lines)
        first = by_text.get(key)
        if first is None:
            by_text[key] = text
            out.append(text)
            continue
        if first.is_symlink and not text.is_symlink:
            first.aliases.append(first.path)
            first.path, first.is_symlink = text.path, False
        else:
            first.aliases.append(text.path)
        first.priority = min(first.priority, text.priority)
        caps = [c for c in (first.max_lines, text.max_lines) if c is not None]
        first.max_lines = max(caps) if len(caps) == 2 else None
    return out


def _fair_caps(sizes: Sequence[int], share: int) -> list[int]:
    """Token caps that fit ``share``: small files whole, the rest split the remainder evenly."""
    caps = [0] * len(sizes)
    left, open_ = max(share, 0), sorted(range(len(sizes)), key=lambda i: sizes[i])
    while open_:
        even = left // len(open_)
        index = open_[0]
        if sizes[index] > even:
            for i in open_:
                caps[i] = even
            break
        caps[index] = sizes[index]
        left -= sizes[index]
        open_.pop(0)
    return caps


def _cut(text: _Text, cap: int | None, counter: Counter) -> RuleFile:
    """The rule file within ``cap`` tokens (None = its ``max_lines`` only), head kept."""
    keep = None
    rendered = text.render()
    if cap is not None and counter.count(rendered) > cap:
        low, high = 0, text.kept(None)
        while low < high:  # the most head lines whose rendering fits the cap
            middle = (low + high + 1) // 2
            if counter.count(text.render(middle)) <= cap:
                low = middle
            else:
                high = middle - 1
        keep = low
        rendered = text.render(keep)
    truncated = text.kept(keep) < len(text.lines)
    return RuleFile(text.path, rendered, counter.count(rendered), truncated, text.priority)


def skills_index(
    repo: RepoView, patterns: Sequence[str], clean: Callable[[str, str], str] = lambda t, _: t,
) -> list[Skill]:
    """Name and description of every skill file matching ``patterns`` (bodies left out)."""
    readable = [e.path for e in repo.tracked() if e.skip_reason is None]
    out: list[Skill] = []
    # Sorted, as the tracked files are: the index lists skills by path.
    for path in sorted({p for pattern in patterns for p in root_matches(pattern, readable)}):
        meta, _ = frontmatter(repo.read_text(path) or "")
        name = str(meta.get("name") or posixpath.basename(posixpath.dirname(path)) or path)
        # Redacted before the cut: a token cut short no longer matches its rule.
        description = clean(" ".join(str(meta.get("description") or "").split()), path)
        if len(description) > DESCRIPTION_CHARS:
            description = description[: DESCRIPTION_CHARS - 1].rstrip() + "…"
        out.append(Skill(path, clean(name, path), description))
    return out
