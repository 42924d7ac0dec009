"""The labelled secrets corpus (tests/fixtures/secrets/corpus.tsv), expanded; shared with bench/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ctxaction.secure.synth import expand_parts

CORPUS = Path(__file__).parent / "fixtures" / "secrets" / "corpus.tsv"


@dataclass(frozen=True)
class Case:
    """One labelled text: ``secret`` is the truth, ``text`` what is scanned as ``path``."""

    number: int
    secret: bool
    path: str
    text: str
    parts: tuple[str, ...] = ()


def load(path: Path = CORPUS) -> list[Case]:
    """Every case, expanded with a seed per line (deterministic)."""
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line.strip():
            continue
        label, file, template = line.split("\t", 2)
        text, parts = expand_parts(template.replace("\\n", "\n"), f"corpus-{number}")
        cases.append(Case(number, label == "+", file, text + "\n", tuple(parts)))
    return cases


def score(cases: list[Case], predicted: list[bool]) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``predicted`` against the labels."""
    tp = sum(1 for c, p in zip(cases, predicted, strict=True) if c.secret and p)
    fp = sum(1 for c, p in zip(cases, predicted, strict=True) if not c.secret and p)
    fn = sum(1 for c, p in zip(cases, predicted, strict=True) if c.secret and not p)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1
