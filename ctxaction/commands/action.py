"""``ctxaction action``: the GitHub Action entrypoint (the Docker image's ENTRYPOINT).

It takes no arguments: everything comes from the environment a runner gives a container action
(``INPUT_*`` for the ``with:`` values, ``GITHUB_*`` for the event, workspace and output files).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ctxaction.argparser import helpful


def register(subparsers: Any) -> None:
    """Add ``action``."""
    parser = subparsers.add_parser(
        "action",
        help="run the GitHub Action (reads INPUT_* and GITHUB_* from the environment)",
        **helpful(
            "Run the GitHub Action flow: read the event, build the package, deliver it as a comment, "
            "artifact and/or job summary. It takes no arguments: inputs come from INPUT_* "
            "environment variables, the event from GITHUB_EVENT_PATH (the Docker image's entrypoint).",
            [
                (
                    "GITHUB_EVENT_NAME=issues GITHUB_EVENT_PATH=event.json GITHUB_WORKSPACE=. "
                    "ctxaction action",
                    "replay a saved issue event on this checkout (no token: the package goes to the summary)",
                ),
                (
                    "INPUT_BUDGET=6000 INPUT_FORMAT=json GITHUB_EVENT_NAME=issues "
                    "GITHUB_EVENT_PATH=event.json ctxaction action",
                    "the same with the action's budget and format inputs",
                ),
            ],
        ),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the action with this process's environment."""
    from ctxaction.extras import missing

    problem = missing(("github", "tiktoken", "jinja2", "markdown_it", "nh3"))
    if problem:
        print(f"ctxaction action: {problem}", file=sys.stderr)
        return 2
    from ctxaction.github.action import main

    return main()
