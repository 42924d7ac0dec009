"""What ``ctxaction scan`` and the ``ctxaction-secrets`` hook share: options → blobs → report.

Kept free of the packager's imports (no tiktoken, PyGithub or Jinja) so that a hook run starts fast.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ctxaction.errors import ConfigError
from ctxaction.errors import ScanUsageError as ScanUsageError
from ctxaction.secure import baseline as baseline_file
from ctxaction.secure.detect import Detector
from ctxaction.secure.report import render, summary
from ctxaction.secure.rules import ALL_RULES
from ctxaction.secure.run import Located, Outcome, scan_blobs
from ctxaction.secure.settings import load_settings
from ctxaction.secure.sources import Blob, PendingDiff, SourceError, diff, diff_ends, files, repo_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from ctxaction.secure.history import HistoryRange


class ScanOptions:
    """One scan request. Exactly one of ``staged``, ``diff_rev``, ``history`` or ``paths`` picks
    the source.

    ``history`` selects commits whose added lines are scanned (``scan --history``, pushes);
    ``only`` restricts a staged scan to these repository paths (the hook's file arguments);
    ``root`` is the repository when the caller has already found it (saves a git process);
    ``quiet`` leaves out the summary and "wrote" lines on stderr (``ctxaction --quiet scan``),
    ``verbose`` lists every skipped binary file in it (``-v``);
    ``pending`` the staged diff's git processes when the caller has already started them.
    """

    def __init__(
        self,
        paths: list[Path] | None = None,
        *,
        staged: bool = False,
        diff_rev: str | None = None,
        history: HistoryRange | None = None,
        all_lines: bool = False,
        no_ignore: bool = False,
        fmt: str = "text",
        output: Path | None = None,
        baseline: Path | None = None,
        update_baseline: bool = False,
        config: Path | None = None,
        only: list[str] | None = None,
        cwd: Path | None = None,
        root: Path | None = None,
        quiet: bool = False,
        verbose: bool = False,
        pending: PendingDiff | None = None,
    ) -> None:
        self.paths = list(paths or [])
        self.staged = staged
        self.diff_rev = diff_rev
        self.history = history
        self.all_lines = all_lines
        self.no_ignore = no_ignore
        self.fmt = fmt
        self.output = output
        self.baseline = baseline
        self.update_baseline = update_baseline
        self.config = config
        self.only = only
        self.cwd = cwd or Path.cwd()
        self.root = root
        self.quiet = quiet
        self.verbose = verbose
        self.pending = pending


def execute(opts: ScanOptions) -> int:
    """Run a scan and print the report: 1 when secrets were found, 0 when clean, 2 on bad usage."""
    try:
        outcome = collect(opts)
    except (SourceError, ConfigError, baseline_file.BaselineError) as exc:
        raise ScanUsageError(str(exc)) from None
    if opts.update_baseline:
        assert opts.baseline is not None
        count = baseline_file.dump(
            opts.baseline,
            (
                (item.path, item.finding.line, item.finding.rule, item.finding.fingerprint, item.commit)
                for item in outcome.findings
            ),
        )
        if not opts.quiet:
            from ctxaction.printable import printable
            from ctxaction.secure import redact_text  # the path was given by the user: it may hold a token

            shown = printable(redact_text(str(opts.baseline)))
            print(f"ctxaction: wrote {count} finding(s) to baseline {shown}", file=sys.stderr)
        return 0
    report = render(outcome, opts.fmt)
    if opts.output is not None:
        from ctxaction.output import write_atomic

        write_atomic(opts.output, report)
    elif report:
        sys.stdout.write(report)
    if not opts.quiet:
        sys.stderr.write(summary(outcome, opts.verbose))
    return 1 if outcome.findings else 0


def collect(opts: ScanOptions) -> Outcome:
    """Scan what ``opts`` selects; raises the sources', settings' and baselines' errors (or
    :class:`ScanUsageError`) for bad input."""
    if opts.update_baseline and opts.baseline is None:
        raise ScanUsageError("--update-baseline needs --baseline FILE")
    in_git = opts.staged or opts.diff_rev is not None or opts.history is not None
    sources = sum([opts.staged, opts.diff_rev is not None, opts.history is not None, bool(opts.paths)])
    if sources > 1:
        raise ScanUsageError("choose one source: --staged, --diff REV, --history [RANGE] or PATH…")
    # Scanning PATHs: the settings are those of the repository holding them, not of the folder
    # the command runs in (`ctxaction scan ../other-repo` reads other-repo's config).
    start = opts.cwd
    if opts.paths:
        first = opts.paths[0] if opts.paths[0].is_absolute() else opts.cwd / opts.paths[0]
        start = first if first.exists() else opts.cwd
    root = opts.root or repo_root(start)
    if in_git and root is None:
        raise ScanUsageError(f"{opts.cwd}: not a git repository (run inside one, or scan PATH… instead)")
    settings = load_settings(root or opts.cwd, opts.config)
    detector = Detector(ALL_RULES, settings.allowlist)
    known = baseline_file.Baseline()
    if opts.baseline is not None and not opts.update_baseline:
        known = baseline_file.load(opts.baseline)
    # gitleaks reads a .gitleaksignore at the top of the repository by itself; so do we.
    ignore = (root or opts.cwd) / ".gitleaksignore"
    if not opts.update_baseline and ignore.is_file() and not ignore.is_symlink():
        known.merge(baseline_file.load(ignore))
    outcome = scan_blobs(_blobs(opts, root, settings.max_file_size), detector, known)
    if opts.diff_rev is not None:
        outcome.findings = _first_of_each(outcome.findings)
    return outcome


def _first_of_each(findings: list[Located]) -> list[Located]:
    """One finding per secret and path: ``--diff`` reads the net diff first, then the commits of
    the range, which repeat what the net diff still holds."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for item in findings:
        key = (item.path, item.finding.fingerprint)
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept


def _blobs(opts: ScanOptions, root: Path | None, max_bytes: int) -> Iterable[Blob]:
    if opts.staged:
        assert root is not None
        pending = opts.pending or PendingDiff(root, ["--cached"], all_lines=opts.all_lines)
        index = pending.blobs(only=opts.only, max_bytes=max_bytes)
        blobs = index.blobs
        if opts.only is not None:
            # Files the hook was handed that are not staged (pre-push, manual runs): scan them whole.
            # Deletion-only or mode-only changes are staged too, so they are not "unstaged".
            rest = [root / p for p in sorted(set(opts.only) - index.paths) if (root / p).is_file()]
            blobs += list(files(rest, no_ignore=True, max_bytes=max_bytes, base=root))
        return blobs
    if opts.history is not None:
        assert root is not None
        from ctxaction.secure.history import check_revs, history

        check_revs(root, opts.history.revs)
        return history(root, opts.history, max_bytes=max_bytes)
    if opts.diff_rev is not None:
        assert root is not None
        from itertools import chain

        from ctxaction.secure.history import HistoryRange, history

        # The net diff misses a secret added and removed again inside the range: read the
        # range's commits too.
        base, head = diff_ends(root, opts.diff_rev)
        net = diff(root, opts.diff_rev, all_lines=opts.all_lines, max_bytes=max_bytes)
        return chain(net, history(root, HistoryRange([f"{base}..{head}"]), max_bytes=max_bytes))
    paths = [p if p.is_absolute() else opts.cwd / p for p in (opts.paths or [Path(".")])]
    # Paths are shown and allowlisted relative to the repository (the config's patterns are).
    return list(files(paths, no_ignore=opts.no_ignore, max_bytes=max_bytes, base=root or opts.cwd))
