"""Writing the hand-off files (atomically, never through a symlink, handed to the workspace's
owner) and collecting the action outputs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ctxaction.agents import PACKAGE_JSON, PACKAGE_MD, AgentPreset, pointer, prompt_text
from ctxaction.github.handoff.inline import DEFAULT_MARKDOWN_LIMIT, cap_markdown
from ctxaction.github.handoff.manifest import files_json
from ctxaction.github.handoff.paths import OLD_GITIGNORE
from ctxaction.model import Package
from ctxaction.output import Owner, write_atomic


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


def _drop_old_gitignore(workspace: Path) -> None:
    """Earlier versions wrote ``.ctxaction/.gitignore`` (``*``), which hid the package from
    gemini-cli: remove it when it is exactly ours."""
    old = workspace / OLD_GITIGNORE
    if not old.is_symlink() and old.is_file() and old.read_text(encoding="utf-8", errors="replace") == "*\n":
        old.unlink()
