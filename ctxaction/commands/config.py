"""``ctxaction config show|init|schema``: print the effective configuration, write the default
file, or print the JSON Schema editors check it with."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ctxaction.argparser import helpful
from ctxaction.config.source import LOOKUP, default_text, find_config
from ctxaction.console import Console
from ctxaction.errors import UsageError
from ctxaction.output import write_atomic


def register(subparsers: Any) -> None:
    """Add ``config`` with its ``show``, ``init`` and ``schema`` actions."""
    parser = subparsers.add_parser(
        "config",
        help="show the effective configuration, write the default, or print its schema",
        **helpful(
            f"Read or start the configuration ({LOOKUP[0]}, looked up in the repository): "
            "'show' prints what a build would use, 'init' writes the commented default file, "
            "'schema' prints the JSON Schema editors check it with.",
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
            "as YAML. A broken file is reported with every problem at once (file:line), exit 2.",
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
        help="write the commented default configuration, with a $schema line for editors",
        **helpful(
            "Write the commented default configuration, headed by a yaml-language-server $schema "
            "line so editors complete and check it; never over an existing file.",
            [
                ("ctxaction config init", f"write <repo>/{LOOKUP[0]}"),
                ("ctxaction config init --path ci/context.yaml", "write it somewhere else"),
            ],
        ),
    )
    init.add_argument("--repo", type=Path, default=Path("."), help="repository root (default: .)")
    init.add_argument("--path", type=Path, help=f"file to write (default: <repo>/{LOOKUP[0]})")
    actions.add_parser(
        "schema",
        help="print the JSON Schema of context-packages.yaml (for editors)",
        **helpful(
            f"Print the JSON Schema that {LOOKUP[0]} is validated against, for an editor or a "
            "linter to check the file with.",
            [
                ("ctxaction config schema", "print it"),
                (
                    "ctxaction config schema > .github/context-packages.schema.json",
                    "keep a local copy for '# yaml-language-server: $schema=./context-packages.schema.json'",
                ),
            ],
        ),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``config show``, ``config init`` or ``config schema``; a broken config is a usage
    error (exit 2) reported by ``cli.main``."""
    if args.action in ("show", "init") and not args.repo.is_dir():
        # A mistyped --repo would show the defaults as if they were the repository's, and init
        # would create the folder and its .github/ to write into.
        what = "is not a folder" if args.repo.exists() else "does not exist"
        raise UsageError(f"--repo {args.repo} {what}: pass the repository's folder")
    if args.action == "show":
        from ctxaction.config.dump import effective_yaml
        from ctxaction.config.load import load_config

        sys.stdout.write(effective_yaml(load_config(args.repo, args.config)))
        return 0
    if args.action == "schema":
        from ctxaction.config.schema import schema_text

        sys.stdout.write(schema_text())
        return 0
    return _init(args.repo, args.path, args.console)


def init_text() -> str:
    """What ``config init`` writes: the schema line for editors, then the commented defaults."""
    from ctxaction.config.schema import MODELINE

    return f"{MODELINE}\n{default_text()}"


def _init(repo: Path, path: Path | None, console: Console) -> int:
    existing = find_config(repo)
    target = path or repo / LOOKUP[0]
    if path is None and existing is not None:
        raise UsageError(f"{existing} already exists; edit it, or pass --path to write elsewhere")
    try:
        write_atomic(target, init_text(), exclusive=True)
    except FileExistsError as exc:
        raise UsageError(f"{target} already exists; not overwriting it") from exc
    console.note(f"wrote {target}")
    return 0
