"""The MCP server's warm index: same packages as a cold build, invalidated by any change of the
repository state that the inventory or the reads depend on, bounded, never shared between
repositories. Real git repositories in temp folders, the real tokenizer."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from ctxaction.mcp_server import MAX_RESULT_TOKENS, Workspace, package_text
from ctxaction.mcp_server import build as server_build
from ctxaction.model import Task
from ctxaction.pipeline import BuildOptions, build
from ctxaction.repo.files import open_repo
from ctxaction.repo.history import commits_matching
from ctxaction.repo.memo import RepoMemo
from ctxaction.repo.messages import read_log
from ctxaction.repo.warm import WarmRepos
from tests.gitrepo import GitRepo

TASKS = [
    Task(
        title="Session token lookup raises KeyError",
        body="`session_token` in src/auth/login.py fails when the cookie has no sid (see #12).\n"
        "load() in the store returns the raw session.",
    ),
    Task(title="Cache eviction ignores max_entries", body="LruCache.evict keeps one entry too many."),
    Task(title="Docs", body="Nothing in particular: polish the README wording."),
]


def _age(repo: GitRepo) -> None:
    """Date every tracked file and the index ten seconds back: older than the margin within which
    a file's stat is not trusted alone (a file changed this very moment always costs a rebuild)."""
    past = time.time_ns() - 10_000_000_000
    for path in [*repo.git("ls-files", "-z").split("\0"), ".git/index"]:
        if path:
            os.utime(repo.root / path, ns=(past, past), follow_symlinks=False)


def _module(name: str, n: int) -> str:
    body = [f'"""{name} helpers."""', ""]
    body += [f"def {name}_{i}(value):\n    return value + {i}\n" for i in range(n)]
    return "\n".join(body)


@pytest.fixture
def repo(make_repo: Callable[..., GitRepo]) -> GitRepo:
    r = make_repo("proj")
    r.commit(
        {
            "README.md": "# proj\n\nA login service with a small cache.\n",
            "CLAUDE.md": "Run pytest before committing.\n",
            "src/auth/login.py": "from src.auth.store import load\n\n\ndef session_token(request):\n"
            "    data = load(request)\n    return data['sid']\n",
            "src/auth/store.py": "def load(request):\n    return request.session\n",
            "src/cache.py": "class LruCache:\n    def __init__(self, max_entries):\n"
            "        self.max_entries = max_entries\n\n    def evict(self):\n        return None\n",
            "src/util.py": _module("util", 30),
        },
        "Initial import of the login service",
    )
    r.commit({"src/auth/login.py": r.root.joinpath("src/auth/login.py").read_text() + "\n# sid\n"},
             "Fix session_token KeyError (#12)")
    r.commit({"src/cache.py": r.root.joinpath("src/cache.py").read_text() + "\n# evict\n"},
             "LruCache: evict the oldest entry first (#123)")
    r.commit({"tests/test_cache.py": "from src.cache import LruCache\n\n\ndef test_evict():\n"
              "    assert LruCache(1).evict() is None\n"}, "Test the cache's MAX_ENTRIES bound")
    _age(r)
    return r


def _opts(root: Path, task: Task, fmt: str = "markdown") -> BuildOptions:
    return BuildOptions(repo=root, task=task, fmt=fmt, budget=3000)


def test_warm_builds_render_the_cold_packages_byte_for_byte(repo: GitRepo) -> None:
    warm = WarmRepos()
    for fmt in ("markdown", "json"):
        for task in [*TASKS, TASKS[0]]:
            cold = build(_opts(repo.root, task, fmt))
            hot = build(_opts(repo.root, task, fmt), warm=warm)
            assert hot.rendered == cold.rendered
            assert hot.decisions == cold.decisions
    assert warm.misses == 1
    assert warm.hits == 2 * (len(TASKS) + 1) - 1


def test_a_change_of_state_rebuilds_and_matches_a_cold_build(repo: GitRepo) -> None:
    warm = WarmRepos()
    task = TASKS[1]

    def same() -> None:
        assert build(_opts(repo.root, task), warm=warm).rendered == build(_opts(repo.root, task)).rendered

    same()
    assert (warm.hits, warm.misses) == (0, 1)
    repo.write("notes.txt", "untracked: never packed\n")
    same()
    assert (warm.hits, warm.misses) == (1, 1)  # an untracked file changes nothing
    repo.write("src/cache.py", "class LruCache:\n    def evict(self, n):\n        return n\n")
    same()
    assert warm.misses == 2  # a tracked file edited in the work tree
    repo.git("add", "src/cache.py")
    same()
    assert warm.misses == 3  # the index rewritten
    repo.git("commit", "-q", "-m", "evict takes max_entries")
    same()
    assert warm.misses == 4  # a new HEAD
    repo.git("rm", "-q", "src/util.py")
    same()
    assert warm.misses == 5  # a tracked file removed
    same()
    assert warm.misses == 6  # that state was seen within a second of its change: not trusted yet
    _age(repo)
    same()
    same()
    assert (warm.misses, warm.hits) == (7, 2)  # settled: kept again


def test_an_edited_config_file_takes_effect_on_a_warm_view(repo: GitRepo, tmp_path: Path) -> None:
    config = tmp_path / "outside.yaml"
    warm = WarmRepos()
    rendered = []
    for tokens in (4000, 1500):
        text = f"version: 1\nprofiles:\n  default:\n    budget:\n      total_tokens: {tokens}\n"
        config.write_text(text, encoding="utf-8")
        opts = replace(_opts(repo.root, TASKS[0]), config_path=config, profile="default", budget=None)
        rendered.append(build(opts, warm=warm).rendered)
        assert rendered[-1] == build(opts).rendered
    assert rendered[0] != rendered[1] and warm.hits == 1


def test_a_view_over_its_text_bound_forgets_what_it_read(repo: GitRepo) -> None:
    warm = WarmRepos(max_text_chars=10)
    cold = build(_opts(repo.root, TASKS[0])).rendered
    assert build(_opts(repo.root, TASKS[0]), warm=warm).rendered == cold
    view = warm.open(repo.root)
    assert view.text_chars() == 0 and view.memo is not None and len(view.memo) == 0
    assert build(_opts(repo.root, TASKS[0]), warm=warm).rendered == cold
    assert warm.hits == 2 and warm.misses == 1


def test_views_are_per_repository_and_bounded(make_repo: Callable[..., GitRepo]) -> None:
    repos = []
    for i in range(3):
        r = make_repo(f"r{i}")
        r.commit({"a.py": f"def f{i}():\n    return {i}\n"}, "one")
        _age(r)
        repos.append(r)
    warm = WarmRepos(size=2)
    views = [warm.open(r.root) for r in repos]
    assert len({id(v) for v in views}) == 3 and len({id(v.memo) for v in views}) == 3
    assert [v.root for v in views] == [r.root.resolve() for r in repos]
    assert len(warm) == 2
    assert warm.open(repos[2].root) is views[2]  # kept
    assert warm.open(repos[0].root) is not views[0]  # the least recently used was dropped


def test_message_log_answers_like_git_log_grep(repo: GitRepo) -> None:
    repo.commit({"x.txt": "x\n"}, "Ünïcode subject, Straße and sid in the body\n\nMore about SESSION_token.")
    cold = open_repo(repo.root)
    hot = open_repo(repo.root)
    hot.memo = RepoMemo(kept=True)
    queries: list[tuple[list[str], int, bool]] = [
        (["session_token"], 30, False),
        (["LRUCACHE", "max_entries"], 30, False),
        (["evict", "import"], 1, False),
        (["straße"], 30, False),  # not ASCII: git answers
        (["nothing-like-this"], 30, False),
        (["#12([^0-9]|$)"], 30, True),
        (["#123([^0-9]|$)", "#12([^0-9]|$)"], 30, True),
        ([r"\bsid"], 30, True),  # not portable: git answers
        (["fix", "lrucache"], 2, False),
        (["e"], 3, False),
        (["^test", "body$"], 30, True),
        (["(#12|#123)\\)$", "^more.*token"], 30, True),
        (["session.token"], 30, True),
    ]
    for phrases, max_count, regex in queries:
        want = commits_matching(cold, phrases, max_count, regex=regex)
        assert commits_matching(hot, phrases, max_count, regex=regex) == want, phrases
    assert [c.subject for c in commits_matching(hot, ["#12([^0-9]|$)"], regex=True)] == [
        "Fix session_token KeyError (#12)"
    ]


def test_a_partial_message_log_only_answers_what_it_can_prove(repo: GitRepo) -> None:
    view = open_repo(repo.root)
    log = read_log(view, max_commits=2)
    assert not log.complete and len(log.shas) == 2
    assert log.matching(["max_entries"], 1, regex=False) == [log.shas[0]]  # found within the window
    assert log.matching(["session_token"], 5, regex=False) is None  # older commits may hold more


def test_an_over_cap_package_is_refitted_to_what_a_capped_build_gives(repo: GitRepo, tmp_path: Path) -> None:
    big: dict[str, str | bytes] = {f"src/big_{i}.py": _module(f"session_token_{i}", 400) for i in range(12)}
    repo.commit(big, "bulk")
    _age(repo)
    config = tmp_path / "ctx.yaml"
    config.write_text(
        "version: 1\nprofiles:\n  default:\n    max_files: 40\n    budget:\n      total_tokens: 60000\n",
        encoding="utf-8",
    )
    ws = Workspace(repo.root, config_path=config)
    task = replace(TASKS[0], body=TASKS[0].body + "\n" + " ".join(f"session_token_{i}_1" for i in range(12)))
    result = server_build(ws, task, None, "default")
    capped = build(BuildOptions(repo=repo.root, task=task, profile="default", budget=MAX_RESULT_TOKENS,
                                config_path=config))
    uncapped = build(BuildOptions(repo=repo.root, task=task, profile="default", config_path=config))
    assert uncapped.package.total_tokens > MAX_RESULT_TOKENS  # the cap was really hit
    assert result.rendered == capped.rendered
    assert result.package.total_tokens <= MAX_RESULT_TOKENS


def test_server_answers_are_the_same_warm_and_cold(repo: GitRepo) -> None:
    text = f"{TASKS[0].title}\n\n{TASKS[0].body}"
    first = package_text(Workspace(repo.root), text, 2000, "auto")
    ws = Workspace(repo.root)
    assert package_text(ws, text, 2000, "auto") == first
    assert package_text(ws, text, 2000, "auto") == first
    assert ws.warm.hits == 1
