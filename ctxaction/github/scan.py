"""``scan: true``: the action scans the commits of a pull request (or a push) for secrets instead of
building a package, and reports each finding as an ``::error file=…,line=…::`` annotation and in
a SARIF file for code scanning (``.ctxaction/secrets.sarif``, output ``sarif-path``).

Every commit's added lines count, so a key added in one commit of the PR and removed in the next
is still reported (the PR's diff would not show it). Commits missing from a shallow checkout are
fetched (the PR head by its ref, the base by deepening); when they cannot be, the error says to
set ``fetch-depth: 0``. Other events scan the checked-out tree.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from ctxaction.agents import PACKAGE_DIR
from ctxaction.github import checkout
from ctxaction.github.deliver import append_file, format_outputs
from ctxaction.github.event import SHA_RE
from ctxaction.github.inputs import Inputs
from ctxaction.github.log import MAX_ANNOTATIONS, Log, workflow_command
from ctxaction.output import owner_for, write_atomic
from ctxaction.secure.history import HistoryRange

SARIF_PATH = f"{PACKAGE_DIR}/secrets.sarif"
_ZERO = "0" * 40


class ScanSetupError(Exception):
    """The commits to scan cannot be determined or read; the message says what to change."""


def _field(payload: object, *path: str) -> object:
    node = payload
    for part in path:
        node = node.get(part) if isinstance(node, Mapping) else None
    return node


def commits_to_scan(event: str, payload: object) -> tuple[HistoryRange | None, int, str]:
    """``(range, pr number, head sha)`` for the event; no range means the checked-out tree.

    A pull request: ``base..head``. A push: ``before..after``; a new branch (``before`` all
    zeros): from the parents of the oldest commit the payload lists to ``after``.
    """

    def sha(*path: str) -> str:
        value = _field(payload, *path)
        return value if isinstance(value, str) and SHA_RE.match(value) else ""

    if event in ("pull_request", "pull_request_target"):
        base, head = sha("pull_request", "base", "sha"), sha("pull_request", "head", "sha")
        number = _field(payload, "pull_request", "number")
        if not (base and head) or not isinstance(number, int) or isinstance(number, bool):
            raise ScanSetupError(
                "event payload: pull_request.base.sha, pull_request.head.sha and pull_request.number "
                "must be commit ids and a number"
            )
        return HistoryRange([f"{base}..{head}"]), number, head
    if event == "push":
        before, after = sha("before"), sha("after")
        if not after or after == _ZERO:
            return None, 0, ""  # a deleted branch pushes nothing; an odd payload: scan the tree
        if before and before != _ZERO:
            return HistoryRange([f"{before}..{after}"]), 0, after
        commits = _field(payload, "commits")
        first = _field(commits[0], "id") if isinstance(commits, list) and commits else None
        if isinstance(first, str) and SHA_RE.match(first):
            return HistoryRange([after, f"^{first}^@"]), 0, after
        return HistoryRange([f"{after}^!"]), 0, after
    return None, 0, ""


def _ensure_commits(root: Path, span: HistoryRange, number: int, head: str, inputs: Inputs, log: Log) -> None:
    """Fetch what the range needs into a shallow or single-branch checkout."""
    needed = [part.strip("^!@") for rev in span.revs for part in rev.split("..") if part.strip("^!@")]
    if all(checkout.has_commit(root, sha) for sha in needed):
        return
    if number and head:
        why = checkout.fetch_pull_head(root, number, head, max(inputs.history_depth, 1))
        if why is not None:
            log.annotate("warning", f"the PR head {head[:12]} could not be fetched ({why})")
    if checkout.is_shallow(root) or not all(checkout.has_commit(root, sha) for sha in needed):
        why = checkout.deepen(root, inputs.history_depth)
        if why is not None:
            log.line(f"could not deepen the checkout: {why}")
    missing = [sha[:12] for sha in needed if not checkout.has_commit(root, sha)]
    if missing:
        raise ScanSetupError(
            f"commit(s) {', '.join(missing)} are not in the checkout: set `fetch-depth: 0` on "
            "actions/checkout so the pull request's commits can be scanned"
        )


def run_scan(inputs: Inputs, workspace: Path, env: Mapping[str, str], log: Log) -> int:
    """Scan, annotate, write the SARIF file and the outputs; 1 when secrets were found."""
    from ctxaction.agents import get_preset
    from ctxaction.errors import CtxError
    from ctxaction.github.handoff.excludes import keep_out_of_commits
    from ctxaction.secure.cli import ScanOptions, ScanUsageError, collect
    from ctxaction.secure.sarif import render

    try:
        payload = json.loads(Path(env.get("GITHUB_EVENT_PATH", "")).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        payload = {}
    event = env.get("GITHUB_EVENT_NAME", "")
    config = workspace / inputs.config if inputs.config else None
    try:
        span, number, head = commits_to_scan(event, payload)
        if span is not None:
            with checkout.credentials(workspace, inputs.token, env.get("GITHUB_SERVER_URL", "")):
                _ensure_commits(workspace, span, number, head, inputs, log)
            opts = ScanOptions(history=span, config=config, cwd=workspace, root=workspace)
            what = f"{event}: the added lines of {' '.join(span.revs)}"
        else:
            opts = ScanOptions(paths=[workspace], config=config, cwd=workspace, root=workspace)
            what = f"{event or 'this event'}: the checked-out tree"
        outcome = collect(opts)
    except (ScanSetupError, ScanUsageError) as exc:
        log.annotate("error", str(exc))
        return 1
    found, known = len(outcome.findings), outcome.baselined
    log.line(f"ctxaction secret scan of {what}: {found} finding(s), {known} in the baseline")
    for item in outcome.findings:
        where = f" in commit {item.commit[:12]}" if item.commit else ""
        message = f"Possible secret ({item.finding.rule}){where}: {item.finding.preview}"
        props = {
            "file": item.path,
            "line": str(item.finding.line),
            "endLine": str(item.finding.last_line),
            "col": str(item.finding.column),
            "title": f"ctxaction: {item.finding.rule}",
        }
        kind = "warning" if log.fail_open else "error"
        log.counts[kind] = log.counts.get(kind, 0) + 1
        if log.counts[kind] <= MAX_ANNOTATIONS:  # all GitHub shows per step; the SARIF has every one
            log.line(workflow_command(kind, message, **props))
        else:
            log.line(f"{item.path}:{item.finding.line}: {message}")
    try:
        # The safe writer: no symlink on the way, handed to the workspace's owner; the folder is
        # kept out of commits as the package's is.
        owner = owner_for(workspace)
        write_atomic(workspace / SARIF_PATH, render(outcome), inside=workspace, owner=owner)
        keep_out_of_commits(workspace, get_preset("generic"), owner)
    except (CtxError, OSError) as exc:
        log.annotate("error", f"cannot write {SARIF_PATH}: {exc}")
        return 1
    output = env.get("GITHUB_OUTPUT")
    if output:
        append_file(output, format_outputs({"sarif-path": SARIF_PATH, "secrets": str(len(outcome.findings))}))
    return 1 if outcome.findings else 0
