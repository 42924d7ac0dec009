"""Command-line entry point: ``ctxaction <command> …``.

Each command lives in ``ctxaction/commands/<name>.py`` and exposes ``register(subparsers)``,
which adds its parser and sets ``func`` (``args -> int``). Imports stay lazy inside the
commands so that ``ctxaction scan`` in a pre-commit hook does not pay for tiktoken or PyGithub.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ctxaction import __version__
from ctxaction.errors import CtxError
from ctxaction.errors import UsageError as UsageError

# Order is the order shown in --help.
COMMANDS: tuple[str, ...] = ("build", "config", "scan", "hook", "action", "mcp")



def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, every registered command included."""
    parser = argparse.ArgumentParser(
        prog="ctxaction",
        description="Build context packages for coding agents, and keep secrets out of them.",
    )
    parser.add_argument("--version", action="version", version=f"ctxaction {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"ctxaction.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    # Messages echo arguments and paths: they pass through the redactor (imported only on error).
    try:
        return int(args.func(args))
    except CtxError as exc:
        # Every error a user can cause is one line; anything else is a bug and keeps its traceback.
        from ctxaction.printable import printable
        from ctxaction.secure import redact_text

        print(f"ctxaction {args.command}: {printable(redact_text(exc.one_line()))}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # the environment (permissions, a full disk): one line too
        from ctxaction.secure import redact_text

        where = f": {exc.filename}" if exc.filename else ""
        from ctxaction.printable import printable

        message = printable(redact_text(str(exc.strerror or exc) + where))
        print(f"ctxaction {args.command}: {message}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
