"""Cutting text to a limit: at a line boundary when possible, with a fence left open closed and a
note saying it was cut. Every limit (GitHub's comment size, the job summary's bytes, a tool
result's tokens, an action output's characters) is a ``fits`` test on the finished text.
"""

from __future__ import annotations

from collections.abc import Callable

from ctxaction.text.fences import open_fence


def close_fence(body: str) -> str:
    """``body`` with the fence it leaves open (if any) closed on a line of its own."""
    fence = open_fence(body)
    return body + (f"\n{fence}" if fence else "")


def cut(text: str, fits: Callable[[str], bool], note: str) -> str:
    """The longest head of ``text`` that, its open fence closed and ``note`` added after a blank
    line, ``fits``: whole lines when any fits, else a head of the first line (minified code).

    ``fits`` must be monotone: a shorter text fits whenever a longer one does.
    """

    def finish(body: str) -> str:
        return close_fence(body) + "\n\n" + note

    lines = text.split("\n")
    low, high = 0, len(lines)
    while low < high:  # the most whole lines that fit
        mid = (low + high + 1) // 2
        if fits(finish("\n".join(lines[:mid]))):
            low = mid
        else:
            high = mid - 1
    if low or not lines[0]:
        return finish("\n".join(lines[:low]))
    first = lines[0]
    lo, hi = 0, len(first)
    while lo < hi:  # no whole line fits: the longest head of the first one
        mid = (lo + hi + 1) // 2
        if fits(finish(first[:mid])):
            lo = mid
        else:
            hi = mid - 1
    return finish(first[:lo])


def cut_to(text: str, limit: int, measure: Callable[[str], int], note: str) -> str:
    """:func:`cut` for a size limit: ``measure`` of the result is at most ``limit`` (when even the
    note alone is longer, the note alone)."""
    return cut(text, lambda t: measure(t) <= limit, note)
