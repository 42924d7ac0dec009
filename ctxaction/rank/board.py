"""The candidate board: per-file signals, reasons and hints gathered by the signal finders."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from ctxaction.model import Candidate

# Signals whose repeated hints do not add up (ten importers are not ten times the evidence).
MAX_COMBINED = frozenset(
    {"import_distance", "co_change", "change_frequency", "history_mention", "name_match", "test_proximity",
     "blame", "keyword_match"}
)  # fmt: skip


@dataclass
class Hints:
    """Line-level evidence in one file, turned into focus spans once the file is parsed."""

    frame_lines: dict[int, str] = field(default_factory=dict)  # line -> why
    message_lines: dict[int, str] = field(default_factory=dict)
    # Options (``--flag``, ``:directive-option:``) are often just the repro's setup, not its subject.
    option_lines: dict[int, str] = field(default_factory=dict)
    use_lines: dict[int, tuple[float, str]] = field(default_factory=dict)  # line -> (strength, name)
    defined: dict[str, float] = field(default_factory=dict)  # named identifier -> strength
    keyword_lines: dict[int, set[str]] = field(default_factory=dict)
    name_lines: dict[int, tuple[float, str]] = field(default_factory=dict)  # def line -> (strength, name)
    recent_lines: dict[int, float] = field(default_factory=dict)  # line -> 1 / (its commit's recency rank)
    commit_lines: dict[int, str] = field(default_factory=dict)  # line a tied commit changed -> why
    called: dict[str, tuple[float, str]] = field(default_factory=dict)  # name -> (strength, named caller)
    habit: bool = False  # placed by habit, not evidence: where its latest commit wrote is what to show


@dataclass
class Entry:
    """What the signals found about one file so far."""

    signals: dict[str, float] = field(default_factory=dict)
    reasons: dict[str, float] = field(default_factory=dict)  # reason -> strength (for ordering)
    hints: Hints = field(default_factory=Hints)


class Board:
    """Signals keyed by path; only eligible (tracked, not skipped) files are accepted."""

    def __init__(self, eligible: set[str]) -> None:
        self.eligible = eligible
        self.entries: dict[str, Entry] = {}
        # Finders run in threads (their git searches overlap); each writes its own signals.
        self._lock = threading.Lock()

    def entry(self, path: str) -> Entry | None:
        """The file's entry, created on first use; None for ineligible paths."""
        if path not in self.eligible:
            return None
        with self._lock:
            return self.entries.setdefault(path, Entry())

    def add(self, path: str, signal: str, value: float, reason: str | None = None) -> Entry | None:
        """Combine ``value`` into the signal: a noisy-OR for evidence that adds up (several named
        symbols), the maximum for signals that only repeat themselves (imports, history, names)."""
        e = self.entry(path)
        if e is None or value <= 0:
            return e
        value = min(1.0, value)
        with self._lock:
            old = e.signals.get(signal, 0.0)
            if signal in MAX_COMBINED:
                e.signals[signal] = round(max(old, value), 6)
            else:
                e.signals[signal] = round(1.0 - (1.0 - old) * (1.0 - value), 6)
            if reason:
                e.reasons[reason] = max(e.reasons.get(reason, 0.0), value)
        return e

    def candidates(self, limit: int = 20) -> list[Candidate]:
        """Entries as candidates, each with its strongest reasons first (``limit`` reasons at most)."""
        out = []
        for path, e in list(self.entries.items()):
            # Ties by text: finders run in threads, so insertion order varies from run to run.
            reasons = [r for r, _ in sorted(e.reasons.items(), key=lambda kv: (-kv[1], kv[0]))][:limit]
            out.append(Candidate(path=path, signals=dict(e.signals), reasons=reasons))
        return out
