"""Focus spans on plain values: which lines of a file the excerpter is pointed at."""

from __future__ import annotations

from ctxaction.rank.board import Hints
from ctxaction.rank.evidence import Query
from ctxaction.rank.focus import build_focus


def long_function(lines: int) -> str:
    body = [f"    step_{i} = prepare({i})" for i in range(lines)]
    return "def parse_args(argv):\n" + "\n".join(body) + "\n    return argv\n\n\ndef other():\n    return 1\n"


def class_with_steps(head: str, members: str) -> str:
    """A class: its ``head`` lines, sixty one-line methods, then ``members``."""
    return head + "".join(f"    def step_{i}(self):\n        return {i}\n\n" for i in range(60)) + members


def test_long_definition_is_focused_where_the_strongest_evidence_is() -> None:
    # A 300-line function named in the issue: weak uses of a common name early on must not crowd
    # out the line that calls the other function the issue names, deep in the body.
    text = long_function(300)
    hints = Hints()
    hints.defined["parse_args"] = 1.0
    for line in range(10, 120, 12):
        hints.use_lines[line] = (0.2, "prepare")
    hints.use_lines[251] = (0.9, "find_subcommand")
    spans = build_focus("cli.py", text, hints, Query())
    assert any(f.start <= 245 and f.end >= 257 and "around line 251" in f.why for f in spans)
    assert any(f.start == 1 and "head" in f.why for f in spans)


def test_top_level_constant_read_by_the_focused_function_is_focused() -> None:
    # The fix to what a function matches is often in the pattern it reads, defined at the top.
    text = (
        "import logging\n"
        "import re\n\n"
        "logger = logging.getLogger(__name__)\n"
        "option_re = re.compile(r'((?:/|--|-|\\+)?[^\\s=]+)(=?\\s*.*)')\n"
        "UNUSED = 3\n\n\n"
        "def handle_signature(sig):\n"
        "    logger.debug(sig)\n"
        "    m = option_re.match(sig)\n"
        "    if not m:\n"
        "        logger.warning('bad option %s', sig)\n"
        "    return m\n"
    ) + "".join(f"\n\ndef other_{i}():\n    logger.info({i})\n" for i in range(8))
    hints = Hints()
    hints.defined["handle_signature"] = 1.0
    spans = build_focus("std.py", text, hints, Query())
    why = {f.why: (f.start, f.end) for f in spans}
    assert why["option_re, read by handle_signature"] == (5, 5)
    assert not any(w.startswith(("logger,", "UNUSED,")) for w in why)


def test_the_helper_a_named_method_calls_is_focused() -> None:
    # The issue names kickoff_for_each; the fix is in copy(), which it calls, among many methods.
    text = class_with_steps(
        "class Crew:\n",
        "    def copy(self):\n        exclude = {'id'}\n"
        + "        return Crew(**self.dict(exclude=exclude))\n\n"
        + "    def kickoff_for_each(self, inputs):\n"
        "        results = []\n"
        "        for item in inputs:\n"
        "            crew = self.copy()\n"
        "            results.append(crew.kickoff(item))\n"
        "        return results\n"
    )
    hints = Hints()
    hints.defined["kickoff_for_each"] = 1.0
    spans = build_focus("crew.py", text, hints, Query())
    copy_start = text.split("\n").index("    def copy(self):") + 1
    assert hints.called == {"copy": (1.0, "Crew.kickoff_for_each")}
    assert any(f.start <= copy_start <= f.end and "called by Crew.kickoff_for_each" in f.why for f in spans)


def test_local_calls_share_the_callers_strength_and_skip_named_and_long_callers() -> None:
    from ctxaction.rank.callees import MAX_BODY_LINES, local_calls
    from ctxaction.repo.symbols import Definition

    lines = ["def run():", "    alpha()", "    beta()", "    run()", "    named()"]
    lines += ["def alpha(): pass", "def beta(): pass", "def named(): pass", "def long():"]
    lines += ["    gamma()"] * MAX_BODY_LINES + ["def gamma(): pass"]
    defs = [
        Definition("run", "function", 1, 5),
        Definition("alpha", "function", 6, 6),
        Definition("beta", "function", 7, 7),
        Definition("named", "function", 8, 8),
        Definition("long", "function", 9, 9 + MAX_BODY_LINES),
        Definition("gamma", "function", 10 + MAX_BODY_LINES, 10 + MAX_BODY_LINES),
    ]
    # run calls itself and another named definition too; long is too long to say anything.
    shared = round(0.8 / 2**0.5, 6)
    called = local_calls(defs, lines, {"run": 0.8, "named": 0.5, "long": 1.0})
    assert called == {"alpha": (shared, "run"), "beta": (shared, "run")}


def test_a_habit_file_is_focused_where_its_latest_commit_wrote_never_whole() -> None:
    text = "# Changes\n\n## Unreleased\n\n" + "".join(f"- entry {i}\n" for i in range(80))
    hints = Hints(habit=True)
    hints.recent_lines = {5: 1.0, 40: 0.5}
    spans = build_focus("CHANGES.md", text, hints, Query())
    assert [(f.start, f.end) for f in spans if "latest commit" in f.why] == [(2, 8)]
    assert not any("whole file" in f.why for f in spans)
    hints.habit = False
    assert any("whole file" in f.why for f in build_focus("CHANGES.md", text, hints, Query()))


CHANGELOG_MD = """# Changelog

## Unreleased

### Compiler

- Constants may prepend lists.
  ```
  ## not a heading: inside a code block
  ```

### Bug fixes

- The formatter keeps comments.
- Record updates no longer stop at the first error.

## v1.15.1 - 2026-03-17

### Bug fixes

- An old fix.
"""


def test_a_markdown_changelog_shows_where_each_part_of_its_newest_release_ends() -> None:
    # A new entry goes last in the part its subject belongs to (the formatter's fix under "Bug
    # fixes"), which need not be where the latest commit wrote.
    lines = CHANGELOG_MD.split("\n")
    hints = Hints(habit=True)
    hints.recent_lines = {7: 1.0}
    spans = build_focus("CHANGELOG.md", CHANGELOG_MD, hints, Query())
    ends = [(f.start, f.end, f.why) for f in spans if f.why.startswith("end of ")]
    assert ends == [(10, 12, "end of Compiler"), (15, 17, "end of Bug fixes")]
    assert lines[9].strip() == "```" and lines[11] == "### Bug fixes"
    assert lines[14].startswith("- Record updates") and lines[16].startswith("## v1.15.1")
    # Only for a file placed by habit, and only in Markdown.
    for path, given in (("CHANGELOG.md", Hints()), ("CHANGELOG.txt", hints)):
        assert not any(f.why.startswith("end of ") for f in build_focus(path, CHANGELOG_MD, given, Query()))


def test_a_changelog_whose_title_holds_only_releases_gets_no_part_ends() -> None:
    text = "# Changelog\n\n### Unreleased\n\n- next\n\n### [3.1.3] - 2026-02-06\n\n- older\n"
    spans = build_focus("Changes.md", text, Hints(habit=True), Query())
    assert not any(f.why.startswith("end of ") for f in spans)


def test_a_focused_member_brings_the_line_naming_its_class_just_below_its_weight() -> None:
    # An excerpt of one method among sixty says whose method it is: the class line, past its
    # decorators, just below the method's weight (packed with it, never the file's strongest span),
    # and nothing for a free function.
    text = class_with_steps(
        "@dataclass\n@total_ordering\nclass Printer(Base):\n",
        "    def _print_Trace(self, expr):\n        return 'tr'\n\n\ndef helper():\n    return 2\n",
    )
    lines = text.split("\n")
    hints = Hints()
    hints.defined["_print_Trace"] = 1.0
    hints.defined["helper"] = 0.5
    spans = build_focus("printer.py", text, hints, Query())
    member = next(f for f in spans if f.why.startswith("Printer._print_Trace:"))
    holder = [f for f in spans if f.why == "Printer, holding _print_Trace"]
    assert [(f.start, f.end) for f in holder] == [(3, 3)] and lines[2].startswith("class Printer")
    assert holder[0].weight == round(member.weight * 0.99, 4)
    assert not any("holding helper" in f.why for f in spans)


def test_an_impl_block_is_named_for_its_method_and_a_go_receiver_needs_none() -> None:
    body = "".join(f"    fn step_{i}(&self) -> u32 {{\n        {i}\n    }}\n\n" for i in range(50))
    rust = "struct Span;\n\n#[allow(dead_code)]\nimpl Span {\n" + body
    rust += "    fn enter(&self) {\n        todo!()\n    }\n}\n"
    hints = Hints()
    hints.defined["enter"] = 1.0
    spans = build_focus("span.rs", rust, hints, Query())
    assert [(f.start, f.end) for f in spans if f.why == "Span, holding enter"] == [(4, 4)]
    go = "package span\n\n"
    go += "".join(f"func (s *Span) Step{i}() int {{\n\treturn {i}\n}}\n\n" for i in range(50))
    go += "func (s *Span) Enter() {\n\ts.n++\n}\n"
    hints = Hints()
    hints.defined["Enter"] = 1.0
    assert not any("holding" in f.why for f in build_focus("span.go", go, hints, Query()))


def test_a_tied_commits_biggest_runs_get_windows() -> None:
    from ctxaction.rank import focus

    text = "".join(f"x{i} = {i}\n" for i in range(1, 401))
    why = "changed by 0d987211, the commit the issue names"
    # Runs: 10-12 (one run), 40, then one every 20 lines, and a 50-line run first of all.
    lines = [*range(100, 150), 10, 11, 12, 40, *range(200, 400, 20)]
    spans = build_focus("m.py", text, Hints(commit_lines=dict.fromkeys(lines, why)), Query())
    windows = sorted((f.start, f.end) for f in spans if f.why == why)
    assert len(windows) == focus.COMMIT_RUNS
    assert windows[:3] == [(7, 15), (37, 43), (97, 100 + focus.COMMIT_RUN_LINES - 1 + 3)]
    # The biggest runs go first: of the one-line runs, the last ones are left out.
    assert windows[-1] == (277, 283)
    assert all(f.weight == focus.COMMIT_WEIGHT for f in spans if f.why == why)


ZSTD_H = """#include <stddef.h>

/*! zstd_frame_size() :
 *  `src` should point to the start of a frame.
 *  @return : size of the frame header */
ZSTDLIB_API size_t zstd_frame_size(const void* src, size_t srcSize);

// Resets the context.
// Keeps its parameters.
ZSTDLIB_API size_t zstd_reset(void* ctx);
ZSTDLIB_API size_t zstd_free(void* ctx);

/* A separate note about what follows. */

size_t zstd_frame_size(const void* src, size_t srcSize)
{
    return srcSize;
}
"""


def test_a_prototype_is_focused_with_its_doc_comment_and_a_body_without() -> None:
    # A C header's API is its prototypes; their documentation is right above them, and the fix to
    # a documented function often changes that text.
    hints = Hints()
    for name in ("zstd_frame_size", "zstd_reset", "zstd_free"):
        hints.defined[name] = 1.0
    spans = {(f.start, f.end) for f in build_focus("lib/zstd.h", ZSTD_H, hints, Query())}
    assert (3, 6) in spans  # the block comment, then the prototype
    assert (8, 10) in spans  # line comments
    assert (11, 11) in spans  # no comment of its own: the prototype above is none
    assert (15, 18) in spans  # a definition with a body starts at its own line
    # A class's member declarations start at their own line, documented or not.
    cpp = "class Stream {\n  public:\n    /// Reads n bytes.\n    int read(char *buf, size_t n);\n};\n"
    hints = Hints()
    hints.defined["read"] = 1.0
    members = build_focus("io.hpp", cpp, hints, Query())
    assert [(f.start, f.end) for f in members if f.why.startswith("Stream.read")] == [(4, 4)]
    # Elsewhere a statement ending in ";" is no prototype: a JS arrow function keeps its start.
    js = "/** Parses. */\nexport const parse = (s) => s.trim();\n"
    hints = Hints()
    hints.defined["parse"] = 1.0
    named = [(f.start, f.end) for f in build_focus("lib/parse.js", js, hints, Query()) if "parse" in f.why]
    assert named == [(2, 2)]


def test_a_declarative_class_is_focused_on_its_body_a_class_of_methods_on_its_head() -> None:
    # A lexer is its token table: the issue names the class (KotlinLexer) and the fix is a rule
    # deep in the table, a class attribute. A class of methods keeps only its head: each method
    # is focused by its own evidence.
    table = "".join(f"            (r'rule{i}', Name),\n" for i in range(60))
    lexer = (
        "class KotlinLexer(RegexLexer):\n"
        "    name = 'Kotlin'\n"
        "    aliases = ['kotlin']\n"
        "    tokens = {\n"
        "        'root': [\n" + table + "        ],\n"
        "    }\n\n\n"
    )
    text = lexer + class_with_steps("class Printer(Base):\n", "")
    hints = Hints()
    hints.defined["KotlinLexer"] = 1.0
    hints.defined["Printer"] = 1.0
    spans = build_focus("jvm.py", text, hints, Query())
    end = lexer.count("\n") - 2
    head = next(f for f in spans if f.why.startswith("KotlinLexer") and f.why.endswith("(class head)"))
    body = next(f for f in spans if f.why.startswith("KotlinLexer") and f.why.endswith("(class body)"))
    assert (head.start, head.end, body.start, body.end) == (1, 1, 2, end)
    assert body.weight == round(head.weight * 0.7, 4)
    printer = [f for f in spans if f.why.startswith("Printer:")]
    assert [f.why.endswith("(class head)") for f in printer] == [True]
