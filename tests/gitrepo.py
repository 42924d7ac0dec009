"""Real git repositories in temp folders, for tests (no mocks of git or the filesystem)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Test Author",
    "GIT_COMMITTER_EMAIL": "author@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
# Commits are dated by a clock of the repository's own (this instant, a minute later at each git
# call) unless a test dates them: the same test makes the same commit ids on every machine and
# every run. A package quotes its commit's id, so a clock date would move a build's token count,
# and with it what fills the budget's last tokens, from run to run.
CLOCK_START = 1_767_225_600  # 2026-01-01T00:00:00Z


def git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for running git in a test repository: a fixed identity, no system or
    global config (plus ``extra``)."""
    return {**os.environ, **_ENV, **(extra or {})}


class GitRepo:
    """A throwaway repository driven with the real git binary."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._clock = CLOCK_START
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, env: dict[str, str] | None = None) -> str:
        """Run git in the repo and return stdout (decoded with replacement); a commit it makes is
        dated by the repository's clock unless ``env`` dates it."""
        self._clock += 60
        date = f"{self._clock} +0000"
        dated = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, **(env or {})}
        out = subprocess.run(
            ["git", *args], cwd=self.root, env=git_env(dated), check=True, capture_output=True
        )
        return out.stdout.decode("utf-8", "replace")

    def write(self, path: str, content: str | bytes) -> Path:
        """Write a file in the work tree (parents created)."""
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
        return target

    def commit(
        self, files: Mapping[str, str | bytes], message: str = "change", date: str | None = None
    ) -> str:
        """Write ``files``, stage everything and commit; returns the new HEAD sha."""
        for path, content in files.items():
            self.write(path, content)
        self.git("add", "-A")
        env = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date} if date else None
        self.git("commit", "-q", "-m", message, env=env)
        return self.git("rev-parse", "HEAD").strip()

    def stop_in_conflict(self, names: list[str]) -> None:
        """Leave the repository in a merge stopped on conflicts in ``names``: committed on main,
        changed one way on a branch and another on main, the branch merged (git exits 1)."""
        self.commit(dict.fromkeys(names, "line 1\nbase\nline 3\n"), "base")
        self.git("checkout", "-q", "-b", "theirs")
        self.commit(dict.fromkeys(names, "line 1\ntheirs\nline 3\n"), "their change")
        self.git("checkout", "-q", "main")
        self.commit(dict.fromkeys(names, "line 1\nours\nline 3\n"), "our change")
        merge = subprocess.run(
            ["git", "merge", "-q", "theirs"], cwd=self.root, env=git_env(), capture_output=True, check=False
        )
        assert merge.returncode == 1, merge.stderr
