"""History mining on real repositories with dated commits."""

from __future__ import annotations

import os
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


def test_habits_are_files_most_of_the_newest_commits_touch(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    log = "# Changes\n"
    for i in range(history.HABIT_MIN_COMMITS):
        files: dict[str, str] = {f"src/m{i}.py": f"x = {i}\n"}
        if i % 2 == 0:  # half of the commits add a changelog entry
            log += f"- change {i}\n"
            files["CHANGES.md"] = log
        repo.commit(files, f"change {i}", _dated(i))
    # A bulk commit (a reformat of every file) says nothing about habits.
    repo.commit({f"src/m{i}.py": f"x = {i}  # reformatted\n" for i in range(history.BULK_COMMIT_FILES + 1)})
    mined = history.mine(open_repo(repo.root))
    assert mined.habits() == {"CHANGES.md": (10, history.HABIT_MIN_COMMITS)}


def test_no_habits_from_a_short_history() -> None:
    commits = [
        history.Commit(f"{i:040x}", i, "change", ("CHANGES.md",))
        for i in range(history.HABIT_MIN_COMMITS - 1)
    ]
    assert history.History(commits).habits() == {}
    commits.append(history.Commit("f" * 40, 99, "change", ("CHANGES.md", "a.py")))
    assert history.History(commits).habits() == {
        "CHANGES.md": (history.HABIT_MIN_COMMITS, history.HABIT_MIN_COMMITS)
    }


def _commits(n: int, kind: Callable[[int], tuple[str, tuple[str, ...]]]) -> list[history.Commit]:
    """``n`` commits, newest first, the ``i``-th with the subject and files ``kind(i)`` gives."""
    return [history.Commit(f"{i:040x}", 10_000 - i, *kind(i)) for i in range(n)]


def test_habits_of_code_changes_hidden_among_other_commits() -> None:
    """Release notes that most code changes touch are a habit, though docs and CI commits
    outnumber the code changes two to one."""
    code = history.HABIT_MIN_COMMITS

    def kind(i: int) -> tuple[str, tuple[str, ...]]:
        if i % 3 == 0:
            return "change", ("src/app.py", "release-notes.yaml" if i % 6 == 0 else "tests/test_app.py")
        return "change", (f"docs/page{i}.md",) if i % 3 == 1 else (".github/workflows/ci.yml",)

    habits = history.History(_commits(3 * code, kind)).habits()
    # Over every commit the notes are in 10 of 60 (below HABIT_SHARE); over the 20 code changes in
    # 10 (HABIT_CODE_SHARE), as is the test file. CI's file, in 20 of 60 and in no code change, is
    # no habit of either window.
    half = (code // 2, code)
    assert habits == {"release-notes.yaml": half, "tests/test_app.py": half, "src/app.py": (code, code)}


def test_habits_of_the_commits_that_fix_something() -> None:
    """Release notes that the fix commits update, while features and release chores pass them by:
    a habit of the fix window alone."""
    fixes = history.HABIT_MIN_COMMITS

    def kind(i: int) -> tuple[str, tuple[str, ...]]:
        if i % 3 == 0:
            subject = ("Fixes #%d: drop the last byte" if i % 2 == 0 else "Fix %d: off by one") % i
            return subject, (f"src/m{i}.py", "release-notes/VERSION")
        if i % 3 == 1:  # a feature: its issue number only as a pull request's suffix
            return f"Add option {i} (#{i})", (f"src/feature{i}.py",)
        return f"Prepare release 1.{i}", ("pom.xml", "src/version.py")

    commits = _commits(3 * fixes, kind)
    # The notes are in 20 of 60 commits and of 60 code changes (below both shares), and in every
    # one of the 20 fixes.
    assert history.History(commits).habits() == {"release-notes/VERSION": (fixes, fixes)}
    no_word = [history.Commit(c.sha, c.time, "Tidy up", c.files) for c in commits]
    assert history.History(no_word).habits() == {}


def test_named_commits_are_the_reachable_ones_with_their_files(make_repo: Callable[..., GitRepo]) -> None:
    repo = _repo(make_repo)
    fix = repo.git("log", "--format=%H", "--grep", "Fix #12").strip()
    touch = repo.git("log", "--format=%H", "--grep", "frobnicator").strip()
    # A branch merged with --no-ff: its merge names the whole branch's files.
    repo.git("checkout", "-q", "-b", "topic")
    repo.commit({"d.py": "d\n"}, "add d", _dated(116))
    repo.commit({"e.py": "e\n"}, "add e", _dated(117))
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge topic", "topic")
    merge = repo.git("rev-parse", "HEAD").strip()
    # A commit HEAD does not reach (a later fix, another branch) says nothing about HEAD's code.
    repo.git("checkout", "-q", "-b", "later")
    later = repo.commit({"f.py": "f\n"}, "later")
    repo.git("checkout", "-q", "main")
    view = open_repo(repo.root)
    got = history.named_commits(view, [fix[:9], merge, later[:10], touch[:7], "0000000", "--all", "abc"])
    assert [(c.sha, c.files) for c in got] == [
        (fix, ("a.py", "b.py")), (merge, ("d.py", "e.py")), (touch, ("c.py",))
    ]
    assert history.named_commits(view, []) == []


# Names git quotes C-style in ``--name-only`` output (a quote, a tab, a newline, a backslash, a
# control character, one starting with the old record separator), a name that is not UTF-8 (raw
# bytes; the inventory decodes them with U+FFFD), a space-only name, and an ordinary one.
ODD_NAMES = {
    'say "hi".py': 'say "hi".py',
    "tab\there.py": "tab\there.py",
    "new\nline.py": "new\nline.py",
    "back\\slash.py": "back\\slash.py",
    "\x1efake.py": "\x1efake.py",
    " ": " ",
    os.fsdecode(b"caf\xe9.py"): "caf\ufffd.py",
    "plain.py": "plain.py",
}


def test_history_signals_read_odd_names_as_the_inventory_does(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.commit({name: "1\n" for name in ODD_NAMES}, "initial", _dated(0))
    fix = repo.commit({name: "2\n" for name in ODD_NAMES}, "Fix #7: odd names", _dated(1))
    repo.commit({"plain.py": "3\n"}, "an empty-looking subject \x1e\x1f in it", _dated(2))
    repo.git("commit", "-q", "--allow-empty", "-m", "nothing")
    view = open_repo(repo.root)
    listed = set(ODD_NAMES.values())
    assert set(view.paths()) == listed
    hist = history.mine(view)
    assert [len(c.files) for c in hist.commits] == [0, 1, len(listed), len(listed)]
    assert hist.commits[1].subject == "an empty-looking subject \x1e\x1f in it"
    assert hist.change_counts() == {**dict.fromkeys(listed, 2), "plain.py": 3}
    assert hist.co_changed("tab\there.py") == dict.fromkeys(listed - {"tab\there.py"}, 2)
    matched = history.commits_matching(view, ["#7"])
    assert [set(c.files) for c in matched] == [listed]
    assert [set(c.files) for c in history.named_commits(view, [fix])] == [listed]
    assert set(history.files_of(view, [fix])[fix]) == listed
