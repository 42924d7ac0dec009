"""``ctxaction hook install|uninstall [--pre-push]``: the secret check as a plain git hook."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ctxaction.argparser import helpful


def register(subparsers: Any) -> None:
    """Add the ``hook`` parser."""
    parser = subparsers.add_parser(
        "hook",
        help="install or remove the pre-commit secret check (without the pre-commit framework)",
        **helpful(
            "Install or remove a git pre-commit hook that runs ctxaction-secrets on staged changes "
            "(with --pre-push: a pre-push hook that scans the pushed commits). An existing hook is "
            "kept and chained, never overwritten.",
            [
                ("ctxaction hook install", "block commits that add a secret, in this repository"),
                ("ctxaction hook install --pre-push --repo ../app", "block pushes instead, in ../app"),
            ],
        ),
    )
    parser.add_argument("action", choices=("install", "uninstall"))
    parser.add_argument(
        "--pre-push",
        action="store_true",
        help="the pre-push hook instead: blocks a push whose commits add a secret (even one removed later)",
    )
    parser.add_argument("--repo", type=Path, default=Path("."), help="repository (default: current folder)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Install or uninstall; returns the exit code."""
    from ctxaction.hook import HookError, install, uninstall
    from ctxaction.printable import printable
    from ctxaction.secure import redact_text  # both messages name the hooks folder: a path may hold a token

    try:
        if args.action == "install":
            message = install(args.repo, pre_push=args.pre_push)
        else:
            message = uninstall(args.repo, pre_push=args.pre_push)
    except HookError as exc:
        args.console.error("ctxaction hook", str(exc))
        return 1
    if not args.console.quiet:
        print(printable(redact_text(message)))
    return 0
