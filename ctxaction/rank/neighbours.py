"""Signals around the strongest candidates: imports both ways, tests ↔ sources, history
(change frequency, co-change, commits naming the issue, blame of named lines)."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence

from ctxaction.rank.board import Board
from ctxaction.rank.candidates import Context
from ctxaction.repo import history, search
from ctxaction.repo.files import RepoView
from ctxaction.repo.imports import (
    C_HEADERS,
    header_source_pairs,
    imports_of,
    is_test_path,
    module_names,
    resolve_import_line,
    sources_for,
    tests_for,
)
from ctxaction.repo.kinds import code_globs, language_of
from ctxaction.repo.memo import cached
from ctxaction.secure import clip

# One ``-e`` each, not one alternation: git keeps a line any of them matches (the same lines), and
# each pattern alone keeps PCRE's start optimizations (a line start, a first letter) that an
# alternation holding ``^\s*`` loses. Import lines naming the strongest files are rare, so the
# passes git makes per pattern cost little: 0.58 -> 0.21 s on kueue (10,710 files, best of three),
# about half on the dev split's repositories.
_IMPORT_LINES = (
    r"^\s*(from|import)\s.*\b({names})\b",
    r"require\s*\(.*\b({names})\b",
    r"\bfrom\s+['\"][^'\"]*\b({names})\b",
    r"#\s*include\s+[\"<][^\">]*\b({names})\b",
    r"^\s*(pub\s+)?(use|mod)\s.*\b({names})\b",
)
MAX_REVERSE_IMPORTERS = 30
RECENT_FALLBACK = 10
# A quoted commit subject is cut after this many characters: enough to tell what the commit did.
SUBJECT_CHARS = 50


def imports(ctx: Context, strong: Sequence[tuple[str, float]]) -> None:
    """Files that strong candidates import, and files that import them."""
    for path, rel in strong:
        text = ctx.repo.read_text(path)
        if text is None:
            continue
        find = functools.partial(imports_of, path, text, ctx.index)
        deps = set(cached(ctx.repo.memo, ("imports", path, text), find))
        for dep in deps:
            ctx.board.add(
                dep,
                "import_distance",
                0.6 * rel / math.sqrt(max(1, len(deps)) / 4 + 1),
                f"imported by {path}",
            )
        for pair in header_source_pairs(path, ctx.index):
            kind = "header" if pair.endswith(C_HEADERS) else "source"
            ctx.board.add(pair, "import_distance", 0.8 * rel, f"{kind} of {path}")
    names: dict[str, list[str]] = {}
    for path, _ in strong:
        for name in module_names(path):
            names.setdefault(name, []).append(path)
    if not names:
        return
    alternation = "|".join(re.escape(n) for n in names)
    engine = "-P" if search.has_pcre(ctx.repo) else "-E"
    patterns = [line.format(names=alternation) for line in _IMPORT_LINES]
    hits = search.grep(ctx.repo, [engine], patterns, code_globs())
    rel_of = dict(strong)
    importers: dict[str, set[str]] = {}
    for hit in hits:
        if hit.path not in ctx.files:
            continue
        for target in _imported_strong(hit.path, hit.text, ctx, rel_of):
            importers.setdefault(target, set()).add(hit.path)
    for target, files in importers.items():
        spread = 1.0 / math.sqrt(max(1, len(files)))
        for f in sorted(files)[:MAX_REVERSE_IMPORTERS]:
            ctx.board.add(f, "import_distance", 0.6 * rel_of[target] * spread, f"imports {target}")


def _imported_strong(path: str, line: str, ctx: Context, rel_of: dict[str, float]) -> list[str]:
    return [
        t for t in resolve_import_line(path, line, language_of(path), ctx.index) if t in rel_of and t != path
    ]


def tests(ctx: Context, strong: Sequence[tuple[str, float]]) -> None:
    """Tests of strong sources, and sources of named or strong tests."""
    for path, rel in strong:
        if is_test_path(path):
            for src in sources_for(path, ctx.index):
                ctx.board.add(src, "test_proximity", 0.8 * rel, f"source of the test {path}")
        else:
            for test in tests_for(path, ctx.index):
                ctx.board.add(test, "test_proximity", 0.6 * rel, f"tests {path}")


def from_history(
    ctx: Context,
    hist: history.History,
    strong: Sequence[tuple[str, float]],
    days: int,
    phrases: Sequence[str],
    tied: Sequence[tuple[history.Commit, str]],
) -> None:
    """Change frequency of candidates, co-change partners, the commits tied to the issue
    (:func:`tied_commits`, with the reason each gives), commits naming its identifiers."""
    board: Board = ctx.board
    counts = hist.change_counts(days)
    if counts:
        top = max(counts.values())
        if not board.entries:
            # The text named nothing we could find: offer what changed recently instead.
            for path, _ in counts.most_common(RECENT_FALLBACK):
                board.entry(path)
        for path in list(board.entries):
            n = counts.get(path, 0)
            if n:
                board.add(
                    path,
                    "change_frequency",
                    math.log1p(n) / math.log1p(top),
                    f"changed {'once' if n == 1 else f'{n} times'} in {days} days",
                )
    for path, (n, total) in hist.habits().items():
        why = f"changed by {n} of the last {total} commits: changes here usually update it"
        board.add(path, "habit", n / total, why)
    for path, rel in strong[:3]:
        partners = hist.co_changed(path)
        if not partners:
            continue
        best = max(partners.values())
        for other, n in partners.most_common(8):
            if n >= 2:
                board.add(
                    other, "co_change", 0.7 * rel * n / best, f"changed together with {path} ({n} commits)"
                )
    for commit, why in tied:
        for f in commit.files:
            board.add(f, "issue_reference", 1.0 / math.sqrt(len(commit.files)), why)
    for commit in history.commits_matching(ctx.repo, phrases, max_count=12):
        if len(commit.files) > history.BULK_COMMIT_FILES:
            continue
        for f in commit.files:
            board.add(
                f,
                "history_mention",
                1.0 / math.sqrt(len(commit.files)),
                f'changed by {commit.sha[:8]} "{subject_line(commit.subject)}"',
            )


def subject_line(subject: str) -> str:
    """A commit subject as a reason quotes it: redacted, and past ``SUBJECT_CHARS`` cut after a
    whole word. Unmarked, as before: a mark costs a token in every such reason, and the hash beside
    it leads to the whole message."""
    text = clip(subject, SUBJECT_CHARS + 1, "")
    if len(text) <= SUBJECT_CHARS:
        return text
    head = text[:SUBJECT_CHARS].rsplit(" ", 1)[0]
    return head if len(head) >= SUBJECT_CHARS // 2 else text[:SUBJECT_CHARS]


def tied_commits(ctx: Context) -> list[tuple[history.Commit, str]]:
    """Commits tied to the issue, each with why: those whose message names it or an issue it
    references (``#123``), and those it names by hash ("a regression from 0d987211b9"). Bulk
    commits (renames, reformatting) are left out: they point at everything."""
    numbers = ([ctx.task.number] if ctx.task.number else []) + ctx.mentions.issue_refs
    refs = [f"#{n}([^0-9]|$)" for n in dict.fromkeys(numbers)]
    naming = history.commits_matching(ctx.repo, refs, regex=True)
    tied = [(c, f"changed by {c.sha[:8]} naming the issue") for c in naming]
    tied += [
        (c, f"changed by {c.sha[:8]}, the commit the issue names")
        for c in history.named_commits(ctx.repo, ctx.mentions.commit_refs)
    ]
    return [(c, why) for c, why in tied if len(c.files) <= history.BULK_COMMIT_FILES]


def framed_files(ctx: Context, max_files: int = 2) -> list[tuple[str, list[int]]]:
    """The most strongly framed files and their traceback lines (taken before threads start)."""
    framed = sorted(
        (
            (e.signals.get("stack_frame", 0.0), p, list(e.hints.frame_lines))
            for p, e in ctx.board.entries.items()
        ),
        reverse=True,
    )
    return [(p, lines) for value, p, lines in framed[:max_files] if value > 0 and lines]


def blame_sources(repo: RepoView, framed: list[tuple[str, list[int]]]) -> dict[str, str]:
    """Commits that last touched the given lines → the file they were blamed in.

    Blame walks history until each line's origin, so only a few files and lines are blamed."""
    sources: dict[str, str] = {}
    for path, lines in framed:
        for sha in history.blame_commits(repo, path, lines, max_lines=4)[:3]:
            sources.setdefault(sha, path)
    return sources


def blame(ctx: Context, sources: dict[str, str]) -> None:
    """The other files changed by the commits that last touched traceback lines."""
    if not sources:
        return
    for sha, files in history.files_of(ctx.repo, list(sources)[:6]).items():
        if len(files) > history.BULK_COMMIT_FILES:
            continue
        for f in files:
            if f != sources.get(sha):
                ctx.board.add(
                    f, "blame", 0.5, f"changed with the last change to {sources[sha]}'s traceback lines"
                )
