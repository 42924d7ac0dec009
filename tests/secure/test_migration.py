"""Moving over from detect-secrets and gitleaks: their baselines and ignore files are read as ours."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.cli import main
from ctxaction.hook import main as hook_main
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo

KEY = expand('API_KEY = "<<alnum:32>>"\n', "migrate")
KEY2 = expand('TOKEN = "<<gh:ghp>>"\n', "migrate2")
SECRET = KEY.split('"')[1]


def scan(repo: GitRepo, *args: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.chdir(repo.root)
    return main(["scan", *args])


def detect_secrets_baseline(repo: GitRepo) -> Path:
    """A baseline written by the real detect-secrets, as its users have them."""
    tool = Path(sys.executable).parent / "detect-secrets"
    if not tool.exists():
        found = shutil.which("detect-secrets")
        if found is None:
            pytest.skip("detect-secrets is not installed (pip install -e '.[dev]')")
        tool = Path(found)
    out = subprocess.run([str(tool), "scan"], cwd=repo.root, capture_output=True, check=True)
    path = repo.root / ".secrets.baseline"
    path.write_bytes(out.stdout)
    return path


def test_detect_secrets_baseline_is_accepted(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit({"app.py": "x = 1\n" + KEY})
    baseline = detect_secrets_baseline(repo)
    results = json.loads(baseline.read_text(encoding="utf-8"))["results"]
    assert results["app.py"], "detect-secrets itself found the key"
    repo.commit({})
    assert scan(repo, ".", monkeypatch=monkeypatch) == 1  # without the baseline: found
    assert scan(repo, "--baseline", ".secrets.baseline", ".", monkeypatch=monkeypatch) == 0
    err = capsys.readouterr().err
    assert "1 more in the baseline" in err
    assert "note: .secrets.baseline: skipped: a secrets baseline" in err  # its hashes are not flagged
    # The key moves down: the value's SHA-1 still matches.
    repo.commit({"app.py": "x = 1\n" * 10 + KEY})
    assert scan(repo, "--baseline", ".secrets.baseline", ".", monkeypatch=monkeypatch) == 0
    # A new secret is still reported; so is one audited as real (is_secret: true).
    repo.commit({"app.py": "x = 1\n" * 10 + KEY + KEY2})
    assert scan(repo, "--baseline", ".secrets.baseline", ".", monkeypatch=monkeypatch) == 1
    assert "github-pat" in capsys.readouterr().out
    doc = json.loads(baseline.read_text(encoding="utf-8"))
    for entry in doc["results"]["app.py"]:
        entry["is_secret"] = True
    baseline.write_text(json.dumps(doc), encoding="utf-8")
    assert scan(repo, "--baseline", ".secrets.baseline", "app.py", monkeypatch=monkeypatch) == 1
    out, err = capsys.readouterr()
    assert "app.py:11:12: generic-secret" in out and SECRET not in out + err


def test_the_hook_takes_a_detect_secrets_baseline(
    make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.write("app.py", KEY)
    repo.git("add", "app.py")
    detect_secrets_baseline(repo)
    repo.git("add", ".secrets.baseline")
    monkeypatch.chdir(repo.root)
    assert hook_main(["app.py", ".secrets.baseline"]) == 1
    assert hook_main(["--baseline", ".secrets.baseline", "app.py", ".secrets.baseline"]) == 0


def test_gitleaksignore_fingerprints(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    sha = repo.commit({"a.py": KEY, "b.py": "x = 1\n" + KEY2})
    repo.commit({"a.py": "x = 1\n"})
    assert scan(repo, "--history", monkeypatch=monkeypatch) == 1
    capsys.readouterr()
    # gitleaks reads .gitleaksignore at the top of the repository by itself, and so do we; rule
    # ids are gitleaks' own, so entries are matched by place (and commit).
    repo.write(
        ".gitleaksignore",
        f"# reviewed\n{sha}:a.py:generic-api-key:1\n\nb.py:github-pat:2\n",
    )
    assert scan(repo, "--history", monkeypatch=monkeypatch) == 0
    assert scan(repo, ".", monkeypatch=monkeypatch) == 0  # b.py:2 ignored, the file is not flagged
    err = capsys.readouterr().err
    assert "2 more in the baseline" in err and "note: .gitleaksignore: skipped" in err
    # A commit entry covers that commit only; a short sha works as gitleaks' users write them.
    other = repo.commit({"c.py": KEY})
    assert scan(repo, "--history", monkeypatch=monkeypatch) == 1
    repo.write(".gitleaksignore", f"{sha[:10]}:a.py:x:1\nb.py:x:2\n{other[:7]}:c.py:x:1\n")
    assert scan(repo, "--history", monkeypatch=monkeypatch) == 0
    # Given as --baseline under another name, too.
    (repo.root / ".gitleaksignore").rename(repo.root / "ignored.txt")
    assert scan(repo, "--history", "--baseline", "ignored.txt", monkeypatch=monkeypatch) == 0


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (".gitleaksignore", "a.py:rule\n", ".gitleaksignore:1: not a gitleaks fingerprint"),
        ("ds.json", '{"results": {"a.py": [{"line_number": 1}]}}', "has no 40-character hashed_secret"),
        ("ds.json", '{"results": {"a.py": {}}}', "must be a list (detect-secrets format)"),
        ("ours.json", '{"nothing": []}', 'expected an object with a "findings" list'),
        ("ours.json", "{not json", "not valid JSON (line 1)"),
    ],
)
def test_bad_baselines_get_one_clear_line(
    make_repo: Callable[..., GitRepo],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    content: str,
    message: str,
) -> None:
    repo = make_repo()
    repo.commit({"a.py": "x = 1\n", name: content})
    args = ("--baseline", name, "a.py") if name != ".gitleaksignore" else ("a.py",)
    assert scan(repo, *args, monkeypatch=monkeypatch) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
