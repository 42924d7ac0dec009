"""File-first hand-off to a coding agent: the package as files in the workspace plus a pointer.

Hosts fail on big prompts (claude-code-action passes them through environment variables and
breaks past the runner's argument limit), so every action run writes

- ``.ctxaction/package.md`` (the package) and ``.ctxaction/package.json`` (the manifest),
- ``.ctxaction/prompt.md`` for hosts that read a prompt file (codex, gemini, generic),
- ``.ctxaction/.gitignore`` (``*``) so an agent never commits them,

and reports outputs small enough for ``$GITHUB_OUTPUT``: paths, sizes, the commit packaged, the
pointer sentence, the files with scores and reasons, and the package inline, capped. Nothing is
ever written to ``.claude/``, ``CLAUDE.md`` or ``.mcp.json``: hosts restore those from the base
branch and treat them as their own configuration.
"""

from __future__ import annotations

import json
import re
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
from ctxaction.output import write_atomic

DEFAULT_MARKDOWN_LIMIT = 30_000
_SHA_NOTE = re.compile(r"<!-- ctxaction:sha ([0-9a-f]{40,64}) -->")


class HandoffError(OSError):
    """The package files cannot be written where they belong."""


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


def _target(workspace: Path, rel: str) -> Path:
    """``workspace/rel`` after checking that no part of the way is a symlink (a repository could
    ship ``.ctxaction`` as a link to steer our writes elsewhere)."""
    path = workspace
    for part in Path(rel).parts:
        path = path / part
        if path.is_symlink():
            where = path.relative_to(workspace)
            raise HandoffError(f"{where} is a symlink: refusing to write the package through it")
    return path


def write_handoff(
    workspace: Path,
    package: Package,
    preset: AgentPreset,
    markdown: str,
    manifest: str,
    *,
    markdown_limit: int = DEFAULT_MARKDOWN_LIMIT,
) -> Handoff:
    """Write the package files under ``workspace/.ctxaction`` (atomically) and collect the outputs.

    ``markdown`` and ``manifest`` are the rendered package (already redacted by the caller).
    """
    directory = _target(workspace, PACKAGE_DIR)
    if directory.exists() and not directory.is_dir():
        raise HandoffError(f"{PACKAGE_DIR} exists and is not a folder: remove it or let ctxaction own it")
    sentence = pointer(preset, tokens=package.total_tokens, files=len(package.files))
    files = {PACKAGE_MD: markdown, PACKAGE_JSON: manifest, f"{PACKAGE_DIR}/.gitignore": "*\n"}
    if preset.prompt_file:
        files[preset.prompt_file] = prompt_text(preset, package.task, sentence)
    for rel, text in files.items():
        write_atomic(_target(workspace, rel), text)
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
    from ctxaction.config import load_config

    return get_preset(load_config(workspace, config).agent)


def sha_note(sha: str) -> str:
    """The hidden line recording which commit a comment's package was built from."""
    return f"<!-- ctxaction:sha {sha} -->" if sha else ""


def packaged_sha(body: str) -> str:
    """The commit a comment of ours was built from ("" when it does not say)."""
    m = _SHA_NOTE.search(body)
    return m.group(1) if m else ""


def _code(text: str) -> str:
    """``text`` as an inline code span fit for a table cell."""
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{' '.join(text.split())}{pad}{ticks}".replace("|", "\\|")


def _cell(text: str) -> str:
    from ctxaction.render import inline

    return inline(text).replace("|", "\\|")


def compact_comment(
    package: Package, *, commit_url: str = "", full_url: str = "", full_label: str = ""
) -> str:
    """A short comment for people beside the agents: summary, files with reasons, links.

    The package itself lives in the files (and the artifact / job summary); the comment names the
    commit packaged, so a comment about an older commit is recognisably stale.
    """
    from ctxaction.render import mode_label, range_list, task_label
    from ctxaction.render.names import displayed

    package = displayed(package)
    head = package.head
    commit = f" · commit `{head[:12]}`" if head else ""
    if head and commit_url:
        commit = f" · commit [`{head[:12]}`]({commit_url})"
    lines = [
        f"### Context package · {task_label(package.task)}",
        "",
        f"{package.total_tokens} tokens ({package.encoding}) · {len(package.files)} files · "
        f"profile `{_cell(package.profile)}`{commit}",
        "",
    ]
    if full_url:
        label = _cell(full_label or "this run")
        lines += [f"Full package: [{label}]({full_url}); agents read `{PACKAGE_MD}`.", ""]
    if package.files:
        lines += ["| file | part | why |", "| --- | --- | --- |"]
        for f in package.files:
            part = mode_label(f) if f.mode == "full" else f"{mode_label(f)}: {range_list(f.ranges)}"
            why = "; ".join(_cell(r) for r in f.reasons[:3]) or "ranked"
            lines.append(f"| {_code(f.path)} | {part} | {why} |")
        lines.append("")
    if package.omitted:
        lines.append(f"<details><summary>{len(package.omitted)} more candidates left out</summary>\n")
        lines += [f"- {_code(o.path)} ({o.score:.2f}): {_cell(o.reason)}" for o in package.omitted[:20]]
        lines += ["", "</details>", ""]
    lines += [f"> ⚠ {_cell(w)}" for w in package.warnings[:5]]
    return "\n".join(lines).rstrip("\n") + "\n" + sha_note(head)
