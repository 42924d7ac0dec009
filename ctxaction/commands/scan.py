"""``ctxaction scan``: find secrets in staged changes, a diff, or files and folders."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ctxaction.argparser import helpful
from ctxaction.errors import UsageError


def register(subparsers: Any) -> None:
    """Add the ``scan`` parser."""
    parser = subparsers.add_parser(
        "scan",
        help="find secrets in staged changes, a diff, or files",
        **helpful(
            "Find secrets (API keys, tokens, private keys, passwords, credential URLs) in what the "
            "next commit adds, in a diff, in every commit of the history, or in files and folders. "
            "Exit code 1 when secrets are found, 0 when clean, 2 on a usage error.",
            [
                ("ctxaction scan --staged", "what the next commit adds (what the pre-commit hook checks)"),
                (
                    "ctxaction scan --history main --format sarif -o secrets.sarif",
                    "every commit on main, as a SARIF report for code scanning",
                ),
            ],
        ),
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="files or folders to scan (default: the current folder)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--staged", action="store_true", help="scan what the next commit adds (the index)")
    source.add_argument(
        "--diff",
        metavar="REV",
        dest="diff_rev",
        help="scan what HEAD adds since REV (or a range A..B), and every commit in between",
    )
    source.add_argument(
        "--history",
        nargs="?",
        const="",
        metavar="RANGE",
        help="scan the lines every commit added: all refs, or RANGE (A..B, a branch, a commit)",
    )
    parser.add_argument(
        "--since", metavar="DATE", help="with --history: only commits newer than DATE (e.g. 2024-01-01)"
    )
    parser.add_argument(
        "--all-lines",
        action="store_true",
        help="with --staged/--diff: scan whole changed files, not only added lines",
    )
    parser.add_argument("--no-ignore", action="store_true", help="with PATH: also scan git-ignored files")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text", dest="fmt")
    parser.add_argument("--output", "-o", type=Path, help="write the report to this file (atomically)")
    parser.add_argument(
        "--baseline", type=Path, metavar="FILE", help="ignore findings listed in this baseline"
    )
    parser.add_argument(
        "--update-baseline",
        action="store_true",
        help="write every current finding to --baseline FILE and exit 0",
    )
    parser.add_argument("--config", type=Path, help="config file (default: context-packages.yaml lookup)")
    parser.add_argument("--list-rules", action="store_true", help="list the detection rules and exit")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the scan; returns the exit code."""
    from ctxaction.secure.cli import ScanOptions, ScanUsageError, execute

    if args.list_rules:
        from ctxaction.secure.rules import ALL_RULES

        for rule in ALL_RULES:
            print(f"{rule.id}\t{rule.description}")
        return 0
    if args.paths and (args.staged or args.diff_rev or args.history is not None):
        raise UsageError("PATH cannot be combined with --staged, --diff or --history")
    if args.since is not None and args.history is None:
        raise UsageError("--since needs --history")
    span = None
    if args.history is not None:
        from ctxaction.secure.history import HistoryRange

        span = HistoryRange([args.history] if args.history else [], since=args.since)
    opts = ScanOptions(
        paths=list(args.paths),
        staged=args.staged,
        diff_rev=args.diff_rev,
        history=span,
        all_lines=args.all_lines,
        no_ignore=args.no_ignore,
        fmt=args.fmt,
        output=args.output,
        baseline=args.baseline,
        update_baseline=args.update_baseline,
        config=args.config,
        quiet=args.console.quiet,
        verbose=args.console.verbose,
    )
    try:
        return execute(opts)
    except ScanUsageError as exc:
        raise UsageError(str(exc)) from None
