"""What issue text names: frames in every supported format, paths, identifiers, messages, keywords."""

from __future__ import annotations

import pytest

from ctxaction.mentions import extract, split_identifier, words
from ctxaction.mentions.frames import parse_frames
from ctxaction.mentions.text import drop_setup_dumps, segments


def _frames(text: str) -> list[tuple[str, int | None, str, str]]:
    return [(f.path, f.line, f.function, f.language) for f in parse_frames(text)]


def test_python_traceback() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.8/site-packages/pkg/core.py", line 191, in wrap_session\n'
        "    session.exitstatus = doit(config, session) or 0\n"
        '  File "pkg/util.py", line 12, in <module>\n'
        "ValueError: bad thing\n"
    )
    assert _frames(text) == [
        ("/usr/lib/python3.8/site-packages/pkg/core.py", 191, "wrap_session", "python"),
        ("pkg/util.py", 12, "<module>", "python"),
    ]
    assert parse_frames(text)[0].innermost_first is False


def test_ipython_frames_new_and_old_style() -> None:
    new = "File ~/code/proj/proj/_core/plot.py:841, in Plot._plot(self, pyplot)\n"
    assert _frames(new) == [("~/code/proj/proj/_core/plot.py", 841, "Plot._plot", "python")]
    old = (
        "[c:\\Users\\me\\lib\\site-packages\\proj\\grid.py]("
        "file:///C:/Users/me/lib/site-packages/proj/grid.py)"
        " in pairplot(data, hue)\n   2142     x = 1\n-> 2144         grid.map_diag(histplot)\n"
    )
    assert _frames(old) == [("/Users/me/lib/site-packages/proj/grid.py", 2144, "pairplot", "python")]


def test_javascript_and_typescript_frames() -> None:
    text = (
        "TypeError: x is undefined\n"
        "    at Object.parse (/home/u/app/src/parser.ts:12:5)\n"
        "    at /home/u/app/lib/run.js:3:1\n"
        "    at processTicksAndRejections (node:internal/process/task_queues:95:5)\n"
        "render@webpack:///./src/view.jsx:40:7\n"
    )
    assert _frames(text) == [
        ("/home/u/app/src/parser.ts", 12, "Object.parse", "javascript"),
        ("/home/u/app/lib/run.js", 3, "", "javascript"),
        ("src/view.jsx", 40, "render", "javascript"),
    ]
    assert parse_frames(text)[0].innermost_first


def test_java_frames_map_package_to_path() -> None:
    text = (
        'Exception in thread "main" java.lang.NullPointerException\n'
        "\tat com.acme.util.Parser.parse(Parser.java:42)\n"
    )
    assert _frames(text) == [("com/acme/util/Parser.java", 42, "com.acme.util.Parser.parse", "java")]


def test_go_panic_frames() -> None:
    text = (
        "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\n"
        "main.(*Server).handle(0xc000010000)\n\t/home/u/proj/server/handler.go:57 +0x1d\n"
    )
    assert _frames(text) == [("/home/u/proj/server/handler.go", 57, "main.(*Server).handle", "go")]


def test_rust_backtrace_panic_and_compiler_errors() -> None:
    text = (
        "thread 'main' panicked at src/main.rs:5:10:\n"
        "   3: mycrate::parser::parse\n             at ./src/parser.rs:120:9\n"
        "error[E0308]: mismatched types\n  --> src/lib.rs:10:5\n"
    )
    assert _frames(text) == [
        ("src/main.rs", 5, "", "rust"),
        ("src/parser.rs", 120, "mycrate::parser::parse", "rust"),
        ("src/lib.rs", 10, "", "rust"),
    ]


def test_native_and_csharp_frames() -> None:
    text = (
        "#0  0x00007f in png_read_row (png_ptr=0x0) at pngread.c:561\n"
        "#1 0x4f5 in decode_block /src/lib/decode.cc:77:3\n"
        "   at Acme.Core.Runner.Run() in C:\\src\\Acme\\Runner.cs:line 42\n"
    )
    assert _frames(text) == [
        ("pngread.c", 561, "png_read_row", "c"),
        ("/src/lib/decode.cc", 77, "decode_block", "c"),
        ("/src/Acme/Runner.cs", 42, "Acme.Core.Runner.Run", "csharp"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("src/app/util.py:238: unconditional skip", ("src/app/util.py", 238)),
        ("main.c:12:5: error: expected ';'", ("main.c", 12)),
        ("see https://github.com/o/r/blob/main/lib/util.js#L20", ("lib/util.js", 20)),
        ("https://github.com/o/r/blob/v1/cJSON.c : 2669 overflows", ("cJSON.c", 2669)),
        ("the panic at line 851 of tree.go", ("tree.go", 851)),
        ("see file.go line 851", ("file.go", 851)),
        ("lib/thing.rb:33:in `call'", ("lib/thing.rb", 33)),
    ],
)
def test_generic_file_line(text: str, expected: tuple[str, int]) -> None:
    assert [(f.path, f.line) for f in parse_frames(text)] == [expected]


def test_segments_drop_template_comments_and_package_lists() -> None:
    body = (
        "<!-- Thanks for submitting! -->\nReal text `inline_name` here\n"
        "```python\ncode_line()\n```\nnumpy 1.2.3\n"
    )
    segs = segments("Title", body)
    kinds = [(s.kind, s.text.strip()) for s in segs]
    assert ("inline", "inline_name") in kinds
    assert ("fence", "code_line()") in kinds
    assert all("Thanks" not in s.text and "numpy" not in s.text for s in segs)


def test_code_blocks_of_setup_sections_are_dropped() -> None:
    body = (
        "### Describe the bug\n\n`parse_header` drops the last byte\n\n"
        "```rust\nlet header = parse_header(&bytes);\n```\n\n"
        "### Environment information\n\n```bash\nCLI:\n  Version: 2.4.12\n"
        "# not a heading inside code\n  LOG_PATH_SETTING: unset\n```\n\n"
        "**Operating System:**\nWindows 11\n"
        "```\nKernel: 6.18.5-100.fc42.x86_64\n```\n\n"
        "## Expected behavior\n\n```\nall_bytes_kept\n```\n"
    )
    kept = drop_setup_dumps(body)
    for gone in ("Version: 2.4.12", "not a heading", "LOG_PATH_SETTING", "Kernel"):
        assert gone not in kept
    # Prose under a setup heading stays (a reporter's words, short), and so does every code block
    # of the other sections, whatever follows them.
    for stays in ("parse_header(&bytes)", "Windows 11", "## Expected behavior", "all_bytes_kept"):
        assert stays in kept
    mentions = extract("Header parsing loses a byte", body)
    assert "LOG_PATH_SETTING" not in mentions.identifiers
    assert {"parse_header", "all_bytes_kept"} <= set(mentions.identifiers)


def test_heading_lines_with_long_runs_of_spaces_are_read_in_one_pass() -> None:
    # A heading's optional closing hashes and spaces, matched by one regex after a lazy group,
    # backtrack cubically: about a second for one line of 1,000 characters, minutes for a body of
    # them. Such a body (1,000-character lines, the most the patterns see) must be read, and its
    # setup heading still found.
    spaced = "### Environment" + " " * 985 + "#"
    noise = ["# a" + " " * 990 + "b", "**x**" + " " * 990 + ":b"] * 100
    body = "\n".join([*noise, spaced, "```", "LOG_PATH_SETTING: unset", "```", "### Steps", "run it"])
    assert "LOG_PATH_SETTING" not in drop_setup_dumps(body)
    assert "LOG_PATH_SETTING" not in extract("Header parsing loses a byte", body).identifiers


@pytest.mark.parametrize(
    "heading",
    ["### Python version", "## Your Environment", "**Node.js version**", "### Platform", "#### Versions"],
)
def test_setup_headings_in_their_usual_spellings(heading: str) -> None:
    body = f"Text before\n{heading}\n```\n3.12 on linux\n```\n### Steps\n```\nrun it\n```"
    assert drop_setup_dumps(body) == f"Text before\n{heading}\n### Steps\n```\nrun it\n```"


@pytest.mark.parametrize(
    "heading", ["### Version bump breaks the parser", "### Migrating to version 3", "**Describe the bug**"]
)
def test_headings_that_only_mention_a_version_keep_their_code(heading: str) -> None:
    body = f"{heading}\n```\nload_config()\n```"
    assert drop_setup_dumps(body) == body


def test_identifiers_weighted_by_where_they_appear() -> None:
    m = extract(
        "URLField crashes",
        "Calling `clean_url()` fails in prose_name and forms.fields.CharField.\n"
        "```python\nvalue = helper_func(x)\n```\nThe word people is plain.",
    )
    ids = m.identifiers
    assert ids["URLField"] == 1.0
    assert ids["clean_url"] == 1.0
    assert ids["prose_name"] == pytest.approx(0.8)
    assert ids["CharField"] == pytest.approx(0.8)
    assert ids["helper_func"] == 0.5
    assert "people" not in ids
    assert ids["forms"] < 0.5  # a package prefix of a dotted chain, not a named symbol
    assert "forms.fields.CharField" in m.dotted


def test_errors_messages_paths_and_refs() -> None:
    m = extract(
        "Crash in loader (see #123)",
        'It fails in `pkg/loader.py` and setup.cfg:\n```\nKeyError: "missing key for section"\n```\n'
        "WARNING: no number is assigned for table\n"
        'The log says "could not open the configuration file" twice.',
    )
    assert "KeyError" in m.errors
    assert "no number is assigned for table" in m.messages
    assert "could not open the configuration file" in m.messages
    assert m.paths[:2] == ["pkg/loader.py", "setup.cfg"]
    assert m.issue_refs == [123]


def test_keywords_skip_stopwords_and_path_directories() -> None:
    m = extract(
        "Redirect loses method",
        "Traceback:\n"
        '  File "/usr/lib/python3/site-packages/requests/sessions.py", line 3, in resolve_redirects\n'
        "The expected behavior is to keep the method.",
    )
    kw = m.keywords
    assert kw["redirect"] > kw["method"] / 2  # title words weigh more
    assert "sessions" in kw
    assert "expected" not in kw and "the" not in kw
    assert "usr" not in kw and "site" not in kw


def test_split_identifier() -> None:
    assert split_identifier("getHTTPResponse_code") == ["get", "http", "response", "code"]
    assert split_identifier("URLField") == ["url", "field"]


def test_empty_text_names_nothing() -> None:
    m = extract("", "")
    assert m.empty
    assert not extract("???", "!!!").identifiers


def test_comments_add_weaker_mentions() -> None:
    m = extract("Bug", "", extra="It is in `special_handler`.")
    assert 0 < m.identifiers["special_handler"] < 1.0


def test_printed_output_lines_are_messages() -> None:
    body = (
        "```\n>       assert b'' == b'42'\nE       AssertionError: assert b'' == b'42'\n"
        "E         Right contains more items, first extra item: 52\nE         - b''\n"
        "the loader could not find the config file for project\nx = compute(1)\n```\n"
    )
    msgs = extract("Confusing message", body).messages
    assert "Right contains more items, first extra item: 52" in msgs
    assert "the loader could not find the config file for project" in msgs
    assert not any("compute" in m for m in msgs)


def test_blockquoted_complaints_are_messages() -> None:
    body = (
        "This gives:\n\n>Using the cache outside of a session is not allowed. Use `with s:` instead.\n\n"
        "> I agree, thanks for the report\n"
    )
    msgs = extract("Confusing", body).messages
    assert any(m.startswith("Using the cache outside of a session is not allowed") for m in msgs)
    assert not any("I agree" in m for m in msgs)


def test_long_lines_are_clipped_before_matching() -> None:
    near = extract("t", "see pkg/a.py " + "x" * 5000)
    far = extract("t", "x" * 5000 + " pkg/b.py")
    assert near.paths == ["pkg/a.py"]
    assert far.paths == []


def test_line_references_written_the_human_way() -> None:
    text = (
        "https://github.com/o/r/blob/master/src/cJSON.c : 2669 reads past the end\n"
        "the panic comes from [here](https://github.com/o/r/blob/v1.7.7/tree.go#L851)\n"
        "see file.go line 99, also at line 12 of pkg/x.rs\n"
        "compare https://github.com/o/r/blob/0a1b2c/src/map.rs#L229-L243\n"
        "the result: 3 items"
    )
    assert [(f.path, f.line) for f in parse_frames(text)] == [
        ("src/cJSON.c", 2669),
        ("tree.go", 851),
        ("file.go", 99),
        ("pkg/x.rs", 12),
        ("src/map.rs", 229),
        ("src/map.rs", 243),
    ]
    assert extract("t", text).paths[:2] == ["src/cJSON.c", "tree.go"]


def test_links_name_no_identifiers_but_blob_paths_stay() -> None:
    m = extract(
        "isFlagArg breaks",
        "Repro: https://go.dev/play/p/UxqRkMcEX2a and https://github.com/SomeOwner/some-repo/blob/main/"
        "lib/apply-extends.js#L22 (see www.w3.org and go.dev)",
    )
    assert "isFlagArg" in m.identifiers
    assert not {"UxqRkMcEX2a", "SomeOwner", "some_repo", "dev", "com"} & set(m.identifiers)
    assert not {"go.dev", "www.w3.org"} & set(m.dotted)
    assert "lib/apply-extends.js" in m.paths


def test_words_marked_as_code_are_identifiers_even_when_english() -> None:
    m = extract(
        "Implement Eq for Value, Number and Map",
        "All these types implement `PartialEq`, so `Eq` holds for `Number` and `Value` too. "
        "The value of a number is plain prose, and so is `value`.",
    )
    ids = m.identifiers
    assert ids["Eq"] == ids["Number"] == ids["Value"] == 1.0
    assert 0 < ids["Map"] < 1.0  # listed in the title next to code words
    assert "Implement" not in ids and "implement" not in ids and "value" not in ids
    assert "Network" not in extract("Network, Storage and Disk are slow", "").identifiers


def test_code_chains_in_several_languages() -> None:
    m = extract(
        "App::_parse_arg drops values",
        "In C the `node->next` pointer is stale; Javadoc says Element#appendChild and "
        "crate::de::Deserializer handles it, and pkg.Func() is called. Issue #12 and C# are not chains.",
    )
    assert {"App._parse_arg", "node.next", "Element.appendChild", "crate.de.Deserializer", "pkg.Func"} <= set(
        m.dotted
    )
    assert "_parse_arg" in m.identifiers and "appendChild" in m.identifiers
    assert m.issue_refs == [12]


def test_joined_forms_of_hyphenated_and_repeated_phrases() -> None:
    m = extract(
        "Config parsing breaks on multi-line arrays",
        "The foreign content handling pops too little: foreign content must be closed first. "
        "This is a built-in behaviour. The parser reads the file once.",
    )
    ids = m.identifiers
    assert {"multiline", "multi_line", "MultiLine", "multiLine"} <= set(ids)
    assert {"ForeignContent", "foreign_content", "foreigncontent"} <= set(ids)
    assert max(ids["ForeignContent"], ids["multiline"]) < 0.5  # weak candidates only
    assert "builtin" not in ids  # a function word does not join
    assert "ParserReads" not in ids and "FileOnce" not in ids  # said once: plain prose


def test_one_letter_prefixes_join_too() -> None:
    m = extract("Error formatting f-string inside brackets", "The x-axis labels overlap; a-b is prose.")
    assert {"fstring", "f_string", "FString"} <= set(m.identifiers)
    assert {"xaxis", "x_axis", "xAxis"} <= set(m.identifiers)
    assert not any(name.lower() in ("ab", "a_b") for name in m.identifiers)  # "a" is a function word


def test_phrases_are_capped() -> None:
    body = " ".join(f"alpha{i} beta{i} and alpha{i} beta{i}." for i in range(30))
    joined = [n for n in extract("t", body).identifiers if n.startswith("Alpha")]
    assert 0 < len(joined) <= 6


def test_class_names_prose_writes_without_backticks() -> None:
    m = extract(
        "Correct offsite link detection in Cleaner",
        "The Cleaner uses a prefix comparison. Relative links stay local. Sometimes the Parser and the "
        "parser disagree.",
    )
    assert 0 < m.identifiers["Cleaner"] < 1.0
    assert "Relative" not in m.identifiers  # starts a sentence
    assert "Parser" not in m.identifiers  # also written in lower case: an English word here
    assert "Correct" not in m.identifiers


def test_kebab_options_also_name_their_camel_case_property() -> None:
    ids = extract("--dry-run is ignored", "Passing `--strip-dashed` and -v does nothing.").identifiers
    assert ids["dry_run"] > ids["dryRun"] > 0
    assert "stripDashed" in ids and "strip_dashed" in ids


def test_builtin_calls_name_the_protocol_methods_they_reach() -> None:
    m = extract("str() on the raises context differs", "print(str(e)) and the repr of a Node; x.len(3)")
    assert m.identifiers["__str__"] > 0 and m.identifiers["__repr__"] > 0
    assert "__len__" not in m.identifiers  # a method called len is not the builtin
    assert "__str__" not in extract("String(value) in JavaScript", "").identifiers


def test_commit_refs_are_hashes_not_numbers_words_or_uuids() -> None:
    m = extract(
        "Regression from commit 0d987211b9",
        "Broken since https://github.com/o/r/commit/9aee91cf00ff03f23f89e0353e53be3131ce11a1 and a718a92.\n"
        "Not hashes: 20260327, deadbeefcafe, 550e8400-e29b-41d4-a716-446655440000, #ff00aa11, "
        "v1.2-3-gabc1234, abc1234x, 0D987211B9.",
    )
    assert m.commit_refs == ["0d987211b9", "9aee91cf00ff03f23f89e0353e53be3131ce11a1", "a718a92"]
    many = " ".join(f"{i}abcdef0" for i in range(10))
    assert len(extract("", many).commit_refs) == words.MAX_COMMIT_REFS


@pytest.mark.parametrize(
    ("title", "scope"),
    [
        ("linter: `--format=github` output should show the number of files", ["linter"]),
        ("[Fair Sharing] Incorrect admission ordering", ["fair", "sharing"]),
        ("fix(stats): phases marked Complete without verification", ["stats"]),
        ("[FEAT] Lambda: Implement CreateFunctionUrlConfig", ["lambda"]),
        ("[Bug]: crash on start", []),
        ("TypeError: cannot read properties of undefined", []),
        ("Non-member operator== breaks enum serialization", []),
        ("Setting: a: b", ["setting"]),
        ("Failed to render: marked() got an object", []),
        ("gsd_plan_milestone: agent retries", []),
        ("#[instrument] - async-trait support", []),
    ],
)
def test_the_component_a_title_names_first(title: str, scope: list[str]) -> None:
    assert words.title_scope(title) == scope
    assert extract(title, "body text").scope == scope
