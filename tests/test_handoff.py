"""File-first hand-off: package files in the workspace, outputs, capped markdown, compact comment."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ctxaction.agents import AGENT_NAMES, get_preset
from ctxaction.handoff import (
    HandoffError,
    cap_markdown,
    compact_comment,
    files_json,
    packaged_sha,
    write_handoff,
)
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
    expected = [".ctxaction/.gitignore", ".ctxaction/package.json", ".ctxaction/package.md"]
    if preset.prompt_file:
        expected.append(".ctxaction/prompt.md")
    assert written == sorted(expected)
    assert (tmp_path / ".ctxaction/.gitignore").read_text() == "*\n"
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
    with pytest.raises(HandoffError, match=r"\.ctxaction is a symlink"):
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


def test_compact_comment_is_short_and_safe() -> None:
    body = compact_comment(
        _package(),
        commit_url=f"https://github.com/o/r/commit/{SHA}",
        full_url="https://x/run",
        full_label="run 5",
    )
    assert body.startswith("### Context package · Issue #7\n")
    assert f"[`{SHA[:12]}`](https://github.com/o/r/commit/{SHA})" in body
    assert "| `src/a\\|b.py` | excerpt, 5 of 40 lines: 1-4,9 | line 3 in the traceback |" in body
    assert "@claude" not in body
    assert "docs/big.md" in body and "over the files budget" in body
    assert packaged_sha(body) == SHA
    assert len(body) < 2000
