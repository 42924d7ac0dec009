"""REST calls through PyGithub against the loopback fake: pagination, retries, errors, upsert lookup."""

from __future__ import annotations

import pytest

from ctxaction.github.client import ACTIONS_BOT, Client, GitHubError, find_own, repository_of, role_at_least
from ctxaction.github.deliver import MARKER, MARKER_RE
from ctxaction.secure.synth import expand
from tests.ghserver import COMMENT_LIMIT, SECONDARY_MESSAGE, FakeGitHub, webhook_fixture
from tests.leaks.forms import assert_no_key_pieces

REPO = "Codertocat/Hello-World"


def client_for(fake: FakeGitHub, token: str = "ghs_test", **kwargs: object) -> tuple[Client, list[float]]:
    slept: list[float] = []
    return Client(REPO, token, fake.base_url, sleep=slept.append, **kwargs), slept  # type: ignore[arg-type]


def test_comments_follow_every_page_with_per_page_100(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    for i in range(230):
        fake_github.add_comment(1, f"comment {i}")
    client, _ = client_for(fake_github)
    comments = client.comments(1)
    assert [c.body for c in comments] == [f"comment {i}" for i in range(230)]
    pages = fake_github.calls("GET", r"/issues/1/comments$")
    assert len(pages) == 3 and all(r.query["per_page"] == ["100"] for r in pages)
    assert all(r.authorization == "token ghs_test" for r in pages)


def test_own_comment_needs_marker_and_author(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.add_comment(1, f"{MARKER}\ncopied by a person", login="mallory")
    fake_github.add_comment(1, "no marker", login=ACTIONS_BOT, user_type="Bot")
    ours = fake_github.add_comment(1, f"{MARKER}\nours", login=ACTIONS_BOT, user_type="Bot")
    client, _ = client_for(fake_github)
    found = find_own(client.comments(1), MARKER_RE, client.own_login())
    assert found is not None and found.id == ours


def test_personal_token_asks_who_it_is(fake_github: FakeGitHub) -> None:
    fake_github.token_login = "octo-dev"
    client, _ = client_for(fake_github, token="ghp_" + "x" * 36)
    assert client.own_login() == "octo-dev"
    assert client.own_login("custom-app[bot]") == "custom-app[bot]"
    assert len(fake_github.calls("GET", "^/user$")) == 1


def _foreign_marked_comments(fake: FakeGitHub) -> None:
    """Comments carrying the marker that are not ours, newer than anything a test posts before."""
    fake.add_comment(1, f"{MARKER}\ncopied by a person", login="mallory")
    fake.add_comment(
        1, f"> quoting the package:\n> {MARKER}\n\nlooks fine", login="ci-bot[bot]", user_type="Bot"
    )
    fake.add_comment(1, f"{MARKER}\nwritten as a commenter asked", login="claude[bot]", user_type="Bot")


def test_app_token_finds_its_comment_by_a_bot_and_the_leading_marker(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    ours = fake_github.add_comment(1, f"{MARKER}\nours", login="my-app[bot]", user_type="Bot")
    _foreign_marked_comments(fake_github)
    client, _ = client_for(fake_github, token="ghs_" + "a" * 36)
    assert not client.login_known()
    found = client.find_ours(reversed(client.comments(1)), MARKER_RE)
    assert found is not None and found.id == ours


def test_app_token_prefers_the_actions_bot_comment_to_another_bots(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    actions = fake_github.add_comment(1, f"{MARKER}\nolder", login=ACTIONS_BOT, user_type="Bot")
    fake_github.add_comment(1, f"{MARKER}\nnewer", login="my-app[bot]", user_type="Bot")
    client, _ = client_for(fake_github)
    found = client.find_ours(reversed(client.comments(1)), MARKER_RE)
    assert found is not None and found.id == actions


def test_a_known_login_takes_no_other_bots_comment(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.add_comment(1, f"{MARKER}\nanother app's", login="my-app[bot]", user_type="Bot")
    _foreign_marked_comments(fake_github)
    fake_github.token_login = "octo-dev"
    personal, _ = client_for(fake_github, token="ghp_" + "x" * 36)
    configured, _ = client_for(fake_github)
    comments = personal.comments(1)
    assert personal.login_known() and personal.find_ours(reversed(comments), MARKER_RE) is None
    assert configured.find_ours(reversed(comments), MARKER_RE, "other-app[bot]") is None
    assert configured.find_ours(reversed(comments), MARKER_RE, "my-app[bot]") is not None


def test_a_comment_we_created_tells_our_login(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.token_login = "my-app[bot]"
    client, _ = client_for(fake_github)
    assert client.own_login() == ACTIONS_BOT and not client.login_known()
    client.create_comment(1, f"{MARKER}\nfirst")
    assert client.own_login() == "my-app[bot]" and client.login_known()
    assert client.own_login("configured-app[bot]") == "configured-app[bot]"
    assert fake_github.calls("GET", "^/user$") == []


def test_secondary_rate_limit_waits_retry_after_then_succeeds(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.fail("POST", r"/issues/1/comments$", 403, SECONDARY_MESSAGE, headers={"Retry-After": "7"})
    client, slept = client_for(fake_github)
    comment_id, url = client.create_comment(1, "hello")
    assert slept == [7.0] and url.endswith(f"#issuecomment-{comment_id}")
    assert len(fake_github.calls("POST", r"/issues/1/comments$")) == 2


def test_429_and_5xx_on_reads_are_retried_with_backoff(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.fail("GET", r"/issues/1$", 429, "too many", headers={"Retry-After": "2"})
    fake_github.fail("GET", r"/issues/1$", 502, "bad gateway")
    client, slept = client_for(fake_github)
    assert client.issue(1)["number"] == 1
    assert slept == [2.0, 2.0]  # Retry-After, then the second attempt's backoff


def test_5xx_on_a_write_is_not_retried(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.fail("POST", r"/comments$", 500, "oops")
    client, slept = client_for(fake_github)
    with pytest.raises(GitHubError, match=r"comment on #1 failed \(500\): oops"):
        client.create_comment(1, "x")
    assert slept == [] and len(fake_github.calls("POST")) == 1


def test_retries_are_bounded(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.fail("GET", r"/issues/1$", 503, "unavailable", times=10)
    client, slept = client_for(fake_github, attempts=3)
    with pytest.raises(GitHubError, match=r"\(503\)"):
        client.issue(1)
    assert len(fake_github.calls("GET", r"/issues/1$")) == 3 and slept == [1.0, 2.0]


def test_wait_longer_than_the_cap_fails_clearly(fake_github: FakeGitHub) -> None:
    fake_github.fail("GET", r"/pulls/2$", 403, SECONDARY_MESSAGE, headers={"Retry-After": "3600"})
    client, slept = client_for(fake_github, max_wait=60)
    with pytest.raises(GitHubError, match=r"asks to wait 3600s, more than the 60s"):
        client.pull(2)
    assert slept == []


def test_plain_403_is_not_retried_and_read_only_is_recognised(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.read_only = True
    client, slept = client_for(fake_github)
    with pytest.raises(GitHubError) as info:
        client.create_comment(1, "x")
    assert info.value.read_only and info.value.status == 403 and slept == []


def test_a_422_names_what_github_refused(fake_github: FakeGitHub) -> None:
    # "Validation Failed" alone says nothing to fix: the detail is in GitHub's errors[], which the
    # fake answers as GitHub was recorded answering a body over the limit (tests/fixtures/rest).
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    client, slept = client_for(fake_github)
    client.create_comment(1, "ours")
    [ours] = client.comments(1)
    too_long = "x" * (COMMENT_LIMIT + 1)
    with pytest.raises(GitHubError) as created:
        client.create_comment(1, too_long)
    with pytest.raises(GitHubError) as edited:
        client.update_comment(ours, too_long)
    assert str(created.value) == (
        "GitHub API: comment on #1 failed (422): Validation Failed: "
        "Body is too long (maximum is 65536 characters)"
    )
    assert str(edited.value) == (
        f"GitHub API: update comment {ours.id} failed (422): Validation Failed: "
        "body is too long (maximum is 65536 characters)"
    )
    assert slept == [] and [c.body for c in client.comments(1)] == ["ours"]


def test_every_detail_of_a_422_is_named_redacted_and_cut(fake_github: FakeGitHub) -> None:
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    keys = {"gh": (expand("<<gh:ghp>>", "client-422"), "ghp_")}
    # GitHub's shapes: a message, only what is wrong (resource, field, code), a plain string; the
    # last one holds a key across the place GitHub's messages are cut (300 characters).
    named = "Validation Failed: name is too long; Issue title missing_field; "
    errors = [
        {"resource": "Label", "code": "invalid", "field": "name", "message": "name is too long"},
        {"resource": "Issue", "field": "title", "code": "missing_field"},
        "x" * (300 - 20 - len(named) - 1) + " " + keys["gh"][0] + " " + "y" * 70_000,
    ]
    fake_github.fail("POST", r"/issues/1/comments$", 422, "Validation Failed", errors=errors)
    client, _ = client_for(fake_github)
    with pytest.raises(GitHubError) as info:
        client.create_comment(1, "x")
    text = info.value.one_line()
    assert_no_key_pieces(keys, text, 8, "a 422's details")
    # Facts, not the text: a failing assertion prints its operands.
    facts = [text.startswith(f"GitHub API: comment on #1 failed (422): {named}x"), "[REDACTED:" in text]
    facts.append(len(text) < 400)
    assert facts == [True, True, True]


def test_404_is_a_clear_error(fake_github: FakeGitHub) -> None:
    client, _ = client_for(fake_github)
    with pytest.raises(GitHubError, match=r"get issue #99 failed \(404\): Not Found"):
        client.issue(99)


def test_an_issue_transferred_elsewhere_is_refused_though_the_redirect_was_followed(
    fake_github: FakeGitHub,
) -> None:
    """GitHub answers 301 for a transferred issue and PyGithub follows it (no opt-out): what comes
    back is the other repository's issue, which the client refuses as moved."""
    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    fake_github.transfer(1, "octo-org/elsewhere", 7)
    client, _ = client_for(fake_github)
    with pytest.raises(GitHubError, match=r"get issue #1 failed \(301\): the answer is not this") as info:
        client.issue(1)
    assert info.value.moved and info.value.gone
    followed = "/repositories/700000/issues/7"
    assert [r.path for r in fake_github.requests] == [f"/repos/{REPO}/issues/1", followed]


def test_only_a_named_other_repository_proves_a_move(fake_github: FakeGitHub) -> None:
    """PyGithub keeps the URL it asked for in ``url``, so an answer that names no repository (a
    proxy trimming it) is taken as asked; one naming another repository is refused."""
    client, _ = client_for(fake_github)
    bare = {"number": 1, "title": "names no repository"}
    assert client._here("get issue #1", bare) is bare
    with pytest.raises(GitHubError) as info:
        client._here("get issue #1", {"repository_url": "https://api.github.com/repos/o/elsewhere"})
    assert info.value.moved


@pytest.mark.parametrize(
    ("item", "repo"),
    [
        ({"repository_url": "https://api.github.com/repos/o/r", "url": "https://a.example/repos/x/y"}, "o/r"),
        ({"url": "https://ghe.example.com/api/v3/repos/o/r/pulls/2"}, "o/r"),
        ({"html_url": "https://ghe.example.com/o/r/issues/3"}, "o/r"),
        ({"title": "names no repository"}, ""),
    ],
)
def test_repository_of_reads_the_api_url_first(item: dict[str, str], repo: str) -> None:
    assert repository_of(item) == repo


def test_roles_and_ranking(fake_github: FakeGitHub) -> None:
    fake_github.roles.update(alice="maintain", bob="triage")
    client, _ = client_for(fake_github)
    assert client.role("alice") == "maintain" and client.role("bob") == "triage"
    assert client.role("carol") == "read"
    assert role_at_least("maintain", "write") and not role_at_least("triage", "write")
    assert not role_at_least("mystery", "read")


def test_pull_files_and_reactions(fake_github: FakeGitHub) -> None:
    pull = webhook_fixture("pull_request.opened.json")["pull_request"]
    fake_github.add_pull(pull, [f"src/f{i}.py" for i in range(120)])
    cid = fake_github.add_comment(2, "/context")
    client, _ = client_for(fake_github)
    assert client.pull_files(2) == [f"src/f{i}.py" for i in range(120)]
    assert client.pull(2)["head"]["sha"] == pull["head"]["sha"]
    client.react(2, cid, "eyes")
    assert fake_github.reactions == [(cid, "eyes")]


def test_primary_rate_limit_waits_until_the_reset(fake_github: FakeGitHub) -> None:
    import time

    fake_github.add_issue(webhook_fixture("issues.opened.json")["issue"])
    reset = str(int(time.time()) + 5)
    fake_github.fail(
        "GET",
        r"/issues/1$",
        403,
        "API rate limit exceeded for installation.",
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": reset},
    )
    client, slept = client_for(fake_github)
    assert client.issue(1)["number"] == 1
    assert len(slept) == 1 and 4.0 <= slept[0] <= 7.0
