"""Workflow commands in the step log: escaping, untrusted text fenced off, annotation cap."""

from __future__ import annotations

import io

from ctxaction.github.log import MAX_ANNOTATIONS, Log, escape_property, quoted_log, workflow_command


def test_workflow_commands_are_escaped() -> None:
    line = workflow_command("warning", "50% done\r\n::error::boom", title="a:b,c")
    assert line == "::warning title=a%3Ab%2Cc::50%25 done%0D%0A::error::boom"
    assert escape_property("x\ny") == "x%0Ay"
    quoted = quoted_log("::error::fake")
    token = quoted.split("\n")[0].removeprefix("::stop-commands::")
    assert len(token) == 32 and quoted.endswith(f"::{token}::")


def test_annotations_past_the_cap_become_plain_lines() -> None:
    stream = io.StringIO()
    log = Log(stream)
    for i in range(MAX_ANNOTATIONS + 2):
        log.annotate("warning", f"w{i}")
    lines = stream.getvalue().split("\n")
    assert sum(line.startswith("::warning") for line in lines) == MAX_ANNOTATIONS
    assert f"warning: w{MAX_ANNOTATIONS + 1}" in lines


def test_fail_open_turns_errors_into_warnings() -> None:
    stream = io.StringIO()
    Log(stream, fail_open=True).annotate("error", "boom")
    assert stream.getvalue() == "::warning title=ctxaction::boom\n"
