"""The whole line on real temp repositories: task → candidates → filter → budget → render."""

from __future__ import annotations

import dataclasses
import json
import string
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ctxaction.model import Comment, Task
from ctxaction.pack.budget import BudgetError
from ctxaction.pipeline import BuildError, BuildOptions, build, build_package, render
from ctxaction.repo.files import split_lines
from ctxaction.tokens import get_counter
from tests.gitrepo import GitRepo

AUTH = "\n".join(
    ["import hashlib", "from app.db import connect", "", ""]
    + [f"def helper_{i}(x):\n    return x + {i}\n\n" for i in range(40)]
    + [
        "def check_password(user, password):",
        '    """Compare a password with the stored hash."""',
        "    digest = hashlib.sha256(password.encode()).hexdigest()",
        "    return digest == user.password_hash",
        "",
    ]
    + [f"def tail_{i}(x):\n    return x * {i}\n\n" for i in range(40)]
)
FILES = {
    "app/auth.py": AUTH,
    "app/db.py": "def connect(url):\n    return url\n",
    "app/views.py": (
        "from app.auth import check_password\n\n\n"
        "def login(req):\n    return check_password(req.user, req.pw)\n"
    ),
    "README.md": "# App\n\nA small app.\n",
    "config/prod.env": "DB_PASSWORD=hunter2hunter2\n",
    "CLAUDE.md": "Run the tests with pytest.\n",
}
ISSUE = Task(
    "check_password rejects valid passwords",
    "Logging in fails: `check_password` in app/auth.py returns False for a correct password.\n"
    "The DB_PASSWORD in config/prod.env is fine.",
    kind="issue",
    number=7,
)


@pytest.fixture
def app_repo(make_repo: Callable[..., GitRepo]) -> GitRepo:
    repo = make_repo()
    repo.commit(FILES, "initial")
    return repo


def assert_ranges_match_text(repo_root: Path, data: dict[str, object]) -> None:
    """Every JSON file entry holds, range by range, exactly the lines its ranges name (redaction
    aside)."""
    files = data["files"]
    assert isinstance(files, list)
    for entry in files:
        lines = split_lines((repo_root / entry["path"]).read_text(encoding="utf-8"))
        assert len(entry["content"]) == len(entry["ranges"])
        for (a, b), shown in zip(entry["ranges"], entry["content"], strict=True):
            assert len(shown) == b - a + 1
            for got, want in zip(shown, lines[a - 1 : b], strict=True):
                assert got == want or "[REDACTED:" in got


def test_named_function_is_packed_and_total_fits(app_repo: GitRepo) -> None:
    result = build(BuildOptions(repo=app_repo.root, task=ISSUE, budget=1500, fmt="json"))
    package = result.package
    data = json.loads(result.rendered)
    counter = get_counter()
    assert package.total_tokens == data["total_tokens"] == counter.count(result.rendered) <= 1500
    top = data["files"][0]
    assert top["path"] == "app/auth.py"
    definition = split_lines(AUTH).index("def check_password(user, password):") + 1
    assert any(a <= definition <= b and a <= definition + 3 <= b for a, b in top["ranges"])
    assert_ranges_match_text(app_repo.root, data)
    assert [e["path"] for e in data["excluded"]] == ["config/prod.env"]
    assert data["excluded"][0]["reason"].startswith("sensitive path")
    assert "hunter2" not in result.rendered
    assert data["tokenizer"] == {"encoding": "o200k_base", "exact": True}
    assert data["repo"]["head"] == app_repo.git("rev-parse", "HEAD").strip()
    assert [r["path"] for r in data["rules"]] == ["CLAUDE.md"]


def test_the_package_shows_the_issue_without_its_unanswered_questions(app_repo: GitRepo) -> None:
    form = "\n\n### Version\n\n_No response_\n\n### Expected behavior\n\n_No response_\n"
    task = Task(ISSUE.title, ISSUE.body + form)
    shown = build(BuildOptions(repo=app_repo.root, task=task, budget=2000, fmt="markdown")).rendered
    assert "No response" not in shown and "Expected behavior" not in shown
    assert ISSUE.body.strip() in shown


@pytest.mark.parametrize("fmt", ["markdown", "xml", "json"])
def test_every_format_counts_itself(app_repo: GitRepo, fmt: str) -> None:
    package = build_package(BuildOptions(repo=app_repo.root, task=ISSUE, budget=900, fmt=fmt))
    text = render(package, fmt)
    assert get_counter().count(text) == package.total_tokens <= 900
    assert "app/auth.py" in text


@pytest.mark.parametrize(("fitted", "other"), [("json", "markdown"), ("markdown", "json"), ("json", "xml")])
def test_another_format_of_a_fitted_package_stays_within_budget(
    app_repo: GitRepo, fitted: str, other: str
) -> None:
    # The JSON package leaves the task body out and Markdown carries it: rendering a package in a
    # format it was not fitted for recounts it, and trims its weakest files when it would run over.
    task = Task(ISSUE.title, ISSUE.body + "\n\n" + "A long account of what happened. " * 60, number=7)
    package = build_package(BuildOptions(repo=app_repo.root, task=task, budget=1200, fmt=fitted))
    text = render(package, other)
    stated = json.loads(text)["total_tokens"] if other == "json" else None
    count = get_counter().count(text)
    assert count <= 1200
    assert stated in (None, count)
    assert str(count) in text
    assert render(package, fitted).count("app/auth.py") >= 1


def test_secret_in_packed_file_is_redacted(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    key = "".join(("AKIA", "QWERTYUIOPASDFGH"))  # pieces a scan does not join
    repo.commit(
        {"app/settings.py": f'AWS_KEY = "{key}"\nTIMEOUT = 5\n\n\ndef load_settings():\n    return 1\n'}
    )
    task = Task("load_settings ignores TIMEOUT", "See app/settings.py load_settings.")
    result = build(BuildOptions(repo=repo.root, task=task, budget=2000, fmt="markdown"))
    assert key not in result.rendered
    assert "[REDACTED:" in result.rendered
    assert any("redacted in app/settings.py" in w for w in result.package.warnings)


def test_secrets_allowlist_in_config_is_honoured(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    key = "".join(("AKIA", "QWERTYUIOPASDFGH"))  # pieces a scan does not join
    files = {"app/settings.py": f'AWS_KEY = "{key}"\n\n\ndef load_settings():\n    return 1\n'}
    files["context-packages.yaml"] = "secrets:\n  allowlist:\n    paths: [app/settings.py]\n"
    repo.commit(files)
    task = Task("load_settings breaks", "See app/settings.py load_settings.")
    result = build(BuildOptions(repo=repo.root, task=task, budget=2000))
    assert key in result.rendered
    assert not any("redacted" in w for w in result.package.warnings)


def test_history_from_comments_newest_kept(app_repo: GitRepo) -> None:
    comments = [Comment(f"dev{i}", f"Comment {i}: check_password fails on unicode input.") for i in range(4)]
    task = Task(ISSUE.title, ISSUE.body, kind="issue", number=7, comments=comments)
    package = build_package(BuildOptions(repo=app_repo.root, task=task, budget=3000))
    assert package.history and package.history[-1].author == "dev3"


@pytest.mark.parametrize("fmt", ["markdown", "xml", "json"])
def test_a_key_quoted_in_a_reply_or_commented_out_is_redacted(
    make_repo: Callable[..., GitRepo], fmt: str
) -> None:
    # GitHub's "Quote reply" puts "> " before every line of the comment it quotes: the reply to
    # a comment that pasted a key held the key again, no longer read as one, and packed whole.
    from ctxaction.secure.synth import expand

    key = expand("<<pem:RSA PRIVATE KEY>>", "quoted-key").split("\n")
    body = key[1:-1]
    quoted = "\n".join(f"> {line}" for line in key)
    script = "#!/bin/sh\n" + "".join(f"# {line}\n" for line in key) + "deploy() {\n  scp build host:\n}\n"
    repo = make_repo()
    repo.commit({**FILES, "deploy.sh": script})
    comments = [Comment("dev", f"Don't paste keys here!\n\n{quoted}\n\nRotate it now.")]
    task = Task("deploy in deploy.sh fails", "See deploy.sh deploy.", kind="issue", comments=comments)
    result = build(BuildOptions(repo=repo.root, task=task, budget=4000, fmt=fmt))
    assert "Rotate it now." in result.rendered and "deploy.sh" in result.rendered
    assert sum(line in result.rendered for line in body) == 0  # a count: no key line printed
    assert result.rendered.count("[REDACTED:private-key]") == 2


def test_shallow_clone_works_and_warns(app_repo: GitRepo, tmp_path: Path) -> None:
    app_repo.commit({"app/db.py": "def connect(url):\n    return url.strip()\n"}, "second")
    clone = tmp_path / "shallow"
    app_repo.git("clone", "-q", "--depth", "1", f"file://{app_repo.root}", str(clone))
    package = build_package(BuildOptions(repo=clone, task=ISSUE, budget=2000, fmt="json"))
    assert package.shallow
    assert any("shallow clone" in w for w in package.warnings)
    assert package.files[0].path == "app/auth.py"


def test_a_merge_stopped_on_conflicts_packs_the_work_tree_and_warns_once(app_repo: GitRepo) -> None:
    # The build packs the work tree: a conflicted file goes in as the agent will open it, both
    # sides and the markers, and one warning names every unmerged path (five, then a count).
    names = ["app/auth.py", *(f"app/more_{i}.py" for i in range(6))]
    app_repo.stop_in_conflict(names)
    result = build(BuildOptions(repo=app_repo.root, task=ISSUE, budget=2000, fmt="json"))
    data = json.loads(result.rendered)
    assert data["warnings"] == result.package.warnings
    unmerged = [w for w in data["warnings"] if "unmerged" in w]
    assert unmerged == [
        "7 unmerged paths (a merge, rebase, cherry-pick or stash stopped on conflicts): app/auth.py, "
        "app/more_0.py, app/more_1.py, app/more_2.py, app/more_3.py and 2 more; the package shows "
        "their working copies, conflict markers included (resolve and `git add` them, or abort, "
        "for a clean package)"
    ]
    auth = next(f for f in data["files"] if f["path"] == "app/auth.py")
    conflicted = ["line 1", "<<<<<<< HEAD", "ours", "=======", "theirs", ">>>>>>> theirs", "line 3"]
    assert auth["content"] == [conflicted]
    assert_ranges_match_text(app_repo.root, data)
    app_repo.git("add", *names)
    resolved = build_package(BuildOptions(repo=app_repo.root, task=ISSUE, budget=2000, fmt="json"))
    assert not any("unmerged" in w for w in resolved.warnings)


def test_detached_head_packs_that_commit(app_repo: GitRepo) -> None:
    first = app_repo.git("rev-parse", "HEAD").strip()
    app_repo.commit({"app/auth.py": "def check_password(user, password):\n    return True\n"}, "simplify")
    app_repo.git("checkout", "-q", "--detach", first)
    package = build_package(BuildOptions(repo=app_repo.root, task=ISSUE, budget=2000, fmt="json"))
    assert package.head == first
    assert package.files[0].line_count == len(split_lines(AUTH))


def test_budget_too_small_for_required_parts(app_repo: GitRepo) -> None:
    with pytest.raises(BudgetError, match="too small for the required parts"):
        build_package(BuildOptions(repo=app_repo.root, task=ISSUE, budget=60))


def test_required_file_of_feature_profile_is_pinned(app_repo: GitRepo) -> None:
    package = build_package(BuildOptions(repo=app_repo.root, task=ISSUE, profile="feature", budget=2500))
    readme = next(f for f in package.files if f.path == "README.md")
    assert readme.mode == "full" and readme.reasons == ["required by the profile"]


def test_issue_without_usable_words_falls_back(app_repo: GitRepo) -> None:
    package = build_package(BuildOptions(repo=app_repo.root, task=Task("???", "!!"), budget=2000))
    assert any("repository overview" in w for w in package.warnings)
    assert package.files and package.files[0].path == "README.md"


def test_not_a_repo_and_empty_repo(tmp_path: Path, make_repo: Callable[..., GitRepo]) -> None:
    with pytest.raises(BuildError, match="not a git repository"):
        build_package(BuildOptions(repo=tmp_path, task=ISSUE))
    empty = make_repo()
    with pytest.raises(BuildError, match="no commits"):
        build_package(BuildOptions(repo=empty.root, task=ISSUE))


def test_a_commit_or_index_with_no_files_is_an_error_not_an_empty_package(
    make_repo: Callable[..., GitRepo],
) -> None:
    # Both built a package of no files, exit 0, without a word.
    empty_tree = make_repo()
    empty_tree.git("commit", "-q", "--allow-empty", "-m", "start")
    with pytest.raises(BuildError) as info:
        build_package(BuildOptions(repo=empty_tree.root, task=ISSUE))
    assert str(info.value) == f"{empty_tree.root} tracks no files at HEAD: commit the code to pack first"
    lost_index = make_repo()
    lost_index.commit({"app/auth.py": "def check_password(pw):\n    return False\n"})
    lost_index.git("rm", "-r", "-q", "--cached", ".")
    with pytest.raises(BuildError) as info:
        build_package(BuildOptions(repo=lost_index.root, task=ISSUE))
    assert str(info.value) == (
        f"{lost_index.root}: the index lists no files though HEAD has some (`git rm -r --cached`, or a "
        "lost .git/index): run `git reset` to restore the index, or pass --ref HEAD"
    )
    # As the message says, the commit itself can still be packed.
    package = build_package(BuildOptions(repo=lost_index.root, task=ISSUE, ref="HEAD"))
    assert [f.path for f in package.files] == ["app/auth.py"]


def test_binary_non_utf8_and_huge_files(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.commit(
        {
            "app/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00check_password",
            "app/legacy.py": b"# caf\xe9 check_password\ndef check_password():\n    return 1\n",
            "app/huge.py": "check_password = 1\n" + ("x = '" + "a" * 1000 + "'\n") * 1100,
        }
    )
    result = build(BuildOptions(repo=repo.root, task=ISSUE, budget=2000, fmt="json"))
    data = json.loads(result.rendered)
    paths = [f["path"] for f in data["files"]]
    assert "app/logo.png" not in paths and "app/huge.py" not in paths
    legacy = next(f for f in data["files"] if f["path"] == "app/legacy.py")
    assert "# caf\ufffd check_password" in legacy["content"][0]
    assert any(w.startswith("app/legacy.py is not UTF-8 text") for w in data["warnings"])
    # Too large to be ranked or parsed at all; named in the task, it is listed with the reason.
    assert "app/huge.py" not in result.decisions
    named = dataclasses.replace(ISSUE, body=ISSUE.body + "\nSee app/huge.py and app/logo.png.")
    result = build(BuildOptions(repo=repo.root, task=named, budget=2000, fmt="json"))
    excluded = {e["path"]: e["reason"] for e in json.loads(result.rendered)["excluded"]}
    assert excluded["app/huge.py"].startswith("too large") and excluded["app/logo.png"] == "binary"
    assert result.decisions["app/huge.py"].startswith("excluded: too large")


def test_exclude_option_and_explain_decisions(app_repo: GitRepo) -> None:
    result = build(BuildOptions(repo=app_repo.root, task=ISSUE, budget=2000, exclude=["app/views.py"]))
    assert "app/views.py" not in [f.path for f in result.package.files]
    assert result.decisions["app/views.py"] == "excluded: excluded by --exclude"
    assert result.decisions["app/auth.py"].startswith(("whole", "excerpt"))


@st.composite
def repos(draw: st.DrawFn) -> dict[str, str]:
    words = st.text(alphabet=string.ascii_lowercase, min_size=3, max_size=9)
    files: dict[str, str] = {}
    for i in range(draw(st.integers(1, 6))):
        names = draw(st.lists(words, min_size=1, max_size=12))
        body = draw(st.integers(0, 40))
        src = "".join(
            f"def {n}_{k}(value):\n" + "    value += 1\n" * body + "    return value\n\n"
            for k, n in enumerate(names)
        )
        if draw(st.booleans()):
            src += "`" * draw(st.integers(3, 6)) + " fence </file> & <tag>\n"
        files[f"pkg/m{i}.py"] = src
    return files


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    files=repos(),
    budget=st.integers(250, 5000),
    fmt=st.sampled_from(["markdown", "xml", "json"]),
    seed=st.integers(0, 5),
)
def test_total_never_exceeds_budget(
    make_repo: Callable[..., GitRepo], files: dict[str, str], budget: int, fmt: str, seed: int
) -> None:
    repo = make_repo()
    repo.commit(files)
    named = sorted(files)[seed % len(files)]
    first_def = next(
        (line[4:].split("(")[0] for line in files[named].split("\n") if line.startswith("def ")), "value"
    )
    task = Task(f"{first_def} breaks", f"In {named}, `{first_def}` returns the wrong value.")
    try:
        result = build(BuildOptions(repo=repo.root, task=task, budget=budget, fmt=fmt))
    except BudgetError:
        assert budget < 700  # only tiny budgets may be too small for the task and markup
        return
    assert get_counter().count(result.rendered) == result.package.total_tokens <= budget
    if fmt == "json":
        assert_ranges_match_text(repo.root, json.loads(result.rendered))
