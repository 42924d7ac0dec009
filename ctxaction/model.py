"""Plain values that flow down the pipeline: task → candidates → scores → filter → budget → render.

Every stage takes and returns these dataclasses, so each stage can be tested with plain values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

TaskKind = Literal["issue", "pr", "text"]
FileMode = Literal["full", "excerpt", "outline"]


@dataclass(frozen=True)
class Comment:
    """One comment of an issue or PR thread (untrusted text)."""

    author: str
    body: str
    created_at: str = ""
    association: str = ""
    is_bot: bool = False


@dataclass
class Task:
    """What the package is built for: an issue, a PR or a free text."""

    title: str
    body: str = ""
    kind: TaskKind = "text"
    number: int | None = None
    labels: list[str] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    changed_files: list[str] = field(default_factory=list)
    url: str = ""
    author: str = ""

    @property
    def text(self) -> str:
        """Title and body, the text the signals read."""
        return f"{self.title}\n\n{self.body}" if self.body else self.title


@dataclass(frozen=True)
class Focus:
    """A span of a file that a signal points at (1-based, inclusive), with how much it matters."""

    start: int
    end: int
    weight: float
    why: str


@dataclass
class Candidate:
    """A file some signal proposed, with each signal's normalized part (0..1) and the reasons."""

    path: str
    signals: dict[str, float] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    focus: list[Focus] = field(default_factory=list)
    score: float = 0.0
    required: bool = False
    max_lines: int | None = None
    # Multiplier for the kind of file (source 1.0; tests, docs and data lower), set by the ranker.
    prior: float = 1.0


@dataclass(frozen=True)
class Excluded:
    """A file kept out of the package, and why."""

    path: str
    reason: str


@dataclass
class PackedFile:
    """A file as it stands in the package: whole, excerpted or outlined."""

    path: str
    mode: FileMode
    ranges: list[tuple[int, int]]
    text: str
    tokens: int
    score: float
    reasons: list[str]
    language: str = ""
    line_count: int = 0


@dataclass
class OmittedFile:
    """A candidate that did not fit: still named so the reader knows it exists."""

    path: str
    score: float
    tokens: int
    reason: str


@dataclass
class RuleFile:
    """A rule/instruction file of the repository (CLAUDE.md, AGENTS.md, …)."""

    path: str
    text: str
    tokens: int
    truncated: bool
    layer: int


@dataclass
class Skill:
    """A skill the agent can open lazily: name and description only."""

    path: str
    name: str
    description: str


@dataclass
class HistoryEntry:
    """A thread comment as packaged: whole or extractively compressed."""

    author: str
    created_at: str
    text: str
    tokens: int
    compressed: bool


@dataclass
class Package:
    """The whole context package, before rendering."""

    task: Task
    profile: str
    files: list[PackedFile] = field(default_factory=list)
    omitted: list[OmittedFile] = field(default_factory=list)
    rules: list[RuleFile] = field(default_factory=list)
    skills: list[Skill] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    excluded: list[Excluded] = field(default_factory=list)
    budget_total: int = 0
    budget_sections: dict[str, int] = field(default_factory=dict)
    encoding: str = "o200k_base"
    tokenizer_exact: bool = True
    head: str = ""
    shallow: bool = False
    warnings: list[str] = field(default_factory=list)
    total_tokens: int = 0
    # The format the files were fitted for ("" before fitting): another format is refitted.
    fitted_for: str = ""
