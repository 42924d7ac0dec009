"""The comment a person reads on the issue or PR, composed and fitted whole.

Two styles (input ``comment-style``):

- ``compact`` (default): a table of the packed files whose line ranges are permalinks
  (``https://github.com/OWNER/REPO/blob/SHA/path#L10-L40``, which GitHub renders as code), the
  task's first lines, and the whole package in a collapsed block, or where to find it when it
  does not fit;
- ``full``: the whole package as the comment.

Everything posted is measured as GitHub measures it (UTF-16 code units) *after* every part is
in place: marker, notes, the hidden commit line. Untrusted inline text (title, task lines,
reasons, warnings) is escaped with :func:`ctxaction.markdown.escape_inline`, so no link, image
or heading can be injected; the body then goes through ``posted_text`` (secrets redacted,
mentions and references neutralized).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from ctxaction.github.deliver import COMMENT_LIMIT, MARKER, final_body, fit_package, posted_text, utf16_len
from ctxaction.markdown import escape_inline
from ctxaction.model import Package, PackedFile
from ctxaction.render import render
from ctxaction.render.filters import task_label

_SHA_NOTE = re.compile(r"<!-- ctxaction:sha ([0-9a-f]{40,64}) -->")
_SHA = re.compile(r"^[0-9a-f]{40,64}$")
MAX_TABLE_ROWS = 40
MAX_RANGES_LINKED = 6
TASK_LINES = 3


@dataclass(frozen=True)
class CommentContext:
    """Where the package came from and where the rest of it is, for links and notes."""

    server: str
    repo: str
    where_full: str
    head_note: str = ""
    style: str = "compact"


def sha_note(sha: str) -> str:
    """The hidden line recording which commit a comment's package was built from."""
    return f"<!-- ctxaction:sha {sha} -->" if sha else ""


def packaged_sha(body: str) -> str:
    """The commit a comment of ours was built from ("" when it does not say)."""
    m = _SHA_NOTE.search(body)
    return m.group(1) if m else ""


def permalink(ctx: CommentContext, sha: str, path: str, start: int = 0, end: int = 0) -> str:
    """``{server}/{repo}/blob/{sha}/{path}#L{start}-L{end}`` (no anchor without a range)."""
    anchor = "" if not start else f"#L{start}" if start == end else f"#L{start}-L{end}"
    return f"{ctx.server.rstrip('/')}/{ctx.repo}/blob/{sha}/{quote(path, safe='/')}{anchor}"


def _lines_cell(f: PackedFile, ctx: CommentContext, sha: str) -> str:
    if not _SHA.match(sha):
        return "whole file" if f.mode == "full" else ", ".join(f"{a}–{b}" for a, b in f.ranges)
    if f.mode == "full":
        return f"[whole file ({f.line_count} lines)]({permalink(ctx, sha, f.path)})"
    links = [
        f"[{a if a == b else f'{a}–{b}'}]({permalink(ctx, sha, f.path, a, b)})"
        for a, b in f.ranges[:MAX_RANGES_LINKED]
    ]
    more = len(f.ranges) - MAX_RANGES_LINKED
    return ", ".join(links) + (f" and {more} more" if more > 0 else "")


def _code(path: str) -> str:
    """A path as an inline code span fit for a table cell (code spans link and mention nothing)."""
    flat = " ".join(path.split())
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", flat)), default=0) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{ticks}{pad}{flat}{pad}{ticks}".replace("|", "\\|")


def _header(package: Package, ctx: CommentContext) -> list[str]:
    task = package.task
    title = f" · {escape_inline(task.title, 200)}" if task.title else ""
    sha = package.head
    commit = ""
    if _SHA.match(sha):
        commit = f" · commit [`{sha[:12]}`]({ctx.server.rstrip('/')}/{ctx.repo}/commit/{sha})"
    lines = [
        f"### Context package · {task_label(task)}{title}",
        "",
        f"{package.total_tokens} tokens ({package.encoding}) · {len(package.files)} files · "
        f"profile `{escape_inline(package.profile, 64)}`{commit}",
    ]
    if ctx.head_note:
        lines += ["", ctx.head_note]
    return lines


def _task_quote(package: Package) -> list[str]:
    body = [line for line in package.task.body.split("\n") if line.strip()][:TASK_LINES]
    return ["", *(f"> {escape_inline(line, 300)}" for line in body)] if body else []


def _table(package: Package, ctx: CommentContext, rows: int) -> list[str]:
    if not package.files:
        return ["", "No file scored high enough to be packed."]
    out = ["", "| file | lines | why |", "| --- | --- | --- |"]
    for f in package.files[:rows]:
        why = "; ".join(escape_inline(r, 160) for r in f.reasons[:3]) or "ranked"
        out.append(f"| {_code(f.path)} | {_lines_cell(f, ctx, package.head)} | {why} |")
    if len(package.files) > rows:
        out.append(f"| … | | {len(package.files) - rows} more files in the package |")
    return out


def _head_part(package: Package, ctx: CommentContext, rows: int) -> str:
    lines = [MARKER, *_header(package, ctx), *_task_quote(package), *_table(package, ctx, rows)]
    lines += ["", *(f"> ⚠ {escape_inline(w, 300)}" for w in package.warnings[:5])] if package.warnings else []
    return "\n".join(lines)


def compose(package: Package, ctx: CommentContext, limit: int = COMMENT_LIMIT) -> tuple[str, bool]:
    """The whole comment body within ``limit`` UTF-16 units; (body, shortened). Names (paths,
    title, reasons) are shown redacted where they hold a secret, as in every rendering."""
    from ctxaction.render.names import displayed

    package = displayed(package)
    tail = "\n" + sha_note(package.head) + "\n"
    if ctx.style == "full":
        return _compose_full(package, ctx, limit, tail)
    rows = MAX_TABLE_ROWS
    head = posted_text(_head_part(package, ctx, rows))
    while utf16_len(head) > limit // 2 and rows > 1:
        rows //= 2
        head = posted_text(_head_part(package, ctx, rows))

    def frame(body: str, shortened: str) -> str:
        note = f"\n\n*Shortened to fit GitHub's comment limit: {shortened}. All of it: {ctx.where_full}.*"
        note = note if shortened else ""
        summary = f"The whole package ({package.total_tokens} tokens)"
        return f"{head}\n\n<details><summary>{summary}</summary>\n\n{body}{note}\n\n</details>{tail}"

    room = limit - utf16_len(frame("", "x" * 200))
    if room < 2_000:
        where = f"{head}\n\nThe whole package: {ctx.where_full}.{tail}"
        return final_body(where, limit), True
    return fit_package(package, lambda p: render(p, "markdown"), limit, frame=frame)


def _compose_full(package: Package, ctx: CommentContext, limit: int, tail: str) -> tuple[str, bool]:
    lead = f"{MARKER}\n" + (posted_text(ctx.head_note) + "\n\n" if ctx.head_note else "")

    def frame(body: str, shortened: str) -> str:
        where = f"The full package: {ctx.where_full}."
        note = f"\n\n> **Shortened to fit GitHub's comment limit:** {shortened}. {where}" if shortened else ""
        return f"{lead}{body}{note}{tail}"

    return fit_package(package, lambda p: render(p, "markdown"), limit, frame=frame)
