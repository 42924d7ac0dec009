"""Delivery of a package inside GitHub Actions: comment body, artifact files, job summary, outputs.

Everything posted or written passes through :func:`posted_text`: the sensitive-data engine
(``ctxaction.secure.redact``) first, then ``@mentions`` and ``#refs`` outside code blocks are
neutralized (GitHub does not link inside fenced code, and code must stay copyable). Comments are
cut to GitHub's 65,536 characters — counted in UTF-16 code units, as GitHub counts them — by
dropping the lowest-ranked files first and re-rendering, and, only when that is not enough, at a
line boundary with the open fence closed. Every body posted (the package comment, the command's
reply) passes :func:`final_body` last, the one cap GitHub's limit is enforced by.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from ctxaction.model import Package
from ctxaction.output import Owner, append_text, write_atomic
from ctxaction.pack.weakest import drop_weakest
from ctxaction.sanitize import neutralize_agent_handles, neutralize_mentions, neutralize_references
from ctxaction.secure import redact
from ctxaction.text.cut import cut_to
from ctxaction.text.fences import code_segments

COMMENT_LIMIT = 65_536
SUMMARY_LIMIT = 1_048_576
MARKER_RE = re.compile(r"<!-- ctxaction:package v\d+ -->")
MARKER = "<!-- ctxaction:package v1 -->"
REPLY_MARKER = "<!-- ctxaction:reply v1 -->"

DROPPED = "left out of this comment (size limit)"

Render = Callable[[Package], str]


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: characters outside the BMP count twice."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def utf8_len(text: str) -> int:
    """Length in UTF-8 bytes (the job summary limit is in bytes)."""
    return len(text.encode("utf-8", "replace"))


def neutralize(text: str) -> str:
    """Break ``@mentions`` and ``#123``-style references outside fenced code blocks, and agent
    handles (``@claude`` …) inside them too: agent workflows trigger on a plain substring test."""
    out = []
    for code, chunk in code_segments(text):
        if not code:
            chunk = neutralize_references(neutralize_mentions(chunk)[0])[0]
        else:
            chunk = neutralize_agent_handles(chunk)[0]
        out.append(chunk)
    return "\n".join(out)


def posted_text(text: str) -> str:
    """What may leave the run: secrets redacted, then mentions and references neutralized."""
    redacted, _ = redact(text)
    return neutralize(redacted)


def fit_package(
    package: Package,
    render: Render,
    limit: int,
    measure: Callable[[str], int] = utf16_len,
    frame: Callable[[str, str], str] = lambda body, shortened: body,
) -> tuple[str, bool]:
    """The largest framed, posted rendering of ``package`` within ``limit``; (text, truncated).

    The weakest files are dropped (:func:`ctxaction.pack.weakest.drop_weakest`), searching by
    bisection on how many to keep; when even no file is too long, the text is cut at a line
    boundary. ``frame(body, shortened)`` wraps a posted body: ``shortened``
    is "" or a sentence saying what was left out, for the frame to show with where the rest is.
    """
    count = len(package.files)

    def body(keep: int) -> tuple[str, int]:
        trimmed = replace(package, files=list(package.files), omitted=list(package.omitted))
        drop_weakest(trimmed, count - keep, DROPPED)
        return posted_text(render(trimmed)), count - keep

    def framed(keep: int) -> str:
        text, dropped = body(keep)
        return frame(
            text, f"{dropped} lower-ranked files were left out (named under omitted files)" if dropped else ""
        )

    full = framed(count)
    if measure(full) <= limit:
        return full, False
    low, high = 0, count - 1
    best: str | None = None
    while low <= high:
        mid = (low + high) // 2
        text = framed(mid)
        if measure(text) <= limit:
            best, low = text, mid + 1
        else:
            high = mid - 1
    if best is not None:
        return best, True
    text, dropped = body(0)
    shortened = (
        f"{dropped} files were left out and " if dropped else ""
    ) + "the rest was cut at a line boundary"
    room = limit - measure(frame("", shortened))
    return frame(cut_to(text, room, measure, "*(cut here)*"), shortened), True


def final_body(text: str, limit: int = COMMENT_LIMIT) -> str:
    """Last guard before a POST or PATCH: never send more than GitHub accepts (it answers 422).
    A longer body is cut at a line boundary, its open fence closed, and says it was cut."""
    return text if utf16_len(text) <= limit else cut_to(text, limit, utf16_len, "*(cut here)*")


def format_outputs(values: Mapping[str, str]) -> str:
    """``$GITHUB_OUTPUT`` lines; every value uses a random heredoc delimiter it cannot contain."""
    chunks = []
    for name, value in values.items():
        delimiter = f"ghadelimiter_{uuid.uuid4()}"
        while delimiter in value:
            delimiter = f"ghadelimiter_{uuid.uuid4()}"
        chunks.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    return "".join(chunks)


def append_file(path: str | Path, text: str) -> None:
    """Append ``text`` in one write (the runner reads these files after the step); only to a
    regular file (see :func:`ctxaction.output.append_text`)."""
    append_text(path, text)


def write_artifacts(
    workspace: Path, directory: str, stem: str, rendered: Mapping[str, str], owner: Owner | None = None
) -> dict[str, str]:
    """Write each rendering (``markdown``/``xml``/``json``) under the workspace; fmt → relative path.

    Through the safe writer: no folder on the way may be a symlink (a committed ``context-package``
    link cannot steer the files elsewhere), and files go to the workspace's ``owner``.
    """
    suffix = {"markdown": "md", "xml": "xml", "json": "json"}
    out = {}
    for fmt, text in rendered.items():
        relative = f"{directory}/{stem}.{suffix[fmt]}"
        write_atomic(workspace / relative, text, inside=workspace, owner=owner)
        out[fmt] = relative
    return out
