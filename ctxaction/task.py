"""Readers that turn an issue file, a GitHub issue/PR object or stdin into a :class:`Task`.

All text read here is untrusted: it is kept as data, never interpreted.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from ctxaction.errors import TaskError as TaskError
from ctxaction.jsonfile import loads, read_json_object
from ctxaction.model import Comment, Task
from ctxaction.text.boms import by_bom

__all__ = [
    "TaskError",
    "parse_issue_text",
    "read_issue_file",
    "read_issue_json",
    "read_stdin",
    "task_from_json",
]


# A lone surrogate: what a JSON "\\ud800" escape (or an MCP client's) decodes to. No UTF-8 output can
# encode one, so it becomes U+FFFD, as bad bytes in a file do.
_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_issue_text(text: str) -> Task:
    """Title line, blank line, body (the body may also start right after the title)."""
    text = _SURROGATE.sub("\ufffd", text).lstrip("\ufeff").replace("\r\n", "\n")
    title, _, rest = text.strip("\n").partition("\n")
    return Task(title=title.strip(), body=rest.strip("\n"), kind="issue")


# The most task text (title, body and comments) read, in characters. GitHub caps an issue body
# at 65,536; text far past that is a pasted dump, and cleaning and redacting it costs about half
# a minute per megabyte of dense text, so it is refused rather than read for minutes.
MAX_TASK_CHARS = 1_000_000


def issue_text(data: bytes, source: str) -> str:
    """The text of an issue given as bytes (a file, stdin): UTF-16/32 when a byte-order mark says
    so (PowerShell 5's ``>`` writes UTF-16), else UTF-8 with bad bytes replaced. TaskError for
    binary data or text over the limit."""
    if len(data) > 4 * MAX_TASK_CHARS:  # no encoding spends more than 4 bytes on a character
        raise TaskError(_too_long(source, f"over {4 * MAX_TASK_CHARS:,} bytes"))
    encoding, mark = by_bom(data) or ("utf-8", 0)
    text = data[mark:].decode(encoding, "replace")
    if "\0" in text:
        raise TaskError(
            f"{source} is binary (it holds NUL bytes), not text: "
            "give the issue as text (title line, blank line, body) or as JSON with --issue-json"
        )
    if len(text) > MAX_TASK_CHARS:
        raise TaskError(_too_long(source, f"{len(text):,} characters"))
    return text


def _too_long(source: str, size: str) -> str:
    return (
        f"{source} is {size}; a task holds at most {MAX_TASK_CHARS:,} characters: "
        "keep the part that matters (the error and the end of the log)"
    )


def read_issue_file(path: str | Path) -> Task:
    """Read an issue from a text file: first line the title, then a blank line and the body."""
    p = Path(path)
    try:
        with p.open("rb") as f:  # not read_bytes: a FIFO (`<(gh issue view 1)`) is read as it comes
            data = f.read(4 * MAX_TASK_CHARS + 1)
    except OSError as exc:
        raise TaskError(f"cannot read issue file {p}: {exc.strerror or exc}") from exc
    task = parse_issue_text(issue_text(data, f"issue file {p}"))
    if not task.title and not task.body:
        raise TaskError(f"issue file {p} is empty: write a title line, a blank line, then the body")
    return task


def read_issue_json(path_or_obj: str | Path | Mapping[str, Any]) -> Task:
    """Read a GitHub issue or PR object (REST shape, or a webhook payload holding one).

    Optional extras next to the object: ``comments`` as a list of comment objects and ``files``
    (the PR files API list, or plain paths) for the changed files.
    """
    if isinstance(path_or_obj, Mapping):
        return task_from_json(path_or_obj, source="issue object")
    obj = read_json_object(path_or_obj, "issue JSON (a GitHub issue or PR object)", TaskError)
    return task_from_json(obj, source=str(path_or_obj))


def read_stdin(stream: BinaryIO | None = None) -> Task:
    """Read a task from stdin: a JSON issue/PR object, or title line + blank line + body.

    Bytes, decoded here like an issue file: the text layer's decoding depends on the locale
    (strict UTF-8 fails on a Latin-1 byte; surrogateescape lets it through as a lone surrogate
    that no output file can encode)."""
    data = (stream or sys.stdin.buffer).read(4 * MAX_TASK_CHARS + 1)
    text = issue_text(data, "stdin")
    stripped = text.strip()
    if not stripped:
        raise TaskError("stdin is empty: pipe an issue (title line, blank line, body) or pass --issue-file")
    if stripped.startswith("{"):
        try:
            obj = loads(stripped)
        except json.JSONDecodeError:
            obj = None
        if isinstance(obj, Mapping):
            return task_from_json(obj, source="stdin")
    return parse_issue_text(text)


def task_from_json(obj: Mapping[str, Any], source: str = "issue object") -> Task:
    """Build a Task from a GitHub issue/PR mapping (see :func:`read_issue_json`)."""
    item: Mapping[str, Any] = obj
    kind = "issue"
    for key, key_kind in (("pull_request", "pr"), ("issue", "issue")):
        inner = obj.get(key)
        if isinstance(inner, Mapping) and "title" in inner:
            item, kind = inner, key_kind
            break
    if "title" not in item:
        raise TaskError(f"{source}: no 'title' key; expected a GitHub issue or pull request object")
    _check_shape(obj, item, source)
    if kind == "issue" and (isinstance(item.get("pull_request"), Mapping) or "head" in item):
        kind = "pr"
    number = item.get("number")
    labels = [_label_name(lab) for lab in _list(item.get("labels"))]
    comments_raw = obj.get("comments") if isinstance(obj.get("comments"), list) else item.get("comments")
    files_raw = obj.get("files", item.get("files"))
    if files_raw is None and isinstance(item.get("changed_files"), list):
        files_raw = item.get("changed_files")
    task = Task(
        title=_str(item.get("title")).strip(),
        body=_str(item.get("body")).replace("\r\n", "\n"),
        kind="pr" if kind == "pr" else "issue",
        number=number if isinstance(number, int) and not isinstance(number, bool) else None,
        labels=[lab for lab in labels if lab],
        comments=[_comment(c) for c in _list(comments_raw) if isinstance(c, Mapping)],
        changed_files=[f for f in (_file_name(f) for f in _list(files_raw)) if f],
        url=_str(item.get("html_url")),
        author=_login(item.get("user")),
    )
    size = len(task.title) + len(task.body) + sum(len(c.body) for c in task.comments)
    if size > MAX_TASK_CHARS:
        raise TaskError(_too_long(f"{source}: the task text (title, body, comments)", f"{size:,} characters"))
    return task


def _kind(value: Any) -> str:
    return {str: "a string", int: "a number", float: "a number", bool: "true/false", list: "a list"}.get(
        type(value), "null" if value is None else "an object"
    )


def _check_shape(obj: Mapping[str, Any], item: Mapping[str, Any], source: str) -> None:
    """Refuse values of the wrong type instead of dropping them silently (a `comments` string
    would have been read as "no comments")."""

    def fail(key: str, wanted: str, value: Any) -> TaskError:
        return TaskError(f"{source}: '{key}' must be {wanted}, got {_kind(value)}")

    if not isinstance(item.get("title"), str):
        raise fail("title", "a string", item.get("title"))
    if item.get("body") is not None and not isinstance(item.get("body"), str):
        raise fail("body", "a string or null", item.get("body"))
    number = item.get("number")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        raise fail("number", "a whole number or null", number)
    for where in {id(obj): obj, id(item): item}.values():
        comments = where.get("comments")
        # GitHub's issue object holds the comment count here; a list of comment objects is ours.
        if comments is not None and not isinstance(comments, list) and type(comments) is not int:
            raise fail("comments", "a list of comment objects (or GitHub's comment count)", comments)
        for i, comment in enumerate(comments if isinstance(comments, list) else []):
            if not isinstance(comment, Mapping):
                raise fail(f"comments[{i}]", "a comment object", comment)
            if comment.get("body") is not None and not isinstance(comment.get("body"), str):
                raise fail(f"comments[{i}].body", "a string or null", comment.get("body"))
        for key in ("labels", "files"):
            if where.get(key) is not None and not isinstance(where.get(key), list):
                raise fail(key, "a list", where.get(key))


def _str(value: Any) -> str:
    return _SURROGATE.sub("\ufffd", value) if isinstance(value, str) else ""


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _login(user: Any) -> str:
    return _str(user.get("login")) if isinstance(user, Mapping) else ""


def _label_name(label: Any) -> str:
    if isinstance(label, Mapping):
        return _str(label.get("name"))
    return _str(label)


def _file_name(entry: Any) -> str:
    if isinstance(entry, Mapping):
        return _str(entry.get("filename") or entry.get("path"))
    return _str(entry)


def _comment(obj: Mapping[str, Any]) -> Comment:
    user = obj.get("user")
    is_bot = isinstance(user, Mapping) and (user.get("type") == "Bot" or _login(user).endswith("[bot]"))
    return Comment(
        author=_login(user),
        body=_str(obj.get("body")).replace("\r\n", "\n"),
        created_at=_str(obj.get("created_at")),
        association=_str(obj.get("author_association")),
        is_bot=bool(is_bot),
    )
