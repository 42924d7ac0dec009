"""Delivery helpers: fences, mention/reference neutralizing, redaction, size fitting, runner files."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ctxaction.github.deliver import (
    COMMENT_LIMIT,
    DROPPED,
    final_body,
    fit_package,
    format_outputs,
    neutralize,
    posted_text,
    utf16_len,
    write_artifacts,
)
from ctxaction.model import Package, PackedFile, Task
from ctxaction.secure.synth import expand
from ctxaction.text.fences import code_segments, open_fence

LIVE_MENTION = re.compile(r"(?<![\w`])@[A-Za-z0-9]")


def test_neutralize_outside_code_only() -> None:
    text = "ping @octocat about #12 and org/repo#3\n```\n@decorator  # issue #5\n```\nbye @someone"
    out = neutralize(text)
    prose = "\n".join(chunk for code, chunk in code_segments(out) if not code)
    assert not LIVE_MENTION.search(prose)
    assert "#12" not in prose and "repo#3" not in prose
    assert "```\n@decorator  # issue #5\n```" in out  # code stays copyable


def test_posted_text_redacts_then_neutralizes() -> None:
    secret = expand("<<gh:ghp>>", seed="deliver")
    out = posted_text(f"token {secret} from @mallory")
    assert secret not in out and "[REDACTED:github-pat]" in out
    assert not LIVE_MENTION.search(out)


def test_utf16_counts_astral_characters_twice() -> None:
    assert utf16_len("abc") == 3 and utf16_len("é") == 1 and utf16_len("😀") == 2


def _package(sizes: list[int]) -> Package:
    files = [
        PackedFile(
            path=f"src/f{i}.py",
            mode="full",
            ranges=[(1, 1)],
            text="x" * size,
            tokens=size // 4,
            score=1.0 - i / 100,
            reasons=["test"],
        )
        for i, size in enumerate(sizes)
    ]
    return Package(task=Task(title="t"), profile="bugfix", files=files)


def _render(package: Package) -> str:
    """A small real renderer: one fenced section per file, then the omitted list."""
    parts = [f"## {f.path}\n```\n{f.text}\n```" for f in package.files]
    parts += [f"- omitted {o.path}: {o.reason}" for o in package.omitted]
    return "\n\n".join(parts)


def test_fit_keeps_everything_when_it_fits() -> None:
    text, truncated = fit_package(_package([100, 200]), _render, COMMENT_LIMIT)
    assert not truncated and "src/f0.py" in text and "src/f1.py" in text


def test_fit_drops_lowest_ranked_files_first_and_names_them() -> None:
    package = _package([20_000, 20_000, 20_000, 20_000])
    package.files.reverse()  # render order differs from rank order
    text, truncated = fit_package(package, _render, COMMENT_LIMIT, frame=lambda b, s: f"<!-- m -->\n{b}\n{s}")
    assert truncated and utf16_len(text) <= COMMENT_LIMIT
    assert "## src/f0.py" in text and "## src/f2.py" in text and "## src/f3.py" not in text
    assert f"- omitted src/f3.py: {DROPPED}" in text
    assert text.endswith("\n1 lower-ranked files were left out (named under omitted files)")


def test_fit_counts_utf16_units() -> None:
    package = _package([])
    package.files = [
        PackedFile(
            path=f"e{i}",
            mode="full",
            ranges=[(1, 1)],
            text="😀" * 12_000,
            tokens=1,
            score=1 - i / 10,
            reasons=[],
        )
        for i in range(3)
    ]
    assert len(_render(package)) < COMMENT_LIMIT < utf16_len(_render(package))  # fits only if counted wrong
    text, truncated = fit_package(package, _render, COMMENT_LIMIT)
    assert truncated and utf16_len(text) <= COMMENT_LIMIT and "## e1" in text and "## e2" not in text


def test_fit_falls_back_to_a_hard_cut_when_no_file_is_left() -> None:
    package = _package([100])
    text, truncated = fit_package(
        package, lambda p: "```\n" + "z\n" * 50_000, 10_000, frame=lambda b, s: f"{b}\n\nShortened: {s}."
    )
    assert truncated and utf16_len(text) <= 10_000
    assert text.endswith("Shortened: 1 files were left out and the rest was cut at a line boundary.")
    assert open_fence(text) == "" and "*(cut here)*" in text


def test_final_body_keeps_a_fitting_body_and_cuts_a_long_one_to_valid_markdown() -> None:
    fitting = "<!-- m -->\n" + "🎉" * 100
    assert final_body(fitting) == fitting
    # Astral characters count twice: 40,000 of them are 80,000 units, over the limit in UTF-16
    # although under it in Python characters.
    long = "<!-- m -->\nintro\n```python\n" + "🎉\n" * 40_000
    body = final_body(long)
    assert utf16_len(body) <= COMMENT_LIMIT < utf16_len(long)
    assert body.startswith("<!-- m -->\nintro\n```python\n") and body.endswith("*(cut here)*")
    assert open_fence(body) == ""


def test_outputs_use_random_delimiters() -> None:
    text = format_outputs({"a": "1", "b": "two\nlines"})
    delims = re.findall(r"^(\w+)<<(ghadelimiter_[0-9a-f-]{36})$", text, re.MULTILINE)
    assert [name for name, _ in delims] == ["a", "b"] and delims[0][1] != delims[1][1]
    assert f"two\nlines\n{delims[1][1]}\n" in text


def test_artifacts_are_written_under_the_workspace(tmp_path: Path) -> None:
    paths = write_artifacts(tmp_path, "context-package", "issue-3", {"markdown": "# hi", "json": '{"a": 1}'})
    assert paths == {"markdown": "context-package/issue-3.md", "json": "context-package/issue-3.json"}
    assert json.loads((tmp_path / paths["json"]).read_text(encoding="utf-8")) == {"a": 1}
    assert not [p for p in os.listdir(tmp_path / "context-package") if p.endswith(".tmp")]
