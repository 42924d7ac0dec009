"""The git adapter: errors explained, output decoded, options neutralized."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.repo import git
from tests.gitrepo import GitRepo


def test_run_decodes_with_replacement(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.commit({"latin.txt": b"caf\xe9\n"})
    assert git.run(repo.root, ["show", "HEAD:latin.txt"]) == "caf\ufffd\n"


def test_errors_are_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(git.RepoError, match="not a git repository"):
        git.run(tmp_path, ["log"])
    assert git.try_run(tmp_path, ["log"]) is None


def test_repo_config_cannot_run_code(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    marker = repo.root / "ran"
    repo.commit({"a.txt": "x\n"})
    repo.git("config", "core.fsmonitor", f"touch {marker}; false")
    repo.git("config", "core.pager", f"touch {marker}")
    git.run(repo.root, ["ls-files"])
    git.run(repo.root, ["log", "-1"])
    assert not marker.exists()


def test_split_z() -> None:
    assert git.split_z(b"a\0b c\0") == ["a", "b c"]
    assert git.split_z(b"") == []


def test_cat_file_reads_and_refuses_non_ids(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    repo.commit({"a.txt": "hello\n"})
    oid = repo.git("rev-parse", "HEAD:a.txt").strip()
    cat = git.CatFile(repo.root)
    try:
        assert cat.read(oid) == b"hello\n"
        assert cat.read("0" * 40) is None
        with pytest.raises(git.RepoError, match="not an object id"):
            cat.read("HEAD:a.txt")
    finally:
        cat.close()


def _packs(repo: GitRepo) -> int:
    return len(list((repo.root / ".git" / "objects" / "pack").glob("*.pack")))


def test_our_git_calls_never_start_an_auto_gc(
    make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The action runs as root in the runner user's workspace: an auto gc or auto maintenance after
    # one of our fetches would leave root-owned packs there. Two clones set to gc after any fetch
    # (one pack allowed, the fetched objects kept as a second pack, gc in the foreground): plain
    # git packs them into one, our door leaves both.
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    source = make_repo()
    source.commit({"a.txt": "1\n"})
    clones = []
    for name in ("plain", "ours"):
        clone = make_repo(name)
        clone.git("pull", "-q", str(source.root), "main")
        clone.git("repack", "-q", "-a", "-d")
        for key, value in [("gc.auto", "1"), ("gc.autoPackLimit", "1"), ("gc.autoDetach", "false")]:
            clone.git("config", key, value)
        clone.git("config", "fetch.unpackLimit", "1")
        assert _packs(clone) == 1
        clones.append(clone)
    source.commit({"a.txt": "2\n"})
    plain, ours = clones
    plain.git("fetch", "-q", str(source.root), "main")
    git.run(ours.root, ["fetch", "-q", str(source.root), "main"])
    assert _packs(plain) == 1  # the setup does start a gc: it packed the two packs into one
    assert _packs(ours) == 2
    assert not (ours.root / ".git" / "gc.log").exists()
    assert "gc.auto=0" in git.git_command(ours.root, ["status"], keep_hooks=True)
