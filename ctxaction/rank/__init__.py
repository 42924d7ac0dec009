"""Candidates and scores: ``collect(repo, task, profile)`` runs phases 1 and 2 of the pipeline.

Phase 1 gathers every signal (:mod:`.candidates`, :mod:`.neighbours`), phase 2 weighs them
(:mod:`.scoring`), and the best files get focus spans (:mod:`.focus`) for the excerpter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from ctxaction.mentions import extract
from ctxaction.model import Candidate, Task
from ctxaction.rank import callees, neighbours, scope
from ctxaction.rank import candidates as found
from ctxaction.rank.board import Board, Hints
from ctxaction.rank.evidence import Query
from ctxaction.rank.focus import build_focus
from ctxaction.rank.scoring import DEFAULT_WEIGHTS, lifted, merged_weights, score
from ctxaction.repo import history, recent, search
from ctxaction.repo.files import RepoView
from ctxaction.repo.history import Commit
from ctxaction.repo.imports import ModuleIndex, is_test_path
from ctxaction.repo.memo import cached
from ctxaction.repo.symbols import file_definitions

__all__ = ["DEFAULT_WEIGHTS", "RankProfile", "Ranking", "collect", "rank_files", "score"]

MAX_TIED = 4  # commits tied to the task whose changed lines are focused
STRONG = 8  # candidates whose neighbourhood (imports, tests, co-change) is explored
FOCUS_FILES = 15  # candidates that get focus spans
MAX_CANDIDATES = 200
_NAMED = ("path_mention", "stack_frame", "pr_changed")


class RankProfile(Protocol):
    """What ranking needs from a profile (``ctxaction.config.model.Profile`` satisfies it)."""

    @property
    def scoring(self) -> Mapping[str, float]: ...

    @property
    def history_days(self) -> int: ...


@dataclass
class Ranking:
    """Phase 1 and 2 done: candidates best first, and what focus needs to read their lines."""

    candidates: list[Candidate]
    board: Board
    query: Query
    keyword_hits: search.KeywordHits
    history: history.History
    tied_commits: Sequence[tuple[Commit, str]] = ()  # commits naming the task or named by it, and why

    def hints(self, path: str) -> Hints | None:
        """The line-level evidence gathered for ``path`` (None when no signal named it)."""
        entry = self.board.entries.get(path)
        if entry is None:
            return None
        entry.hints.keyword_lines = self.keyword_hits.lines(path)
        return entry.hints


def collect(repo: RepoView, task: Task, profile: RankProfile) -> list[Candidate]:
    """Ranked candidates (best first) with signals, reasons and focus spans."""
    ranking = rank_files(repo, task, profile)
    note_recent(repo, ranking, [c.path for c in ranking.candidates[:FOCUS_FILES]])
    for cand in ranking.candidates[:FOCUS_FILES]:
        text = repo.read_text(cand.path)
        hints = ranking.hints(cand.path)
        if text is not None and hints is not None:
            defs = file_definitions(repo, cand.path, text)
            cand.focus = build_focus(cand.path, text, hints, ranking.query, defs)
    return ranking.candidates


def note_recent(repo: RepoView, ranking: Ranking, paths: Sequence[str]) -> None:
    """The lines the latest commits changed (one git call), and those the commits tied to the
    task changed (two each), as hints of ``paths``."""
    for path, lines in recent.recent_lines(repo, ranking.history, paths).items():
        entry = ranking.board.entries.get(path)
        if entry is not None:
            entry.hints.recent_lines = {line: 1.0 / index for line, index in lines.items()}
    for commit, why in ranking.tied_commits[:MAX_TIED]:
        touched = [p for p in paths if p in commit.files]
        for path, changed in recent.commit_lines(repo, commit.sha, touched).items():
            entry = ranking.board.entries.get(path)
            if entry is not None:
                for line in changed:
                    entry.hints.commit_lines.setdefault(line, why)


def rank_files(repo: RepoView, task: Task, profile: RankProfile) -> Ranking:
    """Every signal gathered and weighed: the ranked files, before any file's lines are focused."""
    weights = merged_weights(profile.scoring)
    comments = "\n\n".join(c.body for c in task.comments if not c.is_bot)
    mentions = extract(task.title, task.body, comments)
    files = {f.path: f for f in repo.tracked() if f.skip_reason is None}
    index = cached(repo.memo, "module_index", lambda: ModuleIndex.build(files))
    ctx = found.Context(repo, task, mentions, files, index, Board(set(files)))
    with ThreadPoolExecutor(max_workers=5) as pool:
        mined = pool.submit(history.mine, repo)
        found.paths_and_frames(ctx)
        blamed = pool.submit(neighbours.blame_sources, repo, neighbours.framed_files(ctx))
        found.modules(ctx)
        found.pr_changed(ctx)
        # The three repository-wide searches overlap: each waits on its own git process.
        searches = [pool.submit(f, ctx) for f in (found.messages, found.identifiers, found.keywords)]
        for done in searches:
            done.result()
        strong = _strongest(ctx.board, weights)
        hop = pool.submit(callees.expand, ctx, strong)  # its git grep overlaps the import search
        neighbours.imports(ctx, strong)
        neighbours.tests(ctx, strong)
        hop.result()  # before history, which signals every file on the board by then
        phrases = [n for n, w in sorted(mentions.identifiers.items(), key=lambda kv: -kv[1]) if w >= 0.8][:4]
        mined_history = mined.result()
        tied = neighbours.tied_commits(ctx)
        neighbours.from_history(ctx, mined_history, strong, profile.history_days, phrases, tied)
        neighbours.blame(ctx, blamed.result())
    scope.title_scope(ctx)  # after every finder: it marks files they found
    query = Query(ctx.keyword_idf, found.qualified_owners(mentions.dotted), mentions.identifiers)
    ranked = _finish(ctx, weights)
    for cand in ranked:
        # A file the evidence ranks keeps its focus; one the habit placed shows its last entry.
        ctx.board.entries[cand.path].hints.habit = lifted(cand, weights)
    return Ranking(ranked, ctx.board, query, ctx.keyword_hits, mined_history, tied)


def _strongest(board: Board, weights: Mapping[str, float]) -> list[tuple[str, float]]:
    """The best files so far with their score relative to the best (1.0 first)."""
    ranked = score(board.candidates(), weights)
    for cand in ranked:
        cand.prior = found.code_prior(cand.path, _named(cand), is_test_path(cand.path))
    ranked = score(ranked, weights)[:STRONG]
    if not ranked or ranked[0].score <= 0:
        return []
    return [(c.path, c.score / ranked[0].score) for c in ranked if c.score > 0]


def _named(cand: Candidate) -> bool:
    return any(cand.signals.get(s, 0.0) >= 0.5 for s in _NAMED)


def _finish(ctx: found.Context, weights: Mapping[str, float]) -> list[Candidate]:
    cands = ctx.board.candidates()
    for cand in cands:
        test = is_test_path(cand.path)
        cand.prior = found.code_prior(cand.path, _named(cand), test)
        if cand.prior < 1.0:
            cand.reasons.append(found.prior_reason(cand.path, test))
    # A file only signals weighted 0 proposed (a profile can switch a signal off) is no candidate.
    return [c for c in score(cands, weights) if c.score > 0][:MAX_CANDIDATES]
