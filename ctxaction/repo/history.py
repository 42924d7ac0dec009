"""What git history says about files: change frequency, recent changes, co-change, commits that
name the issue, and blame of the lines the task names. Every git call is bounded.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ctxaction.repo import git
from ctxaction.repo.files import RepoView
from ctxaction.repo.imports import is_test_path
from ctxaction.repo.kinds import is_code
from ctxaction.repo.memo import cached
from ctxaction.repo.messages import read_log

MAX_COMMITS = 400
MAX_GREP_COMMITS = 30
BULK_COMMIT_FILES = 40  # larger commits (renames, reformatting) say nothing about co-change
# A file most of the newest commits touch (a changelog, release notes, a registry of entries) is
# part of how this repository makes a change; training set: such a file not otherwise packaged is
# in the fix 23 times in 35 (share 0.4 of the newest 60 commits; 0.3: 24 in 62, 0.2: 41 in 244).
HABIT_WINDOW = 60
HABIT_SHARE = 0.4
HABIT_MIN_COMMITS = 20
# Where most commits are CI, dependency bumps or docs, the habit of a code change hides among
# them (release notes in 0.18 of all commits, 0.57 of those changing code): the same count over
# the commits that change source code finds it. Training set, offline: 74 habit files, 54 in the
# fix, against 52 and 37 for the first window alone (0.4 there: 107 files, 60 in the fix).
HABIT_CODE_SHARE = 0.5
# Where release notes are written by the commits that fix an issue, and features, merges and
# release chores pass them by (jackson's `VERSION-2.x`: 0.25 of the newest commits), the habit
# shows among the code changes whose subject says they fix something or names an issue.
HABIT_FIX_SHARE = 0.5
_FIX_SUBJECT = re.compile(r"\bfix(?:e[sd]|ing)?\b|\bbug\b|(?<![(\w])#\d+", re.I)
_FIELD = "\x1f"
# Names are read with ``-z``: NUL-terminated and never quoted, so a name holding a tab, a newline,
# a quote or bytes that are not UTF-8 is the name the inventory lists (``ls-files -z``, decoded
# the same way). Each commit's header starts with a NUL of its own: no name is empty, so two NULs
# in a row (or one at the very start) always open a commit, whatever bytes its names hold.
_HEADER = f"%x00%H{_FIELD}%ct{_FIELD}"
_FORMAT = f"--format={_HEADER}%s"
_NAMES = ("-z", "--name-only")
# A full object name as git prints it: SHA-1, or SHA-256 in a repository that uses it.
FULL_SHA = re.compile(r"[0-9a-f]{40,64}")
_SHA = re.compile(r"[0-9a-f]{7,64}")


@dataclass(frozen=True)
class Commit:
    """A commit with the files it touched."""

    sha: str
    time: int
    subject: str
    files: tuple[str, ...]


@dataclass
class History:
    """A bounded window of recent history (newest first)."""

    commits: list[Commit] = field(default_factory=list)
    head_time: int = 0
    shallow: bool = False

    def change_counts(self, days: int | None = None) -> Counter[str]:
        """How many commits touched each file, within ``days`` before HEAD's commit time (all if None)."""
        horizon = self.head_time - days * 86400 if days else None
        counts: Counter[str] = Counter()
        for c in self.commits:
            if horizon is not None and c.time < horizon:
                break
            if len(c.files) <= BULK_COMMIT_FILES:
                counts.update(c.files)
        return counts

    def habits(self) -> dict[str, tuple[int, int]]:
        """Files touched by at least ``HABIT_SHARE`` of the newest ``HABIT_WINDOW`` non-bulk
        commits, by ``HABIT_CODE_SHARE`` of the newest that change source code, or by
        ``HABIT_FIX_SHARE`` of the newest of those that say they fix something: path ->
        (commits touching it, commits counted), the larger share; a window below
        ``HABIT_MIN_COMMITS`` commits finds none."""
        kept = [c for c in self.commits if len(c.files) <= BULK_COMMIT_FILES]
        code = [c for c in kept if _changes_code(c)]
        fixes = [c for c in code if _FIX_SUBJECT.search(c.subject)]
        found: dict[str, tuple[int, int]] = {}
        for window, share in ((kept, HABIT_SHARE), (code, HABIT_CODE_SHARE), (fixes, HABIT_FIX_SHARE)):
            window = window[:HABIT_WINDOW]
            if len(window) < HABIT_MIN_COMMITS:
                continue
            for p, n in Counter(f for c in window for f in set(c.files)).items():
                seen = found.get(p)
                if n >= share * len(window) and (seen is None or n / len(window) > seen[0] / seen[1]):
                    found[p] = (n, len(window))
        return found

    def co_changed(self, path: str) -> Counter[str]:
        """Files changed in the same commits as ``path``."""
        partners: Counter[str] = Counter()
        for c in self.commits:
            if path in c.files and len(c.files) <= BULK_COMMIT_FILES:
                partners.update(f for f in c.files if f != path)
        return partners


def _changes_code(commit: Commit) -> bool:
    return any(is_code(f) and not is_test_path(f) for f in commit.files)


def _parse_log(out: str) -> list[Commit]:
    """Commits of ``git log -z --name-only`` (or ``show``) output in the :data:`_FORMAT` format:
    per commit ``\0header\0``, then ``\n`` and each name ``\0``-terminated when it has any."""
    commits: list[Commit] = []
    for record in out[1:].split("\0\0") if out.startswith("\0") else ():
        head, _, rest = record.partition("\0")
        fields = head.split(_FIELD, 2)
        if len(fields) < 3 or not _SHA.fullmatch(fields[0]):
            continue
        names = rest.split("\0")
        if names[0].startswith("\n"):
            names[0] = names[0][1:]  # the line git puts between a commit's header and its names
        files = tuple(name for name in names if name)
        commits.append(Commit(fields[0], int(fields[1]) if fields[1].isdigit() else 0, fields[2], files))
    return commits


def mine(repo: RepoView, max_commits: int = MAX_COMMITS) -> History:
    """One ``git log -z --name-only`` pass over the newest ``max_commits`` commits reachable from HEAD
    (once per repository state on a warm view)."""
    return cached(repo.memo, ("history", max_commits), lambda: _mine(repo, max_commits))


def _mine(repo: RepoView, max_commits: int) -> History:
    if not repo.head:
        return History(shallow=repo.shallow)
    out = git.try_run(
        repo.root,
        ["log", "--no-merges", "--no-renames", f"-n{max_commits}", *_NAMES, _FORMAT, repo.head, "--"],
    )
    commits = _parse_log(out or "")
    head_time = git.try_run(repo.root, ["log", "-1", "--format=%ct", repo.head, "--"]) or "0"
    return History(commits, int(head_time.strip() or 0), repo.shallow)


def commits_matching(
    repo: RepoView, phrases: Sequence[str], max_count: int = MAX_GREP_COMMITS, *, regex: bool = False
) -> list[Commit]:
    """Commits whose message contains any phrase (fixed strings, or extended regexes with ``regex``;
    case-insensitive), newest first. A warm view searches its kept message log and asks git only
    for the matches' files."""
    phrases = [p for p in phrases if p.strip() and "\n" not in p]
    if not repo.head or not phrases:
        return []
    if repo.memo.kept:
        log = repo.memo.get("messages", lambda: read_log(repo))
        shas = log.matching(phrases, max_count, regex=regex)
        if shas is not None:
            return _commits(repo, shas)
    mode = "-E" if regex else "-F"
    args = ["log", "--no-merges", "--no-renames", f"-n{max_count}", "-i", mode, *_NAMES, _FORMAT]
    args += [f"--grep={p}" for p in phrases]
    return _parse_log(git.try_run(repo.root, [*args, repo.head, "--"]) or "")


def named_commits(repo: RepoView, refs: Sequence[str]) -> list[Commit]:
    """The commits ``refs`` (hashes a task names, abbreviated or whole) that HEAD reaches, each
    with the files it changed against its first parent (for a merge: the whole merged branch)."""
    if not repo.head:
        return []
    shas: list[str] = []
    for ref in refs:
        if not re.fullmatch(r"[0-9a-f]{7,40}", ref):
            continue  # only a hash reaches git: the text is the task's
        found = git.try_run(repo.root, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"])
        full = (found or "").strip()
        if not FULL_SHA.fullmatch(full) or full in shas:
            continue  # no such commit, or an abbreviation several commits share
        if git.try_run(repo.root, ["merge-base", "--is-ancestor", full, repo.head]) is not None:
            shas.append(full)
    if not shas:
        return []
    args = ["show", "--no-renames", "--diff-merges=first-parent", *_NAMES, _FORMAT, *shas, "--"]
    return _parse_log(git.try_run(repo.root, args) or "")


def _commits(repo: RepoView, shas: Sequence[str]) -> list[Commit]:
    """The commits ``shas`` (non-merge) in that order, as ``git log -z --name-only`` lists them."""
    if not shas:
        return []
    args = ["show", "--no-renames", *_NAMES, _FORMAT, *shas, "--"]
    by_sha = {c.sha: c for c in _parse_log(git.try_run(repo.root, args) or "")}
    return [by_sha[s] for s in shas if s in by_sha]


def blame_commits(repo: RepoView, path: str, lines: Sequence[int], max_lines: int = 12) -> list[str]:
    """Commits that last touched the given lines of ``path`` (bounded), newest blame first."""
    if not repo.head or not lines:
        return []
    args = ["blame", "--porcelain", "--no-textconv"]
    for n in sorted(set(lines))[:max_lines]:
        args += ["-L", f"{n},{n}"]
    out = git.try_run(repo.root, [*args, repo.head, "--", path])
    if not out:
        return []
    shas = re.findall(r"^([0-9a-f]{40}) \d+ \d+", out, re.M)
    return list(dict.fromkeys(s for s in shas if set(s) != {"0"}))


def files_of(repo: RepoView, shas: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Files touched by each commit (one ``git show`` call); root commits (imports of a whole tree)
    are left out."""
    shas = [s for s in shas if re.fullmatch(r"[0-9a-f]{40}", s)]
    if not shas:
        return {}
    fmt = f"--format={_HEADER}%P"
    out = git.try_run(repo.root, ["show", "--no-renames", *_NAMES, fmt, *shas, "--"]) or ""
    return {c.sha: c.files for c in _parse_log(out) if c.subject.strip()}
