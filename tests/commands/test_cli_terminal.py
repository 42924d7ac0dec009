"""Progress and colour on a real terminal (a pty), and none of it on a pipe, in a file or in JSON."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import pytest

from ctxaction.console import Console, Style, wants_color
from ctxaction.progress import NO_PROGRESS, LineProgress
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo

SCRIPT = str(Path(sys.executable).parent / "ctxaction")
SOURCE = "def parse_date(text):\n    return text.split('-')\n"
ESC = b"\x1b["


@pytest.fixture
def repo(make_repo: Callable[..., GitRepo]) -> GitRepo:
    r = make_repo()
    r.commit({"lib/dates.py": SOURCE, "lib/other.py": "def other():\n    return 1\n"}, "init")
    return r


@pytest.fixture
def issue(tmp_path: Path) -> Path:
    path = tmp_path / "issue.txt"
    path.write_text("parse_date fails\n\nparse_date in lib/dates.py breaks.\n", encoding="utf-8")
    return path


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM", "COLUMNS")}
    return {**env, "TERM": "xterm", **extra}


def run_with_tty_stderr(argv: list[str], env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """Run ``argv`` with stderr on a real pseudo-terminal and stdout on a pipe: (code, out, tty)."""
    master, slave = os.openpty()
    seen: list[bytes] = []

    def drain() -> None:  # a full pty buffer would block the child
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO once the child's side is closed
                return
            if not chunk:
                return
            seen.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=slave, env=env, check=False)
    finally:
        os.close(slave)
        reader.join(timeout=30)
        os.close(master)
    return proc.returncode, proc.stdout, b"".join(seen)


def test_progress_shows_on_a_terminal_and_the_package_is_unchanged(repo: GitRepo, issue: Path) -> None:
    argv = [SCRIPT, "build", "--repo", str(repo.root), "--issue-file", str(issue)]
    code, out, tty = run_with_tty_stderr(argv, clean_env())
    piped = subprocess.run(argv, capture_output=True, env=clean_env(), check=False)
    assert code == piped.returncode == 0
    assert out == piped.stdout  # progress never enters stdout
    assert piped.stderr == b""  # and nothing shows on a pipe
    text = tty.decode()
    assert "ctxaction build: task" in text and "ctxaction build: scores" in text
    assert "\r" in text
    assert text.endswith("\r")  # the line was blanked: the terminal is left clean
    assert text.replace("\r", "").replace("\n", "").strip(" ").count("ctxaction build:") >= 2


def test_output_file_is_the_same_with_progress_and_colour(repo: GitRepo, issue: Path, tmp_path: Path) -> None:
    common = [SCRIPT, "build", "--repo", str(repo.root), "--issue-file", str(issue), "--format", "json"]
    code, out, tty = run_with_tty_stderr(
        [*common, "-o", str(tmp_path / "tty.json")], clean_env(FORCE_COLOR="1")
    )
    piped = subprocess.run([*common, "-o", str(tmp_path / "pipe.json")], capture_output=True, env=clean_env())
    assert code == piped.returncode == 0 and out == b""
    assert (tmp_path / "tty.json").read_bytes() == (tmp_path / "pipe.json").read_bytes()
    assert ESC not in (tmp_path / "tty.json").read_bytes()
    assert b"wrote " in tty and b"wrote " in piped.stderr


def test_errors_are_coloured_on_a_terminal_unless_no_color(tmp_path: Path) -> None:
    argv = [SCRIPT, "build", "--repo", str(tmp_path), "--sample"]  # not a repository: exit 1
    code, _, tty = run_with_tty_stderr(argv, clean_env())
    assert code == 1 and ESC in tty and b"ctxaction build:" in tty
    code, _, tty = run_with_tty_stderr(argv, clean_env(NO_COLOR="1"))
    assert code == 1 and ESC not in tty and b"ctxaction build:" in tty
    piped = subprocess.run(argv, capture_output=True, env=clean_env(), check=False)
    assert piped.returncode == 1 and ESC not in piped.stderr
    forced = subprocess.run(argv, capture_output=True, env=clean_env(FORCE_COLOR="1"), check=False)
    assert forced.returncode == 1 and ESC in forced.stderr


def test_forced_colour_never_reaches_a_package_or_json(repo: GitRepo, issue: Path) -> None:
    common = ["--repo", str(repo.root), "--issue-file", str(issue)]
    for argv in (
        ["build", *common],
        ["build", *common, "--format", "json"],
        ["explain", *common, "--format", "json"],
    ):
        plain = subprocess.run([SCRIPT, *argv], capture_output=True, env=clean_env(), check=False)
        forced = subprocess.run(
            [SCRIPT, *argv], capture_output=True, env=clean_env(FORCE_COLOR="1"), check=False
        )
        assert plain.returncode == forced.returncode == 0
        assert forced.stdout == plain.stdout and ESC not in forced.stdout, argv
    table = subprocess.run([SCRIPT, "explain", *common], capture_output=True, env=clean_env(FORCE_COLOR="1"))
    assert ESC in table.stdout  # the human table does take colour when forced


@contextmanager
def terminal() -> Iterator[TextIO]:
    """A text stream on a real pty (its other end drained by nobody: keep writes tiny)."""
    master, slave = os.openpty()
    stream = open(slave, "w", encoding="utf-8", closefd=True)  # noqa: SIM115
    try:
        yield stream
    finally:
        stream.close()
        os.close(master)


def test_colour_rules_follow_no_color_and_force_color() -> None:
    pipe = io.StringIO()
    with terminal() as tty:
        assert wants_color(tty, {"TERM": "xterm"})
        assert not wants_color(tty, {"TERM": "xterm", "NO_COLOR": "1"})
        assert wants_color(tty, {"TERM": "xterm", "NO_COLOR": ""})  # empty: not set
        assert not wants_color(tty, {"TERM": "xterm", "NO_COLOR": "1", "FORCE_COLOR": "1"})
        assert not wants_color(tty, {"TERM": "dumb"})
    assert not wants_color(pipe, {})
    assert wants_color(pipe, {"FORCE_COLOR": "1"})
    assert not wants_color(pipe, {"FORCE_COLOR": ""})
    assert Style(False)("x", "error") == "x" and Style(True)("x", "error") == "\x1b[1;31mx\x1b[0m"


def test_console_reporters_by_mode() -> None:
    pipe = io.StringIO()
    assert Console(stream=pipe).progress("build") is NO_PROGRESS
    assert Console(quiet=True, stream=pipe).progress("build") is NO_PROGRESS
    verbose = Console(verbose=True, stream=pipe).progress("build")
    assert isinstance(verbose, LineProgress)
    with verbose:
        verbose.stage("task")
        verbose.stage("scores")
    lines = pipe.getvalue().splitlines()
    assert [line.split()[2] for line in lines] == ["task", "scores", "done"]
    with terminal() as tty:
        live = Console(stream=tty, env={}).progress("build")
        assert type(live).__name__ == "LiveProgress"
        live.close()


def test_the_pipeline_names_its_stages_to_the_reporter(repo: GitRepo) -> None:
    from ctxaction.pipeline import BuildOptions, build
    from ctxaction.task import parse_issue_text

    class Recorder:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def stage(self, name: str) -> None:
            self.calls.append(name)

        def pause(self) -> None:
            self.calls.append("pause")

        def close(self) -> None:
            self.calls.append("close")

    task = parse_issue_text("parse_date fails\n\nparse_date in lib/dates.py breaks.\n")
    recorder = Recorder()
    with_progress = build(BuildOptions(repo=repo.root, task=task), progress=recorder)
    assert recorder.calls == ["candidates", "scores", "filter", "budget", "render"]
    assert with_progress.rendered == build(BuildOptions(repo=repo.root, task=task)).rendered


def test_console_error_redacts_and_escapes_what_it_quotes() -> None:
    # Errors quote the input that caused them (a path, a config value): the console itself makes
    # them safe, so no caller can forget to.
    token = expand("<<gh:ghp>>", "console-error")
    pipe = io.StringIO()
    Console(stream=pipe, env={"NO_COLOR": "1"}).error("ctxaction build", f"cannot read {token}\x1b[2J.txt")
    shown = pipe.getvalue()
    leaked = token[4:] in shown  # a failure names no part of the token
    assert not leaked, "the token reached stderr"
    assert "\x1b" not in shown and shown.startswith("ctxaction build: cannot read ")
