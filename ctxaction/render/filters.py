"""The Jinja2 filters of the Markdown and XML templates: untrusted values made inert, labels and
fences (plain functions, so measuring and JSON need no Jinja2)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from ctxaction.markdown import escape_inline
from ctxaction.model import PackedFile, Task
from ctxaction.sanitize import neutralize_mentions

_LANGUAGES = {
    "py": "python", "pyi": "python", "js": "javascript", "mjs": "javascript", "cjs": "javascript",
    "jsx": "jsx", "ts": "typescript", "tsx": "tsx", "go": "go", "rs": "rust", "java": "java",
    "kt": "kotlin", "kts": "kotlin", "scala": "scala", "rb": "ruby", "php": "php", "c": "c", "h": "c",
    "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "hh": "cpp", "cs": "csharp", "swift": "swift",
    "m": "objectivec", "sh": "bash", "bash": "bash", "zsh": "bash", "ps1": "powershell", "sql": "sql",
    "html": "html", "htm": "html", "css": "css", "scss": "scss", "md": "markdown", "rst": "rst",
    "yml": "yaml", "yaml": "yaml", "toml": "toml", "json": "json", "xml": "xml", "ini": "ini",
    "cfg": "ini", "lua": "lua", "r": "r", "pl": "perl", "ex": "elixir", "exs": "elixir", "erl": "erlang",
    "hs": "haskell", "ml": "ocaml", "dart": "dart", "vue": "vue", "svelte": "svelte", "tf": "hcl",
}  # fmt: skip


def language(path: str) -> str:
    """The fence language of a path ("" when unknown)."""
    name = path.rsplit("/", 1)[-1].lower()
    if name in ("dockerfile", "makefile"):
        return name
    return _LANGUAGES.get(name.rsplit(".", 1)[-1], "") if "." in name else ""


def inline(value: object) -> str:
    """Untrusted text for a Markdown line or HTML element: escaped, mentions neutralized."""
    text = " ".join(str(value).split())
    return html.escape(neutralize_mentions(text)[0], quote=True)


def prose(value: object) -> str:
    """Untrusted text for a Markdown line outside code and HTML: one line, mentions neutralized,
    inline Markdown escaped (see :func:`ctxaction.markdown.escape_inline`)."""
    return escape_inline(neutralize_mentions(" ".join(str(value).split()))[0])


def range_list(ranges: Sequence[tuple[int, int]]) -> str:
    """``[(1, 40), (88, 88)]`` → ``1-40,88``."""
    return ",".join(f"{a}-{b}" if a != b else str(a) for a, b in ranges)


def mode_label(f: PackedFile) -> str:
    """``whole`` / ``excerpt, 120 of 540 lines`` / ``outline, 14 of 540 lines``."""
    if f.mode == "full":
        return f"whole, {f.line_count} lines"
    shown = sum(b - a + 1 for a, b in f.ranges)
    return f"{f.mode}, {shown} of {f.line_count} lines"


def task_label(task: Task) -> str:
    """``Issue #456`` / ``Pull request #12`` / ``Task``."""
    noun = {"issue": "Issue", "pr": "Pull request"}.get(task.kind, "Task")
    return f"{noun} #{task.number}" if task.number is not None else noun


def ends_with_newline(text: str) -> str:
    return text if text.endswith("\n") else f"{text}\n"


def xml_escape(text: str) -> str:
    """Element content for the XML format: ``&``, ``<`` and ``>`` escaped, quotes left readable
    (they only need escaping inside attributes, which autoescaping handles)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
