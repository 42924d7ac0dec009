"""One door to git (ctxaction/repo/git.py): every git process starts there, with the hardening
options, the environment rules and one-line errors, and the hook can use it without the packager."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.repo import git, process
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parent.parent
DOOR = ROOT / "ctxaction" / "repo" / "git.py"


def _imports_subprocess(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "subprocess" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "subprocess":
            return True
    return False


def test_only_the_door_starts_processes_besides_the_hook_probe() -> None:
    """Any module but the door's process runner that imports subprocess is a second door (the
    hook installer's one use runs Python, to see whether ``python -I`` can import the hook)."""
    users = sorted(
        p.relative_to(ROOT).as_posix() for p in (ROOT / "ctxaction").rglob("*.py") if _imports_subprocess(p)
    )
    assert users == ["ctxaction/hook.py", "ctxaction/repo/process.py"]
    hook = (ROOT / "ctxaction" / "hook.py").read_text(encoding="utf-8")
    assert '"git"' not in hook and "'git'" not in hook


def test_the_door_imports_nothing_of_the_packager() -> None:
    code = "import sys, ctxaction.repo.git\nprint(sorted(m for m in sys.modules if m[:10] == 'ctxaction.'))"
    proc = subprocess.run(
        [sys.executable, "-I", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    loaded = "['ctxaction.errors', 'ctxaction.repo', 'ctxaction.repo.git', 'ctxaction.repo.process']"
    assert proc.stdout.strip() == loaded


def test_a_failure_is_one_line_naming_the_command_and_what_to_do(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.commit({"a.txt": "a\n"})
    with pytest.raises(git.RepoError) as caught:
        git.run(repo.root, ["-c", "log.showRoot=true", "log", "--end-of-options", "no-such-branch"])
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"git log failed in {repo.root}: fatal: ")
    assert message.endswith("(run `git log` there to see why)")


def test_inherit_repo_reads_the_index_git_handed_over(
    make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``git commit -a`` runs the hook with ``GIT_INDEX_FILE`` naming a temporary index: the hook's
    calls must read it, the packager's (hostile environment) must not."""
    repo = make_repo()
    repo.commit({"a.txt": "a\n"})
    other = repo.root / ".git" / "other-index"
    subprocess.run(
        ["git", "read-tree", "--empty"],
        cwd=repo.root,
        env={**os.environ, "GIT_INDEX_FILE": str(other)},
        check=True,
    )
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    assert git.run(repo.root, ["ls-files"]) == "a.txt\n"
    assert git.run(repo.root, ["ls-files"], inherit_repo=True) == ""


def test_keep_hooks_asks_git_where_the_repository_keeps_its_hooks(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.git("config", "core.hooksPath", ".githooks")
    assert git.run(repo.root, ["rev-parse", "--git-path", "hooks"]).strip() == "/dev/null"
    _, out = git.run_bytes(repo.root, ["rev-parse", "--git-path", "hooks"], keep_hooks=True)
    assert out.decode().strip() == ".githooks"


def test_cat_file_reads_many_objects_past_one_batch(make_repo: Callable[..., GitRepo]) -> None:
    """More ids than fit one write-then-read round (so neither pipe can fill up and block)."""
    repo = make_repo()
    count = 600
    repo.commit({f"f{i}.txt": f"file {i}\n" * (i % 7 + 1) for i in range(count)})
    listing = git.run(repo.root, ["ls-tree", "-z", "HEAD"]).split("\0")
    oids = {line.split()[2]: line.split("\t")[1] for line in listing if line}
    cat = git.CatFile(repo.root)
    try:
        found = cat.read_many([*oids, "0" * 40])
    finally:
        cat.close()
    assert len(found) == count and "0" * 40 not in found
    for oid, name in oids.items():
        i = int(name[1:-4])
        assert found[oid] == f"file {i}\n".encode() * (i % 7 + 1)



@pytest.fixture(params=["posix_spawn", "subprocess"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways the runner starts a program (``subprocess`` is the one Windows uses)."""
    if request.param == "subprocess":
        monkeypatch.setattr(process, "_NATIVE", False)
    return str(request.param)


def test_large_input_and_output_cross_without_blocking(
    make_repo: Callable[..., GitRepo], backend: str
) -> None:
    """Ids in and objects out, each side far past a pipe buffer: neither may wait on the other."""
    repo = make_repo()
    count = 2500
    repo.commit({f"f{i}.txt": f"{i:06d}\n" * 400 for i in range(count)})
    oids = [line.split()[2] for line in git.run(repo.root, ["ls-tree", "HEAD"]).splitlines()]
    ids = "".join(f"{oid}\n" for oid in oids).encode()
    _, out = git.run_bytes(repo.root, ["cat-file", "--batch"], stdin=ids)
    assert len(oids) == count and len(out) > 4 * 1024 * 1024
    assert out.count(b" blob 2800\n") == count


def test_stderr_is_kept_apart_and_a_timeout_kills(tmp_path: Path, backend: str) -> None:
    code, out, err = git.run_capture(tmp_path, ["rev-parse", "--verify", "HEAD"])
    assert code != 0 and out == b"" and b"not a git repository" in err
    sleep = [sys.executable, "-c", "import time; time.sleep(30)"]
    slow = process.Process(sleep, dict(os.environ), stdin=False, stderr=True)
    with pytest.raises(process.Timeout):
        slow.communicate(timeout=0.3)
    assert slow.poll() is not None  # killed, not left running


def test_a_diff_started_early_reads_like_one_run_later(make_repo: Callable[..., GitRepo]) -> None:
    """The hook starts the staged diff's git processes before it loads the rules: what they read
    is what ``staged`` reads, and an abandoned pair is stopped, not left running."""
    from ctxaction.errors import SourceError
    from ctxaction.secure.sources import PendingDiff, staged

    repo = make_repo()
    repo.commit({"a.py": "one = 1\n"})
    repo.write("a.py", "one = 1\ntwo = 2\n")
    repo.write("b.py", "three = 3\n")
    repo.git("add", "a.py", "b.py")
    early = PendingDiff(repo.root, ["--cached"])
    got = early.blobs(only=["a.py", "b.py"])
    want = staged(repo.root, only=["a.py", "b.py"])
    assert [(b.path, b.text, b.lines) for b in got.blobs] == [(b.path, b.text, b.lines) for b in want.blobs]
    assert [(b.path, b.lines) for b in got.blobs] == [("a.py", frozenset({2})), ("b.py", frozenset({1}))]
    with pytest.raises(SourceError, match="read already"):
        early.blobs()
    abandoned = PendingDiff(repo.root, ["--cached"])
    procs = [abandoned._cat.start(), abandoned._diff]
    abandoned.close()
    assert all(proc is not None and proc.poll() is not None for proc in procs)
