"""``ctxaction mcp``: serve the packager to a coding agent over the Model Context Protocol (stdio)."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any

from ctxaction.argparser import helpful
from ctxaction.errors import UsageError


def register(subparsers: Any) -> None:
    """Add ``mcp``."""
    parser = subparsers.add_parser(
        "mcp",
        help="run a read-only MCP server over stdio (tools: get_package, get_excerpt, explain)",
        **helpful(
            "Serve context packages to an MCP client (Claude Code, Codex, Gemini CLI, Copilot) over "
            "stdio; stdout carries the protocol. Needs the 'mcp' extra: pip install 'ctxaction[mcp]'.",
            [
                ("ctxaction mcp --repo .", "serve this repository (an MCP client starts this command)"),
                ("claude mcp add ctxaction -- ctxaction mcp --repo .", "register it with Claude Code"),
            ],
        ),
    )
    parser.add_argument("--repo", type=Path, default=Path("."), help="repository root (default: .)")
    parser.add_argument("--config", type=Path, help="config file (default: looked up in the repo)")
    parser.add_argument(
        "--github-repo",
        metavar="OWNER/NAME",
        help="repository an issue number refers to (default: GITHUB_REPOSITORY, then the origin remote); "
        "the token comes from GITHUB_TOKEN or GH_TOKEN",
    )
    parser.add_argument("--encoding", help="tiktoken encoding for token counts (default: from config)")
    parser.add_argument(
        "--allow-estimate",
        action="store_true",
        help="count tokens with a labelled estimate when the tokenizer ranks are not available offline",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check the repository and the SDK, then serve until the client hangs up."""
    if importlib.util.find_spec("mcp") is None:
        raise UsageError("the MCP SDK is not installed: pip install 'ctxaction[mcp]'")
    from ctxaction.mcp_server import Workspace, serve
    from ctxaction.repo.files import RepoError, open_repo

    try:
        with open_repo(args.repo) as repo:
            root = repo.root
    except RepoError as exc:
        raise UsageError(str(exc)) from None
    if args.config is not None and not args.config.is_file():
        raise UsageError(f"config file {args.config} not found")
    # stdout carries the protocol: nothing else may be printed there.
    args.console.note(f"ctxaction mcp: serving {root} over stdio")
    ws = Workspace(root, args.config, github_repo=args.github_repo, encoding=args.encoding)
    ws.allow_estimate = args.allow_estimate
    serve(ws)
    return 0
