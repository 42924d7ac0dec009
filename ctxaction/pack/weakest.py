"""Dropping a package's weakest files, the one way every size limit does it (the budget's exact
count, GitHub's comment and job-summary limits): lowest score first, the later file first among
equal scores (files are in rank order, so that is the last file); each dropped file is named
first among the omitted files, so the reader knows it exists.
"""

from __future__ import annotations

from collections.abc import Callable

from ctxaction.model import OmittedFile, Package


def drop_weakest(package: Package, count: int, reason: str, size: Callable[[str], int] | None = None) -> None:
    """Move the ``count`` weakest files of ``package`` (in place) to the front of its omitted files,
    in the order they stood, with ``reason`` and their size in tokens (``size(path)`` when given,
    else the packed tokens)."""
    files = package.files
    weakest = set(sorted(range(len(files)), key=lambda i: (files[i].score, -i))[: max(0, count)])
    if not weakest:
        return
    dropped = [f for i, f in enumerate(files) if i in weakest]
    files[:] = [f for i, f in enumerate(files) if i not in weakest]
    package.omitted[:0] = [
        OmittedFile(f.path, f.score, size(f.path) if size else f.tokens, reason) for f in dropped
    ]
