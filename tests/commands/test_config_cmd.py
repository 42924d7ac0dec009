"""``ctxaction config show|init`` through the real CLI entry point."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.cli import main
from ctxaction.config.load import config_from_text, load_config
from ctxaction.config.schema import MODELINE, SCHEMA_FILE
from ctxaction.config.source import default_text
from tests.gitrepo import GitRepo


def test_show_prints_effective_config(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo()
    repo.write("context-packages.yaml", "profiles:\n  bugfix:\n    max_files: 7\n")
    assert main(["config", "show", "--repo", str(repo.root)]) == 0
    out = capsys.readouterr().out
    assert "context-packages.yaml" in out.split("\n")[0]
    assert config_from_text(out, "shown").profiles["bugfix"].max_files == 7


def test_show_reports_bad_config_with_line(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo()
    repo.write(".github/context-packages.yaml", "version: 1\nprofilez: {}\n")
    assert main(["config", "show", "--repo", str(repo.root)]) == 2
    err = capsys.readouterr().err
    assert "context-packages.yaml:2: profilez: unknown key" in err


def test_init_writes_commented_default_and_refuses_to_overwrite(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo()
    assert main(["config", "init", "--repo", str(repo.root)]) == 0
    target = repo.root / ".github" / "context-packages.yaml"
    text = target.read_text(encoding="utf-8")
    assert text == f"{MODELINE}\n{default_text()}"
    assert text.startswith("# yaml-language-server: $schema=https://") and SCHEMA_FILE in text.split("\n")[0]
    assert load_config(repo.root).source == str(target)
    target.write_text("# mine\n", encoding="utf-8")
    assert main(["config", "init", "--repo", str(repo.root)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "# mine\n"
    other = repo.root / "cfg.yaml"
    assert main(["config", "init", "--repo", str(repo.root), "--path", str(other)]) == 0
    assert main(["config", "init", "--repo", str(repo.root), "--path", str(other)]) == 2
    assert sorted(p.name for p in repo.root.iterdir() if p.name.startswith(".cfg")) == []


@pytest.mark.parametrize("action", ["show", "init"])
def test_a_repo_that_is_not_a_folder_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    missing = tmp_path / "typo"
    assert main(["config", action, "--repo", str(missing)]) == 2
    assert (
        capsys.readouterr().err
        == f"ctxaction config: --repo {missing} does not exist: pass the repository's folder\n"
    )
    assert not missing.exists()  # init created it, and .github/ in it, to write the file
    a_file = tmp_path / "file.txt"
    a_file.write_text("x\n", encoding="utf-8")
    assert main(["config", action, "--repo", str(a_file)]) == 2
    assert "is not a folder" in capsys.readouterr().err
