"""RepoMemo: one computation per key, however many threads ask at once."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from ctxaction.repo.files import open_repo
from ctxaction.repo.history import commits_matching
from ctxaction.repo.memo import RepoMemo, cached
from ctxaction.repo.symbols import file_definitions
from tests.gitrepo import GitRepo


def test_threads_asking_for_one_key_share_one_computation() -> None:
    memo = RepoMemo()
    started, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def parse() -> list[str]:
        calls.append(threading.current_thread().name)
        started.set()
        release.wait(10)
        return ["deep"]

    results: list[list[str]] = []
    first = threading.Thread(target=lambda: results.append(memo.get("definitions", parse)), name="first")
    first.start()
    started.wait(10)
    waiters = [
        threading.Thread(target=lambda: results.append(memo.get("definitions", parse)), name=f"w{i}")
        for i in range(3)
    ]
    for t in waiters:
        t.start()
    release.set()
    for t in [first, *waiters]:
        t.join(10)
    assert calls == ["first"]
    assert results == [["deep"]] * 4 and all(r is results[0] for r in results)
    assert len(memo) == 1


def test_a_key_asked_again_inside_its_own_computation_does_not_wait_on_itself() -> None:
    memo = RepoMemo()
    inner: list[int] = []

    def outer() -> int:
        inner.append(memo.get("k", lambda: 1))
        return 2

    assert memo.get("k", outer) == 2 and inner == [1]
    assert memo.get("k", lambda: 3) == 2


def test_waiters_compute_for_themselves_when_the_first_computation_fails() -> None:
    memo = RepoMemo()
    started, release = threading.Event(), threading.Event()

    def failing() -> int:
        started.set()
        release.wait(10)
        raise OSError("read failed")

    errors: list[BaseException] = []

    def first() -> None:
        try:
            memo.get("k", failing)
        except OSError as exc:
            errors.append(exc)

    got: list[int] = []
    t1 = threading.Thread(target=first)
    t1.start()
    started.wait(10)
    t2 = threading.Thread(target=lambda: got.append(memo.get("k", lambda: 7)))
    t2.start()
    release.set()
    t1.join(10)
    t2.join(10)
    assert [str(e) for e in errors] == ["read failed"] and got == [7]
    with pytest.raises(OSError):
        cached(RepoMemo(), "x", failing)


def test_a_cold_view_memoizes_for_its_build_only(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.commit({"a.py": "def f():\n    return 1\n"}, "Fix the session lookup")
    view = open_repo(repo.root)
    text = view.read_text("a.py") or ""
    first = file_definitions(view, "a.py", text)
    assert [d.name for d in first] == ["f"] and len(view.memo) == 1
    assert file_definitions(view, "a.py", text) == first and len(view.memo) == 1
    # The whole message log is worth loading only for a view kept between builds: a cold one
    # asks git, and keeps nothing for it.
    assert not view.memo.kept
    assert [c.subject for c in commits_matching(view, ["session"])] == ["Fix the session lookup"]
    assert len(view.memo) == 1
    assert open_repo(repo.root).memo is not view.memo
