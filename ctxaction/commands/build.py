"""``ctxaction build`` (the package) and ``ctxaction explain`` (the candidate table behind it)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ctxaction.argparser import helpful
from ctxaction.console import wants_color
from ctxaction.errors import TaskError, UsageError
from ctxaction.model import Task
from ctxaction.progress import Progress
from ctxaction.render import FORMATS

SAMPLE = "sample-issue.txt"


def register(subparsers: Any) -> None:
    """Add ``build`` and ``explain``."""
    build = subparsers.add_parser(
        "build",
        help="build the context package for an issue or PR",
        **helpful(
            "Rank the repository's files against an issue or pull request and write the context "
            "package (Markdown, XML or JSON) that fits --budget tokens, counted exactly. The task "
            "comes from --issue-file, --issue-json, --issue/--pr (GitHub API), --sample or stdin. "
            "On a terminal, progress shows on stderr; stdout holds only the package.",
            [
                (
                    "ctxaction build --issue-file issue.txt --budget 6000 -o package.md",
                    "pack for a task written in a file (title line, blank line, body)",
                ),
                (
                    "gh issue view 42 --json title,body | ctxaction build --format json",
                    "pack for a GitHub issue piped on stdin, as JSON",
                ),
            ],
        ),
    )
    _common(build)
    build.add_argument(
        "--format",
        choices=FORMATS,
        default="markdown",
        help="output format (default markdown); json's shape is ctxaction/defaults/package.schema.json",
    )
    build.add_argument("--output", "-o", type=Path, help="write here (atomically) instead of stdout")
    build.set_defaults(func=run_build)
    explain = subparsers.add_parser(
        "explain",
        help="show every candidate's score, signals and decision",
        **helpful(
            "Run the same build and show why: each candidate file's score, each signal's part of it, "
            "the reasons, and the decision (whole, excerpt or outline with the lines kept, or dropped "
            "and why). The text table fits the terminal's width; --format json is the same facts "
            "for programs.",
            [
                ("ctxaction explain --sample --repo .", "why each file was or was not packed"),
                (
                    "ctxaction explain --issue-file issue.txt --format json --limit 100",
                    "the first 100 candidates as JSON",
                ),
            ],
        ),
    )
    _common(explain)
    explain.add_argument("--limit", type=int, default=40, help="rows to show (default 40)")
    explain.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        dest="table_format",
        help="text table fitted to the terminal (default) or JSON",
    )
    explain.add_argument(
        "--package-format",
        choices=FORMATS,
        default="markdown",
        dest="format",
        help="the package format whose fitting is explained (default markdown)",
    )
    explain.set_defaults(func=run_explain)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--repo", type=Path, default=Path("."), help="git work tree to pack (default .)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--issue-file", type=Path, help="issue as text: title line, blank line, body")
    source.add_argument("--issue-json", type=Path, help="GitHub issue/PR object as JSON (comments optional)")
    source.add_argument("--issue", type=int, metavar="N", help="fetch issue N from GitHub (needs a token)")
    source.add_argument(
        "--pr", type=int, metavar="N", help="fetch pull request N from GitHub (needs a token)"
    )
    source.add_argument("--sample", action="store_true", help="use the sample issue shipped with ctxaction")
    p.add_argument(
        "--github-repo", metavar="OWNER/NAME", help="repository for --issue/--pr (default: origin)"
    )
    p.add_argument("--token", help="GitHub token for --issue/--pr (default: $GITHUB_TOKEN / $GH_TOKEN)")
    p.add_argument(
        "--task",
        default="auto",
        metavar="PROFILE",
        help="profile: bugfix, feature, another from the config, or auto (from labels; default)",
    )
    p.add_argument("--budget", type=int, help="token budget (default: the profile's)")
    p.add_argument("--config", type=Path, help="config file (default: looked up in the repo)")
    tok = p.add_mutually_exclusive_group()
    tok.add_argument("--encoding", help="tiktoken encoding (default: the config's, o200k_base)")
    tok.add_argument("--model", help="count tokens for this model (gpt-4o, …)")
    p.add_argument(
        "--allow-estimate",
        action="store_true",
        help="count tokens approximately when the tokenizer ranks are unavailable",
    )
    p.add_argument(
        "--include", action="append", default=[], metavar="GLOB", help="always consider these files"
    )
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="never pack these files")
    p.add_argument("--ref", help="pack this commit (read from git objects, never checked out)")
    p.add_argument("--rules-ref", help="read rule files from this commit (e.g. a PR's base)")
    p.add_argument("--history-depth", type=int, metavar="N", help="read at most the last N thread comments")
    p.add_argument("--agent", help="agent preset: generic, claude, codex, gemini, copilot")


def read_task(args: argparse.Namespace) -> Task:
    """The task from whichever source the arguments name (stdin when none)."""
    from ctxaction.task import parse_issue_text, read_issue_file, read_issue_json, read_stdin

    if args.sample:
        from ctxaction.config.source import shipped

        return parse_issue_text(shipped(SAMPLE))
    if args.issue_file:
        return read_issue_file(args.issue_file)
    if args.issue_json:
        return read_issue_json(args.issue_json)
    if args.issue is not None or args.pr is not None:
        from ctxaction.github.fetch import FetchError, fetch_task

        number, kind = (args.issue, "issue") if args.issue is not None else (args.pr, "pr")
        try:
            return fetch_task(number, kind=kind, repo=args.github_repo, token=args.token, cwd=args.repo)
        except FetchError as exc:
            raise TaskError(str(exc)) from exc
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError(
            "no task: pass --issue-file, --issue-json, --issue N, --pr N or --sample, "
            "or pipe the issue on stdin"
        )
    return read_stdin()


def _options(args: argparse.Namespace) -> Any:
    from ctxaction.extras import missing

    # The task's Markdown is always read by the parser (sanitize); tokens and templates as asked.
    needed = ["markdown_it", "nh3"] + ([] if args.allow_estimate else ["tiktoken"])
    needed += [] if args.format == "json" else ["jinja2"]
    needed += ["github"] if args.issue is not None or args.pr is not None else []
    problem = missing(needed)
    if problem:
        raise UsageError(problem)
    from ctxaction.pipeline import BuildOptions
    from ctxaction.secure import quoted
    from ctxaction.secure.globs import pattern_problem

    for flag, patterns in (("--include", args.include), ("--exclude", args.exclude)):
        for pattern in patterns:
            problem = pattern_problem(pattern)
            if problem:
                raise UsageError(f"{flag} {quoted(pattern)}: {problem}")
    if args.budget is not None and args.budget <= 0:
        raise UsageError(f"--budget must be a positive number of tokens, got {args.budget}")
    if args.history_depth is not None and args.history_depth < 0:
        raise UsageError("--history-depth cannot be negative")
    if getattr(args, "limit", 0) < 0:  # explain's; a negative one showed no rows without a word
        raise UsageError(f"--limit cannot be negative, got {args.limit}")
    for flag, number in (("--issue", args.issue), ("--pr", args.pr)):
        # Caught here, not as a 404 from the API after a token and network round trip.
        if number is not None and number <= 0:
            raise UsageError(f"{flag} takes an issue or pull request number (1 or more), got {number}")
    return BuildOptions(
        repo=args.repo,
        task=read_task(args),
        profile=args.task,
        budget=args.budget,
        config_path=args.config,
        fmt=args.format,
        encoding=args.model or args.encoding,
        allow_estimate=args.allow_estimate,
        include=list(args.include),
        exclude=list(args.exclude),
        ref=args.ref,
        rules_ref=args.rules_ref,
        history_depth=args.history_depth,
        agent=args.agent,
        separate_tokenizer=True,
    )


def _guarded(args: argparse.Namespace, action: Callable[[Any, Progress], int]) -> int:
    """Run ``action`` with the options and a progress reporter (stderr, a terminal only); known
    failures become one line on stderr and exit code 1 (2 for usage and write errors, which
    ``cli.main`` reports)."""
    from ctxaction.errors import CtxError

    console = args.console
    try:
        with console.progress(args.command) as progress:
            progress.stage("task")
            return int(action(_options(args), progress))
    except CtxError as exc:
        if exc.exit_code != 1:
            raise
        console.error(f"ctxaction {args.command}", exc.one_line())
        return 1
    except ValueError as exc:
        console.error(f"ctxaction {args.command}", str(exc))
        return 1


def run_build(args: argparse.Namespace) -> int:
    """Build and write the package."""
    from ctxaction.output import write_atomic
    from ctxaction.pipeline import build

    console = args.console

    def action(opts: Any, progress: Progress) -> int:
        result = build(opts, progress=progress)
        progress.stage("deliver")
        if args.output:
            write_atomic(args.output, result.rendered)
            progress.close()
            console.note(
                f"wrote {args.output}: {result.package.total_tokens} tokens, "
                f"{len(result.package.files)} files"
            )
        else:
            console.before_output()
            sys.stdout.write(result.rendered)
            sys.stdout.flush()
            progress.close()
        for warning in result.package.warnings:  # console.warn redacts them: they name files
            console.warn(warning)
        return 0

    return _guarded(args, action)


def run_explain(args: argparse.Namespace) -> int:
    """Print the candidate table (or its JSON form)."""
    from ctxaction.explain import as_json, table
    from ctxaction.pipeline import build

    console = args.console

    def action(opts: Any, progress: Progress) -> int:
        result = build(opts, progress=progress)
        progress.stage("deliver")
        if args.table_format == "json":
            text = as_json(result, args.limit)
        else:
            text = table(result, args.limit, verbose=console.verbose, color=wants_color(sys.stdout))
        console.before_output()
        sys.stdout.write(text)
        sys.stdout.flush()
        progress.close()
        return 0

    return _guarded(args, action)
