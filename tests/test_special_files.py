"""FIFOs, sockets and huge files in a work tree or a scanned folder: skipped with a note, never
opened for reading (a FIFO would block the run forever), never parsed past the size cap."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.cli import main
from ctxaction.model import Task
from ctxaction.pipeline import BuildOptions, build
from ctxaction.readfile import FileTooLarge, NotRegularFile, read_regular
from ctxaction.repo.files import MAX_FILE_BYTES, open_repo
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo

KEY = expand('API_KEY = "<<alnum:32>>"\n', "special")

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def test_read_regular_refuses_fifos_sockets_devices_and_folders(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(tmp_path / "sock"))
        for path in (tmp_path / "pipe", tmp_path, Path(os.devnull)):
            with pytest.raises(NotRegularFile):
                read_regular(path)
        with pytest.raises(OSError):
            read_regular(tmp_path / "sock")
    (tmp_path / "big").write_bytes(b"x" * 11)
    with pytest.raises(FileTooLarge):
        read_regular(tmp_path / "big", 10)
    assert read_regular(tmp_path / "big", 11) == b"x" * 11


def test_scan_of_a_folder_holding_a_fifo_does_not_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "dump"
    folder.mkdir()
    os.mkfifo(folder / "pipe")
    (folder / "app.py").write_text(KEY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "--no-ignore", "dump"]) == 1
    assert main(["scan", "dump/pipe"]) == 0
    err = capsys.readouterr().err
    assert "dump/pipe: skipped: not a regular file (a FIFO)" in err


def test_scan_of_a_symlink_named_outright_says_it_was_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(KEY, encoding="utf-8")
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "link.py").symlink_to(outside)
    monkeypatch.chdir(folder)
    # Not followed (the key is not found), and not silently "0 files" either.
    assert main(["scan", "link.py"]) == 0
    err = capsys.readouterr().err
    assert "link.py: skipped: a symlink (symlinks are never followed)" in err


def test_scan_in_a_repository_with_a_fifo_does_not_block(
    make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit({"a.py": "x = 1\n", "pipe.txt": "was a file\n"})
    (repo.root / "pipe.txt").unlink()
    os.mkfifo(repo.root / "pipe.txt")
    os.mkfifo(repo.root / "untracked-pipe")
    repo.write("b.py", KEY)
    monkeypatch.chdir(repo.root)
    assert main(["scan", "--no-ignore", "."]) == 1
    assert main(["scan", "."]) == 1


def test_build_names_a_tracked_path_that_is_now_a_fifo_and_does_not_block(
    make_repo: Callable[..., GitRepo],
) -> None:
    repo = make_repo()
    repo.commit({"app/auth.py": "def check():\n    return 1\n", "app/notes.txt": "notes\n"})
    (repo.root / "app/notes.txt").unlink()
    os.mkfifo(repo.root / "app/notes.txt")
    with open_repo(repo.root) as view:
        entry = view.file("app/notes.txt")
        assert entry is not None and entry.skip_reason == "not a regular file (a FIFO)"
        assert view.read_text("app/notes.txt") is None
    task = Task("check fails", "`check` in app/auth.py fails; app/notes.txt has the details.")
    result = build(BuildOptions(repo=repo.root, task=task, budget=2000, fmt="json"))
    excluded = {e["path"]: e["reason"] for e in json.loads(result.rendered)["excluded"]}
    assert excluded["app/notes.txt"] == "not a regular file (a FIFO)"


def test_huge_file_is_never_parsed_or_ranked(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    body = "".join(f"def handler_{i}(request):\n    return {i}\n" for i in range(MAX_FILE_BYTES // 40))
    repo.commit({"gen/handlers.py": body, "app/views.py": "def handler_7(request):\n    return 7\n"})
    with open_repo(repo.root) as view:
        entry = view.file("gen/handlers.py")
        assert entry is not None and entry.skip_reason is not None
        assert entry.skip_reason.startswith("too large")
    task = Task("handler_7 returns the wrong value", "handler_7 in gen/handlers.py returns 7.")
    result = build(BuildOptions(repo=repo.root, task=task, budget=2000))
    assert [c.path for c in result.candidates] == ["app/views.py"]
    assert result.decisions["gen/handlers.py"].startswith("excluded: too large")
