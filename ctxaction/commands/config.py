"""``ctxaction config show|init|schema``: print the effective configuration, write the default
file, or print the JSON Schema editors check it with."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ctxaction.config.source import LOOKUP, default_text, find_config
from ctxaction.errors import UsageError
from ctxaction.output import write_atomic


def register(subparsers: Any) -> None:
    """Add ``config`` with its ``show``, ``init`` and ``schema`` actions."""
    parser = subparsers.add_parser(
        "config", help="show the effective configuration, write the default, or print its schema"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="print the effective configuration (defaults + your file)")
    show.add_argument("--repo", type=Path, default=Path("."), help="repository root (default: .)")
    show.add_argument("--config", type=Path, help="config file (default: looked up in the repo)")
    init = actions.add_parser(
        "init", help="write the commented default configuration, with a $schema line for editors"
    )
    init.add_argument("--repo", type=Path, default=Path("."), help="repository root (default: .)")
    init.add_argument("--path", type=Path, help=f"file to write (default: <repo>/{LOOKUP[0]})")
    actions.add_parser("schema", help="print the JSON Schema of context-packages.yaml (for editors)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``config show``, ``config init`` or ``config schema``; a broken config is a usage
    error (exit 2) reported by ``cli.main``."""
    if args.action == "show":
        from ctxaction.config.dump import effective_yaml
        from ctxaction.config.load import load_config

        sys.stdout.write(effective_yaml(load_config(args.repo, args.config)))
        return 0
    if args.action == "schema":
        from ctxaction.config.schema import schema_text

        sys.stdout.write(schema_text())
        return 0
    return _init(args.repo, args.path)


def init_text() -> str:
    """What ``config init`` writes: the schema line for editors, then the commented defaults."""
    from ctxaction.config.schema import MODELINE

    return f"{MODELINE}\n{default_text()}"


def _init(repo: Path, path: Path | None) -> int:
    existing = find_config(repo)
    target = path or repo / LOOKUP[0]
    if path is None and existing is not None:
        raise UsageError(f"{existing} already exists; edit it, or pass --path to write elsewhere")
    try:
        write_atomic(target, init_text(), exclusive=True)
    except FileExistsError as exc:
        raise UsageError(f"{target} already exists; not overwriting it") from exc
    print(f"wrote {target}", file=sys.stderr)
    return 0
