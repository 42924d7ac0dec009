"""Definition evidence: dispatch names, sub-word overlap, owned lines, weights from the shipped file."""

from __future__ import annotations

from ctxaction.rank.board import Hints
from ctxaction.rank.evidence import (
    LONG_VARIABLE_FACTOR,
    SPELLING_FACTOR,
    Query,
    features,
    handled_name,
    owned_lines,
    points,
    score_definitions,
)
from ctxaction.rank.weights import definition_weights, file_weights
from ctxaction.repo.symbols import definitions


def test_handled_name_reads_dispatch_conventions() -> None:
    named = {"Trace": 0.9, "call": 0.6, "Submit": 0.7}
    assert handled_name("_print_Trace", named) == 0.9
    assert handled_name("visit_call", named) == 0.6
    assert handled_name("handleSubmit", named) == 0.7
    # Not a new word, the name itself, or a prefix too long to be a verb.
    assert handled_name("_print_Transpose", named) == 0.0
    assert handled_name("Trace", named) == 0.0
    assert handled_name("recall", named) == 0.0
    assert handled_name("something_very_long_Trace", named) == 0.0


def test_printer_method_of_the_named_type_outscores_its_neighbour() -> None:
    text = "class Printer:\n" + "".join(
        f"    def _print_{name}(self, expr):\n        return self._print(expr.arg)\n\n"
        for name in ("Transpose", "Trace", "Adjoint")
    )
    defs = definitions(text, "printer.py")
    weights = {**definition_weights(), "dispatch": 1.0}
    scored = score_definitions(defs, Hints(), Query(named={"Trace": 0.9}), weights)
    assert scored and scored[0].definition.name == "_print_Trace"
    assert scored[0].features["dispatch"] == 0.9
    assert all(s.definition.name != "_print_Transpose" for s in scored)


def test_subword_overlap_uses_identifier_parts_and_keywords() -> None:
    text = "def parse_header_line(x):\n    return x\n\ndef unrelated(y):\n    return y\n"
    defs = definitions(text, "m.py")
    owned = owned_lines(defs)
    query = Query(idf={"header": 2.0}, named={"ParseError": 0.8})
    subwords = query.subword_weights
    f, _ = features(defs[0], owned[0], Hints(), query, subwords)
    assert f["subtokens"] > 0.5
    f, _ = features(defs[1], owned[1], Hints(), query, subwords)
    assert "subtokens" not in f


def test_owned_lines_leave_nested_definitions_to_themselves() -> None:
    text = (
        "class A:\n    x = 1\n\n    def m(self):\n        def inner():\n            pass\n        return 1\n"
    )
    defs = definitions(text, "a.py")
    owned = owned_lines(defs)
    by_name = {d.name: owned[i] for i, d in enumerate(defs) if i in owned}
    assert 1 in by_name["A"] and 4 not in by_name["A"]
    assert 4 in by_name["m"] and 6 not in by_name["m"]
    assert by_name["inner"] == {5, 6}


def test_shipped_weights_cover_every_feature_and_signal() -> None:
    weights = definition_weights()
    expected = {"frames", "message", "defined", "uses", "name", "keywords", "subtokens", "dispatch"}
    assert expected <= set(weights)
    assert all(v >= 0 for v in weights.values())
    assert file_weights()["path_mention"] > 0



def test_recent_changes_raise_the_definition_they_fall_in() -> None:
    text = "".join(f"def handler_{i}(request):\n    return request.value + {i}\n\n" for i in range(4))
    defs = definitions(text, "views.py")
    query = Query(idf={"request": 1.0})
    hints = Hints(keyword_lines={2 + 3 * i: {"request"} for i in range(4)})
    before = score_definitions(defs, hints, query)
    assert before[0].definition.name == "handler_0"  # equal evidence: ties go by position
    # Line 8 is in handler_2, changed by the file's latest commit; handler_3 by an older one.
    hints.recent_lines = {8: 1.0, 11: 0.5}
    after = score_definitions(defs, hints, query)
    assert [s.definition.name for s in after[:2]] == ["handler_2", "handler_3"]
    assert after[0].features["recent"] == 1.0 and "latest commit" in after[0].why
    # The one-definition path reads the same lines.
    owned = owned_lines(defs)
    f, _ = features(defs[3], owned[3], hints, query, query.subword_weights)
    assert f["recent"] == 0.5


def test_the_issues_name_in_another_case_convention_counts_as_defined() -> None:
    text = (
        "class S3Service {\n"
        "    public void listObjects(String bucket) {\n        scan(bucket);\n    }\n"
        "    public void listObjectVersions(String bucket) {\n        scan(bucket);\n    }\n"
        "    public void versions() {\n        scan(null);\n    }\n"
        "}\n"
    )
    defs = definitions(text, "S3Service.java")
    query = Query(named={"ListObjectVersions": 0.9, "Versions": 0.5})
    scored = score_definitions(defs, Hints(), query)
    assert scored and scored[0].definition.name == "listObjectVersions"
    assert scored[0].features["defined"] == 0.9 * SPELLING_FACTOR
    assert "another case convention" in scored[0].why
    # One sub-word is no name to match on (shared sub-words are weaker evidence of their own), and
    # an exact namesake is left to the repository search (hints.defined) that confirmed the file
    # defines it.
    partial = [s for s in scored if s.definition.name in ("versions", "listObjects")]
    assert all("defined" not in s.features and s.points < scored[0].points for s in partial)
    exact = Query(named={"listObjectVersions": 0.9})
    assert all("defined" not in s.features for s in score_definitions(defs, Hints(), exact))
    python = definitions("def list_object_versions(b):\n    return b\n", "s3.py")
    snake = score_definitions(python, Hints(), query)
    assert [s.definition.name for s in snake] == ["list_object_versions"]
    assert snake[0].features["defined"] == 0.9 * SPELLING_FACTOR


COBRA_GO = (
    "package main\n"
    "\n"
    "var initCmd = &cobra.Command{\n"  # 3
    '\tUse: "init",\n'
    "\tRunE: func(cmd *cobra.Command, args []string) error {\n"
    '\t\treturn installHooks(cmd, "claude")\n'  # 6
    "\t},\n"
    "}\n"
    "\n"
    'var agent = "claude"\n'  # 10
    "\n"
    "func installHooks(cmd *cobra.Command, name string) error {\n"
    "\treturn nil\n"
    "}\n"
)


def test_a_long_variable_is_scored_on_its_lines_at_a_discount() -> None:
    # A CLI command is a struct literal whose Run closure holds the command's code.
    defs = definitions(COBRA_GO, "cmd/init.go")
    assert [(d.name, d.kind) for d in defs][:2] == [("initCmd", "variable"), ("agent", "variable")]
    hints = Hints(keyword_lines={6: {"claude"}, 10: {"claude"}}, use_lines={6: (1.0, "installHooks")})
    scored = score_definitions(defs, hints, Query(idf={"claude": 2.0}))
    by_name = {s.definition.name: s for s in scored}
    # The one-line variable owns no lines: its keyword hit scores nothing.
    assert set(by_name) == {"initCmd"}
    command = by_name["initCmd"]
    assert command.features["keywords"] > 0 and command.features["uses"] == 1.0
    unscaled = points(command.features, definition_weights(), False)
    assert command.points == unscaled * LONG_VARIABLE_FACTOR


def test_a_long_variable_inside_a_class_leaves_its_lines_to_the_class() -> None:
    text = (
        "class Settings:\n    TABLE = {\n        'a': 1,\n        'b': 2,\n        'c': 3,\n    }\n\n"
        "MODELS = [\n    'gpt',\n    'claude',\n    'llama',\n]\n"
    )
    defs = definitions(text, "settings.py")
    owned = owned_lines(defs)
    by_name = {d.name: owned.get(i) for i, d in enumerate(defs)}
    assert by_name["TABLE"] is None and {2, 3, 4} <= (by_name["Settings"] or set())
    assert by_name["MODELS"] == set(range(8, 13))
