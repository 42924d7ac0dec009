"""Command-line entry point: ``ctxaction [-q|-v] <command> …``.

Each command lives in ``ctxaction/commands/<name>.py`` and exposes ``register(subparsers)``,
which adds its parser and sets ``func`` (``args -> int``). Imports stay lazy inside the
commands so that ``ctxaction scan`` in a pre-commit hook does not pay for tiktoken or PyGithub.
Commands import nothing from here: their errors come from :mod:`ctxaction.errors`, and the
:class:`~ctxaction.console.Console` for ``--quiet``/``--verbose`` arrives as ``args.console``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from ctxaction import __version__
from ctxaction.argparser import Parser, add_global_options, helpful
from ctxaction.console import Console
from ctxaction.errors import CtxError

# Order is the order shown in --help.
COMMANDS: tuple[str, ...] = ("build", "config", "scan", "hook", "action", "mcp")

EXAMPLES = (
    ("ctxaction build --sample --repo . --budget 3000", "pack this repository for the sample issue"),
    ("ctxaction scan --staged", "check what the next commit adds for secrets"),
)


def build_parser() -> Parser:
    """The full argument parser, every registered command included."""
    parser = Parser(
        prog="ctxaction",
        **helpful(
            "Build context packages for coding agents, and keep secrets out of them.\n\n"
            "-q/--quiet and -v/--verbose work before or after the command name.\n"
            "Colour: on a terminal only; NO_COLOR=1 turns it off, FORCE_COLOR=1 on.",
            EXAMPLES,
        ),
    )
    parser.add_argument("--version", action="version", version=f"ctxaction {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"ctxaction.commands.{name}").register(sub)
    add_global_options(parser, top=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code."""
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:
        parser.subparser(args).reject_unknown(extras)
    if args.quiet and args.verbose:
        parser.subparser(args).error("--quiet and --verbose cannot be combined")
    console = Console(quiet=args.quiet, verbose=args.verbose)
    args.console = console
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    # Messages echo arguments and paths: console.error passes them through the redactor.
    try:
        return int(args.func(args))
    except CtxError as exc:
        # Every error a user can cause is one line; anything else is a bug and keeps its traceback.
        console.error(f"ctxaction {args.command}", exc.one_line())
        return exc.exit_code
    except OSError as exc:  # the environment (permissions, a full disk): one line too
        where = f": {exc.filename}" if exc.filename else ""
        console.error(f"ctxaction {args.command}", str(exc.strerror or exc) + where)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
