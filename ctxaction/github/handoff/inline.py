"""The ``markdown`` output: the package inline, capped for ``$GITHUB_OUTPUT``."""

from __future__ import annotations

from ctxaction.agents import PACKAGE_MD
from ctxaction.text.cut import cut_to

DEFAULT_MARKDOWN_LIMIT = 30_000


def cap_markdown(text: str, limit: int) -> tuple[str, bool]:
    """``text`` cut at a line boundary to at most ``limit`` characters, an open fence closed and a
    note saying where the rest is; (text, truncated). ``limit`` 0 gives ("", False)."""
    if limit <= 0:
        return "", False
    if len(text) <= limit:
        return text, False
    note = f"[… cut to {limit} characters; the whole package is in {PACKAGE_MD}]\n"
    return cut_to(text, limit, len, note), True
