"""Every problem of a config file at once, each with file, line and key, in one line."""

from __future__ import annotations

import pytest

from ctxaction.config.load import config_from_text
from ctxaction.errors import ConfigError, ConfigErrors
from ctxaction.secure import QUOTE_WIDTH, redact_text
from tests.leaks.forms import assert_no_key_pieces, straddling

BROKEN = """\
version: 2
encoding: 5
profiles:
  bugfix:
    max_filez: 3
    budget:
      shares: {files: 0.5, rules: 0.2}
    scoring:
      keyword_match: -1
  docs:
    extends: nothing
sensitive_paths: ["[z-a]"]
secrets:
  allowlist:
    regexes: ["("]
  disabled_rules: [no-such-rule]
  max_file_size: 0
"""


def error_of(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        config_from_text(text, "cfg.yaml")
    return info.value


def test_all_problems_of_a_file_are_reported_together_in_file_order() -> None:
    err = error_of(BROKEN)
    assert isinstance(err, ConfigErrors)
    found = [(p.line, p.key) for p in err.problems]
    assert found == [
        (1, "version"),
        (2, "encoding"),
        (5, "profiles.bugfix.max_filez"),
        (7, "profiles.bugfix.budget.shares"),
        (9, "profiles.bugfix.scoring.keyword_match"),
        (11, "profiles.docs.extends"),
        (12, "sensitive_paths[0]"),
        (15, "secrets.allowlist.regexes[0]"),
        (16, "secrets.disabled_rules[0]"),
        (17, "secrets.max_file_size"),
    ]
    text = str(err)
    assert "\n" not in text and text.startswith("cfg.yaml: 10 problems: (1) cfg.yaml:1: version: ")
    for i, problem in enumerate(err.problems, 1):
        assert f"({i}) {problem}" in text
    assert (err.key, err.line) == ("version", 1)  # the first problem's, for callers that show one


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version: 2\n", "cfg.yaml:1: version: only version 1 is supported, got 2"),
        ("encoding: 5\n", "cfg.yaml:1: encoding: expected a string, got 5"),
        ("model: [a]\n", "cfg.yaml:1: model: expected a string or null, got a list"),
        ("agent: devin\n", "cfg.yaml:1: agent: unknown agent 'devin'; known: generic, claude, codex"),
        ("profiles:\n  bugfix:\n    max_filez: 3\n", "3: profiles.bugfix.max_filez: unknown key; known: ex"),
        ("profiles:\n  bugfix:\n    max_files: 3.0\n", "bugfix.max_files: expected an integer, got 3.0"),
        ("profiles:\n  bugfix:\n    max_files: 0\n", "bugfix.max_files: must be at least 1, got 0"),
        (
            "profiles:\n  bugfix:\n    budget: {shares: {files: 1.5}}\n",
            "cfg.yaml:3: profiles.bugfix.budget.shares.files: must be at most 1, got 1.5",
        ),
        (
            "rules:\n  sources:\n    - {pattern: A.md}\n",
            "cfg.yaml:3: rules.sources[0]: missing priority, max_lines; each entry needs pattern, priority",
        ),
        ("secrets:\n  max_file_size: 0\n", "cfg.yaml:2: secrets.max_file_size: must be more than 0, got 0"),
        ("secrets:\n  allowlist:\n    paths: [yes]\n", "3: secrets.allowlist.paths[0]: expected a str"),
    ],
)
def test_schema_messages_name_the_key_the_line_and_the_rule(text: str, message: str) -> None:
    assert message in str(error_of(text))


def test_a_wrong_type_hides_the_other_complaints_about_the_same_value() -> None:
    err = error_of("agent: 5\n")
    assert not isinstance(err, ConfigErrors)
    assert str(err) == "cfg.yaml:1: agent: expected a string, got 5"


def test_min_files_is_checked_against_the_inherited_max_files() -> None:
    err = error_of("profiles:\n  bugfix:\n    min_files: 40\n")
    assert str(err) == (
        "cfg.yaml:3: profiles.bugfix.min_files: min_files (40) is more than max_files (15); "
        "need min_files <= max_files"
    )
    err = error_of("profiles:\n  docs:\n    extends: feature\n    max_files: 2\n")
    assert (err.key, err.line) == ("profiles.docs.max_files", 4)


def test_a_new_default_profile_may_be_one_the_file_defines() -> None:
    text = "default_profile: docs\nprofiles:\n  docs:\n    extends: feature\n    labels: [docs]\n"
    assert config_from_text(text, "c.yaml").profile("auto", ["none"]).name == "docs"
    message = str(error_of("default_profile: docs\n"))
    assert message.startswith("cfg.yaml:1: default_profile: no profile 'docs'")


def test_valid_files_build_the_same_config_as_before() -> None:
    config = config_from_text(
        "agent: codex\nmodel: gpt-4o\nrules:\n  nested: false\n"
        "profiles:\n  bugfix:\n    scoring: {keyword_match: 2}\n    budget: {total_tokens: 5000}\n",
        "c.yaml",
    )
    bugfix = config.profiles["bugfix"]
    assert (config.agent, config.token_model, config.nested_rules) == ("codex", "gpt-4o", False)
    assert bugfix.scoring["keyword_match"] == 2 and bugfix.budget.total_tokens == 5000
    assert bugfix.budget.shares == {"files": 0.75, "rules": 0.1, "history": 0.1, "reserve": 0.05}


def _pieces(secret: str, size: int = 8) -> set[str]:
    return {secret[i : i + size] for i in range(len(secret) - size + 1)}


def test_values_and_patterns_are_redacted_before_they_are_cut() -> None:
    # Messages cut a quoted value at QUOTE_WIDTH characters; cut first, a token lost its tail, no
    # longer matched its rule and passed the redaction of the printed message half shown.
    from ctxaction.secure.synth import expand

    token = expand("<<gh:ghp>>", "config-cut")
    value = straddling(token)
    # The premise: the cut alone leaves a piece of the token that the redactor no longer finds.
    assert sum(piece in redact_text(value[: QUOTE_WIDTH - 3]) for piece in _pieces(token[4:])) > 0
    text = (
        "profiles:\n  bugfix:\n    budget:\n"
        f'      total_tokens: "{value}"\n'
        f'secrets:\n  allowlist:\n    paths: ["{value}/[z-a]"]\n'
    )
    message = str(error_of(text))
    # Facts, not the text: a failing assertion prints its operands, and the text would hold the piece.
    redacted = message.count("[REDACTED:github-pat]")
    named = ["total_tokens" in message, "allowlist.paths[0]" in message, redacted]
    assert named == [True, True, 2]
    assert sum(piece in message for piece in _pieces(token[4:])) == 0


LONG = 70_000


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('rules:\n  skills: ["{v}/../x"]\n', "cfg.yaml:2: rules.skills[0]: 'xxx"),
        ("rules:\n  sources:\n    - {{pattern: '[z-a]{v}', priority: 1, max_lines: 3}}\n", "bad pattern"),
        ("profiles:\n  docs:\n    extends: {v}\n", "cfg.yaml:3: profiles.docs.extends: 'xxx"),
        ("default_profile: {v}\n", "default_profile: no profile 'xxx"),
        ("secrets:\n  disabled_rules: [{v}]\n", "unknown rule 'xxx"),
        ("agent: {v}\n", "unknown agent 'xxx"),
        ("profiles:\n  ? {v}\n  : {{extends: nope}}\n", "profiles.'xxx"),
        ("? {v}\n: 1\n", "cfg.yaml:1: 'xxx"),
    ],
)
def test_a_long_value_is_quoted_cut_saying_how_long_it_is(text: str, where: str) -> None:
    # A 70,000-character value made a 70,000-character `::error::` line in the action's log.
    message = str(error_of(text.format(v="x" * LONG)))
    assert where in message
    assert len(message) < 2 * QUOTE_WIDTH + 300, len(message)
    assert "…' (70,0" in message and " characters)" in message


def test_a_key_in_a_long_value_shows_no_piece_of_itself() -> None:
    from ctxaction.secure.synth import expand

    keys = {"gh": (expand("<<gh:ghp>>", "config-long-gh"), "ghp_")}
    value = straddling(keys["gh"][0], tail=LONG)
    for text in (f'default_profile: "{value}"\n', f'? "{value}"\n: 1\n'):
        message = error_of(text).one_line()
        assert_no_key_pieces(keys, message, 8, "a config error quoting a long value")
        # Facts, not the text: a failing assertion prints its operands.
        facts = (message.count("[REDACTED:github-pat]"), len(message) < 2 * QUOTE_WIDTH + 300)
        assert facts == (1, True)
