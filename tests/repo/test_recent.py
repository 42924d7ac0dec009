"""Lines the latest commits changed, carried to HEAD's numbering, on real repositories."""

from __future__ import annotations

from collections.abc import Callable

from ctxaction.repo import history, recent
from ctxaction.repo.files import open_repo
from ctxaction.repo.recent import Hunk, touched_lines
from tests.gitrepo import GitRepo


def _lines(n: int, tag: str = "") -> list[str]:
    return [f"line {i}{tag}" for i in range(1, n + 1)]


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def test_older_changes_are_carried_through_newer_insertions(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    base = _lines(20)
    repo.commit({"m.py": _text(base), "other.py": "x\n"}, "initial")
    first = list(base)
    first[14] = "line 15 changed"  # line 15
    repo.commit({"m.py": _text(first)}, "change line 15")
    second = ["new 1", "new 2", "new 3", *first]  # three lines on top: old 15 is now 18
    second[3] = "line 1 changed"  # the old line 1, now line 4
    repo.commit({"m.py": _text(second)}, "insert a header, change line 1")
    view = open_repo(repo.root)
    got = recent.recent_lines(view, history.mine(view), ["m.py", "other.py"])
    lines = got["m.py"]
    assert {n for n, k in lines.items() if k == 1} == {1, 2, 3, 4}
    assert lines[18] == 2  # the older change, moved down by the newer insertion
    assert second[17] == "line 15 changed"
    # The initial commit is the third newest for m.py: every line it wrote that no newer commit
    # rewrote keeps index 3.
    assert lines[10] == 3
    assert got["other.py"] == {1: 1}


def test_a_line_rewritten_later_belongs_to_the_newer_commit() -> None:
    newer = [Hunk(5, 1, 5, 1)]  # line 5 rewritten
    older = [Hunk(4, 2, 4, 2)]  # lines 4-5 written before
    assert touched_lines([newer, older]) == {5: 1, 4: 2}


def test_deletions_mark_the_lines_around_the_cut() -> None:
    # "-7,2 +6,0": lines 7-8 deleted; the cut sits after new line 6.
    assert touched_lines([[Hunk(7, 2, 6, 0)]]) == {6: 1, 7: 1}
    # An older change below a newer deletion moves up by the deleted lines.
    assert touched_lines([[Hunk(7, 2, 6, 0)], [Hunk(20, 1, 20, 1)]])[18] == 2


def test_bulk_commits_and_files_outside_the_window_give_nothing(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    files = {f"f{i}.py": "a\n" for i in range(history.BULK_COMMIT_FILES + 1)}
    repo.commit(files, "import everything")
    view = open_repo(repo.root)
    assert recent.recent_lines(view, history.mine(view), ["f0.py"]) == {}
    assert recent.recent_lines(view, history.mine(view), ["missing.py"]) == {}


def test_unusual_names_keep_their_lines(make_repo: Callable[..., GitRepo]) -> None:
    # A space (git ends the name with a tab), pathspec magic in a name, bytes git quotes: UTF-8,
    # a quote, a tab, a newline, a backslash, and UTF-8 beside a quote (raw inside the quotes
    # unless git is told to quote every such byte); a name of one space.
    names = ["with space.py", ":(glob)x.py", "café.py", 'say "hi".py', "tab\there.py", "new\nline.py"]
    names += ["back\\slash.py", " ", 'q"é x.py']
    repo = make_repo()
    repo.commit({n: "a\n" for n in names}, "initial")
    repo.commit({n: "a\nb\n" for n in names}, "second line")
    view = open_repo(repo.root)
    got = recent.recent_lines(view, history.mine(view), names)
    assert got == {n: {2: 1, 1: 2} for n in names}
    first = repo.git("rev-list", "--reverse", "HEAD").split()[1]
    assert recent.commit_lines(view, first, names) == {n: {2} for n in names}


def test_a_changed_line_cannot_fake_a_commit(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.commit({"a.py": "1\n2\n", "b.py": "x\n"}, "initial")
    fake = "\x1ecommit " + "f" * 40
    repo.commit({"a.py": f"1\n{fake}\n2\n", "b.py": "x\ny\n"}, "odd line")
    view = open_repo(repo.root)
    got = recent.recent_lines(view, history.mine(view), ["a.py", "b.py"])
    assert got == {"a.py": {2: 1, 1: 2, 3: 2}, "b.py": {2: 1, 1: 2}}


def test_a_named_commits_lines_are_carried_to_head(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    base = _lines(20)
    repo.commit({"m.py": _text(base), "n.py": "x\n"}, "initial")
    named = list(base)
    named[9] = "line 10 broken"
    named[14] = "line 15 broken"
    sha = repo.commit({"m.py": _text(named), "n.py": "x\ny\n"}, "the regression")
    later = ["header", *named]  # one line on top: the named lines move down by one
    later[15] = "line 15 fixed again"  # old 15, now 16: rewritten since, no longer the commit's
    repo.commit({"m.py": _text(later)}, "later")
    view = open_repo(repo.root)
    assert recent.commit_lines(view, sha, ["m.py", "n.py", "missing.py"]) == {"m.py": {11}, "n.py": {2}}
    assert recent.commit_lines(view, sha, []) == {}
    root = repo.git("rev-list", "--max-parents=0", "HEAD").strip()
    assert recent.commit_lines(view, root, ["m.py"]) == {}  # a root commit has no parent to diff
    assert recent.commit_lines(view, "--output=x", ["m.py"]) == {}  # only a hash reaches git
