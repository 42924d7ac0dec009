"""One reader for the packager and the scanner: the same file, found the same way, and the same
verdict on a broken one (a usage error, exit 2) from ``build``, ``scan``, the hook and
``config show``."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.cli import main
from ctxaction.config.load import config_of, load_config
from ctxaction.config.read import read_config
from ctxaction.config.secrets import secrets_of
from ctxaction.hook import main as hook
from ctxaction.secure.settings import load_settings
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo
from tests.leaks.forms import assert_no_key_pieces, straddling

BROKEN = "profiles:\n  bugfix:\n    max_filez: 3\nsecrets:\n  disabled_rules: [no-such-rule]\n"
PROBLEMS = (
    "{path}: 2 problems: (1) {path}:3: profiles.bugfix.max_filez: unknown key; known: "
    "extends, labels, required_files, scoring, budget, max_files, min_files, history_days, "
    "context_lines; (2) {path}:5: secrets.disabled_rules[0]: unknown rule 'no-such-rule' "
    "(see `ctxaction scan --list-rules`)"
)


def test_a_broken_file_is_the_same_usage_error_everywhere(
    make_repo: Callable[..., GitRepo],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = make_repo()
    repo.commit({"app.py": "x = 1\n"})
    config = repo.write(".github/context-packages.yaml", BROKEN)
    issue = tmp_path / "issue.txt"
    issue.write_text("x is wrong\n\nSee app.py.\n", encoding="utf-8")
    monkeypatch.chdir(repo.root)
    expected = PROBLEMS.format(path=config)
    runs: tuple[tuple[str, Callable[[], int]], ...] = (
        ("ctxaction build", lambda: main(["build", "--repo", str(repo.root), "--issue-file", str(issue)])),
        ("ctxaction scan", lambda: main(["scan", "--staged"])),
        ("ctxaction config", lambda: main(["config", "show", "--repo", str(repo.root)])),
        ("ctxaction-secrets", lambda: hook([])),
    )
    for prefix, run in runs:
        assert run() == 2, prefix
        assert capsys.readouterr().err == f"{prefix}: {expected}\n"


def test_a_long_value_is_quoted_short_with_no_piece_of_a_key_in_it(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = {"gh": (expand("<<gh:ghp>>", "reader-long-value"), "ghp_")}
    value = straddling(keys["gh"][0], tail=70_000)
    repo = make_repo()
    repo.commit({"app.py": "x = 1\n"})
    repo.write(".github/context-packages.yaml", f'default_profile: "{value}"\n')
    monkeypatch.chdir(repo.root)
    runs: tuple[tuple[str, Callable[[], int]], ...] = (
        ("ctxaction config", lambda: main(["config", "show", "--repo", str(repo.root)])),
        ("ctxaction-secrets", lambda: hook([])),
    )
    for prefix, run in runs:
        code, err = run(), capsys.readouterr().err
        assert_no_key_pieces(keys, err, 8, prefix)
        # Facts, not the text: a failing assertion prints its operands.
        facts = [err.startswith(f"{prefix}: "), "(70,136 characters)" in err, len(err) < 500]
        assert (code, facts) == (2, [True, True, True]), prefix


def test_packager_and_scanner_read_the_same_file_in_the_same_order(
    make_repo: Callable[..., GitRepo],
) -> None:
    repo = make_repo()
    repo.write("context-packages.yaml", "agent: codex\nsecrets:\n  disabled_rules: [github-pat]\n")
    assert load_config(repo.root).agent == "codex"
    assert load_settings(repo.root).allowlist.disabled_rules == ("github-pat",)
    repo.write(".github/context-packages.yaml", "agent: claude\nsecrets:\n  allowlist:\n    stopwords: [x]\n")
    config = load_config(repo.root)
    settings = load_settings(repo.root)
    assert (config.agent, settings.allowlist.disabled_rules) == ("claude", ())
    assert config.source == settings.source == str(repo.root / ".github/context-packages.yaml")
    doc = read_config(repo.root)
    assert doc is not None and config_of(doc).secrets == secrets_of(doc)
    assert config.secrets.stopwords == ("x",)


def test_no_file_means_defaults_for_both(tmp_path: Path) -> None:
    assert read_config(tmp_path) is None
    assert load_settings(tmp_path).source == "" and load_config(tmp_path).source == "<built-in defaults>"


def test_a_config_symlink_out_of_the_repository_is_refused_not_read(
    make_repo: Callable[..., GitRepo], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text("agent: claude\n", encoding="utf-8")
    repo = make_repo()
    repo.commit({"app.py": "x = 1\n"})
    (repo.root / ".github").mkdir()
    (repo.root / ".github/context-packages.yaml").symlink_to(outside)
    assert main(["config", "show", "--repo", str(repo.root)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"ctxaction config: {repo.root}/.github/context-packages.yaml: a symlink to a file outside the "
        "repository, which is never read: replace the link with the file, or pass --config\n"
    )
    assert main(["scan", str(repo.root / "app.py")]) == 2
    assert "outside the repository" in capsys.readouterr().err
    # A link that stays inside the repository is followed.
    (repo.root / ".github/context-packages.yaml").unlink()
    repo.write("ci/context.yaml", "agent: codex\n")
    (repo.root / ".github/context-packages.yaml").symlink_to("../ci/context.yaml")
    assert load_config(repo.root).agent == "codex"


def test_a_folder_or_fifo_where_the_config_goes_is_an_error_not_the_defaults(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo()
    repo.commit({"app.py": "x = 1\n"})
    (repo.root / "context-packages.yaml").mkdir()
    assert main(["config", "show", "--repo", str(repo.root)]) == 2
    assert capsys.readouterr().err == (
        f"ctxaction config: {repo.root}/context-packages.yaml: not a file but a folder: the configuration "
        "is read from a file at context-packages.yaml; move or remove it\n"
    )
    (repo.root / "context-packages.yaml").rmdir()
    os.mkfifo(repo.root / "context-packages.yaml")
    assert main(["config", "show", "--repo", str(repo.root)]) == 2
    assert "not a file but a FIFO" in capsys.readouterr().err
    # --config naming a folder says so, instead of "not found".
    assert main(["config", "show", "--repo", str(repo.root), "--config", str(repo.root)]) == 2
    assert capsys.readouterr().err == (
        f"ctxaction config: {repo.root}: not a file but a folder: name a config file with --config\n"
    )
