"""What the action quotes from others in an error — a comment command's arguments, event payload
fields, its inputs — is quoted short, its whole length said, and with no piece of a key in it.

Each value holds a generated key across the place a quoted value is cut
(:func:`tests.leaks.forms.straddling`): cut before the redaction, most of the key would show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ctxaction.errors import CtxError
from ctxaction.github.command import MAX_LINE, parse_args
from ctxaction.github.event import parse_event
from ctxaction.github.inputs import read_inputs
from ctxaction.secure import QUOTE_WIDTH
from ctxaction.secure.synth import expand
from tests.ghserver import webhook_fixture
from tests.leaks.forms import assert_no_key_pieces, straddling

KEYS = {"gh": (expand("<<gh:ghp>>", "github-long-values"), "ghp_")}
# A payload field or an input can be any length; a command line is capped at MAX_LINE.
LONG = 70_000


def _payload(field: str, value: str) -> tuple[str, dict[str, Any]]:
    payload = webhook_fixture("pull_request.opened.json")
    if field == "head.sha":
        payload["pull_request"]["head"]["sha"] = value
    else:
        payload["repository"]["full_name"] = value
    return "pull_request", payload


def _event(field: str) -> Callable[[str], object]:
    return lambda value: parse_event(*_payload(field, value))


def _input(name: str) -> Callable[[str], object]:
    return lambda value: read_inputs({"INPUT_GITHUB-TOKEN": "t", f"INPUT_{name}": value})


def _command(value: str) -> object:
    # One word by the shell's quoting rules: `x=` and the value, two characters more than it.
    return parse_args(f'x="{value}"')


# (what, how it is given, its length, what the message says, the length of the text it quotes)
CASES = [
    ("command argument", _command, MAX_LINE - 10, "unknown argument 'x=word word", MAX_LINE - 8),
    ("pull_request.head.sha", _event("head.sha"), LONG, "is not a commit id: 'word word", LONG),
    ("repository.full_name", _event("full_name"), LONG, "is not owner/name: 'word word", LONG),
    ("input task", _input("TASK"), LONG, "input 'task': expected 'auto' or a profile name, got 'word", LONG),
    ("input budget", _input("BUDGET"), LONG, "got 'word word", LONG),
]


@pytest.mark.parametrize(("what", "run", "size", "where", "quoted"), CASES, ids=[c[0] for c in CASES])
def test_a_long_value_is_quoted_short_with_no_piece_of_a_key(
    what: str, run: Callable[[str], object], size: int, where: str, quoted: int
) -> None:
    value = straddling(KEYS["gh"][0])
    value += "b" * (size - len(value))
    with pytest.raises(CtxError) as info:
        run(value)
    message = info.value.one_line()
    assert_no_key_pieces(KEYS, message, 8, what)
    # Facts, not the text: a failing assertion prints its operands.
    facts = [
        where in message,
        "[REDACTED:" in message,  # the marker may be cut itself: the key went before the cut
        f"…' ({quoted:,} characters)" in message,
        len(message) < QUOTE_WIDTH + 200,
    ]
    assert facts == [True] * 4
