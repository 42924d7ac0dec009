"""Keeping the hand-off out of commits without hiding it from the agent (see the package doc)."""

from __future__ import annotations

import os
from pathlib import Path

from ctxaction.agents import AgentPreset
from ctxaction.github.handoff.paths import AGENT_EXCLUDES, EXCLUDE_LINE
from ctxaction.output import Owner, write_atomic
from ctxaction.repo import git


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
