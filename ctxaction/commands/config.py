"""``ctxaction config show|init``: print the effective configuration, or write the default file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ctxaction.cli import UsageError
from ctxaction.config import LOOKUP, ConfigError, default_text, effective_yaml, find_config, load_config
from ctxaction.output import write_atomic


def register(subparsers: Any) -> None:
    """Add ``config`` with its ``show`` and ``init`` actions."""
    parser = subparsers.add_parser("config", help="show the effective configuration or write the default")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="print the effective configuration (defaults + your file)")
    show.add_argument("--repo", type=Path, default=Path("."), help="repository root (default: .)")
    show.add_argument("--config", type=Path, help="config file (default: looked up in the repo)")
    init = actions.add_parser("init", help="write the commented default configuration")
    init.add_argument("--repo", type=Path, default=Path("."), help="repository root (default: .)")
    init.add_argument("--path", type=Path, help=f"file to write (default: <repo>/{LOOKUP[0]})")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``config show`` or ``config init``."""
    try:
        if args.action == "show":
            sys.stdout.write(effective_yaml(load_config(args.repo, args.config)))
            return 0
        return _init(args.repo, args.path)
    except ConfigError as exc:
        from ctxaction.printable import printable

        print(f"ctxaction config: {printable(str(exc))}", file=sys.stderr)
        return 1


def _init(repo: Path, path: Path | None) -> int:
    existing = find_config(repo)
    target = path or repo / LOOKUP[0]
    if path is None and existing is not None:
        raise UsageError(f"{existing} already exists; edit it, or pass --path to write elsewhere")
    try:
        write_atomic(target, default_text(), exclusive=True)
    except FileExistsError as exc:
        raise UsageError(f"{target} already exists; not overwriting it") from exc
    print(f"wrote {target}", file=sys.stderr)
    return 0
