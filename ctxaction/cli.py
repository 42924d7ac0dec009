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

# Order is the order shown in --help.
COMMANDS: tuple[str, ...] = ("build", "config", "scan", "hook", "action", "mcp")


class UsageError(Exception):
    """Bad command arguments: printed as one line, exit code 2."""


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
    try:
        return int(args.func(args))
    except UsageError as exc:
        from ctxaction.printable import printable

        print(f"ctxaction {args.command}: {printable(str(exc))}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
