"""The hook: ctxaction-secrets in real commits, plain-hook install/uninstall, pre-commit framework."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.cli import main as cli_main
from ctxaction.hook import LEGACY_SUFFIX, MARKER, SHIM, install, main, uninstall
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo, git_env

ROOT = Path(__file__).resolve().parent.parent
KEY = expand('API_KEY = "<<alnum:32>>"\n', "hook")
SECRET = KEY.split('"')[1]


def commit(repo: GitRepo, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", "-q", "-m", "c", *extra],
        cwd=repo.root,
        env=git_env(),
        capture_output=True,
        text=True,
        check=False,
    )


def test_shim_in_repo_matches_the_installed_one() -> None:
    assert (ROOT / "hooks" / "pre-commit").read_text(encoding="utf-8") == SHIM
    assert os.access(ROOT / "hooks" / "pre-commit", os.X_OK)


def test_entry_point_limits_itself_to_given_files(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.write("a.py", KEY)
    repo.write("b.py", "x = 1\n")
    repo.git("add", "-A")
    monkeypatch.chdir(repo.root)
    assert main(["b.py"]) == 0
    assert main(["a.py", "b.py"]) == 1
    repo.write("c.py", KEY)  # not staged: a pre-push/manual run scans it from disk
    assert main(["c.py"]) == 1
    repo.git("add", "-A")
    repo.git("commit", "-qm", "old secret")
    repo.write("c.py", "")  # a staged deletion adds no line: the old secret must not block it
    repo.git("add", "c.py")
    assert main(["c.py"]) == 0
    assert SECRET not in capsys.readouterr().out


def test_hook_options_baseline_config_all_lines_and_dashdash(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.write("old.py", KEY)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "old secret")
    repo.write("old.py", KEY + "x = 1\n")  # only an unrelated line is added
    repo.write("-dash.py", "y = 2\n")
    repo.git("add", "-A")
    monkeypatch.chdir(repo.root)
    assert main(["old.py"]) == 0  # added lines only
    assert main(["--all-lines", "old.py"]) == 1
    assert main(["--", "-dash.py"]) == 0
    baseline = repo.root / "baseline.json"
    update = ["--baseline", str(baseline), "--update-baseline"]
    assert cli_main(["scan", "--staged", "--all-lines", *update]) == 0
    assert main(["--all-lines", f"--baseline={baseline}", "old.py"]) == 0
    assert main(["--all-lines", "--baseline", str(baseline), "old.py"]) == 0
    config = repo.root / "quiet.yaml"
    config.write_text("secrets:\n  disabled_rules: [generic-secret]\n", encoding="utf-8")
    assert main(["--all-lines", "--config", str(config), "old.py"]) == 0
    out, err = capsys.readouterr()
    assert SECRET not in out + err


def test_hook_counts_staged_binary_files_and_lists_them_with_verbose(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The summary's "-v lists them" holds for the hook too, given by file names (pre-commit) or not."""
    repo = make_repo()
    for i in range(3):
        repo.write(f"img/{i}.png", b"\x89PNG\r\n\x1a\n\x00" + bytes(range(256)))
    repo.git("add", "-A")
    monkeypatch.chdir(repo.root)
    assert main([]) == 0
    err = capsys.readouterr().err
    assert "note: 3 binary files skipped (-v lists them)" in err and ".png" not in err
    for argv in (["-v"], ["--verbose", "img/0.png", "img/1.png", "img/2.png"]):
        assert main(argv) == 0
        err = capsys.readouterr().err
        assert sum(line.endswith(".png: skipped: binary") for line in err.splitlines()) == 3, (argv, err)


def test_hook_help_and_bad_options_fall_back_to_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    assert "--all-lines" in capsys.readouterr().out
    for bad in (["--baseline"], ["--nope"], ["--all-lines=yes"]):
        with pytest.raises(SystemExit) as failed:
            main(bad)
        assert failed.value.code == 2
        assert "ctxaction-secrets: error:" in capsys.readouterr().err


def test_hook_from_a_subfolder_maps_file_names_to_the_repository(
    make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.write("pkg/a.py", KEY)
    repo.write("pkg/b.py", "x = 1\n")
    repo.git("add", "-A")
    monkeypatch.chdir(repo.root / "pkg")
    assert main(["b.py"]) == 0
    assert main(["a.py"]) == 1
    assert main([]) == 1


def test_outside_a_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0
    (tmp_path / "x.py").write_text(KEY, encoding="utf-8")
    assert main(["x.py"]) == 1


def test_install_blocks_a_commit_and_chains_the_existing_hook(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    hooks = repo.root / ".git" / "hooks"
    legacy_log = repo.root / "legacy-ran"
    (hooks / "pre-commit").write_text(f"#!/bin/sh\necho ran >> '{legacy_log}'\n", encoding="utf-8")
    (hooks / "pre-commit").chmod(0o755)
    message = install(repo.root)
    assert "existing hook now runs first" in message
    assert (hooks / f"pre-commit{LEGACY_SUFFIX}").exists()
    assert "refreshed" in install(repo.root)  # idempotent
    assert not (hooks / f"pre-commit{LEGACY_SUFFIX}{LEGACY_SUFFIX}").exists()

    repo.write("a.py", KEY)
    repo.git("add", "a.py")
    blocked = commit(repo)
    assert blocked.returncode == 1
    assert "a.py:1:12: generic-secret" in blocked.stderr and SECRET not in blocked.stdout + blocked.stderr
    assert legacy_log.read_text(encoding="utf-8") == "ran\n"

    repo.write("a.py", "x = 1\n")
    repo.git("add", "a.py")
    assert commit(repo).returncode == 0

    assert "restored the previous hook" in uninstall(repo.root)
    assert MARKER not in (hooks / "pre-commit").read_text(encoding="utf-8")
    assert "nothing to do" not in uninstall_message_or_error(repo.root)


def uninstall_message_or_error(root: Path) -> str:
    from ctxaction.hook import HookError

    try:
        return uninstall(root)
    except HookError as exc:
        return str(exc)


def test_hooks_path_and_worktree(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    repo.commit({"a.py": "x = 1\n"})
    repo.git("config", "core.hooksPath", ".githooks")
    install(repo.root)
    assert MARKER in (repo.root / ".githooks" / "pre-commit").read_text(encoding="utf-8")
    repo.write("b.py", KEY)
    repo.git("add", "b.py")
    assert commit(repo).returncode == 1
    assert "removed" in uninstall(repo.root)


def test_worktree_shares_the_main_hooks_folder(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    repo.commit({"a.py": "x = 1\n"})
    worktree = tmp_path / "wt"
    repo.git("worktree", "add", "-q", str(worktree), "-b", "side")
    install(worktree)
    assert MARKER in (repo.root / ".git" / "hooks" / "pre-commit").read_text(encoding="utf-8")
    assert "already installed" in install(repo.root)
    assert "removed" in uninstall(worktree)
    assert "nothing to do" in uninstall(repo.root)


def test_uninstall_leaves_foreign_hooks_alone(make_repo: Callable[..., GitRepo]) -> None:
    from ctxaction.hook import HookError

    repo = make_repo()
    hook = repo.root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    with pytest.raises(HookError, match="not installed by ctxaction"):
        uninstall(repo.root)
    assert hook.read_text(encoding="utf-8") == "#!/bin/sh\nexit 0\n"


def test_cli_hook_command_outside_repo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ctxaction.cli import main as cli_main

    assert cli_main(["hook", "install", "--repo", str(tmp_path)]) == 1
    assert "not a git repository" in capsys.readouterr().err


# ---- the pre-commit framework ----------------------------------------------------------------

PRE_COMMIT = [sys.executable, "-m", "pre_commit"]


def test_manifest_is_valid_for_pre_commit() -> None:
    proc = subprocess.run(
        [*PRE_COMMIT, "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _pypi_reachable() -> bool:
    if os.environ.get("PIP_INDEX_URL") or os.environ.get("PIP_FIND_LINKS"):
        return True
    try:
        socket.create_connection(("pypi.org", 443), timeout=3).close()
    except OSError:
        return False
    return True


@pytest.mark.skipif(
    not _pypi_reachable(), reason="pre-commit try-repo installs the hook from PyPI, unreachable here"
)
def test_pre_commit_try_repo_blocks_and_passes(make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    clone = ROOT  # try-repo snapshots a local checkout itself (uncommitted changes included)
    target = make_repo("target")
    target.commit({"README.md": "hello\n"})
    target.write("app.py", KEY)
    target.git("add", "app.py")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pc-home")}

    def try_repo() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*PRE_COMMIT, "try-repo", str(clone), "ctxaction-secrets"],
            cwd=target.root,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )

    blocked = try_repo()
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "app.py:1:12: generic-secret" in blocked.stdout
    assert SECRET not in blocked.stdout + blocked.stderr
    target.write("app.py", "print('clean')\n")
    target.git("add", "app.py")
    passed = try_repo()
    assert passed.returncode == 0, passed.stdout + passed.stderr


# ---- the repository's own code is never run ------------------------------------------------

_IMPOSTOR = """\
import pathlib, sys
pathlib.Path({marker!r}).write_text("ran", encoding="utf-8")
sys.exit(0)
"""


def _plant_impostor(repo: GitRepo, marker: Path) -> None:
    """A committed ``ctxaction`` package that would wave every commit through and leave a mark."""
    code = _IMPOSTOR.format(marker=str(marker))
    repo.write("ctxaction/__init__.py", code)
    repo.write("ctxaction/hook.py", code)
    repo.write("ctxaction/__main__.py", code)
    repo.commit({"README.md": "impostor\n"})


def test_installed_hook_never_imports_the_repositorys_ctxaction(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    marker = tmp_path / "impostor-ran"
    _plant_impostor(repo, marker)
    install(repo.root)
    repo.write("app.py", KEY)
    repo.git("add", "app.py")
    blocked = commit(repo)
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "app.py:1:12: generic-secret" in blocked.stderr
    assert not marker.exists()


def test_console_script_from_the_work_tree_never_imports_the_repositorys_ctxaction(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    # What pre-commit's `entry: ctxaction-secrets` runs, at the top of the work tree.
    repo = make_repo()
    marker = tmp_path / "impostor-ran"
    _plant_impostor(repo, marker)
    repo.write("app.py", KEY)
    repo.git("add", "app.py")
    script = Path(sys.executable).with_name("ctxaction-secrets")
    proc = subprocess.run([str(script)], cwd=repo.root, capture_output=True, text=True, check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert not marker.exists()


def test_shim_refuses_an_interpreter_that_cannot_run_isolated(make_repo: Callable[..., GitRepo]) -> None:
    # /bin/sh is no Python: `-I -c import` fails, so the shim falls back to the console script.
    repo = make_repo()
    install(repo.root, python="/bin/sh")
    text = (repo.root / ".git" / "hooks" / "pre-commit").read_text(encoding="utf-8")
    assert 'PYTHON="${CTXACTION_PYTHON:-}"' in text
    assert '"$PYTHON" -I -m ctxaction.hook' in text
