"""The /context comment command: first line only, quotes and code ignored, strict arguments."""

from __future__ import annotations

import pytest

from ctxaction.github.command import MAX_REASON, Command, CommandError, command_line, parse_args, reply_for


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("/context", ""),
        ("/context bugfix budget=8000", "bugfix budget=8000"),
        ("\n\n  /context  feature  \nmore text", "feature"),
        ("/CONTEXT", ""),
        ("/context\r\nsecond line", ""),
    ],
)
def test_command_on_the_first_line(body: str, expected: str) -> None:
    assert command_line(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        "> /context",
        "```\n/context\n```",
        "~~~\n/context\n~~~",
        "    /context",
        "please run /context",
        "/contextual",
        "hello\n/context",
        "",
    ],
)
def test_not_a_command(body: str) -> None:
    assert command_line(body) is None


def test_custom_command_name() -> None:
    assert command_line("/pack bugfix", "/pack") == "bugfix"
    assert command_line("/context bugfix", "/pack") is None


def test_full_argument_set() -> None:
    cmd = parse_args('bugfix budget=9000 +src/app.py +"docs/with space.md" -tests/ format=xml')
    assert cmd == Command(
        profile="bugfix",
        budget=9000,
        include=["src/app.py", "docs/with space.md"],
        exclude=["tests/"],
        fmt="xml",
    )


def test_no_arguments_means_defaults() -> None:
    assert parse_args("") == Command()


def test_profile_as_key_value() -> None:
    assert parse_args("profile=feature").profile == "feature"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ("colour=blue", "unknown argument 'colour=blue'"),
        ("budget=lots", "budget must be a number"),
        ("budget=10", "budget must be a number"),
        # str.isdigit() says yes to these, int() then raises ValueError: an "unexpected" crash.
        ("budget=²⁰⁰⁰", "budget must be a number"),
        ("budget=1000①", "budget must be a number"),
        ("format=pdf", "unknown format 'pdf'"),
        ("bugfix feature", "unexpected argument 'feature'"),
        ("+", "needs a path"),
        ("+../etc/passwd", "without '..'"),
        ("+/etc/passwd", "relative to the repository root"),
        ("--upload-pack=x", "relative to the repository root"),
        ('bugfix "unclosed', "close every quote"),
        ("b@d!", "not a profile name"),
    ],
)
def test_bad_arguments_explain_themselves(args: str, message: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_args(args)
    assert message in str(info.value)


def test_arguments_are_capped() -> None:
    with pytest.raises(CommandError, match="too many arguments"):
        parse_args(" ".join(f"+f{i}" for i in range(30)))
    with pytest.raises(CommandError, match="longer than"):
        parse_args("+" + "a" * 600)


def test_echoed_argument_is_short_and_without_backticks() -> None:
    with pytest.raises(CommandError) as info:
        parse_args("x=`" + "y" * 300 + "`")
    assert "`" not in str(info.value) and "…" in str(info.value)


def test_reply_has_the_reason_and_usage() -> None:
    text = reply_for("unknown argument 'x=1'", "/pack")
    assert "unknown argument 'x=1'" in text and "`/pack [profile]" in text


def test_a_long_reason_is_cut_and_the_usage_line_still_follows() -> None:
    text = reply_for("unknown rule '" + "a" * 70_000 + "'")
    reason, usage = text.split("\n\n")
    assert len(reason) < MAX_REASON + 100 and "the whole message is in the workflow run's log" in reason
    assert usage.startswith("Usage: `/context [profile]")
