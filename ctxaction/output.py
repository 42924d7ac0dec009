"""Writing results: all or nothing (a temp file in the target folder, then an atomic rename)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str, *, exclusive: bool = False) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one.

    With ``exclusive`` the write fails with FileExistsError when ``path`` already exists (checked
    again at the rename through a hard link, so a file created meanwhile is not overwritten).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if exclusive and path.exists():
        raise FileExistsError(str(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        if exclusive:
            os.link(tmp, path)
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
