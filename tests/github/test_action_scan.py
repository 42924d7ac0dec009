"""``scan: true``: the action scans a pull request's (or a push's) commits, end to end under the
simulated runner: annotations, the SARIF file, outputs, and no REST call."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ctxaction.secure.synth import expand
from tests.ghserver import FakeGitHub, webhook_fixture
from tests.github.runner import ActionRunner, RunResult, clone
from tests.gitrepo import GitRepo

KEY = expand('API_KEY = "<<alnum:32>>"\n', "action-scan")
SECRET = KEY.split('"')[1]
ODD = "conf/we,ird:name.py"  # annotation properties escape ',' and ':'


def upstream_with_pr(root: Path, leak: bool) -> tuple[GitRepo, str, str, str]:
    """main, and PR #3 whose first commit adds a key (when ``leak``) and second removes it."""
    up = GitRepo(root)
    base = up.commit({"app.py": "x = 1\n"}, "base")
    up.git("checkout", "-q", "-b", "feature")
    added = up.commit({ODD: ("y = 2\n" + KEY) if leak else "y = 2\n"}, "add config")
    head = up.commit({ODD: "y = 3\n"}, "tidy")
    up.git("update-ref", "refs/pull/3/head", head)
    up.git("checkout", "-q", "main")
    up.git("branch", "-q", "-D", "feature")
    return up, base, added, head


def pr_payload(base: str, head: str) -> dict[str, Any]:
    payload: dict[str, Any] = webhook_fixture("pull_request.opened.json")
    payload["pull_request"].update(number=3)
    payload["pull_request"]["head"]["sha"] = head
    payload["pull_request"]["base"]["sha"] = base
    return payload


def run_scan(
    tmp_path: Path, fake: FakeGitHub, leak: bool = True, **inputs: str
) -> tuple[RunResult, str, Path]:
    up, base, added, head = upstream_with_pr(tmp_path / "up", leak)
    workspace = clone(up, tmp_path / "ws", depth=1)  # what actions/checkout leaves by default
    result = ActionRunner(tmp_path, fake, workspace.root).run(
        "pull_request", pr_payload(base, head), scan="true", **inputs
    )
    return result, added, workspace.root


def test_scan_reports_a_key_added_and_removed_inside_the_pr(tmp_path: Path, fake_github: FakeGitHub) -> None:
    result, added, workspace = run_scan(tmp_path, fake_github)
    assert result.code == 1, result.stdout + result.stderr
    (error,) = result.annotations("error")
    assert error.startswith(
        "::error file=conf/we%2Cird%3Aname.py,line=2,endLine=2,col=12,title=ctxaction%3A generic-secret::"
    )
    assert f"in commit {added[:12]}" in error
    assert SECRET not in result.stdout + result.stderr
    assert result.outputs["secrets"] == "1" and result.outputs["sarif-path"] == ".ctxaction/secrets.sarif"
    sarif = json.loads((workspace / ".ctxaction/secrets.sarif").read_text(encoding="utf-8"))
    (finding,) = sarif["runs"][0]["results"]
    assert finding["properties"]["commit"] == added
    assert finding["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == ODD
    assert SECRET not in json.dumps(sarif)
    assert result.requests == []  # a scan needs no API call


def test_clean_pr_and_fail_open(tmp_path: Path, fake_github: FakeGitHub) -> None:
    clean, _, workspace = run_scan(tmp_path / "clean", fake_github, leak=False)
    assert clean.code == 0, clean.stdout + clean.stderr
    assert clean.outputs["secrets"] == "0" and not clean.annotations("error")
    assert (
        json.loads((workspace / ".ctxaction/secrets.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]
        == []
    )
    soft, _, _ = run_scan(tmp_path / "soft", fake_github, fail_on_error="false")
    assert soft.code == 0 and not soft.annotations("error")
    assert any("generic-secret" in w for w in soft.annotations("warning"))


def test_push_event_scans_before_to_after(tmp_path: Path, fake_github: FakeGitHub) -> None:
    up = GitRepo(tmp_path / "up")
    before = up.commit({"a.py": "x = 1\n"})
    added = up.commit({"a.py": "x = 1\n" + KEY})
    after = up.commit({"a.py": "x = 1\n"})
    workspace = clone(up, tmp_path / "ws", depth=1)
    payload = {"before": before, "after": after, "ref": "refs/heads/main", "repository": {"full_name": "o/r"}}
    result = ActionRunner(tmp_path, fake_github, workspace.root).run("push", payload, scan="true")
    assert result.code == 1, result.stdout + result.stderr
    (error,) = result.annotations("error")
    assert "file=a.py,line=2" in error and added[:12] in error


def test_missing_commits_ask_for_fetch_depth_0(tmp_path: Path, fake_github: FakeGitHub) -> None:
    up, base, _, head = upstream_with_pr(tmp_path / "up", leak=True)
    workspace = clone(up, tmp_path / "ws", depth=1)
    workspace.git("remote", "remove", "origin")
    result = ActionRunner(tmp_path, fake_github, workspace.root).run(
        "pull_request", pr_payload(base, head), scan="true"
    )
    assert result.code == 1
    (error,) = result.annotations("error")
    assert "fetch-depth: 0" in error and "are not in the checkout" in error
