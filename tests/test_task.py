"""Task readers on real files and GitHub's own example payloads."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ctxaction.task import MAX_TASK_CHARS, TaskError, read_issue_file, read_issue_json, read_stdin

FIXTURES = Path(__file__).parent / "fixtures" / "task"


def _load(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def test_issue_file_title_blank_line_body(tmp_path: Path) -> None:
    path = tmp_path / "issue.txt"
    path.write_text('URLField crashes on IPv6\n\nTraceback:\n  File "a.py", line 3\n', encoding="utf-8")
    task = read_issue_file(path)
    assert task.title == "URLField crashes on IPv6"
    assert task.body.startswith("Traceback:")
    assert task.kind == "issue"


def test_issue_file_non_utf8_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "issue.txt"
    path.write_bytes(b"Caf\xe9 title\r\n\r\nbody line\r\n")
    task = read_issue_file(path)
    assert task.title == "Caf\ufffd title"
    assert task.body == "body line"


def test_issue_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(TaskError, match=r"missing\.txt"):
        read_issue_file(tmp_path / "missing.txt")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(TaskError, match="empty"):
        read_issue_file(empty)


def test_rest_issue_with_comments_list() -> None:
    issue = _load("issues.get.200.json")
    issue["comments"] = json.loads((FIXTURES / "issues.list-comments.200.json").read_text(encoding="utf-8"))
    task = read_issue_json(issue)
    assert task.title == "Found a bug"
    assert task.number == 1347
    assert task.labels == ["bug"]
    assert task.kind == "pr"  # the example issue carries a pull_request link
    assert [c.body for c in task.comments] == ["Me too"]
    assert task.comments[0].author == "octocat"


def test_rest_issue_file_comment_count_is_not_a_list(tmp_path: Path) -> None:
    path = tmp_path / "issue.json"
    path.write_bytes((FIXTURES / "issues.get.200.json").read_bytes())
    task = read_issue_json(path)
    assert task.comments == []
    assert task.url.endswith("/issues/1347")


def test_webhook_payloads_and_pr_files() -> None:
    pr = _load("pull_request.opened.json")
    pr["files"] = json.loads((FIXTURES / "pulls.list-files.200.json").read_text(encoding="utf-8"))
    task = read_issue_json(pr)
    assert task.kind == "pr"
    assert task.number == 2
    assert task.changed_files == ["file1.txt"]
    empty = read_issue_json(_load("issues.opened.empty-body.json"))
    assert empty.kind == "issue"
    assert empty.body == ""


def test_bad_json_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "title": "x",\n  oops\n}', encoding="utf-8")
    with pytest.raises(TaskError, match=r"bad\.json line 3"):
        read_issue_json(path)
    notobj = tmp_path / "list.json"
    notobj.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(TaskError, match="expected a JSON object"):
        read_issue_json(notobj)
    with pytest.raises(TaskError, match="no 'title'"):
        read_issue_json({"body": "x"})


def test_stdin_text_and_json() -> None:
    task = read_stdin(io.BytesIO(b"Title here\n\nBody here\n"))
    assert (task.title, task.body) == ("Title here", "Body here")
    task = read_stdin(io.BytesIO(json.dumps({"title": "T", "body": "B", "number": 7}).encode()))
    assert (task.title, task.number) == ("T", 7)
    # Text that merely starts with a brace is still an issue text.
    task = read_stdin(io.BytesIO(b"{weird} title\n\nbody"))
    assert task.title == "{weird} title"
    with pytest.raises(TaskError, match="stdin is empty"):
        read_stdin(io.BytesIO(b"  \n"))
    # Latin-1 bytes are replaced as in an issue file, whatever the locale's stdin decoding.
    assert read_stdin(io.BytesIO(b"Caf\xe9 title\n\nbody")).title == "Caf\ufffd title"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_issue_file_in_utf16_or_utf32_with_a_byte_order_mark(tmp_path: Path, encoding: str) -> None:
    # PowerShell 5's `gh issue view 1 > issue.txt` writes UTF-16 with a byte-order mark.
    path = tmp_path / "issue.txt"
    mark = "\ufeff" if encoding == "utf-16-be" else ""  # the plain codecs write their own mark
    path.write_bytes(f"{mark}Café crashes\n\nparse_date in lib/dates.py\n".encode(encoding))
    task = read_issue_file(path)
    assert (task.title, task.body) == ("Café crashes", "parse_date in lib/dates.py")


def test_binary_issue_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "issue.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(TaskError) as info:
        read_issue_file(path)
    assert str(info.value) == (
        f"issue file {path} is binary (it holds NUL bytes), not text: give the issue as text "
        "(title line, blank line, body) or as JSON with --issue-json"
    )
    with pytest.raises(TaskError, match=r"^stdin is binary"):
        read_stdin(io.BytesIO(path.read_bytes()))


def test_task_text_over_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "issue.txt"
    path.write_text("Log\n\n" + "x" * MAX_TASK_CHARS, encoding="utf-8")
    with pytest.raises(TaskError) as info:
        read_issue_file(path)
    assert str(info.value) == (
        f"issue file {path} is 1,000,005 characters; a task holds at most 1,000,000 characters: "
        "keep the part that matters (the error and the end of the log)"
    )
    path.write_bytes(b"\xff" * (4 * MAX_TASK_CHARS + 1))  # refused before it is decoded
    with pytest.raises(TaskError, match="is over 4,000,000 bytes; a task holds at most 1,000,000 characters"):
        read_issue_file(path)
    comments = [{"body": "y" * 400_000}] * 3
    too_long = r"^issue object: the task text \(title, body, comments\) is 1,200,001 characters"
    with pytest.raises(TaskError, match=too_long):
        read_issue_json({"title": "T", "body": "", "comments": comments})
