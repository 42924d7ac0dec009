"""The line recognisers: a function definition of a called name, and any definition of a named one."""

from __future__ import annotations

import pytest

from ctxaction.rank.defines import (
    defined_on,
    defines,
    definition_patterns,
    keyword_definition,
    maybe_definition,
)


@pytest.mark.parametrize(
    ("line", "name", "lang", "expected"),
    [
        ("Emitter& Emitter::Write(const std::string& str) {", "Write", "cpp", True),
        ("CJSON_PUBLIC(void) cJSON_Minify(char *json)", "cJSON_Minify", "c", True),
        ("  Write(str);", "Write", "cpp", False),
        ("    return Write(str,", "Write", "cpp", False),
        ("    public boolean containsIgnoreCase(String seq) {", "containsIgnoreCase", "java", True),
        ("        if (r.containsIgnoreCase(seq)) {", "containsIgnoreCase", "java", False),
        ("  coerce(keys: string, value?: unknown): Yargs {", "coerce", "typescript", True),
        ("self.runCommand = function runCommand(cmd) {", "runCommand", "javascript", True),
        ("export const gte = (value: number) => check(value);", "gte", "typescript", True),
        ("    foo(a, b)", "foo", "python", False),
        ("func (e *Engine) handle(c *Context) {", "handle", "go", True),
        ("    pub fn parse_number<T>(&mut self) -> T {", "parse_number", "rust", True),
    ],
)
def test_function_definition_lines(line: str, name: str, lang: str, expected: bool) -> None:
    assert defines(line, name, lang) is expected


def test_a_named_identifier_is_defined_as_anything() -> None:
    patterns = definition_patterns(["Session", "MAX_RETRIES", "send", "resolve"])

    def found(line: str) -> set[str]:
        return {m.group("name") for p in patterns for m in p.finditer(line)}

    assert found("class Session(SessionRedirectMixin):") == {"Session"}
    assert found("MAX_RETRIES = 30") == {"MAX_RETRIES"}
    assert found("    def send(self, request, **kwargs):") == {"send"}
    assert found("  resolve(target) {") == {"resolve"}
    assert found("    return self.send(prep)") == set()
    assert found("if MAX_RETRIES == 3:") == set()
    maybe = maybe_definition(["cJSON_Minify"])
    assert maybe.search("CJSON_PUBLIC(void) cJSON_Minify(char *json)")
    assert not maybe.search("    cJSON_Minify(json);")


def test_the_name_a_definition_word_introduces() -> None:
    assert keyword_definition("pub(crate) fn parse_number<T>(&mut self)") == "parse_number"
    assert keyword_definition("export const showFixtures = () => 1") == "showFixtures"
    assert keyword_definition("x = compute()") is None


def test_defined_on_names_functions_types_and_method_owners() -> None:
    assert defined_on("Emitter& Emitter::Write(const std::string& str) {", "cpp") == ["Write", "Emitter"]
    assert defined_on("pub struct Registry {", "rust") == ["Registry"]
    assert defined_on("    registry.insert(id, span);", "rust") == []
