"""Brace-language definitions on the shapes real projects use (yargs, cJSON, CLI11, jsoup, serde …).

Every test runs twice: with the tree-sitter grammars, and with them unloadable (their modules
renamed to ones that do not exist), when the line scanner answers instead.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxaction.rank.board import Hints
from ctxaction.rank.evidence import Query
from ctxaction.rank.focus import build_focus
from ctxaction.repo import symbols_ts
from ctxaction.repo.symbols import MAX_CHARS, Definition, definitions


@pytest.fixture(params=["tree-sitter", "scanner"], autouse=True)
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Which reader answers: the grammars as installed, or none of them loadable."""
    symbols_ts._compiled.cache_clear()
    if request.param == "scanner":
        missing = {k: ("ctxaction_no_such_grammar_" + k, f) for k, (_, f) in symbols_ts._GRAMMARS.items()}
        monkeypatch.setattr(symbols_ts, "_GRAMMARS", missing)
    else:
        assert all(symbols_ts.available(k) for k in symbols_ts._GRAMMARS)
    yield request.param
    symbols_ts._compiled.cache_clear()


def _by_qualname(text: str, path: str) -> dict[str, Definition]:
    return {d.qualname: d for d in definitions(text, path)}


def _span(d: Definition) -> tuple[str, int, int]:
    return d.kind, d.start, d.end


YARGS_TS = """export class YargsInstance {
  #command: CommandInstance;

  coerce(
    keys: string | string[] | Dictionary<CoerceCallback>,
    value?: CoerceCallback
  ): YargsInstance {
    if (!value) {
      throw new YError('coerce callback must be provided }');
    }
    const coerceKey = keys;
    return this;
  }
  private async applyBuilder<T>(
    a: T,
  ): Promise<void> {
    const msg = `done ${a} }`;
    // a } in a comment
  }
  get parsed(): boolean {
    return /[}]/.test(this.x);
  }
  static async *gen() {
    yield 1;
  }
  handle = async (x: number) => {
    return x;
  };
  [kReset](aliases: Dictionary<string[]> = {}): YargsInstance {
    return this;
  }
}
"""


def test_typescript_class_members_with_wrapped_signatures() -> None:
    defs = _by_qualname(YARGS_TS, "lib/yargs-factory.ts")
    assert _span(defs["YargsInstance"]) == ("class", 1, 32)
    assert _span(defs["YargsInstance.coerce"]) == ("method", 4, 13)
    assert _span(defs["YargsInstance.applyBuilder"]) == ("method", 14, 19)
    assert _span(defs["YargsInstance.parsed"]) == ("method", 20, 22)
    assert _span(defs["YargsInstance.gen"]) == ("method", 23, 25)
    assert _span(defs["YargsInstance.handle"]) == ("method", 26, 28)
    assert _span(defs["YargsInstance.kReset"]) == ("method", 29, 31)
    assert "YargsInstance.coerceKey" not in defs  # a local, not a member


COMMAND_JS = """'use strict'
const path = require('path')

module.exports = function command (yargs, usage, validation) {
  const self = {}
  self.runCommand = function runCommand (command, yargs, parsed, commandIndex) {
    let aliases = parsed.aliases
    if (commandHandler.builder) {
      innerArgv = builder(yargs.reset(parsed.aliases))
    }
    return innerArgv
  }
  self.hasDefaultCommand = () => !!defaultCommand
  return self
}

exports.foo = function (a) {
  return a
}

module.exports.bar = (a) => {
  return a
}

Foo.prototype.baz = function(x) {
  return x
}

const api = {
  load(id) {
    return id
  },
  save: async function (doc) {
    return doc
  },
}
"""


def test_javascript_member_assigned_functions_and_object_methods() -> None:
    defs = _by_qualname(COMMAND_JS, "lib/command.js")
    assert _span(defs["command"]) == ("function", 4, 15)
    assert _span(defs["runCommand"]) == ("function", 6, 12)
    assert defs["hasDefaultCommand"].start == 13
    assert _span(defs["foo"]) == ("function", 17, 19)
    assert _span(defs["bar"]) == ("function", 21, 23)
    assert _span(defs["Foo.baz"]) == ("method", 25, 27)
    assert _span(defs["api.load"]) == ("method", 30, 32)
    assert _span(defs["api.save"]) == ("method", 33, 35)
    assert defs["path"].kind == "variable"
    assert "aliases" not in defs and "innerArgv" not in defs


CJSON_C = """#include "cJSON.h"

#if defined(_MSC_VER)
static void *internal_malloc(size_t size) {
#else
static void *internal_malloc(size_t size)
{
#endif
    return malloc(size);
}

CJSON_PUBLIC(void) cJSON_Minify(char *json)
{
    char *into = json;
    if (json == NULL)
    {
        return;
    }
    while (json[0] != '\\0')
    {
        switch (json[0])
        {
            case '{':
                json++;
                break;
            case '\\"':
                minify_string(&json, (char**)&into);
                break;
            default:
                into[0] = json[0];
        }
    }
}

CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value);

static inline int
hash_bytes (const char *p, size_t n)
{
    return (int)n; /* { */
}

__attribute__((cold)) static int fail_hard(void) {
    return -1;
}
"""


def test_c_functions_behind_export_macros_and_attributes() -> None:
    defs = _by_qualname(CJSON_C, "cJSON.c")
    assert "CJSON_PUBLIC" not in defs
    assert _span(defs["internal_malloc"]) == ("function", 4, 10)
    assert _span(defs["cJSON_Minify"]) == ("function", 12, 33)
    assert _span(defs["cJSON_Parse"]) == ("function", 35, 35)  # a prototype: the header's API
    assert _span(defs["hash_bytes"]) == ("function", 37, 41)
    assert _span(defs["fail_hard"]) == ("function", 43, 45)


API_H = """#ifndef API_H
#define API_H
/*! api_frame_size() :
 *  @return : size of the frame header */
API size_t api_frame_size(const void* src,
                          size_t srcSize);
static int counter = make_counter(3);
LOG_MODULE_REGISTER(api);
typedef int (*api_cb)(void *);
int (*hook)(int);
void set_hook(int (*cb)(int));
class Stream {
public:
    explicit Stream(int fd);
    Stream(const Stream &other);
    int read(char *buf, size_t n) const;
    virtual ~Stream();
    int size_ = compute(2);
  private:
    static std::string name(int);
};
#endif
"""


def test_c_prototypes_are_definitions_and_other_statements_are_not() -> None:
    defs = list(definitions(API_H, "include/api.h"))
    spans = {(d.qualname, d.start): _span(d) for d in defs}
    assert spans[("api_frame_size", 5)] == ("function", 5, 6)  # wrapped parameters
    assert spans[("set_hook", 11)] == ("function", 11, 11)  # a function pointer parameter
    assert spans[("Stream.Stream", 14)] == ("method", 14, 14)  # constructors, after the access label
    assert spans[("Stream.Stream", 15)] == ("method", 15, 15)
    assert spans[("Stream.read", 16)] == ("method", 16, 16)
    assert spans[("Stream.~Stream", 17)] == ("method", 17, 17)
    assert spans[("Stream.name", 20)] == ("method", 20, 20)
    assert spans[("Stream", 12)] == ("type", 12, 21)
    names = {d.name for d in defs}
    # A variable's initializer, a macro call, a typedef and function pointers declare no function.
    not_declared = {"counter", "make_counter", "LOG_MODULE_REGISTER", "api_cb", "int", "hook", "compute"}
    assert names.isdisjoint(not_declared)
    assert len(defs) == 9  # the include guard's macro besides the eight above


TYPEDEFS_H = """typedef enum {
    ZSTD_fast = 1,
    ZSTD_dfast = 2
} ZSTD_strategy;

typedef struct ZSTD_inBuffer_s {
    const void* src;
} ZSTD_inBuffer, *ZSTD_inBufferPtr;

typedef union {
    int i;
}
value_t;

struct plain { int x; };
"""


def test_c_typedefs_are_named_after_their_body() -> None:
    # The name code uses follows the closing brace: an anonymous typedef is named there, a named
    # one takes it over its tag.
    defs = _by_qualname(TYPEDEFS_H, "lib/zstd.h")
    assert _span(defs["ZSTD_strategy"]) == ("type", 1, 4)
    assert _span(defs["ZSTD_inBuffer"]) == ("type", 6, 8)
    assert _span(defs["plain"]) == ("type", 15, 15)
    # A name on a line of its own is not looked for: that anonymous union stays unnamed.
    assert set(defs) == {"ZSTD_strategy", "ZSTD_inBuffer", "plain"}


THREADED_H = """#ifdef THREADS
int Stream::parse(Doc &doc) {
    return parse_async(doc);
}
#else
int Stream::parse(Doc &doc) {
    return parse_now(doc);
}
#endif

#ifdef WIN32
static int open_file(const wchar_t *name) {
#else
static int open_file(const char *name) {
#endif
    return open(name);
}

int after(void) {
    return 0;
}
"""


def test_an_else_branch_is_read_when_the_if_branch_closed_its_braces() -> None:
    defs = [d for d in definitions(THREADED_H, "stream.h") if d.name in ("parse", "open_file", "after")]
    # Both versions of a function written whole in each branch are found ...
    assert [(d.name, d.start, d.end) for d in defs if d.name == "parse"] == [("parse", 2, 4), ("parse", 6, 8)]
    # ... while a signature per branch over one body is read once, and the braces stay balanced.
    assert [(d.name, d.start, d.end) for d in defs if d.name != "parse"] == [
        ("open_file", 12, 17),
        ("after", 19, 21),
    ]


CLI11_HPP = """namespace CLI {
namespace detail {
template <typename T>
std::string to_string(T &&value) {
    return std::string(value);
}
}  // namespace detail

class YAML_CPP_API Emitter : private noncopyable {
  public:
    explicit Emitter(std::ostream& stream);
    bool good() const { return m_pState->good(); }
    Emitter& operator<<(const char* str);
};

Emitter::Emitter(std::ostream& stream)
    : m_pState(new EmitterState), m_stream(stream) {}

bool App::_parse_arg(std::vector<std::string> &args,
                     detail::Classifier current_type,
                     bool local_processing_only) const {
    if(args.empty()) {
        return false;
    }
    return true;
}

Emitter& Emitter::operator<<(const char* str) {
    return Write(str);
}
}  // namespace CLI
"""


def test_cpp_methods_templates_operators_and_constructors() -> None:
    defs = _by_qualname(CLI11_HPP, "include/CLI/App.hpp")
    assert _span(defs["to_string"]) == ("function", 3, 6)
    assert _span(defs["Emitter"]) == ("type", 9, 14)
    assert _span(defs["Emitter.good"]) == ("method", 12, 12)
    assert _span(defs["App._parse_arg"]) == ("method", 19, 26)
    assert _span(defs["Emitter.operator<<"]) == ("method", 28, 30)
    ctor = [d for d in definitions(CLI11_HPP, "x.cpp") if d.qualname == "Emitter.Emitter"]
    assert [(d.start, d.end) for d in ctor] == [(11, 11), (16, 17)]  # its declaration, its definition


# nlohmann/json's shape: explicit specializations name the template arguments before the "(".
SPECIALIZED_HPP = """namespace nlohmann {
template<>
inline const object_t& basic_json::get<object_t>() const {
    return *m_value.object;
}

template<typename T>
T basic_json::value<T>(const key_type& key) const {
    return T();
}

bool operator<(const_reference lhs, const_reference rhs) noexcept {
    return false;
}

int less_than() {
    return static_cast<int>(compare<int>(1, 2));
}
}  // namespace nlohmann
"""


def test_cpp_explicit_specializations_are_named_without_their_arguments() -> None:
    defs = _by_qualname(SPECIALIZED_HPP, "include/nlohmann/json.hpp")
    assert _span(defs["basic_json.get"]) == ("method", 2, 5)
    assert _span(defs["basic_json.value"]) == ("method", 7, 10)
    assert _span(defs["operator<"]) == ("function", 12, 14)
    assert _span(defs["less_than"]) == ("function", 16, 18)
    assert not any("compare" in name or "<" in name.replace("operator<", "") for name in defs)


JSOUP_JAVA = """package org.jsoup.parser;

enum HtmlTreeBuilderState {
    Initial {
        @Override
        boolean process(Token t, HtmlTreeBuilder tb) {
            return true;
        }
    },
    ForeignContent {
        boolean process(Token t, HtmlTreeBuilder tb) {
            switch (t.type) {
                case Character:
                    tb.insertCharacterNode(t.asCharacter());
                    break;
            }
            return true;
        }
    };

    private static final String nullString = String.valueOf('\\u0000');

    abstract boolean process(Token t, HtmlTreeBuilder tb);

    HtmlTreeBuilderState(String name) {
        this.name = name;
    }

    @SuppressWarnings("unchecked")
    public static <T extends Node> List<T> collect(
            Class<T> type,
            Element root) throws IOException {
        return new ArrayList<>();
    }
}

public record Point(int x, int y) {
    public Point {
        check(x);
    }
}

interface Visitor {
    default void visit(Node n) {
        n.accept(this);
    }

    @Test
    void visitsAll();
}
"""


def test_java_enum_constant_bodies_generics_records_default_methods() -> None:
    defs = _by_qualname(JSOUP_JAVA, "src/main/java/org/jsoup/parser/HtmlTreeBuilderState.java")
    assert _span(defs["HtmlTreeBuilderState"]) == ("class", 3, 35)
    assert _span(defs["HtmlTreeBuilderState.ForeignContent"]) == ("type", 10, 19)
    assert _span(defs["ForeignContent.process"]) == ("method", 11, 18)
    assert _span(defs["Initial.process"]) == ("method", 5, 8)
    assert _span(defs["HtmlTreeBuilderState.collect"]) == ("method", 29, 34)
    assert [d.kind for d in definitions(JSOUP_JAVA, "X.java") if d.name == "HtmlTreeBuilderState"] == [
        "class",
        "method",
    ]
    assert _span(defs["Point"]) == ("class", 37, 41)
    assert _span(defs["Visitor.visit"]) == ("method", 44, 46)
    assert "Visitor.visitsAll" not in defs


def test_kotlin_functions() -> None:
    text = "class Repo {\n    suspend fun load(\n        id: Int,\n    ): User {\n"
    text += "        return find(id)\n    }\n}\n"
    fun = "fun top(x: Int) = x + 1\nfun after() {\n}\n"
    defs = _by_qualname(text + fun, "Repo.kt")
    assert _span(defs["Repo.load"]) == ("method", 2, 6)
    assert _span(defs["top"]) == ("function", 8, 8)  # no semicolons: the line break ends it
    assert _span(defs["after"]) == ("function", 9, 10)


GO = """package cobra

type Command struct {
	Use string
}

func (c *Command) Find(
	args []string,
) (*Command, []string, error) {
	s := "}"
	r := `raw }
string`
	return c, args, nil
}

func (Command) Name() string { return "" }

func Map[T any](xs []T) []T {
	return xs
}
"""


def test_go_receivers_and_multiline_signatures() -> None:
    defs = _by_qualname(GO, "command.go")
    assert _span(defs["Command.Find"]) == ("method", 7, 14)
    assert _span(defs["Command.Name"]) == ("method", 16, 16)
    assert _span(defs["Map"]) == ("function", 18, 20)


RUST = """use std::fmt;

impl<'de, T> Deserialize<'de> for Wrapper<T>
where
    T: Clone,
{
    fn deserialize<D>(d: D) -> Result<Self, D::Error> {
        let c = '{';
        let s = r#"a "}" b"#;
        Ok(Wrapper(d))
    }
}

pub(crate) async fn get_gradle_version(
    context: &Context<'_>,
) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_extract_gradle_version() {
        assert!(true);
    }
}
"""


def test_rust_impl_parents_and_test_modules() -> None:
    defs = _by_qualname(RUST, "src/modules/java.rs")
    assert _span(defs["Wrapper"]) == ("impl", 3, 12)
    assert _span(defs["Wrapper.deserialize"]) == ("function", 7, 11)
    gradle = defs["get_gradle_version"]
    assert _span(gradle) == ("function", 14, 18) and not gradle.in_test
    assert defs["tests"].in_test and defs["tests"].start == 20
    extract = defs["tests.test_extract_gradle_version"]
    assert extract.in_test and _span(extract) == ("function", 24, 27)


def test_php_methods() -> None:
    text = "<?php\nclass Repo {\n    public static function load($id) {\n        return $id;\n    }\n}\n"
    assert _span(_by_qualname(text, "src/Repo.php")["Repo.load"]) == ("method", 3, 5)


def test_big_files_are_cut_off() -> None:
    func = "export function early(a) {\n  return a;\n}\n"
    filler = "// " + "x" * 96 + "\n"
    late = "export function late(b) {\n  return b;\n}\n"
    text = func + filler * (MAX_CHARS // len(filler) + 10) + late
    names = [d.name for d in definitions(text, "bundle.js")]
    assert names == ["early"]


def test_focus_prefers_code_over_rust_in_file_tests() -> None:
    hints = Hints()
    for line in (16, 26, 27):  # the same words in the function and in its test
        hints.keyword_lines[line] = {"gradle", "version"}
    spans = build_focus("src/modules/java.rs", RUST, hints, Query({"gradle": 2.0, "version": 1.5}))
    weights = {(f.start, f.end): f.weight for f in spans}
    assert weights[(14, 18)] > weights[(24, 27)]


def test_javascript_strings_comments_and_regexes_do_not_move_ends() -> None:
    text = (
        "function render(items) {\n"
        "  const html = `<ul>${items.map((i) => `<li>${ {a: i}.a }}</li>`)}\n"
        "  }</ul>`;\n"
        "  const re = /[{]+/g, half = 4 / 2;\n"
        "  /* } */ const c = '}'; // }\n"
        "  return html;\n"
        "}\n"
        "function after() {\n  return 1;\n}\n"
    )
    defs = _by_qualname(text, "src/render.js")
    assert _span(defs["render"]) == ("function", 1, 7)
    assert _span(defs["after"]) == ("function", 8, 10)


def test_javascript_factory_holding_functions_is_a_container() -> None:
    text = COMMAND_JS.replace("  return self\n", "  self.reset = function () {}\n  return self\n", 1)
    defs = _by_qualname(text, "lib/command.js")
    assert _span(defs["command"]) == ("class", 4, 16)
    assert defs["runCommand"].kind == "function"
    assert _span(defs["foo"]) == ("function", 18, 20)


def test_rust_strings_spanning_lines() -> None:
    text = (
        "#[cfg(test)]\nmod tests {\n    #[test]\n    fn kts() {\n"
        '        let config = "\njava {\n    version = \\"1\\"\n}";\n'
        "        check(config);\n    }\n\n    #[test]\n    fn later() {}\n}\n"
    )
    defs = _by_qualname(text, "src/modules/package.rs")
    assert _span(defs["tests"]) == ("module", 1, 14)
    assert _span(defs["tests.kts"]) == ("function", 3, 10)
    assert defs["tests.later"].in_test


def test_comment_lines_inside_a_wrapped_parameter_list_do_not_end_the_signature() -> None:
    text = (
        "export function extractDefs<T extends schemas.$ZodType>(\n"
        "  ctx: Context,\n"
        "  schema: T\n"
        "  // params: EmitParams\n"
        "\n"
        "): void {\n"
        "  const root = ctx.seen.get(schema);\n"
        "}\n"
        "int sum(int a, /* first */\n"
        "        // second, on its own line\n"
        "        int b)\n"
        "{\n"
        "    return a + b;\n"
        "}\n"
    )
    assert _span(_by_qualname(text, "to-json-schema.ts")["extractDefs"]) == ("function", 1, 8)
    c_text = text.split("}\n", 1)[1]
    assert _span(_by_qualname(c_text, "sum.c")["sum"]) == ("function", 1, 6)


def test_javascript_computed_method_names_without_a_word_are_skipped() -> None:
    text = "class Ops {\n  ['+'](a, b) {\n    return a + b;\n  }\n  plus(a, b) {\n    return a + b;\n  }\n}\n"
    names = {d.name for d in definitions(text, "ops.js")}
    assert "plus" in names and "Ops" in names


def test_a_line_of_nested_braces_keeps_its_definition() -> None:
    # Each unclaimed "{" used to run its end-anchored patterns over all the code before it on its
    # line: 100,000 "{" on one line of a C file took minutes in the ranker (timed against an
    # ordinary file by bench/hostile_files.py, shape c_brace_line). Only the tail is read now.
    depth = 50_000
    text = "namespace outer {\nint check_deep(void) {" + "{" * depth + "}" * depth + "}\n}\n"
    found = definitions(text, "deep.cc")
    assert [(d.name, d.start, d.end) for d in found] == [("check_deep", 2, 2)]


def test_lines_of_brackets_alone_start_no_header() -> None:
    # Each such line used to read MAX_HEADER_LINES ahead for a header (400,000 lines of "(" took a
    # minute; bench/hostile_files.py, shape c_parens). A definition right after them keeps its line.
    text = "int x = " + "(\n" * 2_000 + ");\n" + "int after(void) {\n  return 1;\n}\n"
    found = definitions(text, "parens.c")
    assert [(d.name, d.start, d.end) for d in found] == [("after", 2_002, 2_004)]
