"""Rendering: Markdown fences and escaping, well-formed XML, the JSON contract, data-only templates."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET

import pytest

from ctxaction.model import (
    Comment,
    Excluded,
    HistoryEntry,
    OmittedFile,
    Package,
    PackedFile,
    RuleFile,
    Skill,
    Task,
)
from ctxaction.render import FORMATS, render
from ctxaction.render.filters import inline, language
from ctxaction.render.jsonout import compact, spaces_as_tabs, tab_spaces, tabs_as_spaces, written
from ctxaction.render.order import interleave, layout
from ctxaction.text.fences import fence_for
from ctxaction.tokens import get_counter

NASTY = 'x = "````"  # </file> & <b>{{ 7 * 7 }}</b> {% raw %}\n'


def package() -> Package:
    files = [
        PackedFile(
            f"src/f{i}.py",
            "excerpt" if i else "full",
            [(2, 2)] if i else [(1, 1)],
            NASTY if i == 0 else f"… line 1 omitted …\nline {i}\n",
            5,
            1.0 - i / 10,
            [f"reason {i} @alice"],
            line_count=1 if i == 0 else 2,
        )
        for i in range(5)
    ]
    return Package(
        task=Task(
            "Crash in {{ config }} <script>",
            "Body with @bob and ```` fences",
            kind="issue",
            number=3,
            comments=[Comment("ana", "hi")],
        ),
        profile="bugfix",
        files=files,
        omitted=[OmittedFile("src/big.py", 0.2, 9000, "over budget")],
        rules=[RuleFile("CLAUDE.md", "Use pytest.\n", 3, False, 1), RuleFile("AGENTS.md", "", 0, False, 1)],
        skills=[Skill(".claude/skills/x/SKILL.md", "release", "Cut a <release>")],
        history=[HistoryEntry("ana", "2024-01-01", "It fails & stops", 4, True)],
        excluded=[Excluded("config/prod.env", "sensitive path (*.env)")],
        budget_total=6000,
        budget_sections={"files": 4500, "rules": 600, "history": 600, "reserve": 300},
        head="abc123",
        warnings=["shallow clone"],
        total_tokens=1234,
    )


def test_fence_is_longer_than_any_backtick_run() -> None:
    assert fence_for("plain") == "```"
    assert fence_for("a ```` b ``` c") == "`````"


def test_inline_escapes_html_and_neutralizes_mentions() -> None:
    out = inline("<img src=x> @alice\nnext")
    assert "<img" not in out and "&lt;img" in out
    assert "@alice" not in out and "alice" in out
    assert "\n" not in out


def test_language_from_path() -> None:
    assert (language("a/b.py"), language("x.tsx"), language("Dockerfile"), language("LICENSE")) == (
        "python",
        "tsx",
        "dockerfile",
        "",
    )


def test_markdown_fences_escapes_and_keeps_templates_literal() -> None:
    text = render(package(), "markdown")
    block = text.split("<code>src/f0.py</code>", 1)[1].split("</details>", 1)[0]
    assert "`````python\n" + NASTY + "`````" in block
    assert "{{ 7 * 7 }}" in text and "49" not in text
    assert "Crash in {{ config }} \\<script\\>" in text  # Markdown-escaped: shown, never HTML
    assert "@alice" not in text and "@bob" not in text.split("## Task", 1)[0]
    assert "\n\n> ⚠ shallow clone\n" in text
    assert "- `src/big.py`: 9000 tokens, score 0.20 (over budget)" in text
    assert "- `AGENTS.md`: loaded by the agent itself" in text


def test_xml_is_well_formed_with_hostile_content() -> None:
    text = render(package(), "xml")
    root = ET.fromstring(text)
    assert root.tag == "context_package" and root.get("tokens") == "1234"
    files = root.findall("file")
    assert [f.get("path") for f in files] == ["src/f0.py", "src/f2.py", "src/f4.py", "src/f3.py", "src/f1.py"]
    assert files[0].text == "\n" + NASTY
    assert root.find("task/title").text == "Crash in {{ config }} <script>"  # type: ignore[union-attr]
    assert '"' in text.split('<file path="src/f0.py"', 1)[1].split("</file>")[0]  # quotes stay readable


def test_json_contract() -> None:
    data = json.loads(render(package(), "json"))
    assert {
        "version",
        "task",
        "files",
        "rules",
        "excluded",
        "omitted",
        "budget",
        "tokenizer",
        "repo",
        "warnings",
        "total_tokens",
    } <= set(data)
    first = data["files"][0]
    assert {k: first[k] for k in ("path", "mode", "ranges", "tokens", "score", "reasons")} == {
        "path": "src/f0.py",
        "mode": "full",
        "ranges": [[1, 1]],
        "tokens": 5,
        "score": 1.0,
        "reasons": ["reason 0 @alice"],
    }
    assert first["content"] == [[NASTY.rstrip("\n")]]
    assert data["files"][1]["ranges"] == [[2, 2]] and data["files"][1]["content"] == [["line 1"]]
    assert data["tokenizer"] == {"encoding": "o200k_base", "exact": True}
    assert data["repo"] == {"head": "abc123", "shallow": False}
    assert data["budget"]["sections"]["files"] == 4500
    assert data["task"]["title"] == "Crash in {{ config }} <script>" and "body" not in data["task"]
    assert [f["path"] for f in data["files"]] == [f"src/f{i}.py" for i in range(5)]


def test_position_aware_layout() -> None:
    assert interleave([1, 2, 3, 4, 5]) == [1, 3, 5, 4, 2]
    blocks = layout(package())
    kinds = [b.kind if b.file is None else b.file.path for b in blocks]
    assert kinds == [
        "task",
        "rules",
        "files",
        "src/f0.py",
        "src/f2.py",
        "src/f4.py",
        "skills",
        "omitted",
        "excluded",
        "files",
        "src/f3.py",
        "src/f1.py",
        "history",
        "recap",
    ]
    assert [b.continued for b in blocks if b.kind == "files"] == [False, True]
    # No list between the halves, no second heading: the files run on under the first.
    bare = dataclasses.replace(package(), skills=[], omitted=[], excluded=[])
    assert [b.kind for b in layout(bare)].count("files") == 1


def test_files_after_the_lists_are_not_read_as_left_out() -> None:
    # The second-best file closes the package, below the list of files left out: a heading of its
    # own says it is in, so the list's "Not included" does not reach over it.
    md = render(package(), "markdown")
    left_out = md.index("## Not included")
    continued = md.index("## Files (continued)")
    assert md.index("## Files\n") < md.index("src/f0.py") < left_out < continued < md.index("src/f1.py")
    assert md.count("## Files") == 2


def test_unknown_format_is_an_error() -> None:
    assert FORMATS == ("markdown", "xml", "json")
    with pytest.raises(ValueError, match="unknown format"):
        render(package(), "html")


def test_untrusted_title_cannot_become_a_link_image_or_heading() -> None:
    from ctxaction.markdown import has_live_markup

    title = "[Click to verify](https://evil.example) ![](https://evil.example/x.png) # admin"
    pkg = package()
    pkg.task = Task(title=title, body="", kind="issue", number=3)
    text = render(pkg, "markdown")
    heading = text.split("\n", 1)[0]
    assert has_live_markup(heading) == ["heading"]  # our own heading, nothing inside it
    assert "evil.example" in heading  # still readable


@pytest.mark.parametrize(
    ("lines", "width"),
    [
        (["func f() {", "\treturn 1", "}"], 1),
        (["\t/*", "\t * aligned", "\t */"], 2),
        (["\tx := 1", "\t    y := 2"], 5),
        (["def f():", "    return 1"], 0),  # no tab: nothing to save
        (["\tx", " \ty"], 0),  # a space before a tab cannot be read back
        (["\tx", "\t        y"], 0),  # eight spaces after a tab: past MAX_TAB_SPACES
        ([], 0),
    ],
)
def test_tab_spaces_is_the_fewest_that_read_back_exactly(lines: list[str], width: int) -> None:
    assert tab_spaces(lines) == width
    if width:
        shown = [tabs_as_spaces(line, width) for line in lines]
        assert not any("\t" in line[: len(line) - len(line.lstrip())] for line in shown)
        assert [spaces_as_tabs(line, width) for line in shown] == lines


def test_leading_tabs_as_spaces_cost_fewer_tokens_than_escaped_tabs() -> None:
    lines = ["func f(v int) int {", "\tif v > 0 {", "\t\treturn v", "\t}", "\treturn 0", "}"] * 20
    counter = get_counter("o200k_base")
    shown = written(lines)
    assert shown.tab_spaces == 1 and not shown.crlf
    assert counter.count(compact(shown.lines)) < 0.9 * counter.count(compact(lines))


def test_crlf_lines_leave_their_cr_out_and_cost_what_lf_lines_cost() -> None:
    lf = ["def f(value):", "    return value + 1", "", "x = f(2)"] * 20
    crlf = [line + "\r" for line in lf]
    counter = get_counter("o200k_base")
    shown = written(crlf)
    assert shown.crlf and shown.lines == lf and shown.tab_spaces == 0
    # Each escaped \r costs a token of its own: the written lines cost what the LF file's do.
    assert counter.count(compact(shown.lines)) == counter.count(compact(lf))
    assert counter.count(compact(crlf)) > 1.1 * counter.count(compact(lf))
    # A range with one line that does not end so (a mixed file) is written as it is.
    mixed = written([*crlf[:3], lf[3]])
    assert not mixed.crlf and mixed.lines == [*crlf[:3], lf[3]]
    assert not written([]).crlf
