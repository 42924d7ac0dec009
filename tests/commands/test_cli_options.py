"""The CLI's manners: help with a description and examples everywhere, "did you mean" on typos,
-q/--quiet and -v/--verbose before or after the command, and no command importing the CLI."""

from __future__ import annotations

import argparse
import ast
import itertools
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.cli import build_parser, main
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = Path(sys.executable).parent


def command_paths(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> list[list[str]]:
    """Every command and subcommand the real parser holds (``["config", "show"]`` …)."""
    found: list[list[str]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += [[*words, name], *command_paths(sub, (*words, name))]
    return found


COMMANDS = command_paths(build_parser())
SOURCE = "def parse_date(text):\n    return text.split('-')\n"


def help_text(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main([*words, "--help"])
    assert exit_info.value.code == 0
    return capsys.readouterr().out


def described(text: str) -> tuple[str, list[str]]:
    """The description paragraph after the usage block, and the example commands."""
    blocks = text.split("\n\n")
    description = next(b for b in blocks[1:] if not b.startswith(("usage:", "positional", "options")))
    examples = text.split("\nexamples:\n", 1)[1]
    commands = [
        line.strip() for line in examples.splitlines() if line.strip() and not line.strip().startswith("#")
    ]
    return description, commands


def test_every_command_is_covered() -> None:
    assert {"build", "explain", "config show", "config init", "scan", "hook", "action", "mcp"} <= {
        " ".join(words) for words in COMMANDS
    }


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_every_command_help_has_a_description_and_two_examples(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    text = help_text(capsys, *words)
    description, examples = described(text)
    assert len(description.split()) >= 8, description
    assert len(examples) >= 2, text
    assert all(words[0] in example for example in examples), examples
    assert "-q, --quiet" in text and "-v, --verbose" in text


def test_top_level_help_lists_the_global_options_and_examples(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_text(capsys)
    head, examples = text.split("positional arguments:")[0], described(text)[1]
    assert "NO_COLOR" in head and "FORCE_COLOR" in head and "-q/--quiet" in head
    assert [e.split()[:2] for e in examples] == [["ctxaction", "build"], ["ctxaction", "scan"]]


def test_secrets_hook_help_has_examples_and_no_rst_markup() -> None:
    proc = subprocess.run(
        [str(SCRIPTS / "ctxaction-secrets"), "--help"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "``" not in proc.stdout and ":func:" not in proc.stdout
    description, examples = described(proc.stdout)
    assert "staged" in description and len(examples) >= 2
    assert all(e.startswith("ctxaction-secrets") for e in examples)


def test_help_examples_parse(capsys: pytest.CaptureFixture[str]) -> None:
    """Every example's ctxaction command line is accepted by the real parser (help and behaviour
    agree): no unknown option, no bad choice, the command it documents."""
    for words in COMMANDS:
        for example in described(help_text(capsys, *words))[1]:
            tokens = shlex.split(example)
            start = len(tokens) - tokens[::-1].index("ctxaction")
            line = list(
                itertools.takewhile(lambda t: t not in ("|", ">", ">>", "<", "&&", ";"), tokens[start:])
            )
            args, extras = build_parser().parse_known_args(line)
            assert extras == [] and args.command == words[0], example
            if len(words) > 1:
                assert args.action == words[1], example


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["biuld"], "did you mean 'build'?"),
        (["config", "shw"], "did you mean 'show'?"),
        (["hook", "instal"], "did you mean 'install'?"),
        (["scan", "--format", "jsn"], "did you mean 'json'?"),
        (["build", "--budgt", "100"], "did you mean '--budget'?"),
        (["scan", "--stagd"], "did you mean '--staged'?"),
        (["explain", "--limt=3"], "did you mean '--limit'?"),
    ],
)
def test_typos_get_one_line_with_the_closest_name(
    argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and hint in err, err
    assert "Traceback" not in err and "usage:" not in err


def test_the_secrets_hook_suggests_too() -> None:
    proc = subprocess.run(
        [str(SCRIPTS / "ctxaction-secrets"), "--pre-psh"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "did you mean '--pre-push'?" in proc.stderr


def test_a_mistyped_option_never_echoes_its_value(capsys: pytest.CaptureFixture[str]) -> None:
    value = "ghp_" + "Zq8x" * 9
    with pytest.raises(SystemExit):
        main(["build", f"--tokn={value}"])
    err = capsys.readouterr().err
    assert "did you mean '--token'?" in err and value[:12] not in err


def test_quiet_and_verbose_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["-q", "scan", "-v"])
    assert exit_info.value.code == 2
    assert "--quiet and --verbose cannot be combined" in capsys.readouterr().err


@pytest.fixture
def repo(make_repo: Callable[..., GitRepo]) -> GitRepo:
    r = make_repo()
    r.commit({"lib/dates.py": SOURCE}, "init")
    return r


@pytest.fixture
def issue(tmp_path: Path) -> Path:
    path = tmp_path / "issue.txt"
    path.write_text("parse_date fails\n\nparse_date in lib/dates.py breaks.\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("where", ["before", "after"])
def test_quiet_before_or_after_the_command_hides_notes_not_output(
    where: str, repo: GitRepo, issue: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, quiet = tmp_path / "plain.md", tmp_path / "quiet.md"
    common = ["--repo", str(repo.root), "--issue-file", str(issue)]
    assert main(["build", *common, "-o", str(plain)]) == 0
    assert f"wrote {plain}" in capsys.readouterr().err
    argv = (
        ["-q", "build", *common, "-o", str(quiet)]
        if where == "before"
        else ["build", *common, "-o", str(quiet), "--quiet"]
    )
    assert main(argv) == 0
    assert capsys.readouterr().err == ""
    assert quiet.read_bytes() == plain.read_bytes()


def test_quiet_scan_keeps_the_findings_and_drops_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ctxaction.secure.synth import expand

    (tmp_path / "app.py").write_text(expand('API_KEY = "<<alnum:32>>"\n', "quiet"), encoding="utf-8")
    assert main(["scan", str(tmp_path)]) == 1
    loud = capsys.readouterr()
    assert main(["scan", str(tmp_path), "-q"]) == 1
    quiet = capsys.readouterr()
    assert quiet.out == loud.out and "app.py" in quiet.out
    assert loud.err and quiet.err == ""


def test_verbose_prints_each_stage_time_even_on_a_pipe(repo: GitRepo, issue: Path) -> None:
    common = ["--repo", str(repo.root), "--issue-file", str(issue)]
    plain = subprocess.run([str(SCRIPTS / "ctxaction"), "build", *common], capture_output=True, check=False)
    verbose = subprocess.run(
        [str(SCRIPTS / "ctxaction"), "build", *common, "--verbose"], capture_output=True, check=False
    )
    assert plain.returncode == verbose.returncode == 0
    assert plain.stderr == b""  # no progress on a pipe
    assert verbose.stdout == plain.stdout  # the package is the same bytes
    stages = [line.split()[2] for line in verbose.stderr.decode().splitlines()]
    assert stages == ["task", "candidates", "scores", "filter", "budget", "render", "deliver", "done"]
    assert re.search(r"^ctxaction build: done in \d+\.\d+s$", verbose.stderr.decode(), re.M)


def test_no_command_imports_the_cli() -> None:
    """``cli`` loads the commands by name; a command importing it back would close a circle."""
    for path in sorted((ROOT / "ctxaction" / "commands").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "ctxaction.cli", path.name
            elif isinstance(node, ast.Import):
                assert all(alias.name != "ctxaction.cli" for alias in node.names), path.name


def test_readme_documents_the_global_options_and_explain_json() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for needle in (
        "--quiet",
        "--verbose",
        "NO_COLOR",
        "FORCE_COLOR",
        "explain --format json",
        "did you mean",
    ):
        assert needle in readme, needle
