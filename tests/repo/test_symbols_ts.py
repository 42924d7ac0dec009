"""Definitions only a parser gets right, and the fallback when a grammar does not load."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxaction.repo import symbols_ts
from ctxaction.repo.files import split_lines
from ctxaction.repo.symbols import definitions
from ctxaction.repo.symbols_brace import brace_definitions
from ctxaction.repo.symbols_model import Definition
from ctxaction.repo.symbols_ts import MAX_FLAT_ERROR_CHILDREN, grammar_of, ts_definitions


@pytest.fixture(autouse=True)
def _fresh_grammars() -> Iterator[None]:
    symbols_ts._compiled.cache_clear()
    yield
    symbols_ts._compiled.cache_clear()


def _spans(defs: list[Definition]) -> dict[str, tuple[str, int, int]]:
    return {d.qualname: (d.kind, d.start, d.end) for d in defs}


ZOD_LOCALE_TS = """const error: () => errors.$ZodErrorMap = () => {
  const Sizable: Record<string, { unit: string }> = {
    string: { unit: "x" },
  };
  function getSizing(origin: string): { unit: string } | null {
    return Sizable[origin] ?? null;
  }
  return (issue) => getSizing(issue);
};
export default {
  methods: {
    save(doc) {
      return doc;
    },
  },
};
const Widget = class extends Base {
  render() {
    return null;
  }
};
"""


def test_typescript_typed_arrow_const_and_class_expression() -> None:
    got = _spans(definitions(ZOD_LOCALE_TS, "packages/zod/src/v4/locales/bg.ts"))
    assert got["error"] == ("function", 1, 9)
    assert got["getSizing"] == ("function", 5, 7)  # a function of its own, ending at its brace
    assert got["save"] == ("method", 12, 14)
    assert got["Widget"] == ("class", 17, 21)
    assert got["Widget.render"] == ("method", 18, 20)
    assert "Sizable" not in got  # a local constant


def test_tsx_and_decorated_members() -> None:
    text = (
        "@Component({ selector: 'x' })\n"
        "export class Panel {\n"
        "  @Input()\n"
        "  title = '';\n"
        "  @HostListener('click')\n"
        "  onClick(): void {\n"
        "    this.open = true;\n"
        "  }\n"
        "  view = () => <div>{this.title}</div>;\n"
        "}\n"
    )
    got = _spans(definitions(text, "src/panel.tsx"))
    assert got["Panel"] == ("class", 1, 10)
    assert got["Panel.onClick"] == ("method", 5, 8)  # the decorator line starts it
    assert got["Panel.view"] == ("method", 9, 9)
    assert "Panel.title" not in got


def test_go_grouped_constants_and_types() -> None:
    text = (
        "package x\n\nconst (\n\tModeA = iota\n\tModeB\n)\n\nvar single = 5\n\n"
        "type (\n\tHandler interface {\n\t\tServe()\n\t}\n\tOptions struct {\n\t\tName string\n\t}\n)\n"
        "func (o *Options[T]) Apply() {\n\tfunc() {}()\n}\n"
    )
    got = _spans(definitions(text, "x.go"))
    assert got["ModeA"] == ("variable", 4, 4) and got["ModeB"] == ("variable", 5, 5)
    assert got["single"] == ("variable", 8, 8)
    assert got["Handler"] == ("type", 11, 13) and got["Options"] == ("type", 14, 16)
    assert got["Options.Apply"] == ("method", 18, 20)


def test_rust_attributes_start_the_span_and_mark_tests() -> None:
    text = (
        "impl<'a> fmt::Display for &'a Wrapper {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        Ok(())\n    }\n}\n"
        "#[cfg(test)]\nmod tests {\n    #[tokio::test]\n    async fn runs() {}\n}\n"
    )
    defs = {d.qualname: d for d in definitions(text, "src/lib.rs")}
    assert (defs["Wrapper"].kind, defs["Wrapper"].start, defs["Wrapper"].end) == ("impl", 1, 5)
    assert defs["Wrapper.fmt"].start == 2
    assert defs["tests"].in_test and defs["tests"].start == 6
    runs = defs["tests.runs"]
    assert runs.in_test and (runs.start, runs.end) == (8, 9)
    assert not defs["Wrapper.fmt"].in_test


def test_a_grammar_that_does_not_load_leaves_the_file_to_the_scanner(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "export function load(id) {\n  return id;\n}\n"
    text += "const api = {\n  save(doc) {\n    return doc;\n  },\n};\n"
    assert ts_definitions(text, "api.js", "javascript") is not None
    symbols_ts._compiled.cache_clear()
    grammars = dict(symbols_ts._GRAMMARS)
    grammars["javascript"] = ("ctxaction_no_such_grammar", "language")
    monkeypatch.setattr(symbols_ts, "_GRAMMARS", grammars)
    assert not symbols_ts.available("javascript")
    assert ts_definitions(text, "api.js", "javascript") is None
    assert definitions(text, "api.js") == brace_definitions(split_lines(text), "javascript")
    assert _spans(definitions(text, "api.js")) == {"load": ("function", 1, 3), "api": ("variable", 4, 8),
                                                    "api.save": ("method", 5, 7)}  # fmt: skip
    assert symbols_ts.available("go")  # the others still load


def test_languages_without_a_grammar_use_the_scanner() -> None:
    assert grammar_of("src/cJSON.c", "c") is None and grammar_of("include/json/value.hpp", "cpp") is None
    text = "class Repo {\n    fun load(id: Int): User {\n        return find(id)\n    }\n}\n"
    assert grammar_of("Repo.kt", "kotlin") is None
    assert ts_definitions(text, "Repo.kt", "kotlin") is None
    assert _spans(definitions(text, "Repo.kt"))["Repo.load"] == ("method", 2, 4)


def test_a_flat_broken_tree_is_read_by_the_line_scanner_not_the_slow_query() -> None:
    # 40,000 unclosed "{" lines: the query over the broken tree took seconds and grew with the
    # square of the lines (a megabyte of them: ten minutes; bench/hostile_files.py, shape
    # go_unclosed); the scanner reads it instead.
    text = "function checkDeep() {\n" + "{\n" * (MAX_FLAT_ERROR_CHILDREN * 4)
    assert ts_definitions(text, "deep.js", "javascript") is None
    found = definitions(text, "deep.js")
    assert [(d.name, d.start) for d in found] == [("checkDeep", 1)]
    # A broken file of ordinary size is still read by its grammar.
    small = "function ok() {\n  return 1;\n}\nfunction broken( {\n"
    assert ts_definitions(small, "small.js", "javascript") is not None
