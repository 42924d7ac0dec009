"""``ctxaction action`` end to end: a subprocess under a simulated runner, against the loopback API.

Each test asserts the REST requests the action actually made, what it posted, the runner files it
wrote and its exit code. Payloads are the recorded webhooks in tests/fixtures/webhooks; API bodies
come from GitHub's examples in tests/fixtures/rest (see tests/ghserver.py).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ctxaction.secure.synth import expand
from tests.ghserver import READ_ONLY_MESSAGE, SECONDARY_MESSAGE, FakeGitHub, webhook_fixture
from tests.github.runner import ActionRunner, RunResult, clone, make_upstream
from tests.gitrepo import GitRepo

LIVE_MENTION = re.compile(r"(?<![A-Za-z0-9_])@[A-Za-z0-9]")  # what GitHub reads as a mention
LIVE_REF = re.compile(r"(?<![\w&])#12\b")
# GitHub links nothing inside fenced code; references only count in the prose around it.
FENCED = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1[`~]*[ \t]*$", re.MULTILINE | re.DOTALL)
PR_REPO = "mmoreiradj/sandcastle-monorepo-test"


@dataclass
class World:
    """Upstream repo, workspace clone, fake API and a runner bound to them."""

    tmp: Path
    fake: FakeGitHub
    upstream: GitRepo
    workspace: GitRepo
    main: str
    pr_head: str
    runner: ActionRunner

    def run(self, event: str, payload: dict[str, Any], **inputs: str) -> RunResult:
        return self.runner.run(event, payload, **inputs)


def _world(tmp_path: Path, fake: FakeGitHub, depth: int | None = None) -> World:
    upstream, main, pr_head = make_upstream(tmp_path / "upstream")
    workspace = clone(upstream, tmp_path / "workspace", depth=depth)
    return World(
        tmp_path, fake, upstream, workspace, main, pr_head, ActionRunner(tmp_path, fake, workspace.root)
    )


@pytest.fixture
def world(tmp_path: Path, fake_github: FakeGitHub) -> World:
    return _world(tmp_path, fake_github)


def _issue_world(world: World) -> dict[str, Any]:
    payload = webhook_fixture("issues.opened.json")
    world.fake.add_issue(payload["issue"])
    return payload


def _pr_comment(world: World, body: str, role: str = "write") -> tuple[dict[str, Any], int]:
    """issue_comment on PR #1 of the recorded octocrab delivery, with the API serving that PR."""
    world.fake.repo = PR_REPO
    payload = webhook_fixture("issue_comment.created.pr.json")
    payload["comment"]["body"] = body
    pull = webhook_fixture("pull_request.opened.json")["pull_request"]
    pull.update(number=1, title=payload["issue"]["title"], body=payload["issue"]["body"])
    pull["head"]["sha"], pull["base"]["sha"] = world.pr_head, world.main
    world.fake.add_issue(payload["issue"])
    world.fake.add_pull(pull, ["src/hello/greet.py"])
    world.fake.roles[payload["comment"]["user"]["login"]] = role
    return payload, int(payload["comment"]["id"])


def _routes(result: RunResult) -> list[str]:
    return [f"{r.method} {re.sub(r'/repos/[^/]+/[^/]+', '', r.path)}" for r in result.requests]


def test_issue_opened_creates_one_comment_and_edited_updates_it(world: World) -> None:
    payload = _issue_world(world)
    first = world.run("issues", payload)
    assert first.code == 0, first.stdout + first.stderr
    assert _routes(first) == ["GET /issues/1/comments", "POST /issues/1/comments"]
    posted = world.fake.comments[1]
    assert len(posted) == 1 and posted[0]["body"].startswith("<!-- ctxaction:package v1 -->")
    assert "README.md" in posted[0]["body"]
    assert first.outputs["comment-url"].endswith(f"#issuecomment-{posted[0]['id']}")
    assert int(first.outputs["tokens"]) > 0 and int(first.outputs["file-count"]) >= 1
    assert first.outputs["truncated"] == "false"
    assert "### Context package for issue #1" in first.summary

    edited = webhook_fixture("issues.edited.json")
    edited["issue"]["body"] += "\n\nAlso the greeting in src/hello/greet.py says Hello."
    world.fake.add_comment(1, "Same typo in the docs, I think.", login="octocat")
    second = world.run("issues", edited)
    assert second.code == 0, second.stdout + second.stderr
    assert _routes(second) == ["GET /issues/1/comments", f"PATCH /issues/comments/{posted[0]['id']}"]
    ours = [c for c in world.fake.comments[1] if c["body"].startswith("<!-- ctxaction:package")]
    assert len(ours) == 1 and "src/hello/greet.py" in ours[0]["body"]
    assert len(world.fake.calls("POST", r"/comments$")) == 1  # created once, then updated


def test_unchanged_package_is_not_patched_again(world: World) -> None:
    payload = _issue_world(world)
    assert world.run("issues", payload).code == 0
    again = world.run("issues", payload)
    assert again.code == 0 and _routes(again) == ["GET /issues/1/comments"]
    assert again.outputs["comment-url"]


def test_our_comment_deleted_during_the_run_is_posted_anew(world: World) -> None:
    """Someone deletes the package comment while the build runs: the PATCH answers 404."""
    payload = _issue_world(world)
    assert world.run("issues", payload).code == 0
    (old,) = world.fake.comments[1]
    world.fake.fail("PATCH", rf"/issues/comments/{old['id']}$", 404, "Not Found")
    payload["issue"]["body"] += "\n\nAlso the greeting in src/hello/greet.py."
    world.fake.add_issue(payload["issue"])
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert _routes(result) == [
        "GET /issues/1/comments",
        f"PATCH /issues/comments/{old['id']}",
        "POST /issues/1/comments",
    ]
    new = world.fake.comments[1][-1]
    assert new["id"] != old["id"] and "src/hello/greet.py" in new["body"]
    assert result.outputs["comment-url"].endswith(f"#issuecomment-{new['id']}")
    assert result.annotations("error") == []


def test_marker_pasted_by_someone_else_is_not_taken_over(world: World) -> None:
    payload = _issue_world(world)
    world.fake.add_comment(1, "<!-- ctxaction:package v1 -->\nmy own notes", login="mallory")
    result = world.run("issues", payload)
    assert result.code == 0
    assert _routes(result)[-1] == "POST /issues/1/comments"
    assert world.fake.comments[1][0]["body"] == "<!-- ctxaction:package v1 -->\nmy own notes"


def test_a_github_app_token_updates_its_one_comment(world: World) -> None:
    """An App installation token (``ghs_`` like the Actions token) posts as ``<app-slug>[bot]``."""
    world.fake.token_login = "my-app[bot]"
    payload = _issue_world(world)
    first = world.run("issues", payload)
    assert first.code == 0, first.stdout + first.stderr
    (ours,) = world.fake.comments[1]
    assert ours["user"]["login"] == "my-app[bot]"
    edited = webhook_fixture("issues.edited.json")
    edited["issue"]["body"] += "\n\nAlso the greeting in src/hello/greet.py says Hello."
    second = world.run("issues", edited)
    assert second.code == 0, second.stdout + second.stderr
    assert _routes(second) == ["GET /issues/1/comments", f"PATCH /issues/comments/{ours['id']}"]
    assert [c["id"] for c in world.fake.comments[1]] == [ours["id"]]
    assert "src/hello/greet.py" in ours["body"]


@pytest.mark.parametrize(
    ("login", "user_type", "body"),
    [
        ("mallory", "User", "<!-- ctxaction:package v1 -->\nmy own notes"),
        ("ci-bot[bot]", "Bot", "> From the package:\n> <!-- ctxaction:package v1 -->\n\nLooks fine."),
        ("claude[bot]", "Bot", "<!-- ctxaction:package v1 -->\nwritten as a commenter asked"),
    ],
    ids=["person", "quoting-bot", "agent-bot"],
)
def test_a_github_app_token_never_takes_over_another_marked_comment(
    world: World, login: str, user_type: str, body: str
) -> None:
    """The newer comment carries our marker too but is not ours: our own older one is updated."""
    world.fake.token_login = "my-app[bot]"
    payload = _issue_world(world)
    assert world.run("issues", payload).code == 0
    ours = world.fake.comments[1][0]["id"]
    other = world.fake.add_comment(1, body, login=login, user_type=user_type)
    payload["issue"]["body"] += "\n\nAlso the greeting in src/hello/greet.py."
    world.fake.add_issue(payload["issue"])
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert _routes(result) == ["GET /issues/1/comments", f"PATCH /issues/comments/{ours}"]
    assert [c["body"] for c in world.fake.comments[1] if c["id"] == other] == [body]


def test_our_comment_is_found_past_the_first_page(world: World) -> None:
    payload = _issue_world(world)
    assert world.run("issues", payload).code == 0
    ours = world.fake.comments[1][0]["id"]
    for i in range(120):
        world.fake.add_comment(1, f"chatter {i}")
    world.fake.comments[1].append(world.fake.comments[1].pop(0))  # ours now sits on page 2
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    pages = ["GET /issues/1/comments"] * 2
    assert _routes(result) == [*pages, f"PATCH /issues/comments/{ours}"]


def test_no_secret_and_no_live_mention_in_anything_posted(world: World) -> None:
    secret = expand("<<gh:ghp>>", seed="e2e-thread")
    file_secret = expand("<<gh:ghp>>", seed="e2e-file")
    world.upstream.commit(
        {"src/hello/settings.py": f'GITHUB_TOKEN = "{file_secret}"\nGREETING = "hi"\n'}, "settings"
    )
    world.workspace.git("pull", "-q", "--ff-only")
    payload = webhook_fixture("issue_comment.created.issue.json")
    payload["comment"]["body"] = "/context bugfix +src/hello/settings.py"
    world.fake.add_issue(payload["issue"])
    world.fake.roles[payload["comment"]["user"]["login"]] = "admin"
    world.fake.add_comment(1, f"cc @hubot and @octocat: token {secret} leaked, see #12")
    world.fake.add_comment(1, "mail me at &#64;someone or @someone-else")
    result = world.run("issue_comment", payload, output="comment,summary,artifact")
    assert result.code == 0, result.stdout + result.stderr
    artifacts = [p.read_text(encoding="utf-8") for p in (world.workspace.root / "context-package").iterdir()]
    everything = [*world.fake.posted_bodies(), result.summary, result.stdout, result.stderr, *artifacts]
    assert len(world.fake.posted_bodies()) == 1
    for text in everything:
        assert secret not in text and file_secret not in text
    for body in [*world.fake.posted_bodies(), result.summary]:
        assert not LIVE_MENTION.search(body), body
        assert not LIVE_REF.search(FENCED.sub("", body))
    assert "hubot" in world.fake.posted_bodies()[0]  # the thread is there, only neutralized
    assert "src/hello/settings.py" in world.fake.posted_bodies()[0]


def test_command_on_a_pr_packages_the_head_commit_without_checking_it_out(world: World) -> None:
    payload, comment_id = _pr_comment(world, "/context bugfix budget=4000")
    result = world.run("issue_comment", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert world.fake.reactions == [(comment_id, "eyes"), (comment_id, "rocket")]
    assert _routes(result) == [
        "GET /pulls/1",  # the head is read first, before anyone can push more
        f"GET /collaborators/{payload['comment']['user']['login']}/permission",
        f"POST /issues/comments/{comment_id}/reactions",
        "GET /issues/1/comments",
        "GET /pulls/1/files",
        "POST /issues/1/comments",
        f"POST /issues/comments/{comment_id}/reactions",
    ]
    body = world.fake.posted_bodies()[0]
    assert "PR_HEAD_MARKER" in body and "src/hello/greet.py" in body
    assert world.workspace.git("rev-parse", "HEAD").strip() == world.main
    assert world.workspace.git("status", "--porcelain") == ""
    assert int(result.outputs["tokens"]) <= 4000


def test_read_only_commenter_is_refused(world: World) -> None:
    payload, comment_id = _pr_comment(world, "/context", role="read")
    result = world.run("issue_comment", payload)
    assert result.code == 0
    # A reaction only: nothing posted, nothing parsed, the reason in the log.
    assert world.fake.reactions == [(comment_id, "confused")] and world.fake.posted_bodies() == []
    login = payload["comment"]["user"]["login"]
    assert _routes(result) == [
        "GET /pulls/1",
        f"GET /collaborators/{login}/permission",
        f"POST /issues/comments/{comment_id}/reactions",
    ]
    assert any("has read access, write is needed" in line for line in result.annotations("notice"))


def test_a_strangers_bad_arguments_are_not_parsed_or_answered(world: World) -> None:
    payload, comment_id = _pr_comment(world, '/context budget=oops "unclosed +../../etc', role="none")
    result = world.run("issue_comment", payload)
    assert result.code == 0 and world.fake.posted_bodies() == []
    assert world.fake.reactions == [(comment_id, "confused")]
    annotations = result.annotations("notice") + result.annotations("error") + result.annotations("warning")
    assert annotations and not any("oops" in line or "unclosed" in line for line in annotations)


def test_triage_is_enough_when_configured(world: World) -> None:
    payload, comment_id = _pr_comment(world, "/context", role="triage")
    result = world.run("issue_comment", payload, min_permission="triage")
    assert result.code == 0 and world.fake.reactions[-1] == (comment_id, "rocket")


def test_unknown_argument_gets_confused_and_usage(world: World) -> None:
    payload, comment_id = _pr_comment(world, "/context colour=blue")
    result = world.run("issue_comment", payload)
    assert result.code == 0
    assert world.fake.reactions == [(comment_id, "confused")]
    (reply,) = world.fake.posted_bodies()
    assert "unknown argument 'colour=blue'" in reply and "Usage: `/context [profile]" in reply
    login = payload["comment"]["user"]["login"]
    assert _routes(result) == [
        "GET /pulls/1",
        f"GET /collaborators/{login}/permission",
        f"POST /issues/comments/{comment_id}/reactions",
        "GET /issues/1/comments",
        "POST /issues/1/comments",
    ]
    # The next mistake updates the same reply: at most one reply on the thread.
    payload["comment"]["body"] = "/context budget=7"
    again = world.run("issue_comment", payload)
    assert again.code == 0 and _routes(again)[-1].startswith("PATCH /issues/comments/")
    replies = [c for c in world.fake.comments[1] if "ctxaction:reply" in c["body"]]
    assert len(replies) == 1 and "budget must be" in replies[0]["body"]


def test_a_github_app_token_updates_its_one_reply(world: World) -> None:
    world.fake.token_login = "my-app[bot]"
    payload, _ = _pr_comment(world, "/context colour=blue")
    assert world.run("issue_comment", payload).code == 0
    payload["comment"]["body"] = "/context budget=7"
    again = world.run("issue_comment", payload)
    assert again.code == 0 and _routes(again)[-1].startswith("PATCH /issues/comments/")
    (reply,) = world.fake.comments[1]
    assert reply["user"]["login"] == "my-app[bot]" and "budget must be" in reply["body"]


@pytest.mark.parametrize(
    ("body", "user_type"),
    [("thanks, looks good", "User"), ("> /context\nquoted", "User"), ("/context", "Bot")],
)
def test_other_comments_are_ignored_without_any_call(world: World, body: str, user_type: str) -> None:
    payload, _ = _pr_comment(world, body)
    payload["comment"]["user"]["type"] = user_type
    result = world.run("issue_comment", payload)
    assert result.code == 0 and result.requests == []


def test_read_only_token_falls_back_to_the_summary(world: World) -> None:
    """A pull request from a fork: GitHub hands the run a read-only token."""
    payload = webhook_fixture("pull_request.opened.json")
    payload["pull_request"]["head"]["sha"] = world.pr_head
    payload["pull_request"]["base"]["sha"] = world.main
    payload["pull_request"]["head"]["repo"]["full_name"] = "a-contributor/Hello-World"
    world.fake.add_pull(payload["pull_request"], ["src/hello/greet.py"])
    world.fake.read_only = True
    result = world.run("pull_request", payload, output="comment")
    assert result.code == 0, result.stdout + result.stderr
    (notice,) = result.annotations("notice")
    assert "read-only" in notice and "forks" in notice and "permissions" not in notice
    assert not result.annotations("error")
    assert [r.method for r in world.fake.calls(path=r"/comments$")] == ["GET", "POST"]
    assert world.fake.comments[2] == []
    assert "PR_HEAD_MARKER" in result.summary and "src/hello/greet.py" in result.summary


def test_secondary_rate_limit_is_retried_after_retry_after(world: World) -> None:
    payload = _issue_world(world)
    world.fake.fail("POST", r"/issues/1/comments$", 403, SECONDARY_MESSAGE, headers={"Retry-After": "1"})
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert _routes(result) == ["GET /issues/1/comments", "POST /issues/1/comments", "POST /issues/1/comments"]
    assert len(world.fake.comments[1]) == 1


def _fails_with(world: World, payload: dict[str, Any], message: str) -> None:
    """The run on ``payload`` ends in exit 1 and one ``::error::`` holding ``message``."""
    result = world.run("issues", payload)
    assert result.code == 1
    (error,) = result.annotations("error")
    assert message in error


def test_api_failure_is_one_clear_error(world: World) -> None:
    payload = _issue_world(world)
    world.fake.fail("GET", r"/issues/1/comments$", 401, "Bad credentials")
    _fails_with(world, payload, "list comments of #1 failed (401): Bad credentials")


def test_a_token_that_cannot_comment_names_the_permission_to_add(world: World) -> None:
    """`permissions: {contents: read, issues: read}` on the repository's own issue: the package
    still reaches the summary, and the notice says what the job's permissions lack."""
    payload = _issue_world(world)
    world.fake.read_only = True
    result = world.run("issues", payload)
    assert result.code == 0, result.stdout + result.stderr
    (notice,) = result.annotations("notice")
    assert "comment on #1 failed (403)" in notice
    assert "the token lacks `issues: write`: add it to the job's `permissions:`" in notice
    assert "Spelling error in the README file" in result.summary


@pytest.mark.parametrize(
    ("event", "refused", "permission"),
    [
        ("issues", r"/issues/1/comments$", "issues: read"),
        ("pull_request", r"/pulls/2/files$", "pull-requests: read"),
    ],
)
def test_a_refused_read_is_an_error_naming_the_permission(
    world: World, event: str, refused: str, permission: str
) -> None:
    """A 403 on a read is a `permissions:` block without it (a fork PR's token still reads): one
    error naming what to add, not a green step that packaged nothing."""
    if event == "issues":
        payload = _issue_world(world)
    else:
        payload = webhook_fixture("pull_request.opened.json")
        payload["pull_request"]["head"]["sha"] = world.pr_head
        world.fake.add_pull(payload["pull_request"], ["src/hello/greet.py"])
    world.fake.fail("GET", refused, 403, READ_ONLY_MESSAGE)
    result = world.run(event, payload)
    assert result.code == 1
    (error,) = result.annotations("error")
    assert f"(the token lacks `{permission}`: add it to the job's `permissions:`)" in error
    assert not world.fake.calls("POST")


def test_comment_is_cut_to_the_limit_and_says_where_the_full_package_is(world: World) -> None:
    # 20 files of ~7,400 characters: the profile's 15 best make ~110,000, well over the limit.
    block = "".join(
        f"def commit_step_{i}(spelling):\n    return 'commit spelling {i}' * 3\n" for i in range(120)
    )
    world.upstream.commit({f"src/hello/commit_{n}.py": block for n in range(20)}, "many commit helpers")
    world.workspace.git("pull", "-q", "--ff-only")
    payload = _issue_world(world)
    result = world.run("issues", payload, budget="120000", output="comment,artifact,summary")
    assert result.code == 0, result.stdout + result.stderr
    (body,) = world.fake.posted_bodies()
    units = len(body.encode("utf-16-le")) // 2
    assert 65_536 - len(block) - 500 < units <= 65_536  # at most one file short of the limit
    assert result.outputs["truncated"] == "true"
    assert "Shortened to fit GitHub's comment limit" in body and "context-package" in body
    assert body.count("```") % 2 == 0
    full = (world.workspace.root / result.outputs["package-path"]).read_text(encoding="utf-8")
    assert len(full) > len(body)


def test_artifact_output_writes_workspace_relative_files(world: World) -> None:
    payload = _issue_world(world)
    result = world.run("issues", payload, output="artifact", format="json")
    assert result.code == 0, result.stdout + result.stderr
    assert result.outputs["package-path"] == "context-package/issue-1.json"
    data = json.loads((world.workspace.root / result.outputs["package-path"]).read_text(encoding="utf-8"))
    assert data["total_tokens"] == int(result.outputs["tokens"])
    assert (world.workspace.root / "context-package/issue-1.md").is_file()
    assert _routes(result) == ["GET /issues/1/comments"]  # no comment requested
    assert str(world.workspace.root) not in result.outputs["package-path"]


def test_summary_only(world: World) -> None:
    payload = _issue_world(world)
    result = world.run("issues", payload, output="summary")
    assert result.code == 0 and "README.md" in result.summary
    assert not world.fake.calls("POST")


def test_workflow_dispatch_with_a_pr_number(world: World) -> None:
    comment_payload, _ = _pr_comment(world, "unused")
    payload = {
        "inputs": {"number": "1"},
        "ref": "refs/heads/main",
        "repository": comment_payload["repository"],
    }
    result = world.run("workflow_dispatch", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert _routes(result) == [
        "GET /issues/1",
        "GET /issues/1/comments",
        "GET /pulls/1",
        "GET /pulls/1/files",
        "POST /issues/1/comments",
    ]
    assert "PR_HEAD_MARKER" in world.fake.posted_bodies()[0]
    assert "### Context package for PR #1" in result.summary


@pytest.mark.parametrize("action", ["synchronize", "reopened", "ready_for_review"])
def test_pull_request_events_package_the_changed_files(world: World, action: str) -> None:
    payload = webhook_fixture("pull_request.opened.json")
    payload["action"] = action
    payload["pull_request"]["head"]["sha"] = world.pr_head
    payload["pull_request"]["base"]["sha"] = world.main
    world.fake.add_pull(payload["pull_request"], ["src/hello/greet.py"])
    result = world.run("pull_request", payload)
    assert result.code == 0, result.stdout + result.stderr
    assert _routes(result) == ["GET /issues/2/comments", "GET /pulls/2/files", "POST /issues/2/comments"]
    assert "PR_HEAD_MARKER" in world.fake.posted_bodies()[0]


def test_shallow_checkout_is_deepened(tmp_path: Path, fake_github: FakeGitHub) -> None:
    world = _world(tmp_path, fake_github, depth=1)
    result = world.run("issues", _issue_world(world), history_depth="3")
    assert result.code == 0, result.stdout + result.stderr
    assert "shallow checkout deepened by 3 commits" in result.stdout
    assert world.workspace.git("rev-list", "--count", "HEAD").strip() == "4"


def test_shallow_checkout_that_cannot_deepen_warns_to_use_fetch_depth_0(
    tmp_path: Path, fake_github: FakeGitHub
) -> None:
    world = _world(tmp_path, fake_github, depth=1)
    world.workspace.git("remote", "remove", "origin")
    result = world.run("issues", _issue_world(world))
    assert result.code == 0
    (warning,) = [w for w in result.annotations("warning") if "shallow" in w]
    assert "fetch-depth: 0" in warning


def test_a_job_without_checkout_is_told_to_add_it(tmp_path: Path, fake_github: FakeGitHub) -> None:
    """No actions/checkout step: the workspace is an empty folder."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    runner = ActionRunner(tmp_path, fake_github, workspace)
    payload = webhook_fixture("issues.opened.json")
    fake_github.add_issue(payload["issue"])
    result = runner.run("issues", payload)
    assert result.code == 1
    (error,) = result.annotations("error")
    assert "the workspace holds no git checkout: add an actions/checkout step" in error
    assert str(workspace) not in error and "--repo" not in error
    assert not fake_github.calls("POST")


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root, like a container action"
)
def test_workspace_owned_by_another_user(world: World) -> None:
    for path in [world.workspace.root, *world.workspace.root.rglob("*")]:
        os.lchown(path, 65534, 65534)
    result = world.run("issues", _issue_world(world), output="artifact,comment")
    assert result.code == 0, result.stdout + result.stderr  # safe.directory through the environment
    written = world.workspace.root / result.outputs["package-path"]
    assert written.stat().st_uid == 65534 and written.parent.stat().st_uid == 65534


def test_bad_input_is_one_error_and_no_request(world: World) -> None:
    result = world.run("issues", _issue_world(world), budget="lots")
    assert result.code == 1 and result.requests == []
    (error,) = result.annotations("error")
    assert "input 'budget'" in error and "'lots'" in error


def test_malformed_payload_names_the_field(world: World) -> None:
    payload = _issue_world(world)
    del payload["issue"]["number"]
    result = world.run("issues", payload)
    assert result.code == 1 and result.requests == []
    (error,) = result.annotations("error")
    assert "field 'issue.number' is missing" in error


def test_untrusted_comment_cannot_inject_workflow_commands(world: World) -> None:
    payload, _ = _pr_comment(world, "/context\n::error::injected\n::set-output name=x::y")
    result = world.run("issue_comment", payload)
    assert result.code == 0
    lines = result.stdout.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("::stop-commands::"))
    token = lines[start].removeprefix("::stop-commands::")
    end = lines.index(f"::{token}::")
    assert start < lines.index("::error::injected") < end
