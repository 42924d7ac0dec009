"""File-first hand-off: package files in the workspace, outputs, capped markdown, compact comment."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from ctxaction.agents import AGENT_NAMES, get_preset
from ctxaction.errors import WriteError
from ctxaction.github.handoff.excludes import keep_out_of_commits
from ctxaction.github.handoff.inline import cap_markdown
from ctxaction.github.handoff.manifest import files_json
from ctxaction.github.handoff.paths import AGENT_EXCLUDES
from ctxaction.github.handoff.write import write_handoff
from ctxaction.model import OmittedFile, Package, PackedFile, Task

SHA = "0123456789abcdef0123456789abcdef01234567"


def _package() -> Package:
    return Package(
        task=Task(title="Crash", kind="issue", number=7),
        profile="bugfix",
        files=[
            PackedFile(
                "src/a|b.py",
                "excerpt",
                [(1, 4), (9, 9)],
                "x",
                120,
                0.8123,
                ["line 3 in the traceback"],
                "",
                40,
            ),
            PackedFile("README.md", "full", [(1, 3)], "y", 30, 0.2, ["ping @claude about #12"], "", 3),
        ],
        omitted=[OmittedFile("docs/big.md", 0.1, 9000, "over the files budget")],
        budget_total=6000,
        total_tokens=1500,
        head=SHA,
        warnings=["thread text held hidden content, removed: 1 hidden comment"],
    )


@pytest.mark.parametrize("agent", AGENT_NAMES)
def test_write_handoff_writes_files_only_under_ctxaction(tmp_path: Path, agent: str) -> None:
    preset = get_preset(agent)
    package = _package()
    handoff = write_handoff(tmp_path, package, preset, "# Package\n" + "line\n" * 50, '{"version": 1}')
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    expected = [".ctxaction/package.json", ".ctxaction/package.md"]
    if preset.prompt_file:
        expected.append(".ctxaction/prompt.md")
    assert written == sorted(expected)  # no .gitignore: it would hide them from gemini-cli
    out = handoff.outputs()
    assert (
        out["package-path"] == ".ctxaction/package.md" and out["manifest-path"] == ".ctxaction/package.json"
    )
    assert out["prompt-pointer"].startswith(
        ("Read .ctxaction/package.md first:", "Read @.ctxaction/package.md first:")
    )
    assert out["sha"] == SHA and out["bytes"] == str(len("# Package\n" + "line\n" * 50))
    assert out["tokenizer"] == "o200k_base"
    assert json.loads(out["files"])[0] == {
        "path": "src/a|b.py",
        "mode": "excerpt",
        "ranges": [[1, 4], [9, 9]],
        "tokens": 120,
        "score": 0.8123,
        "reasons": ["line 3 in the traceback"],
    }
    if preset.prompt_file:
        assert out["prompt-pointer"] in (tmp_path / preset.prompt_file).read_text()
        assert out["prompt-file"] == preset.prompt_file
    else:
        assert out["prompt-file"] == ""


def test_symlinked_package_dir_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    os.symlink(elsewhere, workspace / ".ctxaction")
    with pytest.raises(WriteError, match=r"\.ctxaction is a symlink, not a folder"):
        write_handoff(workspace, _package(), get_preset("generic"), "md", "{}")
    assert list(elsewhere.iterdir()) == []


def test_cap_markdown_cuts_at_a_line_and_closes_the_fence() -> None:
    text = "# Title\n\n```python\n" + "".join(f"x = {i}\n" for i in range(500)) + "```\n"
    capped, truncated = cap_markdown(text, 1000)
    assert truncated and len(capped) <= 1000
    body, _, note = capped.rpartition("\n\n[")
    assert body.endswith("\n```") and note.startswith("… cut to 1000 characters")
    assert all(line in text.split("\n") for line in body.split("\n"))
    assert cap_markdown(text, len(text)) == (text, False)
    assert cap_markdown(text, 0) == ("", False)


def test_files_json_of_an_empty_package() -> None:
    assert files_json(Package(task=Task("t"), profile="bugfix")) == "[]"


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("agent", AGENT_NAMES)
def test_package_files_stay_out_of_commits_but_visible_to_the_agent(tmp_path: Path, agent: str) -> None:
    _git(tmp_path, "init", "-q")
    preset = get_preset(agent)
    write_handoff(tmp_path, _package(), preset, "# Package\n", "{}")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "fix.py").write_text("x = 1\n")
    where = keep_out_of_commits(tmp_path, preset)
    assert keep_out_of_commits(tmp_path, preset) == where  # idempotent
    _git(tmp_path / "src", "add", "-A", "..")  # what an agent's `git add -A` would stage
    assert _git(tmp_path, "diff", "--cached", "--name-only").split() == ["src/fix.py"]
    # gemini-cli skips paths listed in .gitignore files and .git/info/exclude (its
    # GitIgnoreParser); it does not read core.excludesFile.
    info_exclude = (tmp_path / ".git/info/exclude").read_text()
    gitignores = [p for p in tmp_path.rglob(".gitignore") if ".git/" not in p.as_posix()]
    if agent == "gemini":
        assert where == AGENT_EXCLUDES and "/.ctxaction/" not in info_exclude and not gitignores
        assert _git(tmp_path, "config", "core.excludesFile").strip() == AGENT_EXCLUDES
    else:
        assert where == ".git/info/exclude" and info_exclude.count("/.ctxaction/") == 1


def test_an_old_gitignore_of_ours_is_removed(tmp_path: Path) -> None:
    (tmp_path / ".ctxaction").mkdir()
    (tmp_path / ".ctxaction/.gitignore").write_text("*\n")
    write_handoff(tmp_path, _package(), get_preset("gemini"), "md", "{}")
    assert not (tmp_path / ".ctxaction/.gitignore").exists()
