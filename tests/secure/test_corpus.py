"""Accuracy on the labelled corpus, and no full secret in any output path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ctxaction.cli import main as cli_main
from ctxaction.hook import main as hook_main
from ctxaction.secure import redact, scan
from tests.gitrepo import GitRepo
from tests.secrets_corpus import Case, load, score

CASES = load()
POSITIVES = [c for c in CASES if c.secret]


def test_corpus_is_balanced_and_sizeable() -> None:
    assert len(POSITIVES) >= 150
    assert len(CASES) - len(POSITIVES) >= 150


def test_precision_recall_f1_meet_thresholds() -> None:
    predicted = [bool(scan(case.text, case.path)) for case in CASES]
    precision, recall, f1 = score(CASES, predicted)
    wrong = [(c.number, c.path) for c, p in zip(CASES, predicted, strict=True) if p != c.secret]
    assert precision >= 0.97, wrong
    assert recall >= 0.95, wrong
    assert f1 >= 0.96, wrong


def _secrets(case: Case) -> list[str]:
    """What must never be printed: each finding's span, and each generated value inside one."""
    findings = scan(case.text, case.path)
    spans = [case.text[f.start : f.end] for f in findings]
    inside = [part for part in case.parts if len(part) >= 12 and any(part in span for span in spans)]
    return [s for s in spans if len(s) >= 6] + inside


def _file_name(case: Case) -> str:
    return f"case{case.number:03d}/{case.path}"


@pytest.fixture(scope="module")
def staged_repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("leak") / "repo")
    for case in POSITIVES:
        repo.write(_file_name(case), case.text)
    repo.git("add", "-A", "-f")
    return repo


def _assert_clean(output: str, where: str) -> None:
    for case in POSITIVES:
        for secret in _secrets(case):
            assert secret not in output, f"corpus line {case.number} leaked through {where}"


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_no_secret_in_scan_reports(
    staged_repo: GitRepo, fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(staged_repo.root)
    assert cli_main(["scan", "--staged", "--format", fmt]) == 1
    out, err = capsys.readouterr()
    if fmt == "text":
        reported = {line.split(":", 1)[0] for line in out.split("\n") if line.startswith("case")}
        assert reported == {_file_name(c) for c in POSITIVES if scan(c.text, c.path)}
    else:
        json.loads(out)
    _assert_clean(out + err, f"scan --format {fmt}")


def test_no_secret_in_hook_output_baseline_or_redaction(
    staged_repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(staged_repo.root)
    assert hook_main([]) == 1
    baseline = tmp_path / "baseline.json"
    assert cli_main(["scan", "--staged", "--baseline", str(baseline), "--update-baseline"]) == 0
    assert cli_main(["scan", "--staged", "--baseline", str(baseline)]) == 0
    (tmp_path / "broken.json").write_text('{"findings": [', encoding="utf-8")
    assert cli_main(["scan", "--staged", "--baseline", str(tmp_path / "broken.json")]) == 2
    out, err = capsys.readouterr()
    redacted = "".join(redact(case.text, case.path)[0] for case in POSITIVES)
    _assert_clean(out + err + baseline.read_text(encoding="utf-8") + redacted, "hook/baseline/redact/errors")
    assert "not valid JSON" in err
