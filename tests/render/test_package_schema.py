"""The JSON package's shipped schema: a valid draft 2020-12 schema that real builds satisfy."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import jsonschema
import pytest

from ctxaction.model import Task
from ctxaction.pipeline import BuildOptions, build
from ctxaction.render import render
from ctxaction.render.jsonout import file_lines
from ctxaction.repo.files import split_lines
from tests.gitrepo import GitRepo
from tests.render.test_render import package

SCHEMA = json.loads(resources.files("ctxaction").joinpath("defaults/package.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

BIG = "".join(f"def helper_{i}(value):\n    return value + {i}\n\n\n" for i in range(150))
FILES = {
    "CLAUDE.md": "Run the tests with pytest.\n",
    "app/__init__.py": "",
    "app/parse.py": "import re\n\n\n" + BIG + "def parse_header(line):\n    return re.split(':', line)\n",
    "app/cli.py": "from app.parse import parse_header\n\n\ndef main(a):\n    return parse_header(a[0])\n",
    "README.md": "# app\n\nParses headers.\n",
}


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["version"]["const"] == 4


def test_a_package_with_every_section_satisfies_it() -> None:
    data = json.loads(render(package(), "json"))
    assert {"rules", "skills", "history", "excluded", "omitted"} <= {k for k, v in data.items() if v}
    VALIDATOR.validate(data)


@pytest.mark.parametrize("budget", [700, 3000])
def test_real_builds_satisfy_it_and_their_content_matches_the_ranges(
    make_repo: Callable[..., GitRepo], budget: int
) -> None:
    repo = make_repo()
    repo.commit(FILES, "initial")
    task = Task("parse_header splits on every colon", "`parse_header` in app/parse.py breaks URLs.")
    data = json.loads(build(BuildOptions(repo=repo.root, task=task, budget=budget, fmt="json")).rendered)
    VALIDATOR.validate(data)
    assert data["files"] and data["total_tokens"] <= budget
    for entry in data["files"]:
        lines = split_lines((repo.root / entry["path"]).read_text(encoding="utf-8"))
        assert entry["lines"] == len(lines)
        assert file_lines(entry) == [lines[a - 1 : b] for a, b in entry["ranges"]]
    parse = next(f for f in data["files"] if f["path"] == "app/parse.py")
    # The big file is excerpted at the small budget, with more than one range (a gap between).
    assert budget > 700 or (parse["mode"] == "excerpt" and len(parse["ranges"]) > 1)


GO = "package app\n\n" + "".join(
    f"// Helper{i} adds {i}.\n//\n//\tdocumented with a tab\nfunc Helper{i}(v int) int {{\n"
    f"\tif v > {i} {{\n\t\treturn v + {i}\n\t}}\n\t/*\n\t * aligned comment\n\t */\n\treturn v\n}}\n\n"
    for i in range(80)
)


def helpers_entry(repo: GitRepo, text: str) -> dict[str, Any]:
    """The JSON entry of ``app/helpers.go`` (committed as ``text``) in a real build for an issue
    that names one of its functions, the document checked against the schema."""
    repo.commit({"app/helpers.go": text, "README.md": "# app\n"}, "initial")
    task = Task("Helper41 returns the wrong sum", "`Helper41` in app/helpers.go adds twice.")
    data = json.loads(build(BuildOptions(repo=repo.root, task=task, budget=1500, fmt="json")).rendered)
    VALIDATOR.validate(data)
    entry: dict[str, Any] = next(f for f in data["files"] if f["path"] == "app/helpers.go")
    return entry


def test_tab_indented_code_is_written_with_spaces_and_reads_back_exactly(
    make_repo: Callable[..., GitRepo],
) -> None:
    entry = helpers_entry(make_repo(), GO)
    lines = split_lines(GO)
    assert file_lines(entry) == [lines[a - 1 : b] for a, b in entry["ranges"]]
    # Each range takes the fewest spaces a tab that read back exactly: two where tabs are followed
    # by one space (the aligned comment), one where tabs are all, none where no line starts with a
    # tab (the package clause). Which ranges the budget's edge takes moves with the commit's sha
    # (the header quotes it), so each range is checked against its own lines.
    for (a, b), k in zip(entry["ranges"], entry["tab_spaces"], strict=True):
        own = lines[a - 1 : b]
        want = 2 if any(line.lstrip("\t").startswith(" ") and line.startswith("\t") for line in own) else 1
        assert k == (want if any(line.startswith("\t") for line in own) else 0), (a, b)
    assert 2 in entry["tab_spaces"]
    shown = [line for content in entry["content"] for line in content]
    assert not any(line.startswith("\t") for line in shown)
    assert any("\t" in line for line in shown)  # a tab inside a line (a Go doc comment's) stays


def test_crlf_lines_are_written_without_their_cr_and_read_back_exactly(
    make_repo: Callable[..., GitRepo],
) -> None:
    crlf = GO.replace("\n", "\r\n")
    entry = helpers_entry(make_repo(), crlf)
    lines = split_lines(crlf)
    assert all(line.endswith("\r") for line in lines[:-1])  # lines as git counts them hold the \r
    assert file_lines(entry) == [lines[a - 1 : b] for a, b in entry["ranges"]]
    assert entry["crlf"] == [True] * len(entry["ranges"])
    assert not any(line.endswith("\r") for content in entry["content"] for line in content)
    # The \r no longer costs: the CRLF file's package holds as many lines as the LF file's.
    lf_entry = helpers_entry(make_repo(), GO)
    packed = sum(b - a + 1 for a, b in entry["ranges"])
    assert packed >= 0.95 * sum(b - a + 1 for a, b in lf_entry["ranges"])


def test_a_document_that_breaks_the_contract_is_refused() -> None:
    data = json.loads(render(package(), "json"))
    data["files"][0]["text"] = "one string, as version 1 wrote it"
    assert not VALIDATOR.is_valid(data)
    data = json.loads(render(package(), "json"))
    data["files"][0]["ranges"] = [[0, 3]]
    assert not VALIDATOR.is_valid(data)
