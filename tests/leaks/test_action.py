"""No piece of a secret in anything the action posts, writes or logs.

The action runs as a subprocess under a simulated runner against the loopback GitHub API
(tests/ghserver.py), on a workspace holding every form of :mod:`tests.leaks.forms`, for an issue
whose body and thread hold secrets followed by punctuation. Checked: every comment posted (the
package, the 😕 replies to ``/context`` commands echoing a token), the job summary, the artifacts,
the hand-off files, the step outputs and the log (stdout and stderr).
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

import pytest

from ctxaction.secure.synth import expand
from tests.ghserver import FakeGitHub, webhook_fixture
from tests.github.runner import ActionRunner, RunResult, clone, make_upstream
from tests.leaks.forms import PROFILE, PUNCTUATION, Forms, build_forms, leaked

ADMIN = "admin"


@pytest.fixture(scope="module")
def forms() -> Forms:
    return build_forms()


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeGitHub]:
    server = FakeGitHub()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def runner(forms: Forms, fake: FakeGitHub, tmp_path_factory: pytest.TempPathFactory) -> ActionRunner:
    tmp = tmp_path_factory.mktemp("leak-action")
    upstream, _, _ = make_upstream(tmp / "upstream")
    upstream.commit(dict(forms.files), forms.commit_subject)
    workspace = clone(upstream, tmp / "workspace")
    return ActionRunner(tmp, fake, workspace.root)


def _command(forms: Forms, fake: FakeGitHub, body: str) -> dict[str, Any]:
    payload = webhook_fixture("issue_comment.created.issue.json")
    payload["issue"]["title"] = forms.task_title
    payload["issue"]["body"] = forms.task_body
    payload["comment"]["body"] = body
    payload["comment"]["user"]["login"] = ADMIN
    fake.add_issue(payload["issue"])
    fake.roles[ADMIN] = "admin"
    return payload


def _everything(result: RunResult, fake: FakeGitHub, workspace: Path) -> dict[str, str]:
    texts = {"stdout (log)": result.stdout, "stderr": result.stderr, "job summary": result.summary}
    texts.update({f"output {k}": v for k, v in result.outputs.items()})
    texts.update({f"comment {i}": body for i, body in enumerate(fake.posted_bodies())})
    for folder in ("context-package", ".ctxaction"):
        for path in (workspace / folder).rglob("*") if (workspace / folder).is_dir() else ():
            if path.is_file():
                texts[str(path.relative_to(workspace))] = path.read_text(encoding="utf-8", errors="replace")
    return texts


def _assert_clean(forms: Forms, texts: dict[str, str], extra: AbstractSet[str] = frozenset()) -> None:
    pieces = forms.pieces() | extra
    for where, text in texts.items():
        # A count, not the list: a failing assertion prints its operands, and they are the pieces.
        found = len(leaked(pieces, text))
        assert found == 0, f"{found} piece(s) of a secret leaked through {where}"


def test_package_comment_summary_artifacts_and_log_hold_no_piece(
    forms: Forms, fake: FakeGitHub, runner: ActionRunner
) -> None:
    thread = [forms.comment, *(f"and {forms.comment.split()[-1]}{mark}" for mark in PUNCTUATION)]
    for body in thread:
        fake.add_comment(1, body, login="octocat")
    payload = _command(forms, fake, f"/context {PROFILE} budget=200000")
    result = runner.run("issue_comment", payload, output="comment,summary,artifact")
    assert result.code == 0, result.stdout + result.stderr
    texts = _everything(result, fake, runner.workspace)
    _assert_clean(forms, texts)
    # Coverage: the forms went out through each path (the package is in each, names redacted).
    assert any(k.startswith("context-package") for k in texts) and any(
        k.startswith(".ctxaction") for k in texts
    )
    artifact = next(v for k, v in texts.items() if k.startswith("context-package") and k.endswith(".json"))
    assert "leaks/examples_00.txt" in artifact and "[REDACTED:" in artifact
    assert "leaks/keys.py" in result.summary
    assert any(body.startswith("<!-- ctxaction:package") for body in fake.posted_bodies())


@pytest.mark.parametrize(
    "template",
    [
        "/context <<gh:ghp>>",  # a valid profile name: the unknown-profile error names it
        "/context sk_live_<<alnum:56>>",  # too long a profile name: the reply cuts it
        "/context budget=sk_live_<<alnum:40>>.",
        "/context format=xoxb-<<digits:12>>-<<digits:12>>-<<alnum:24>>!",
        "/context bugfix +leaks/names/<<gh:ghp>>/",
        "/context bugfix weird=AKIA<<b32:16>>:",
    ],
)
def test_command_arguments_are_not_echoed_with_a_secret(
    forms: Forms, fake: FakeGitHub, runner: ActionRunner, template: str
) -> None:
    body = expand(template, f"leak-command-{template}")
    secret = body.split(None, 1)[1].split("=", 1)[-1].lstrip("+").rstrip(".!:/")
    secret = secret.split("/")[-1] or secret
    before = len(fake.posted_bodies())
    payload = _command(forms, fake, body)
    result = runner.run("issue_comment", payload, output="comment,summary")
    texts = _everything(result, fake, runner.workspace)
    texts.update({f"reply {i}": b for i, b in enumerate(fake.posted_bodies()[before:])})
    pieces = {secret[i : i + 12] for i in range(len(secret) - 11)}
    _assert_clean(forms, texts, pieces)
