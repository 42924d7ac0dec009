"""Action inputs from INPUT_* variables: hyphens kept, underscore fallback, one clear error."""

from __future__ import annotations

import pytest

from ctxaction.github.inputs import InputError, read_inputs


def test_defaults_with_only_a_token() -> None:
    inputs = read_inputs({"INPUT_GITHUB-TOKEN": " ghs_abc "})
    assert inputs.token == "ghs_abc"
    assert inputs.task == "auto" and inputs.budget is None and inputs.command == "/context"
    assert inputs.outputs == {"comment", "summary"} and inputs.min_permission == "write"
    assert inputs.fmt == "markdown" and inputs.history_depth == 500 and not inputs.edited_comments


def test_hyphenated_names_win_over_underscore_fallback() -> None:
    env = {"INPUT_GITHUB_TOKEN": "under", "INPUT_HISTORY_DEPTH": "50", "INPUT_MIN-PERMISSION": "triage"}
    inputs = read_inputs(env)
    assert inputs.token == "under" and inputs.history_depth == 50 and inputs.min_permission == "triage"
    assert read_inputs({**env, "INPUT_GITHUB-TOKEN": "hyphen"}).token == "hyphen"


def test_all_inputs_parsed() -> None:
    inputs = read_inputs(
        {
            "INPUT_GITHUB-TOKEN": "t",
            "INPUT_TASK": "bugfix",
            "INPUT_BUDGET": "12000",
            "INPUT_CONFIG": ".github/context-packages.yaml",
            "INPUT_OUTPUT": "artifact, summary\ncomment",
            "INPUT_COMMAND": "/pack",
            "INPUT_FORMAT": "json",
            "INPUT_EDITED-COMMENTS": "True",
        }
    )
    assert inputs.budget == 12000 and inputs.outputs == {"artifact", "summary", "comment"}
    assert inputs.command == "/pack" and inputs.fmt == "json" and inputs.edited_comments


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"INPUT_COMMENT-STYLE": "huge"}, "input 'comment-style': expected one of compact, full"),
        ({"INPUT_BUDGET": "many"}, "input 'budget': expected a whole number from 500 to 200000, got 'many'"),
        ({"INPUT_OUTPUT": "comment,email"}, "input 'output': expected one of comment, artifact, summary"),
        ({"INPUT_OUTPUT": " , "}, "input 'output': name at least one"),
        ({"INPUT_MIN-PERMISSION": "owner"}, "input 'min-permission'"),
        ({"INPUT_FORMAT": "html"}, "input 'format'"),
        ({"INPUT_COMMAND": "context"}, "input 'command'"),
        ({"INPUT_EDITED-COMMENTS": "maybe"}, "input 'edited-comments': expected true or false"),
        ({"INPUT_FAIL-ON-ERROR": "maybe"}, "input 'fail-on-error': expected true or false, got 'maybe'"),
        ({"INPUT_HISTORY-DEPTH": "-1"}, "input 'history-depth'"),
        ({"INPUT_TASK": "../x"}, "input 'task'"),
        ({"INPUT_ARTIFACT-DIR": "../out"}, "input 'artifact-dir'"),
    ],
)
def test_bad_input_is_one_clear_error(env: dict[str, str], message: str) -> None:
    base = {"INPUT_GITHUB-TOKEN": "t"}
    with pytest.raises(InputError) as info:
        read_inputs({**base, **env})
    assert message in str(info.value)
