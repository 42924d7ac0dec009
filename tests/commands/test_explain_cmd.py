"""``ctxaction explain``: the table fits the terminal's width, and ``--format json`` holds the same
facts in a stable form."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ctxaction.cli import main
from ctxaction.explain import _cut, _split_path, _wrap
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo

DEEP = "services/billing/invoices/generators/quarterly/reconciliation/statement_builder.py"
SOURCE = "def build_statement(rows):\n    return sum(rows)\n\n\ndef parse_date(text):\n    return text\n"
ISSUE = (
    "build_statement and parse_date break on quarterly reconciliation statements\n\n"
    f"build_statement in {DEEP} fails; parse_date in lib/dates.py too. See lib/helpers.py and "
    "the quarterly reconciliation statement builder, invoices generators, billing.\n"
)


@pytest.fixture
def repo(make_repo: Callable[..., GitRepo]) -> GitRepo:
    r = make_repo()
    files = {DEEP: SOURCE, "lib/dates.py": SOURCE, "lib/helpers.py": "def helper():\n    return 1\n"}
    files.update({f"pkg/mod{i}.py": f"def statement_{i}():\n    return {i}\n" for i in range(6)})
    r.commit(files, "init")
    return r


def explain(
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    *extra: str,
    issue: str = ISSUE,
) -> str:
    path = tmp_path / "issue.txt"
    path.write_text(issue, encoding="utf-8")
    assert main(["explain", "--repo", str(repo.root), "--issue-file", str(path), *extra]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("columns", [40, 60, 100])
def test_the_table_fits_the_terminal_width(
    columns: int,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    out = explain(repo, tmp_path, capsys)
    assert max(len(line) for line in out.splitlines()) <= columns
    # The deep path is wrapped at its slashes, not lost: its pieces read back whole.
    row = next(i for i, line in enumerate(out.splitlines()) if "services/" in line)
    pieces = [line[line.rindex("  ") + 2 :] for line in out.splitlines()[row : row + 8]]
    assert "".join(pieces).startswith(DEEP)


def test_json_holds_the_same_facts_as_the_table(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    text = explain(repo, tmp_path, capsys, "--verbose", "--limit", "5")
    data: dict[str, Any] = json.loads(explain(repo, tmp_path, capsys, "--format", "json", "--limit", "5"))
    assert data["version"] == 1
    assert set(data) == {
        "version", "task", "profile", "budget", "total_tokens", "tokenizer", "files_packed",
        "candidate_count", "candidates", "more", "warnings",
    }  # fmt: skip
    assert data["task"] in text.splitlines()[0]
    assert f"packed {data['total_tokens']} tokens" in text and f"{data['candidate_count']} candidates" in text
    assert len(data["candidates"]) == 5 and data["more"] == data["candidate_count"] - 5
    assert f"… {data['more']} more candidates" in text
    for row in data["candidates"]:
        line = next(x for x in text.splitlines() if re.match(rf"\s*{row['rank']}\s", x))
        assert abs(float(line.split()[1]) - row["score"]) <= 0.0005 + 1e-9  # 3 places against 4
        assert row["decision"] in line and line.endswith(row["path"])
        for name, value in row["signals"].items():
            shown = re.search(rf"\b{name} (\d+\.\d\d)", text[text.index(line) :])
            assert shown and abs(float(shown.group(1)) - value) <= 0.005 + 1e-9, name
        assert "why: " + "; ".join(row["reasons"]) in text  # --verbose: reasons in full
    assert data["candidates"][0]["path"] in (DEEP, "lib/dates.py")
    assert data["candidates"][0]["decision"] == "whole"


def test_reasons_take_two_lines_unless_verbose(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "50")
    short = explain(repo, tmp_path, capsys, "--limit", "1")
    full = explain(repo, tmp_path, capsys, "--limit", "1", "-v")
    why = [line for line in short.splitlines() if line.strip().startswith("why:")]
    assert len(why) == 1
    start = short.splitlines().index(why[0])
    continued = [x for x in short.splitlines()[start + 1 :] if x.startswith(" " * 15)]
    assert len(continued) <= 1 and (continued or why)[-1].endswith("…")
    assert len(full.splitlines()) > len(short.splitlines())
    assert max(len(line) for line in full.splitlines()) <= 50


def test_untrusted_names_stay_escaped(
    make_repo: Callable[..., GitRepo], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "lib/evil\u202etxt.py"
    r = make_repo()
    r.commit({name: "def parse_date(text):\n    return text\n"}, "init")
    issue = f"parse_date breaks\n\nparse_date in {name} fails.\n"
    text = explain(r, tmp_path, capsys, issue=issue)
    assert "\u202e" not in text and "lib/evil\\u202etxt.py" in text
    raw = explain(r, tmp_path, capsys, "--format", "json", issue=issue)
    assert "\u202e" not in raw and "\\u202e" in raw
    assert name in [row["path"] for row in json.loads(raw)["candidates"]]


def test_secrets_in_the_task_stay_redacted_in_both_forms(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = expand('API_KEY = "<<alnum:32>>"', "explain")
    value = secret.split('"')[1]
    issue = f"parse_date fails with {secret}\n\nparse_date in lib/dates.py breaks.\n"
    monkeypatch.setenv("COLUMNS", "40")
    text = explain(repo, tmp_path, capsys, issue=issue)
    raw = explain(repo, tmp_path, capsys, "--format", "json", issue=issue)
    for out in (text, raw):
        assert value[:12] not in out
    assert "[REDACTED:" in json.loads(raw)["task"]
    for line in text.splitlines():  # a marker is shown whole or not at all
        assert line.count("[REDACTED:") == len(re.findall(r"\[REDACTED:[\w-]+\]", line))


def test_cutting_never_splits_a_marker() -> None:
    text = "see " + "[REDACTED:generic-secret]" + " now"
    for width in range(5, len(text)):
        cut = _cut(text, width)
        assert len(cut) <= width
        assert ("[REDACTED:generic-secret]" in cut) or ("[REDACTED" not in cut and "secret]" not in cut)
    assert _cut(text, 100) == text
    assert all(len(line) <= 12 for line in _wrap(text, 12))
    assert _split_path("a/bb/ccc/dddd.py", 6) == ["a/bb/", "ccc/", "dddd.p", "y"]
    assert _split_path("a/x[REDACTED:generic-secret]y.py", 12) == ["a/", "x", "…", "y.py"]
    assert _split_path("ab[REDACTED:k]cd", 14) == ["ab[REDACTED:k]", "cd"]
    assert _split_path("ab[REDACTED:k]cd", 8) == ["ab", "…", "cd"]
