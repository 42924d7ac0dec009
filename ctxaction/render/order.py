"""Position-aware order of a package's parts.

Long-context models use what sits at the start and at the end of their input far better than what
sits in the middle ("lost in the middle", Liu et al. 2023). So the package opens with the task,
the rules and the best file, closes with the second-best file, the thread and a short reminder of
the task, and puts the weakest files and the lists (skills, files left out, files excluded) in
the middle: files go 1, 3, 5, … then …, 6, 4, 2. The files after the lists open with a heading
of their own: without it, the files that close the package read as part of the list of files
left out above them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from ctxaction.model import Package, PackedFile

T = TypeVar("T")
BlockKind = Literal["task", "rules", "files", "file", "skills", "omitted", "excluded", "history", "recap"]


@dataclass(frozen=True)
class Block:
    """One part of the rendered package; ``file`` is set for kind ``file``; a ``files`` block is
    the heading over the files that follow it (``continued`` after the lists)."""

    kind: BlockKind
    file: PackedFile | None = None
    continued: bool = False


def interleave(items: Sequence[T]) -> list[T]:
    """Best first and second-best last: ranks 1, 3, 5, … then …, 6, 4, 2."""
    return [*items[0::2], *reversed(items[1::2])]


def layout(package: Package) -> list[Block]:
    """The blocks of ``package`` in reading order (files must be in rank order, best first)."""
    files = [Block("file", f) for f in package.files]
    ordered = interleave(files)
    front = (len(files) + 1) // 2
    middle = [
        block
        for block, present in (
            (Block("skills"), package.skills),
            (Block("omitted"), package.omitted),
            (Block("excluded"), package.excluded),
        )
        if present
    ]
    head: list[Block] = [Block("task")] + ([Block("rules")] if package.rules else [])
    tail: list[Block] = ([Block("history")] if package.history else []) + [Block("recap")]
    first = [Block("files"), *ordered[:front]] if files else []
    back = ordered[front:]
    if back and middle:
        back = [Block("files", continued=True), *back]
    return [*head, *first, *middle, *back, *tail]
