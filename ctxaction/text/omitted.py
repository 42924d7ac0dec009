"""The line that stands for lines left out of a file (written by the excerpter, measured by the
renderers)."""

from __future__ import annotations


def marker(start: int, end: int) -> str:
    """The line that stands for omitted lines ``start``–``end``."""
    if start == end:
        return f"… line {start} omitted …"
    return f"… lines {start}–{end} omitted …"
