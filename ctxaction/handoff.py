"""File-first hand-off to a coding agent: the package as files in the workspace plus a pointer.

Hosts fail on big prompts (claude-code-action passes them through environment variables and
breaks past the runner's argument limit), so every action run writes

- ``.ctxaction/package.md`` (the package) and ``.ctxaction/package.json`` (the manifest),
- ``.ctxaction/prompt.md`` for hosts that read a prompt file (codex, gemini, generic),

kept out of commits without hiding them from the agent (:func:`keep_out_of_commits`): a
``.gitignore`` would make gemini-cli skip them (it honours ``.gitignore`` files and
``.git/info/exclude``, ``respectGitIgnore`` defaulting to true), so the folder is listed in
``.git/info/exclude`` (or, for gemini, in an excludes file named by the checkout's
``core.excludesFile``, which gemini-cli does not read). Files are written by the safe writer:
0644 / 0755 and owned by the workspace's owner, because the container runs as root and the
agent's steps after it run as the runner user (codex-action drops sudo first).

and reports outputs small enough for ``$GITHUB_OUTPUT``: paths, sizes, the commit packaged, the
pointer sentence, the files with scores and reasons, and the package inline, capped. Nothing is
ever written to ``.claude/``, ``CLAUDE.md`` or ``.mcp.json``: hosts restore those from the base
branch and treat them as their own configuration.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ctxaction.agents import (
    PACKAGE_DIR,
    PACKAGE_JSON,
    PACKAGE_MD,
    AgentPreset,
    get_preset,
    pointer,
    prompt_text,
)
from ctxaction.model import Package
from ctxaction.output import Owner, write_atomic
from ctxaction.repo import git

DEFAULT_MARKDOWN_LIMIT = 30_000
EXCLUDE_LINE = f"/{PACKAGE_DIR}/"
# gemini-cli reads .gitignore files and .git/info/exclude, not core.excludesFile.
AGENT_EXCLUDES = ".git/ctxaction-exclude"


@dataclass(frozen=True)
class Handoff:
    """What was written and the values the action reports as outputs."""

    package_path: str
    manifest_path: str
    prompt_file: str
    pointer: str
    size: int
    sha: str
    tokenizer: str
    files: str
    markdown: str
    truncated: bool

    def outputs(self) -> dict[str, str]:
        """The action outputs (names as in action.yml)."""
        return {
            "package-path": self.package_path,
            "manifest-path": self.manifest_path,
            "prompt-file": self.prompt_file,
            "prompt-pointer": self.pointer,
            "bytes": str(self.size),
            "sha": self.sha,
            "tokenizer": self.tokenizer,
            "files": self.files,
            "markdown": self.markdown,
            "markdown-truncated": "true" if self.truncated else "false",
        }


def files_json(package: Package) -> str:
    """The packed files as compact JSON: path, mode, ranges, tokens, score and reasons (secrets in
    names redacted)."""
    from ctxaction.render.names import displayed

    package = displayed(package)
    return json.dumps(
        [
            {
                "path": f.path,
                "mode": f.mode,
                "ranges": [list(r) for r in f.ranges],
                "tokens": f.tokens,
                "score": round(f.score, 4),
                "reasons": f.reasons,
            }
            for f in package.files
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )


def cap_markdown(text: str, limit: int) -> tuple[str, bool]:
    """``text`` cut at a line boundary to at most ``limit`` characters, an open fence closed and a
    note saying where the rest is; (text, truncated). ``limit`` 0 gives ("", False)."""
    if limit <= 0:
        return "", False
    if len(text) <= limit:
        return text, False
    from ctxaction.github.deliver import open_fence

    note = f"\n\n[… cut to {limit} characters; the whole package is in {PACKAGE_MD}]\n"
    room = limit - len(note) - 16  # 16: a closing fence and its newline
    kept: list[str] = []
    size = 0
    for line in text.split("\n"):
        if size + len(line) + 1 > room:
            break
        kept.append(line)
        size += len(line) + 1
    body = "\n".join(kept)
    fence = open_fence(body)
    return body + (f"\n{fence}" if fence else "") + note, True


def write_handoff(
    workspace: Path,
    package: Package,
    preset: AgentPreset,
    markdown: str,
    manifest: str,
    *,
    markdown_limit: int = DEFAULT_MARKDOWN_LIMIT,
    owner: Owner | None = None,
) -> Handoff:
    """Write the package files under ``workspace/.ctxaction`` (atomically, never through a
    symlink, handed to ``owner``) and collect the outputs.

    ``markdown`` and ``manifest`` are the rendered package (already redacted by the caller).
    """
    sentence = pointer(preset, tokens=package.total_tokens, files=len(package.files))
    files = {PACKAGE_MD: markdown, PACKAGE_JSON: manifest}
    if preset.prompt_file:
        files[preset.prompt_file] = prompt_text(preset, package.task, sentence)
    for rel, text in files.items():
        write_atomic(workspace / rel, text, inside=workspace, owner=owner)
    _drop_old_gitignore(workspace)
    inline, truncated = cap_markdown(markdown, markdown_limit)
    encoding = package.encoding + ("" if package.tokenizer_exact else " (estimated)")
    return Handoff(
        package_path=PACKAGE_MD,
        manifest_path=PACKAGE_JSON,
        prompt_file=preset.prompt_file or "",
        pointer=sentence,
        size=len(markdown.encode("utf-8")),
        sha=package.head,
        tokenizer=encoding,
        files=files_json(package),
        markdown=inline,
        truncated=truncated,
    )


def resolve_preset(workspace: Path, config: Path | None, agent: str) -> AgentPreset:
    """The preset of a run: the ``agent`` input when given, else ``agent:`` of the config."""
    if agent:
        return get_preset(agent)
    from ctxaction.config.load import load_config

    return get_preset(load_config(workspace, config).agent)


def _drop_old_gitignore(workspace: Path) -> None:
    """Earlier versions wrote ``.ctxaction/.gitignore`` (``*``), which hid the package from
    gemini-cli: remove it when it is exactly ours."""
    old = workspace / PACKAGE_DIR / ".gitignore"
    if not old.is_symlink() and old.is_file() and old.read_text(encoding="utf-8", errors="replace") == "*\n":
        old.unlink()


def keep_out_of_commits(
    workspace: Path, preset: AgentPreset, owner: Owner | None = None, also: tuple[str, ...] = ()
) -> str:
    """List ``/.ctxaction/`` (and the folders in ``also``: the artifact folder) where git ignores
    them but the agent still reads them; returns where ("" when the workspace is not a plain git
    checkout).

    Every preset but ``gemini`` uses ``.git/info/exclude``. gemini-cli skips what that file lists,
    so for it the line goes to ``.git/ctxaction-exclude``, named by ``core.excludesFile`` in the
    checkout's own config (a relative path: git resolves it from the work tree's top, and the
    container's absolute paths differ from the runner's) unless a user already set one.
    """
    dot_git = workspace / ".git"
    if dot_git.is_symlink() or not dot_git.is_dir():
        return ""
    configured = (git.try_run(workspace, ["config", "--get", "core.excludesFile"]) or "").strip()
    if preset.name == "gemini" and configured in ("", AGENT_EXCLUDES):
        _append_lines(workspace, workspace / AGENT_EXCLUDES, owner, also)
        git.run(workspace, ["config", "--local", "core.excludesFile", AGENT_EXCLUDES])
        config = dot_git / "config"
        if owner is not None and not config.is_symlink():
            os.chown(config, owner.uid, owner.gid)
        return AGENT_EXCLUDES
    _append_lines(workspace, dot_git / "info" / "exclude", owner, also)
    return ".git/info/exclude"


def _append_lines(workspace: Path, path: Path, owner: Owner | None, also: tuple[str, ...]) -> None:
    current = ""
    if path.is_file() and not path.is_symlink():
        current = path.read_text(encoding="utf-8", errors="replace")
    have = set(current.split("\n"))
    missing = [line for line in (EXCLUDE_LINE, *(f"/{folder}/" for folder in also)) if line not in have]
    if not missing:
        return
    glue = "" if not current or current.endswith("\n") else "\n"
    note = "# written by ctxaction: never committed, still readable by agents\n"
    text = f"{current}{glue}{note}" + "".join(f"{line}\n" for line in missing)
    write_atomic(path, text, inside=workspace, owner=owner)
