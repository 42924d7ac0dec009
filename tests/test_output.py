"""The one safe writer (ctxaction/output.py) directly and through every CLI path that writes:
``build -o``, ``scan -o``, ``scan --update-baseline``, ``config init``.

Real files, FIFOs, sockets, symlinks and (as root) device nodes; the CLI runs as a subprocess.
"""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from ctxaction.errors import CtxError, WriteError
from ctxaction.output import Owner, write_atomic
from tests.gitrepo import GitRepo

AS_ROOT = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("ctxaction")
    return subprocess.run(
        [str(script), *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=120
    )


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_files_and_folders_follow_the_umask_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new" / "deeper" / "out.md", "hello\n")
        write_atomic(tmp_path / "inside" / "a" / "b.md", "x", inside=tmp_path)
    finally:
        os.umask(old)
    assert (tmp_path / "new/deeper/out.md").read_text() == "hello\n"
    assert _mode(tmp_path / "new/deeper/out.md") == 0o644 and _mode(tmp_path / "new/deeper") == 0o755
    assert _mode(tmp_path / "inside/a/b.md") == 0o644 and _mode(tmp_path / "inside/a") == 0o755
    assert [p.name for p in (tmp_path / "new/deeper").iterdir()] == ["out.md"]  # no temp file left


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("old")
    target.chmod(0o640)
    write_atomic(target, "new")
    assert target.read_text() == "new" and _mode(target) == 0o640


@pytest.mark.parametrize("kind", ["folder", "fifo", "socket", "symlink"])
def test_a_non_regular_target_is_refused_and_left_alone(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "target"
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(target))
        sock.close()
    else:
        target.symlink_to(outside)
    before = os.lstat(target)
    with pytest.raises(WriteError) as info:
        write_atomic(target, "data")
    assert "refusing to replace it" in str(info.value) and "\n" not in str(info.value)
    after = os.lstat(target)
    assert stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode) and after.st_ino == before.st_ino
    assert outside.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outside.txt", "target"]


def test_no_symlink_at_any_level_under_a_workspace(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    elsewhere = tmp_path / "elsewhere"
    (workspace / "a").mkdir(parents=True)
    elsewhere.mkdir()
    (workspace / "a" / "b").symlink_to(elsewhere)
    with pytest.raises(WriteError, match=r"^a/b is a symlink, not a folder"):
        write_atomic(workspace / "a/b/c/out.md", "x", inside=workspace)
    with pytest.raises(WriteError, match="outside"):
        write_atomic(tmp_path / "elsewhere" / "x.md", "x", inside=workspace)
    assert list(elsewhere.iterdir()) == []


@AS_ROOT
def test_files_and_new_folders_go_to_the_owner(tmp_path: Path) -> None:
    write_atomic(tmp_path / "d1" / "d2" / "f.md", "x", inside=tmp_path, owner=Owner(4242, 4243))
    for rel in ("d1", "d1/d2", "d1/d2/f.md"):
        st = (tmp_path / rel).stat()
        assert (st.st_uid, st.st_gid) == (4242, 4243), rel
    # An existing file keeps its owner when replaced.
    write_atomic(tmp_path / "d1/d2/f.md", "y")
    assert (tmp_path / "d1/d2/f.md").stat().st_uid == 4242


@AS_ROOT
@pytest.mark.parametrize("device", ["/dev/null", "/dev/full"])
def test_build_output_to_a_device_as_root_is_refused(tmp_path: Path, device: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.commit({"src/app.py": "def main():\n    return 1\n"}, "init")
    before = os.stat(device)
    result = _cli("build", "--sample", "--repo", str(repo.root), "-o", device, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        result.stderr.strip()
        == f"ctxaction build: {device} is a device, not a regular file: refusing to replace it"
    )
    after = os.stat(device)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_cli_write_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.commit({"src/app.py": "API_KEY = 'x'\n"}, "init")
    folder = tmp_path / "out"
    folder.mkdir()
    for args in (
        ("build", "--sample", "--repo", str(repo.root), "-o", str(folder)),
        ("scan", str(repo.root / "src"), "-o", str(folder)),
        ("scan", str(repo.root / "src"), "--update-baseline", "--baseline", str(folder)),
    ):
        result = _cli(*args, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        [line] = result.stderr.strip().split("\n")
        assert line.endswith(f"{folder} is a folder, not a regular file: refusing to replace it: name a file")


@AS_ROOT
def test_an_unwritable_folder_is_one_line_as_another_user() -> None:
    base = Path(tempfile.mkdtemp(prefix="ctxaction-locked-"))  # outside pytest's 0700 folder
    base.chmod(0o755)
    locked = base / "locked"
    locked.mkdir(mode=0o755)  # root's, not writable by nobody
    script = Path(sys.executable).with_name("ctxaction")
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run([*nobody, str(script), "--version"], capture_output=True, check=False, timeout=60)
    if probe.returncode != 0:
        shutil.rmtree(base)
        pytest.skip("this checkout's environment is not readable by uid 65534 (a 0700 folder above it)")
    target = ["--repo", str(locked), "--path", str(locked / "cfg.yaml")]
    result = subprocess.run(
        [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            str(script),
            "config",
            "init",
            *target,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd="/",
    )
    shutil.rmtree(base)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == f"ctxaction config: cannot write {locked / 'cfg.yaml'}: Permission denied"


def test_config_init_writes_0644_and_never_overwrites(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    first = _cli("config", "init", "--repo", str(repo.root), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    written = repo.root / ".github/context-packages.yaml"
    assert _mode(written) == 0o644 & ~_umask()
    again = _cli("config", "init", "--repo", str(repo.root), "--path", str(written), cwd=tmp_path)
    assert again.returncode == 2 and "already exists; not overwriting it" in again.stderr


def test_every_family_member_is_a_ctx_error() -> None:
    from ctxaction import errors

    family = [v for v in vars(errors).values() if isinstance(v, type) and issubclass(v, Exception)]
    assert len(family) > 15 and all(issubclass(cls, CtxError) for cls in family)


def _umask() -> int:
    old = os.umask(0)
    os.umask(old)
    return old


def test_runner_files_are_appended_only_when_regular(tmp_path: Path) -> None:
    from ctxaction.output import append_text

    summary = tmp_path / "summary.md"
    append_text(summary, "one\n")
    append_text(summary, "two\n")
    assert summary.read_text() == "one\ntwo\n"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # no reader: a blocking open would hang the run
    with pytest.raises(WriteError, match="named pipe"):
        append_text(fifo, "x")
    link = tmp_path / "link"
    link.symlink_to(summary)
    with pytest.raises(WriteError, match="symlink"):
        append_text(link, "x")
    assert summary.read_text() == "one\ntwo\n"
