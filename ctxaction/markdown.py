"""Untrusted text meets Markdown: escaping inline text, and finding what GitHub hides or shows
verbatim, with a real CommonMark parser (markdown-it-py) instead of regexes.

- :func:`escape_inline` makes a title, a reason or a task line inert inside a table cell, a
  heading or a paragraph: the punctuation links, images, autolinks, raw HTML, code spans and
  table cells are built from, and a block marker at the start, are backslash-escaped (no link,
  image, heading, HTML or table cell can be injected) and bare URLs are broken so GitHub's
  autolinker does not make them live.
- :func:`verbatim_lines` and :func:`reference_definition_lines` tell the cleaner which lines
  GitHub shows as code (fenced *and* indented blocks) and which it renders as nothing at all (link
  reference definitions, whatever text they carry).
- :func:`clean_html` runs an HTML fragment through nh3 (ammonia): comments and the content of
  script/style dropped, attributes cut to a short allow-list.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

ZWJ = "\u200d"
# What a link, image, autolink, raw HTML, code span or table cell needs: brackets (every link and
# image form), angle brackets (autolinks, HTML), backticks, pipes and the escape character itself.
# Emphasis marks are left alone (formatting only), so identifiers like pack_files stay readable.
_PUNCT = re.compile(r"""([\\`\[\]<>|])""")
_LINE_START = re.compile(r"^([-+=#*_:~]|\d{1,9}(?=[.)]))")
# GitHub's extended autolinks: scheme://, www. and bare e-mail-ish hosts.
_AUTOLINK = re.compile(r"(?i)\b(https?|ftp|mailto|www)(?=[:.])")
_KEPT_ATTRIBUTES = {"*": {"href", "src", "width", "height", "align", "open", "colspan", "rowspan"}}


def escape_inline(text: str, limit: int = 0) -> str:
    """``text`` on one line, inert in any inline Markdown context (see the module doc).

    ``limit`` cuts the text (before escaping) to that many characters with an ellipsis.
    """
    flat = " ".join(text.split())
    if limit and len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    escaped = _LINE_START.sub(_escape_marker, _PUNCT.sub(r"\\\1", flat))
    # The escapes split the text nodes GitHub autolinks; the joiner after the scheme makes sure.
    return _AUTOLINK.sub(lambda m: m.group(1) + ZWJ, escaped)


def _escape_marker(m: re.Match[str]) -> str:
    """``- x`` → ``\\- x``; ``1. x`` → ``1\\. x`` (a list, heading or quote marker made plain)."""
    marker = m.group(1)
    return marker + "\\" if marker.isdigit() else "\\" + marker


@lru_cache(maxsize=1)
def _parser() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("gfm-like", {"linkify": False}).disable("linkify", ignoreInvalid=True)


def _block_tokens(text: str) -> list[Any]:
    return list(_parser().parse(text))


def verbatim_lines(text: str) -> set[int]:
    """0-based line numbers GitHub shows verbatim: fenced and indented code blocks."""
    out: set[int] = set()
    for token in _block_tokens(text):
        if token.type in ("fence", "code_block") and token.map:
            out.update(range(token.map[0], token.map[1]))
    return out


def reference_definition_lines(text: str) -> set[int]:
    """0-based lines holding link reference definitions (``[label]: target "title"``), which
    GitHub renders as nothing, so any text in them is hidden from a reader."""
    lines = text.split("\n")
    covered: set[int] = set()
    for token in _block_tokens(text):
        if token.map and token.level == 0:
            covered.update(range(token.map[0], token.map[1]))
    env: dict[str, Any] = {}
    _parser().parse(text, env)
    if not env.get("references"):
        return set()
    # The reference rule consumes its lines without emitting a token: non-blank lines no
    # top-level block covers are those definitions.
    return {i for i, line in enumerate(lines) if line.strip() and i not in covered}


def html_block_lines(text: str) -> list[tuple[int, int]]:
    """0-based [start, end) line ranges of the raw HTML blocks GitHub renders."""
    return [
        (token.map[0], token.map[1])
        for token in _block_tokens(text)
        if token.type == "html_block" and token.map and token.level == 0
    ]


def has_live_markup(text: str) -> list[str]:
    """The link, image, heading and raw-HTML tokens ``text`` renders to (for tests and checks)."""
    found: list[str] = []
    for token in _block_tokens(text):
        if token.type == "heading_open":
            found.append("heading")
        if token.type == "html_block":
            found.append("html")
        for child in token.children or []:
            if child.type in ("link_open", "image", "html_inline"):
                found.append(child.type)
    return found


def clean_html(fragment: str) -> str:
    """An HTML fragment with comments, scripts, styles and text-carrying attributes removed."""
    import nh3

    return str(
        nh3.clean(
            fragment,
            tags=None,
            attributes=_KEPT_ATTRIBUTES,
            strip_comments=True,
            link_rel=None,
        )
    )
