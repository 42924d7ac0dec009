"""The git adapter: errors explained, output decoded, options neutralized."""

from __future__ import annotations

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
