"""The CLI's argument parser: one-line errors with "did you mean", global options, help examples.

Every command's ``--help`` holds a description and examples (:func:`helpful`); a mistyped command,
option or choice gets one line naming the closest valid one, and exit code 2. Standard library
only (argparse and difflib are loaded when a parser is built, not by the hook's fast path).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from ctxaction.console import QUIET_HELP, VERBOSE_HELP, Style, wants_color

_UNKNOWN_COMMAND = re.compile(r"^argument [A-Z]+: (unknown command)")
# argparse's own messages quote what was typed ("invalid int value: '…'", "unrecognized
# arguments: …"): a 70,000-character argument must still make one readable line.
MAX_ERROR = 300


def helpful(description: str, examples: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """``add_parser``/``ArgumentParser`` keywords for a description and an ``examples:`` epilog,
    each example a (command, what it does) pair, laid out as written."""
    lines = ["examples:"]
    for command, what in examples:
        lines += [f"  # {what}", f"  {command}"]
    return {"description": description, "epilog": "\n".join(lines), "formatter_class": HelpFormatter}


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Examples exactly as written; the description wrapped to the terminal line by line (its
    line breaks kept, unlike argparse's default formatter, which joins them)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return super()._fill_text(text, width, indent)
        fill = argparse.HelpFormatter._fill_text
        return "\n".join(fill(self, line, width, indent) if line else "" for line in text.split("\n"))


def suggestion(word: str, choices: Iterable[str]) -> str:
    """``; did you mean 'X'?`` for the closest of ``choices``, or nothing."""
    import difflib  # only on a mistake

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class Parser(argparse.ArgumentParser):
    """``argparse`` with one-line errors and "did you mean" for commands, choices and options."""

    def error(self, message: str) -> NoReturn:
        """``prog: message`` on one line (redacted: an echoed argument may be a token; cut past
        :data:`MAX_ERROR` characters, after redaction so a cut never hides a token), exit 2."""
        from ctxaction.printable import printable
        from ctxaction.secure import clip

        line = _UNKNOWN_COMMAND.sub(r"\1", " ".join(message.split()))
        text = printable(clip(line, MAX_ERROR, f"… ({len(line):,} characters)"))
        style = Style(wants_color(sys.stderr))
        hint = style(f"(see {self.prog} --help)", "dim")
        print(f"{self.prog}: {style('error:', 'error')} {text} {hint}", file=sys.stderr)
        raise SystemExit(2)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # The standard message lists every choice; a close one is more use than a list.
        if action.choices is not None and value not in action.choices:
            from ctxaction.secure import quoted  # on a mistake only: the hook's runs stay light

            choices = [str(c) for c in action.choices]
            hint = suggestion(str(value), choices) or f" (choose from {', '.join(choices)})"
            what = "unknown command" if isinstance(action, argparse._SubParsersAction) else "invalid choice"
            raise argparse.ArgumentError(action, f"{what}: {quoted(value)}{hint}")
        super()._check_value(action, value)

    def option_strings(self) -> list[str]:
        """Every option this parser accepts (``--help`` included)."""
        return [s for a in self._actions for s in a.option_strings]

    def subparser(self, args: argparse.Namespace) -> Parser:
        """The innermost parser ``args`` went through (``config show`` → the ``show`` parser)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(args, action.dest, None) or "")
                if isinstance(chosen, Parser):
                    return chosen.subparser(args)
        return self

    def reject_unknown(self, extras: Sequence[str]) -> NoReturn:
        """Fail on the first argument no parser took, naming the closest option for a flag."""
        from ctxaction.secure import quoted

        first = extras[0]
        if first.startswith("-") and first != "-":
            name = first.partition("=")[0]  # never echo the value: it may be a token
            raise_with = f"unknown option {quoted(name)}{suggestion(name, self.option_strings())}"
        else:
            raise_with = f"unexpected argument {quoted(first)}"
        self.error(raise_with)


def add_global_options(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """``-q/--quiet`` and ``-v/--verbose`` on ``parser`` and, recursively, every subparser, so they
    work before or after a command name. Only the top level sets defaults: a subparser's default
    would overwrite a value given before the command."""
    group = parser.add_mutually_exclusive_group()
    default: Any = False if top else argparse.SUPPRESS
    group.add_argument("-q", "--quiet", action="store_true", default=default, help=QUIET_HELP)
    group.add_argument("-v", "--verbose", action="store_true", default=default, help=VERBOSE_HELP)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                add_global_options(sub, top=False)
