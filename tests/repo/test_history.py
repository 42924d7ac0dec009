"""History mining on real repositories with dated commits."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from ctxaction.repo import history
from ctxaction.repo.files import open_repo
from tests.gitrepo import GitRepo

DAY = 86400


def _dated(day: int) -> str:
    return f"{1_700_000_000 + day * DAY} +0000"


def _repo(make_repo: Callable[..., GitRepo]) -> GitRepo:
    repo = make_repo()
    repo.commit({"a.py": "a = 1\nb = 2\n", "b.py": "x\n", "c.py": "y\n"}, "initial", _dated(0))
    repo.commit({"a.py": "a = 1\nb = 3\n", "b.py": "x2\n"}, "Fix #12: b is wrong", _dated(100))
    repo.commit({"a.py": "a = 2\nb = 3\n", "b.py": "x3\n"}, "tune a (refs #120)", _dated(110))
    repo.commit({"c.py": "y2\n"}, "Touch the frobnicator", _dated(115))
    return repo


def test_change_counts_window_and_co_change(make_repo: Callable[..., GitRepo]) -> None:
    repo = _repo(make_repo)
    hist = history.mine(open_repo(repo.root))
    assert len(hist.commits) == 4
    assert hist.change_counts(30) == {"a.py": 2, "b.py": 2, "c.py": 1}
    assert hist.change_counts() == {"a.py": 3, "b.py": 3, "c.py": 2}
    assert hist.co_changed("a.py") == {"b.py": 3, "c.py": 1}


def test_commits_matching_issue_numbers_and_phrases(make_repo: Callable[..., GitRepo]) -> None:
    repo = _repo(make_repo)
    view = open_repo(repo.root)
    by_ref = history.commits_matching(view, ["#12([^0-9]|$)"], regex=True)
    assert [c.subject for c in by_ref] == ["Fix #12: b is wrong"]
    by_word = history.commits_matching(view, ["FROBNICATOR"])
    assert [c.files for c in by_word] == [("c.py",)]
    assert history.commits_matching(view, []) == []


def test_blame_and_files_of(make_repo: Callable[..., GitRepo]) -> None:
    repo = _repo(make_repo)
    view = open_repo(repo.root)
    shas = history.blame_commits(view, "a.py", [1, 2])
    subjects = {c.subject for c in history.mine(view).commits if c.sha in shas}
    assert subjects == {"tune a (refs #120)", "Fix #12: b is wrong"}
    files = history.files_of(view, shas)
    assert set(files[shas[0]]) == {"a.py", "b.py"}
    assert history.files_of(view, ["not-a-sha"]) == {}


def test_empty_and_shallow(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    empty = history.mine(open_repo(make_repo().root))
    assert empty.commits == [] and empty.change_counts(30) == {}
    repo = _repo(make_repo)
    clone = tmp_path / "shallow"
    cmd = ["git", "clone", "-q", "--depth", "1", f"file://{repo.root}", str(clone)]
    subprocess.run(cmd, check=True, capture_output=True)
    hist = history.mine(open_repo(clone))
    assert hist.shallow and len(hist.commits) == 1
