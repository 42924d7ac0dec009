"""The straight line: task → candidates → scores → filter → budget → render.

:func:`build` runs it and keeps what ``ctxaction explain`` shows; :func:`build_package` is the
public entry point for the CLI, the GitHub Action and the MCP server. Every stage below is a
function from plain values to plain values; git, files and the tokenizer sit at the edges.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ctxaction import agents, mentions, rank
from ctxaction.config.load import load_config
from ctxaction.config.model import Config, Profile
from ctxaction.config.source import find_config
from ctxaction.errors import BuildError as BuildError
from ctxaction.filter import PathFilter, Readable, Redactor, configured_detector, filter_candidates
from ctxaction.model import Candidate, Excluded, OmittedFile, Package, Task
from ctxaction.pack.budget import BudgetError
from ctxaction.pack.history import drop_unanswered, fit_text, pack_history
from ctxaction.pack.lines import FileSource
from ctxaction.pack.rules import pack_rules, skills_index
from ctxaction.progress import NO_PROGRESS, Progress
from ctxaction.rank.resolve import resolve_path
from ctxaction.render import render as render_text
from ctxaction.render.fit import TASK_LABEL, Fitter, render_fitted
from ctxaction.repo import git
from ctxaction.repo.files import RepoError, RepoView, open_repo
from ctxaction.repo.imports import ModuleIndex
from ctxaction.repo.memo import cached
from ctxaction.repo.warm import WarmRepos
from ctxaction.sanitize import clean_task
from ctxaction.secure import PathRules
from ctxaction.secure.globs import gitignore_spec, matching
from ctxaction.tokenizer_process import Counting
from ctxaction.tokens import get_counter

__all__ = ["BudgetError", "BuildError", "BuildOptions", "BuildResult", "build", "build_package", "render"]

# The task body may take at most this share of the budget (its head and tail are kept).
TASK_SHARE = 0.25
# Files read and filtered per package: enough spares to replace excluded or huge candidates.
SPARE_FACTOR = 2
LISTED_EXCLUDED = 20
LISTED_SKILLS = 20
OVERVIEW_FILES = ("README.md", "README.rst", "README.txt", "README")
# Anything shaped like a file name (any extension: images, archives, data), for files set aside.
_PATH_TOKEN = re.compile(r"(?<![\w./\-])[\w.\-]*(?:/[\w.\-]+)*\.\w+")

Ranker = Callable[[RepoView, Task, Profile], list[Candidate]]


@dataclass
class BuildOptions:
    """Everything a build needs; ``task`` is already read from its source."""

    repo: Path
    task: Task
    profile: str = "auto"
    budget: int | None = None
    config_path: Path | None = None
    fmt: str = "markdown"
    encoding: str | None = None
    allow_estimate: bool = False
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    ref: str | None = None
    rules_ref: str | None = None
    history_depth: int | None = None
    agent: str | None = None
    # Count tokens in a child process (a one-shot build: the CLI); long-lived callers, and the
    # action, which renders the package again in other formats, load the tokenizer in-process.
    separate_tokenizer: bool = False


@dataclass
class BuildResult:
    """The package and what led to it (for ``explain``)."""

    package: Package
    candidates: list[Candidate]
    decisions: dict[str, str]
    profile: Profile
    rendered: str


def render(package: Package, fmt: str) -> str:
    """The package as text (markdown, xml or json), within its budget in that format too: a
    package fitted for another format is recounted and, if it would run over, trimmed of its
    weakest files (``total_tokens`` always states the returned text's count)."""
    if package.fitted_for in ("", fmt):
        return render_text(package, fmt)
    counter = get_counter(package.encoding, allow_estimate=not package.tokenizer_exact)
    return render_fitted(package, fmt, counter)


def build_package(opts: BuildOptions) -> Package:
    """Build the context package for ``opts`` (total_tokens never exceeds the budget)."""
    return build(opts).package


def build(
    opts: BuildOptions,
    ranker: Ranker = rank.collect,
    warm: WarmRepos | None = None,
    progress: Progress = NO_PROGRESS,
) -> BuildResult:
    """Run the whole line and keep the candidate table. Raises BuildError, BudgetError,
    ConfigError, RepoError or TokenizerError with a one-line message. ``ranker`` is phases 1–2
    (``bench/replay.py`` replays stored rankings through the rest of the line); ``warm`` keeps
    each repository's task-independent work between builds (the MCP server), same package;
    ``progress`` is told when each stage starts (the CLI shows it on a terminal)."""
    try:
        repo = open_repo(opts.repo, ref=opts.ref) if warm is None else warm.open(opts.repo, ref=opts.ref)
    except RepoError as exc:
        raise BuildError(str(exc)) from exc
    with repo:
        if not repo.head:
            raise BuildError(f"{repo.root} has no commits yet: commit the code to pack first")
        config = _config(repo, opts.config_path)
        model = opts.encoding or config.token_model
        with Counting(model, opts.allow_estimate, separate=opts.separate_tokenizer) as counting:
            return _build(opts, repo, config, counting, ranker, progress)


def _config(repo: RepoView, explicit: Path | None) -> Config:
    """The configuration; parsing the defaults alone takes a tenth of a second, so a warm view
    keeps it while the config file holds the same bytes (an unreadable file is never kept)."""
    found = find_config(repo.root, explicit)
    try:
        key = ("config", str(found), found.read_bytes() if found else b"")
    except OSError:
        return load_config(repo.root, explicit)
    return cached(repo.memo, key, lambda: load_config(repo.root, explicit))


def _build(
    opts: BuildOptions, repo: RepoView, config: Config, counting: Counting, ranker: Ranker, progress: Progress
) -> BuildResult:
    if not repo.tracked():  # here, not before: the tokenizer child starts while git lists files
        raise BuildError(_nothing_tracked(repo))
    task, report = clean_task(opts.task)
    preset = agents.get_preset(opts.agent or config.agent)
    profile = agents.apply_preset(config.profile(opts.profile, task.labels), preset)
    total = opts.budget if opts.budget is not None else profile.budget.total_tokens
    if total <= 0:
        raise BudgetError(f"budget must be a positive number of tokens, got {total}")
    sections = profile.budget.sections(total)
    warnings = _repo_warnings(repo) + report.warnings()
    redactor = Redactor(configured_detector(config.secrets))
    task = dataclasses.replace(
        task, title=redactor(task.title, TASK_LABEL), body=redactor(task.body, TASK_LABEL)
    )
    # Loading the tokenizer takes a quarter of a second of CPU, holding the GIL. A one-shot build
    # loads it in a child process, beside the ranking; otherwise on a thread, after the
    # inventory, whose thousands of short system calls would each wait for the GIL behind it.
    progress.stage("candidates")
    repo.tracked()
    progress.stage("scores")
    counting.start()
    candidates = _candidates(repo, task, profile, opts.include, warnings, ranker)
    counter = counting.result()
    if not counter.exact:
        warnings.append(f"token counts are estimates: the {counter.encoding} ranks were not available")
    # The ranking read the body as written; the package shows it without the unanswered questions.
    body = drop_unanswered(task.body)
    task = dataclasses.replace(task, body=fit_text(body, int(total * TASK_SHARE), counter))
    progress.stage("filter")
    paths = PathFilter(repo, PathRules.from_repo(repo.root, config.sensitive_paths), opts.exclude)
    filtered = filter_candidates(candidates, repo, paths, profile.max_files * SPARE_FACTOR)
    named = _named_but_skipped(repo, task)
    warnings += [
        f"{r.candidate.path} is not UTF-8 text (Latin-1 or another legacy encoding?): "
        "its undecodable bytes are shown as U+FFFD"
        for r in filtered.kept[: profile.max_files]
        if r.candidate.path in repo.not_utf8
    ]
    filtered.excluded = [*named, *(e for e in filtered.excluded if e not in named)]
    selected = [r.candidate.path for r in filtered.kept[: profile.max_files]]
    progress.stage("budget")
    rules_repo = open_repo(repo.root, ref=opts.rules_ref) if opts.rules_ref else repo
    try:
        rules = pack_rules(
            rules_repo,
            config.rule_sources,
            selected,
            sections["rules"],
            counter,
            nested=config.nested_rules,
            native=preset.native_rules,
            clean=redactor,
        )
        skills = skills_index(rules_repo, config.skills, clean=redactor)[:LISTED_SKILLS]
    finally:
        if rules_repo is not repo:
            rules_repo.close()
    history = pack_history(
        task.comments,
        sections["history"],
        counter,
        depth=opts.history_depth,
        clean=lambda text: redactor(text, TASK_LABEL),
    )
    package = Package(
        task=task,
        profile=profile.name,
        rules=rules,
        skills=skills,
        history=history,
        excluded=filtered.excluded[:LISTED_EXCLUDED],
        budget_total=total,
        budget_sections=sections,
        encoding=counter.encoding,
        tokenizer_exact=counter.exact,
        head=repo.head,
        shallow=repo.shallow,
        warnings=warnings,
    )
    fitter = Fitter(
        package,
        [_source(r) for r in filtered.kept],
        opts.fmt,
        counter,
        redactor,
        max_files=profile.max_files,
        min_files=profile.min_files,
        context=profile.context_lines,
    )
    progress.stage("render")
    packing, rendered = fitter.run()
    decisions = _decisions(candidates, filtered.excluded, [*packing.omitted, *package.omitted], package)
    return BuildResult(package, candidates, decisions, profile, rendered)


UNMERGED_NAMED = 5  # unmerged paths a warning names (then "and N more")


def _nothing_tracked(repo: RepoView) -> str:
    """Why the inventory is empty, and what to do: a package of no files is no package."""
    if repo.ref is None and (git.try_run(repo.root, ["ls-tree", "--name-only", repo.head]) or "").strip():
        return (
            f"{repo.root}: the index lists no files though HEAD has some (`git rm -r --cached`, or "
            "a lost .git/index): run `git reset` to restore the index, or pass --ref HEAD"
        )
    return f"{repo.root} tracks no files at {repo.ref or 'HEAD'}: commit the code to pack first"


def _repo_warnings(repo: RepoView) -> list[str]:
    warnings = []
    if repo.shallow:
        warnings.append(
            "shallow clone: recent changes, co-change and blame only see the fetched history "
            "(fetch more with `git fetch --unshallow`)"
        )
    if repo.unmerged:
        warnings.append(_unmerged_warning(repo.unmerged))
    return warnings


def _unmerged_warning(paths: Sequence[str]) -> str:
    """One line for a work tree stopped in a merge (rebase, cherry-pick …) with conflicts. The
    package packs the work tree, so these files go in as they are on disk, conflict markers and
    all: what the agent will open and edit, and both sides of the conflict."""
    shown = ", ".join(paths[:UNMERGED_NAMED])
    more = f" and {len(paths) - UNMERGED_NAMED} more" if len(paths) > UNMERGED_NAMED else ""
    return (
        f"{len(paths)} unmerged path{'s' if len(paths) > 1 else ''} (a merge, rebase, cherry-pick "
        f"or stash stopped on conflicts): {shown}{more}; the package shows their working copies, "
        "conflict markers included (resolve and `git add` them, or abort, for a clean package)"
    )


def _candidates(
    repo: RepoView,
    task: Task,
    profile: Profile,
    include: Sequence[str],
    warnings: list[str],
    ranker: Ranker,
) -> list[Candidate]:
    """Ranked candidates, plus forced (--include, required files) and fallback (overview) ones."""
    ranked = ranker(repo, task, profile)
    top = max((c.score for c in ranked), default=0.0)
    tracked = repo.paths()
    forced: list[Candidate] = []
    for pattern in include:
        forced += [
            Candidate(p, reasons=["included by --include"], score=top + 1.0)
            for p in matching(gitignore_spec([pattern]), tracked)
        ]
    for required in profile.required_files:
        forced += [
            Candidate(
                p,
                reasons=["required by the profile"],
                score=top + 1.0,
                required=True,
                max_lines=required.max_lines,
            )
            for p in matching(gitignore_spec([required.pattern]), tracked)
        ]
    if mentions.extract(task.title, task.body).empty:
        warnings.append(
            "the task names no paths, identifiers or keywords: packed a repository overview "
            "(README) and the most recently changed files instead"
        )
        forced += [
            Candidate(p, reasons=["repository overview"], score=top + 0.5)
            for p in OVERVIEW_FILES
            if p in tracked
        ][:1]
    unique: dict[str, Candidate] = {}
    for candidate in forced:
        unique.setdefault(candidate.path, candidate)
    return [*unique.values(), *(c for c in ranked if c.path not in unique)]


def _named_but_skipped(repo: RepoView, task: Task) -> list[Excluded]:
    """Files the task names (paths, traceback frames) that the inventory set aside before ranking
    (binary, LFS pointer, too large, symlink leaving the repository …), listed with the reason so
    the reader learns they were seen and why they are not in the package."""
    skipped = {f.path: f.skip_reason for f in repo.tracked() if f.skip_reason}
    if not skipped:
        return []
    index = ModuleIndex.build(skipped)
    named: dict[str, Excluded] = {}
    text = f"{task.title}\n{task.body}".replace("\\", "/")
    for raw in dict.fromkeys(m.group(0).strip("./") for m in _PATH_TOKEN.finditer(text)):
        for hit in resolve_path(raw, index):
            named.setdefault(hit.path, Excluded(hit.path, skipped[hit.path] or "skipped"))
    return list(named.values())


def _source(readable: Readable) -> FileSource:
    candidate = readable.candidate
    if not candidate.required:
        return FileSource(candidate, readable.lines)
    end = (
        len(readable.lines) if candidate.max_lines is None else min(candidate.max_lines, len(readable.lines))
    )
    return FileSource(candidate, readable.lines, pinned=((1, end),) if end else ())


def _decisions(
    candidates: Sequence[Candidate],
    excluded: Sequence[Excluded],
    omitted: Sequence[OmittedFile],
    package: Package,
) -> dict[str, str]:
    """Per candidate path: whole / excerpt / outline / dropped, and why."""
    out = {e.path: f"excluded: {e.reason}" for e in excluded}
    out.update({o.path: f"dropped: {o.reason}" for o in omitted})
    for f in package.files:
        shown = sum(b - a + 1 for a, b in f.ranges)
        out[f.path] = "whole" if f.mode == "full" else f"{f.mode}: {shown} of {f.line_count} lines"
    for candidate in candidates:
        out.setdefault(candidate.path, "dropped: below the files read for this package")
    return out
