"""Rendering a :class:`Package` as Markdown, XML-tagged text or JSON, and measuring its parts.

Templates are Jinja2 files shipped in ``ctxaction/render/templates``; untrusted text (issue,
comments, file contents, reasons) is only ever passed to them as data, never compiled as a
template. XML is autoescaped; Markdown escapes inline values and fences blocks. Jinja2 is
imported only when a template is rendered (:mod:`ctxaction.render.templated`): JSON needs none.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any, Literal, cast

from ctxaction.model import Candidate, Package, PackedFile, Task
from ctxaction.pack import excerpt
from ctxaction.pack.order import layout
from ctxaction.render.jsonout import file_entry, to_json
from ctxaction.sanitize import neutralize_mentions
from ctxaction.tokens import Counter

Format = Literal["markdown", "xml", "json"]
FORMATS: tuple[Format, ...] = ("markdown", "xml", "json")

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
_BACKTICKS = re.compile(r"`+")


def language(path: str) -> str:
    """The fence language of a path ("" when unknown)."""
    name = path.rsplit("/", 1)[-1].lower()
    if name in ("dockerfile", "makefile"):
        return name
    return _LANGUAGES.get(name.rsplit(".", 1)[-1], "") if "." in name else ""


def fence(text: str) -> str:
    """A backtick fence longer than any backtick run inside ``text`` (at least three)."""
    longest = max((len(m.group()) for m in _BACKTICKS.finditer(text)), default=0)
    return "`" * max(3, longest + 1)


def inline(value: object) -> str:
    """Untrusted text for a Markdown line or HTML element: escaped, mentions neutralized."""
    text = " ".join(str(value).split())
    return html.escape(neutralize_mentions(text)[0], quote=True)


def prose(value: object) -> str:
    """Untrusted text for a Markdown line outside code and HTML: one line, mentions neutralized,
    inline Markdown escaped (see :func:`ctxaction.markdown.escape_inline`)."""
    from ctxaction.markdown import escape_inline

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


def render(package: Package, fmt: str) -> str:
    """The package as text in ``fmt`` (markdown, xml or json); secrets in names redacted."""
    from ctxaction.render.names import displayed

    package = displayed(package)
    if fmt == "json":
        return to_json(package)
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    from ctxaction.render.templated import environment

    template = environment().get_template(f"{fmt}.{'md' if fmt == 'markdown' else 'xml'}.j2")
    return template.render(p=package, blocks=layout(package))


class FormatMeasure:
    """Token costs of file pieces as they will appear in ``fmt`` (implements pack.budget.Measure)."""

    def __init__(self, fmt: str, counter: Counter) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        self.fmt, self.counter = fmt, counter
        self._marker = self.text_cost(excerpt.marker(1000, 1999) + "\n")
        listed = {"markdown": "", "xml": ",1000-1999", "json": ",[1000,1999]"}[fmt]
        self._range = counter.count(listed)

    def _escape(self, text: str) -> str:
        if self.fmt == "json":
            return json.dumps(text, ensure_ascii=False)[1:-1]
        return xml_escape(text) if self.fmt == "xml" else text

    def text_cost(self, text: str) -> int:
        """Tokens of whole lines (with newlines), escaped as the format escapes them."""
        return self.counter.count(self._escape(text))

    def marker_cost(self) -> int:
        """Tokens of one omission marker line."""
        return self._marker

    def range_cost(self) -> int:
        """Tokens one more range adds to a file's metadata."""
        return self._range

    def file_overhead(self, candidate: Candidate) -> int:
        """Tokens of a file block without its text (heading, reasons, fences or tags)."""
        empty = PackedFile(
            candidate.path,
            "excerpt",
            [(1000, 1999)],
            "",
            0,
            candidate.score,
            list(candidate.reasons),
            line_count=9999,
        )
        return self.counter.count(self.file_block(empty))

    def file_block(self, packed: PackedFile) -> str:
        """One file as the format renders it (used to measure its overhead)."""
        if self.fmt == "json":
            return json.dumps(file_entry(packed), ensure_ascii=False, separators=(",", ":")) + ","
        from ctxaction.render.templated import environment

        name = "blocks.md.j2" if self.fmt == "markdown" else "blocks.xml.j2"
        module = cast(Any, environment().get_template(name).module)
        return str(module.file_block(packed, False) if self.fmt == "markdown" else module.file_block(packed))
