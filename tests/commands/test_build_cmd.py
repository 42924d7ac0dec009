"""``ctxaction build`` and ``ctxaction explain`` through the real CLI entry point."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.cli import main
from ctxaction.tokens import get_counter
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]  # the checkout under test, for subprocesses
SOURCE = "def parse_date(text):\n    return text.split('-')\n\n\ndef other():\n    return 2\n"


@pytest.fixture
def repo(make_repo: Callable[..., GitRepo]) -> GitRepo:
    r = make_repo()
    r.commit({"lib/dates.py": SOURCE, "lib/other.py": "def unrelated():\n    return 1\n"}, "init")
    return r


def issue(
    tmp_path: Path, text: str = "parse_date fails on ISO dates\n\nparse_date in lib/dates.py breaks.\n"
) -> Path:
    path = tmp_path / "issue.txt"
    path.write_text(text, encoding="utf-8")
    return path


def build(repo: GitRepo, tmp_path: Path, *extra: str) -> int:
    """``ctxaction build`` on ``repo`` for the standard issue, with ``extra`` arguments."""
    return main(["build", "--repo", str(repo.root), "--issue-file", str(issue(tmp_path)), *extra])


def test_build_json_to_output_file(repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out" / "package.json"
    assert build(repo, tmp_path, "--budget", "1200", "--format", "json", "--output", str(out)) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["files"][0]["path"] == "lib/dates.py"
    assert data["files"][0]["mode"] == "full" and data["files"][0]["ranges"] == [[1, 6]]
    assert data["total_tokens"] == get_counter().count(out.read_text(encoding="utf-8")) <= 1200
    assert f"wrote {out}" in capsys.readouterr().err
    assert [p.name for p in out.parent.iterdir()] == ["package.json"]  # no temp file left behind


def test_build_markdown_from_stdin(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"parse_date fails\n\nSee lib/dates.py\n")))
    assert main(["build", "--repo", str(repo.root), "--budget", "1500"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Context package: parse_date fails")
    assert "<details open><summary><code>lib/dates.py</code>" in out
    assert "```python\ndef parse_date(text):" in out


@pytest.mark.parametrize("stdin_errors", ["strict", "surrogateescape"])
def test_stdin_bytes_that_are_not_utf8_reach_an_output_file(
    repo: GitRepo, tmp_path: Path, stdin_errors: str
) -> None:
    # A real pipe: Python decodes stdin strictly in a UTF-8 locale (the Latin-1 byte failed with
    # a codec message) and with surrogateescape in the C locale (the lone surrogate it made could
    # not be written to -o). Both now read the bytes as an issue file is read.
    out = tmp_path / "package.md"
    proc = subprocess.run(
        [sys.executable, "-m", "ctxaction", "build", "--repo", str(repo.root), "-o", str(out)],
        input=b"parse_date caf\xe9 fails\n\nparse_date in lib/dates.py\n",
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": f"utf-8:{stdin_errors}", "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert out.read_text(encoding="utf-8").startswith("# Context package: parse_date caf\ufffd fails")


def test_build_xml_from_issue_json(repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = {
        "number": 12,
        "title": "parse_date <breaks>",
        "body": "lib/dates.py parse_date",
        "labels": [],
        "comments": [
            {"user": {"login": "ana"}, "body": "Still broken & annoying", "created_at": "2024-05-01"}
        ],
    }
    path = tmp_path / "issue.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    assert main(["build", "--repo", str(repo.root), "--issue-json", str(path), "--format", "xml"]) == 0
    out = capsys.readouterr().out
    assert '<task kind="issue" number="12">' in out and "<title>parse_date &lt;breaks&gt;</title>" in out
    assert '<file path="lib/dates.py" mode="full"' in out
    assert "Still broken &amp; annoying" in out


def test_sample_issue_runs(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--sample", "--repo", str(repo.root), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["task"]["title"].startswith("Excerpt markers name the wrong lines")


def test_clear_errors(repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert main(["build", "--repo", str(plain), "--issue-file", str(issue(tmp_path))]) == 1
    assert "not a git repository" in capsys.readouterr().err
    assert main(["build", "--repo", str(repo.root), "--issue-file", str(tmp_path / "missing.txt")]) == 1
    assert "cannot read issue file" in capsys.readouterr().err
    assert build(repo, tmp_path, "--budget", "0") == 2
    assert "--budget must be a positive" in capsys.readouterr().err
    bad = tmp_path / "context-packages.yaml"
    bad.write_text("profiles:\n  bugfix:\n    max_files: lots\n", encoding="utf-8")
    assert build(repo, tmp_path, "--config", str(bad)) == 2  # a broken config is a usage error
    assert (
        "context-packages.yaml:3: profiles.bugfix.max_files: expected an integer" in capsys.readouterr().err
    )
    assert build(repo, tmp_path, "--budget", "50") == 1
    assert "too small for the required parts" in capsys.readouterr().err
    assert build(repo, tmp_path, "--encoding", "nope") == 1
    assert "unknown model or encoding" in capsys.readouterr().err


def test_a_bad_pattern_holding_a_token_is_printed_redacted(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The message once cut a pattern to 80 characters before it was redacted: a token straddling
    # the cut lost its tail, no longer matched its rule and was printed half.
    from ctxaction.secure.synth import expand

    token = expand("<<gh:ghp>>", "pattern-cut")
    pattern = f"{'a' * 55}/{token}/[z-a]"
    pieces = {token[4:][i : i + 8] for i in range(len(token) - 11)}
    (repo.root / ".contextignore").write_text(pattern + "\n", encoding="utf-8")
    assert build(repo, tmp_path) != 0
    (repo.root / ".contextignore").unlink()
    assert build(repo, tmp_path, "--exclude", pattern) == 2
    err = capsys.readouterr().err
    # Facts, not the text: a failing assertion prints its operands, and the text would hold the piece.
    named = [".contextignore:1" in err, "--exclude" in err, err.count("[REDACTED:github-pat]")]
    assert named == [True, True, 2]
    assert sum(piece in err for piece in pieces) == 0


def test_unmerged_paths_are_one_warning_escaped_and_redacted(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ctxaction.secure.synth import expand

    token = expand("<<gh:ghp>>", "unmerged-name")
    odd = f"lib/x\n::warning ::forged\x1b[2J/{token}.py"
    repo.stop_in_conflict(["lib/dates.py", odd])
    assert build(repo, tmp_path, "--format", "json", "--budget", "3000") == 0
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if "unmerged" in line]
    assert len(lines) == 1 and lines[0].startswith("warning: 2 unmerged paths")
    assert "lib/dates.py, lib/x\\n::warning ::forged\\x1b[2J/[REDACTED:github-pat].py;" in lines[0]
    assert "\x1b" not in captured.err and token not in captured.err
    assert not any(line.startswith("::warning") for line in captured.err.splitlines())
    dates = next(f for f in json.loads(captured.out)["files"] if f["path"] == "lib/dates.py")
    assert "<<<<<<< HEAD" in dates["content"][0]


def test_failed_build_leaves_existing_output_untouched(repo: GitRepo, tmp_path: Path) -> None:
    out = tmp_path / "package.md"
    out.write_text("previous\n", encoding="utf-8")
    assert build(repo, tmp_path, "--budget", "40", "--output", str(out)) == 1
    assert out.read_text(encoding="utf-8") == "previous\n"


def test_explain_prints_the_candidate_table(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", "--repo", str(repo.root), "--issue-file", str(issue(tmp_path))]) == 0
    out = capsys.readouterr().out
    header, rows = out.split("\n")[3], out.split("\n")[4:]
    assert header.split() == ["#", "score", "decision", "file"]
    first = rows[0].split()
    assert first[0] == "1" and first[-1] == "lib/dates.py" and "whole" in rows[0]
    assert any(line.strip().startswith("signals:") and "path_mention" in line for line in rows)
    assert any(line.strip().startswith("why:") for line in rows)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["explain", "--limit", "-1"], "--limit cannot be negative, got -1"),
        (["build", "--issue", "0"], "--issue takes an issue or pull request number (1 or more), got 0"),
        (["explain", "--pr", "-3"], "--pr takes an issue or pull request number (1 or more), got -3"),
    ],
)
def test_numbers_out_of_range_are_usage_errors(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main([*argv, "--repo", str(repo.root), "--github-repo", "o/r", "--token", "t"]) == 2
    assert capsys.readouterr().err == f"ctxaction {argv[0]}: {message}\n"
