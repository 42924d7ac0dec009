"""collect() end to end on real temp repositories, one per language's trace format."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from ctxaction.model import Candidate, Task
from ctxaction.rank import DEFAULT_WEIGHTS, collect
from ctxaction.rank.scoring import HABIT_PLACE
from ctxaction.repo import history
from ctxaction.repo.files import open_repo
from tests.gitrepo import GitRepo

MakeRepo = Callable[..., GitRepo]


@dataclass
class Profile:
    scoring: dict[str, float] = field(default_factory=dict)
    history_days: int = 90


def _by_path(cands: list[Candidate]) -> dict[str, Candidate]:
    return {c.path: c for c in cands}


def _covers(cand: Candidate, line: int, top: int = 3) -> bool:
    return any(f.start <= line <= f.end for f in cand.focus[:top])


MODELS = '''import re

from pkg.validators import check_host


class URLField:
    """A URL."""

    def __init__(self, required=True):
        self.required = required

    def clean(self, value):
        host = value.split("/")[2]
        if ":" in host:
            raise ValueError("Invalid IPv6 URL")
        return check_host(host)
''' + "".join(f"\n\ndef helper_{i}(x):\n    return x + {i}\n" for i in range(40))


def _python_repo(make_repo: MakeRepo) -> GitRepo:
    repo = make_repo()
    repo.commit(
        {
            "pkg/__init__.py": "",
            "pkg/models.py": MODELS,
            "pkg/validators.py": "def check_host(host):\n    return host\n",
            "pkg/forms.py": "from pkg.models import URLField\n\n\nclass Form:\n    url = URLField()\n",
            "pkg/unrelated.py": "def other():\n    return 'nothing to see'\n",
            "tests/test_models.py": "from pkg.models import URLField\n"
            "\n\ndef test_clean():\n    URLField().clean('http://a/b')\n",
            "docs/index.rst": "URLField docs\n",
        },
        "initial",
    )
    return repo


def test_python_traceback_issue(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo)
    issue = Task(
        title="URLField.clean crashes on IPv6 hosts",
        body=(
            "```\nTraceback (most recent call last):\n"
            '  File "/venv/lib/python3.11/site-packages/pkg/models.py", line 15, in clean\n'
            '    raise ValueError("Invalid IPv6 URL")\nValueError: Invalid IPv6 URL\n```\n'
        ),
    )
    cands = collect(open_repo(repo.root), issue, Profile())
    assert cands[0].path == "pkg/models.py"
    top = cands[0]
    assert any("line 15 of the traceback" in r for r in top.reasons)
    assert any("defines URLField" in r or "defines clean" in r for r in top.reasons)
    assert _covers(top, 15, top=1)
    assert any(f.start <= 12 and f.end >= 16 for f in top.focus), "the body of clean() is a focus span"
    by = _by_path(cands)
    assert "tests/test_models.py" in by and by["tests/test_models.py"].prior < 1.0
    assert "pkg/forms.py" in by
    assert "pkg/unrelated.py" not in by, by.get("pkg/unrelated.py")
    assert [c.score for c in cands] == sorted((c.score for c in cands), reverse=True)
    assert all(0.0 <= v <= 1.0 for c in cands for v in c.signals.values())
    assert set().union(*(c.signals for c in cands)) <= set(DEFAULT_WEIGHTS)


def test_message_and_definition_without_traceback(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo)
    issue = Task(
        title="Confusing error", body='Entering an IPv6 address gives "Invalid IPv6 URL" from `check_host`.'
    )
    by = _by_path(collect(open_repo(repo.root), issue, Profile()))
    assert _covers(by["pkg/models.py"], 15)
    assert any("defines check_host" in r for r in by["pkg/validators.py"].reasons)


def test_keyword_reasons_spell_the_task_s_words_not_their_stems(make_repo: MakeRepo) -> None:
    """Keywords are matched by stem ("ranges" and "ranged" meet "rang…"); the reason a reader sees
    spells the task's own word."""
    repo = make_repo()
    repo.commit(
        {
            "fmt/ranges.py": "def parse(text):\n    # ranges of lines after a docstring\n    return text\n",
            "fmt/blank.py": "def docstring_ranges(text):\n    return text\n",
            "fmt/other.py": "def other():\n    return 1\n",
        },
        "initial",
    )
    issue = Task(title="Blank line added after docstrings with line ranges", body="Only with ranges.")
    reasons = _by_path(collect(open_repo(repo.root), issue, Profile()))["fmt/ranges.py"].reasons
    keyword = next(r for r in reasons if r.startswith("keywords: "))
    assert set(keyword.removeprefix("keywords: ").split(", ")) >= {"ranges", "docstrings"}, keyword
    named = _by_path(collect(open_repo(repo.root), issue, Profile()))["fmt/blank.py"].reasons
    shown = next(r for r in named if r.startswith("defines docstring_ranges (name matches "))
    assert set(shown.split("(name matches ")[1].rstrip(")").split(", ")) == {"docstrings", "ranges"}, shown


def test_message_split_over_string_literals_and_interpolated(make_repo: MakeRepo) -> None:
    """A message the code builds from several literals, or with a value interpolated at its end, is
    still found from the issue's printed text (here in JavaScript and Go, not Python)."""
    loader = "".join(f"function step{i}(x) {{\n  return x + {i};\n}}\n\n" for i in range(60)) + (
        "function loadPlugin(name) {\n  if (!name.startsWith('@')) {\n"
        "    throw new Error('Loading a plugin outside of a workspace is not allowed. ' +\n"
        "      'Register it in the workspace manifest first.');\n  }\n  return name;\n}\n"
    )
    refs = (
        'package refs\n\nimport "fmt"\n\n'
        + "".join(f"func helper{i}(x int) int {{\n\treturn x + {i}\n}}\n\n" for i in range(60))
        + (
            "func resolve(kind string, label string) error {\n"
            '\treturn fmt.Errorf("no anchor is registered for %s: %s", kind, label)\n}\n'
        )
    )
    repo = make_repo()
    repo.commit(
        {"src/loader.js": loader, "refs/refs.go": refs, "src/other.js": "export const x = 1;\n"}, "init"
    )
    view = open_repo(repo.root)
    quoted = Task(
        title="Plugins in workspaces",
        body="Trying it gives:\n\n>Loading a plugin outside of a workspace is not allowed. "
        "Register it in the workspace manifest first.\n",
    )
    by = _by_path(collect(view, quoted, Profile()))
    assert any("holds the message" in r for r in by["src/loader.js"].reasons)
    assert _covers(by["src/loader.js"], 243, top=1)
    printed = Task(
        title="Build warns",
        body="The build prints\n\n```\nWARNING: no anchor is registered for figure\n```\n",
    )
    cands = collect(view, printed, Profile())
    assert cands[0].path == "refs/refs.go"
    assert _covers(cands[0], 246, top=1)


def test_repro_options_weigh_less_than_quoted_messages(make_repo: MakeRepo) -> None:
    """A directive option the repro merely sets is setup; the quoted message is the subject."""
    filler = "".join(f"def step_{i}(x):\n    return x + {i}\n\n\n" for i in range(50))
    source = (
        "def filter_members(options):\n    if options.get('undoc-members'):\n        return []\n"
        "    return None\n\n\n" + filler + "def add_header(sig):\n    if not sig:\n"
        "        raise ValueError('no signature could be parsed for overloads')\n    return sig\n"
    )
    repo = make_repo()
    repo.commit({"pkg/documenter.py": source}, "init")
    issue = Task(
        title="Overloads break the header",
        body="```rst\n.. automodule:: example\n   :members:\n   :undoc-members:\n```\n\n"
        'It fails with "no signature could be parsed for overloads".\n',
    )
    cand = _by_path(collect(open_repo(repo.root), issue, Profile()))["pkg/documenter.py"]
    assert any("option" in f.why for f in cand.focus)
    assert _covers(cand, 209, top=1)
    assert not _covers(cand, 2, top=1)


LANGS = {
    "javascript": (
        "src/lib/parser.js",
        "export function parseConfig(text) {\n"
        "  const lines = text.split('\\n');\n  return lines.map((l) => {\n"
        "    return JSON.parse(l);\n  });\n}\n",
        "TypeError: Cannot read properties of undefined\n"
        "    at parseConfig (/home/u/app/src/lib/parser.js:4:17)\n"
        "    at main (/home/u/app/src/index.js:10:3)\n",
        4,
    ),
    "typescript": (
        "src/store.ts",
        "export class Store {\n  private items: Map<string, number> = new Map();\n"
        "\n  get(key: string): number {\n"
        "    return this.items.get(key)!.valueOf();\n  }\n}\n",
        "TypeError: undefined is not an object\n    at Store.get (webpack:///./src/store.ts:5:31)\n",
        5,
    ),
    "go": (
        "server/handler.go",
        "package server\n\nfunc (s *Server) Handle(req *Request) error {\n\tif req.Body == nil {\n"
        '\t\tpanic("nil body")\n\t}\n\treturn nil\n}\n',
        "panic: nil body\n\ngoroutine 1 [running]:\nexample.com/proj/server.(*Server).Handle(0xc000010000)\n"
        "\t/home/u/go/src/example.com/proj/server/handler.go:5 +0x1d\n",
        5,
    ),
    "rust": (
        "src/parser.rs",
        "pub struct Parser {\n    pos: usize,\n}\n\nimpl Parser {\n"
        "    pub fn next_token(&mut self) -> char {\n"
        "        let c = self.src[self.pos];\n        self.pos += 1;\n        c\n    }\n}\n",
        "thread 'main' panicked at 'index out of bounds', src/parser.rs:7:17\nstack backtrace:\n"
        "   0: mycrate::parser::Parser::next_token\n             at ./src/parser.rs:7:17\n",
        7,
    ),
    "java": (
        "src/main/java/com/acme/Parser.java",
        "package com.acme;\n\npublic class Parser {\n    public String parse(String in) {\n"
        "        return in.trim();\n    }\n}\n",
        'Exception in thread "main" java.lang.NullPointerException\n'
        "\tat com.acme.Parser.parse(Parser.java:5)\n\tat com.acme.Main.main(Main.java:9)\n",
        5,
    ),
    "c": (
        "lib/pngread.c",
        '#include "png.h"\n\nint\npng_read_row(png_struct *p, int n)\n'
        "{\n    int v = p->rows[n];\n    return v;\n}\n",
        "Program received signal SIGSEGV\n#0  0x00005555 in png_read_row (p=0x0, n=3) at lib/pngread.c:6\n"
        "#1  0x00005556 in main () at app/main.c:12\n",
        6,
    ),
}


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_stack_trace_in_each_language(make_repo: MakeRepo, lang: str) -> None:
    path, source, trace, line = LANGS[lang]
    repo = make_repo()
    repo.commit(
        {path: source, "README.md": "A project.\n", "other/noise.txt": "parse trim token row\n"}, "initial"
    )
    issue = Task(title="Crash when running", body=f"It crashes:\n```\n{trace}```\n")
    cands = collect(open_repo(repo.root), issue, Profile())
    assert cands[0].path == path, [c.path for c in cands[:3]]
    assert _covers(cands[0], line, top=1)
    assert any(f"line {line} of the traceback" in r for r in cands[0].reasons)


def test_pr_changed_files_come_first(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo)
    task = Task(title="Refactor URLField.clean", kind="pr", changed_files=["pkg/unrelated.py"])
    cands = collect(open_repo(repo.root), task, Profile())
    assert cands[0].path == "pkg/unrelated.py"
    assert "changed by this pull request" in cands[0].reasons


def test_issue_number_in_history(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo)
    repo.commit(
        {"pkg/validators.py": "def check_host(host):\n    return host.strip()\n"}, "Fix #77: strip hosts"
    )
    task = Task(title="Regression of the hosts fix", body="Looks like #77 came back.", number=81)
    by = _by_path(collect(open_repo(repo.root), task, Profile()))
    assert by["pkg/validators.py"].signals["issue_reference"] > 0
    # The line the earlier fix changed is a focus window, labelled with that commit.
    windows = [f for f in by["pkg/validators.py"].focus if f.why.endswith("naming the issue")]
    assert windows and windows[0].start <= 2 <= windows[0].end


def test_history_reasons_read_as_sentences(make_repo: MakeRepo) -> None:
    """A file changed once says so ("changed once", not "changed 1 times"); a long commit subject
    quoted in a reason is cut after a whole word."""
    repo = make_repo()
    old = "2001-01-01T00:00:00"
    repo.commit({"pkg/validators.py": "def check_host(host):\n    return host\n"}, "initial", old)
    subject = "check_host: strip the surrounding whitespace before validating every hostname"
    repo.commit({"pkg/validators.py": "def check_host(host):\n    return host.strip()\n"}, subject)
    task = Task(title="Whitespace around hosts", body="`check_host` keeps the surrounding whitespace.")
    reasons = _by_path(collect(open_repo(repo.root), task, Profile()))["pkg/validators.py"].reasons
    assert "changed once in 90 days" in reasons, reasons
    shown = next(r for r in reasons if r.startswith("changed by ") and '"' in r).split('"')[1]
    assert subject.startswith(shown) and len(shown) < len(subject) and subject[len(shown)] == " ", shown


def test_the_commit_the_issue_names_points_at_its_files(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo)
    lowered = "def check_host(host):\n    return host.lower()\n"
    sha = repo.commit({"pkg/validators.py": lowered}, "lower hosts")
    repo.commit({"pkg/other.py": "x = 1\n"}, "unrelated")
    # A hash is named with a letter and a digit in it (an all-digit prefix reads as a number):
    # the shortest such prefix from ten characters, so the test does not depend on the hash drawn.
    named = next(sha[:n] for n in range(10, 41) if not sha[:n].isdigit() and not sha[:n].isalpha())
    task = Task(title="Hosts come out wrong", body=f"This broke in {named}.")
    by = _by_path(collect(open_repo(repo.root), task, Profile()))
    assert by["pkg/validators.py"].signals["issue_reference"] > 0
    assert f"changed by {sha[:8]}, the commit the issue names" in by["pkg/validators.py"].reasons
    assert "issue_reference" not in by.get("pkg/other.py", Candidate("pkg/other.py")).signals
    # Its changed line (2) is a focus window, labelled with the commit.
    windows = [f for f in by["pkg/validators.py"].focus if "the commit the issue names" in f.why]
    assert windows and windows[0].start <= 2 <= windows[0].end


def test_no_usable_words_falls_back_to_recent_changes(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo)
    cands = collect(open_repo(repo.root), Task(title="???", body="!!!"), Profile())
    assert cands and all("change_frequency" in c.signals for c in cands)
    assert collect(open_repo(make_repo().root), Task(title="anything"), Profile()) == []


def test_pr_head_read_from_objects(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo)
    base = repo.git("rev-parse", "HEAD").strip()
    repo.commit({"pkg/new_feature.py": "def shiny_new_thing():\n    return 42\n"}, "add feature")
    repo.git("checkout", "-q", base)
    task = Task(title="Review shiny_new_thing", kind="pr", changed_files=["pkg/new_feature.py"])
    with open_repo(repo.root, ref="main") as head:
        cands = collect(head, task, Profile())
    assert cands[0].path == "pkg/new_feature.py"
    assert _covers(cands[0], 1)


CJSON_C = "\n".join(
    [
        '#include "cJSON.h"',
        "",
        "static int helper(int x)",
        "{",
        "    return x + 1;",
        "}",
        "",
        "CJSON_PUBLIC(void) cJSON_Minify(char *json)",
        "{",
        "    char *into = json;",
        "    while (*json)",
        "    {",
        "        json++;",
        "    }",
        "    *into = 0;",
        "}",
        "",
    ]
)
FACTORY_TS = "\n".join(
    [
        "export class YargsInstance {",
        "  constructor(private shim: Shim) {}",
        "",
        "  coerce(",
        "    keys: string | string[],",
        "    value?: CoerceCallback",
        "  ): YargsInstance {",
        "    this.applyCoerce(keys, value);",
        "    return this;",
        "  }",
        "}",
        "",
    ]
)


def test_definitions_behind_macros_and_wrapped_signatures_are_found(make_repo: MakeRepo) -> None:
    # One-line patterns cannot read `MACRO(type) name(` with the brace below, or a parameter list
    # that wraps; the file's definitions index confirms them, so the defining file ranks first.
    repo = make_repo()
    callers = {
        f"src/use{i}.c": f'#include "cJSON.h"\nvoid u{i}(char *s) {{ cJSON_Minify(s); }}\n' for i in range(4)
    }
    ts_callers = {
        f"lib/call{i}.ts": f"import {{y}} from './y';\ny.coerce(\n  'k{i}',\n  f\n);\n" for i in range(4)
    }
    repo.commit(
        {
            "cJSON.c": CJSON_C,
            "cJSON.h": "CJSON_PUBLIC(void) cJSON_Minify(char *json);\n",
            "lib/yargs-factory.ts": FACTORY_TS,
            **callers,
            **ts_callers,
        },
        "init",
    )
    view = open_repo(repo.root)
    task = Task(
        "cJSON_Minify overruns the buffer", "Calling `cJSON_Minify` on it, then `.coerce()` drops keys."
    )
    cands = _by_path(collect(view, task, Profile()))
    assert "defines cJSON_Minify, named in the issue" in cands["cJSON.c"].reasons
    assert "defines coerce, named in the issue" in cands["lib/yargs-factory.ts"].reasons
    assert not any("defines" in r for r in cands["src/use0.c"].reasons + cands["lib/call0.ts"].reasons)
    assert _covers(cands["cJSON.c"], 10)


def test_the_definition_the_latest_commit_changed_leads_the_focus(make_repo: MakeRepo) -> None:
    def parsers(changed: int | None) -> str:
        return "".join(
            f"def parse_timestamp_{i}(text):\n    value = text.strip()\n"
            f"    return convert_timestamp(value, {i if i != changed else 'strict=True'})\n\n"
            for i in range(6)
        )

    repo = make_repo()
    repo.commit({"app/parse.py": parsers(None), "app/other.py": "x = 1\n"}, "initial")
    repo.commit({"app/parse.py": parsers(4)}, "parse_timestamp_4: strict conversion")
    task = Task(title="convert_timestamp rejects valid timestamps", body="Parsing a timestamp fails.")
    cands = _by_path(collect(open_repo(repo.root), task, Profile()))
    spans = [f for f in cands["app/parse.py"].focus if "parse_timestamp" in f.why]
    assert spans and spans[0].why.startswith("parse_timestamp_4")
    assert "latest commit" in spans[0].why


def test_a_changelog_most_commits_touch_is_offered_where_its_last_entry_went(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo)
    entries = ["# Changes", "", "## Unreleased", ""]
    for i in range(history.HABIT_MIN_COMMITS + 4):
        files: dict[str, str] = {f"pkg/step{i}.py": f"def step_{i}(x):\n    return x + {i}\n"}
        if i % 2 == 0:
            entries.insert(4, f"- step {i} added")
            files["CHANGES.md"] = (
                "\n".join(entries + ["", "## 1.0", ""] + [f"- old {n}" for n in range(200)]) + "\n"
            )
        repo.commit(files, f"add step {i}")
    issue = Task(title="Confusing error", body='Entering an IPv6 address gives "Invalid IPv6 URL".')
    cands = collect(open_repo(repo.root), issue, Profile())
    paths = [c.path for c in cands]
    assert "pkg/models.py" in paths[:HABIT_PLACE]
    log = cands[paths.index("CHANGES.md")]
    assert paths.index("CHANGES.md") <= HABIT_PLACE
    assert any("changed by 12 of the last 25 commits" in r for r in log.reasons)
    [span] = [f for f in log.focus if "latest commit" in f.why]
    assert span.start <= 5 <= span.end and span.end < 20, span
    # Named outright, it is ranked by that evidence and keeps the focus the evidence gives.
    named = Task(title="Typo in CHANGES.md", body="The step 22 entry of CHANGES.md is misspelt.")
    log = _by_path(collect(open_repo(repo.root), named, Profile()))["CHANGES.md"]
    assert not any("latest commit" in f.why for f in log.focus)
    # A profile that weighs the habit 0 does not place it.
    off = collect(open_repo(repo.root), issue, Profile(scoring={"habit": 0.0}))
    assert "CHANGES.md" not in [c.path for c in off][: HABIT_PLACE + 1]


def test_a_reproducer_copied_from_the_examples_ranks_the_library_first(make_repo: MakeRepo) -> None:
    # The issue's code is the tutorial's own: the example matches it word for word, the fix is in
    # the library it calls.
    example = (
        "from pkg.agent import ReActAgent\n\n\n"
        "def calc_plus(num1, num2):\n    return num1 + num2\n\n\n"
        "agent = ReActAgent(tools=[calc_plus], repeat_calls=False)\nagent.run()\n"
    )
    repo = make_repo()
    repo.commit({
        "pkg/__init__.py": "",
        "pkg/agent.py": "class ReActAgent:\n    def __init__(self, tools, repeat_calls=True):\n"
                        "        self.tools = tools\n\n    def run(self):\n        return self.tools\n",
        "examples/quickstart/agent.py": example,
        "docs/tutorial/agent.py": example,
    })
    body = f"```python\n{example}```\nThe same tool is called twice."
    task = Task(title="ReActAgent repeats tool calls", body=body)
    with open_repo(repo.root) as view:
        ranked = collect(view, task, Profile())
    by = _by_path(ranked)
    assert ranked[0].path == "pkg/agent.py"
    assert by["examples/quickstart/agent.py"].prior < 1.0
    assert "example or documentation code" in by["docs/tutorial/agent.py"].reasons
    # Named outright (a traceback, a path), an example is a source like any other.
    named = Task(title="examples/quickstart/agent.py crashes", body="Running it fails.")
    with open_repo(repo.root) as view:
        assert _by_path(collect(view, named, Profile()))["examples/quickstart/agent.py"].prior == 1.0


def test_a_c_function_whose_name_holds_the_issues_words_is_focused(make_repo: MakeRepo) -> None:
    # C functions open with a type, not a definition word: the signature's name is read as such,
    # so the focus leads with the function the issue's words name, not with the callers that
    # repeat those words.
    helpers = "".join(
        f"static int table_step_{i}(const char *s)\n{{\n"
        f"    return decode(s, ESCAPE_{i}, SEQUENCE, escape_letter, mangled);\n}}\n\n"
        for i in range(30)
    )
    decoder = (
        "static int decode_escape_sequence(const char *s, char *out)\n{\n"
        "    *out = s[1];\n    return 2;\n}\n"
    )
    repo = make_repo()
    repo.commit(
        {
            "src/reader.c": '#include "reader.h"\n\n' + helpers + decoder,
            "src/reader.h": "int read_all(const char *s);\n",
            "src/writer.c": "int write_all(const char *s) { return 0; }\n",
        },
        "init",
    )
    task = Task("The reader mangles an escape sequence", "A backslash, then a letter, decodes wrong.")
    with open_repo(repo.root) as view:
        cands = _by_path(collect(view, task, Profile()))
    first = cands["src/reader.c"].focus[0]
    assert first.start == 2 + 5 * 30 + 1
    assert first.why.startswith("decode_escape_sequence: name matches the issue")


def test_the_title_s_component_lifts_the_files_under_it(make_repo: MakeRepo) -> None:
    """A title's component ("linter: …") marks the candidates under a folder of that name."""
    repo = make_repo()
    handler = "def report(diagnostics):\n    # the summary of diagnostics\n    return len(diagnostics)\n"
    repo.commit(
        {
            "crates/linter/src/output.py": handler,
            "crates/formatter/src/output.py": handler,
        },
        "initial",
    )
    task = Task(title="linter: the summary of diagnostics is missing", body="No summary is printed.")
    by = _by_path(collect(open_repo(repo.root), task, Profile()))
    lint, fmt = by["crates/linter/src/output.py"], by["crates/formatter/src/output.py"]
    assert lint.signals.get("title_scope") == 1.0 and "title_scope" not in fmt.signals
    assert lint.score > fmt.score
    assert any("the part the title names" in r for r in lint.reasons)
