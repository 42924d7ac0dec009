"""``ctxaction config show|init``: print the effective configuration, or write the default file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ctxaction.argparser import helpful
from ctxaction.config import LOOKUP, ConfigError, default_text, effective_yaml, find_config, load_config
from ctxaction.console import Console
from ctxaction.errors import UsageError
from ctxaction.output import write_atomic


def register(subparsers: Any) -> None:
    """Add ``config`` with its ``show`` and ``init`` actions."""
    parser = subparsers.add_parser(
        "config",
        help="show the effective configuration or write the default",
        **helpful(
            f"Read or start the configuration ({LOOKUP[0]}, looked up in the repository): "
            "'show' prints what a build would use, 'init' writes the commented default file.",
            [
                ("ctxaction config show --repo .", "print the effective configuration"),
                ("ctxaction config init", f"write a commented {LOOKUP[0]} to start from"),
            ],
        ),
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser(
        "show",
        help="print the effective configuration (defaults + your file)",
        **helpful(
            "Print the configuration a build would use: the built-in defaults merged with your file, "
            "as YAML.",
            [
                ("ctxaction config show", "the configuration of the repository in this folder"),
                ("ctxaction config show --config ci/context.yaml", "with a config file kept elsewhere"),
            ],
        ),
    )
    show.add_argument("--repo", type=Path, default=Path("."), help="repository root (default: .)")
    show.add_argument("--config", type=Path, help="config file (default: looked up in the repo)")
    init = actions.add_parser(
        "init",
        help="write the commented default configuration",
        **helpful(
            "Write the commented default configuration, never over an existing file.",
            [
                ("ctxaction config init", f"write <repo>/{LOOKUP[0]}"),
                ("ctxaction config init --path ci/context.yaml", "write it somewhere else"),
            ],
        ),
    )
    init.add_argument("--repo", type=Path, default=Path("."), help="repository root (default: .)")
    init.add_argument("--path", type=Path, help=f"file to write (default: <repo>/{LOOKUP[0]})")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``config show`` or ``config init``."""
    try:
        if args.action == "show":
            sys.stdout.write(effective_yaml(load_config(args.repo, args.config)))
            return 0
        return _init(args.repo, args.path, args.console)
    except ConfigError as exc:
        from ctxaction.printable import printable

        args.console.error("ctxaction config", printable(str(exc)))
        return 1


def _init(repo: Path, path: Path | None, console: Console) -> int:
    existing = find_config(repo)
    target = path or repo / LOOKUP[0]
    if path is None and existing is not None:
        raise UsageError(f"{existing} already exists; edit it, or pass --path to write elsewhere")
    try:
        write_atomic(target, default_text(), exclusive=True)
    except FileExistsError as exc:
        raise UsageError(f"{target} already exists; not overwriting it") from exc
    console.note(f"wrote {target}")
    return 0
