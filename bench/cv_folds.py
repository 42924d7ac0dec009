"""The files of ``bench/fit.py --cv-dir``: one per fitted kind and fold, each holding that fold's
weights and the repositories it held out. ``fit.py`` writes them; ``features.py`` and ``replay.py``
read the file weights back, to rank or rescore each instance as its held-out fold would have."""

from __future__ import annotations

import json
from pathlib import Path


def fold_path(cv_dir: Path, label: str, fold: int) -> Path:
    """Where fold ``fold``'s ``label`` weights (``files`` or ``definitions``) are written."""
    return cv_dir / f"{label}-fold{fold}.json"


def file_weights_by_repo(cv_dir: Path) -> dict[str, dict[str, float]]:
    """Repository (lower case) -> the file weights of the fold that held it out."""
    out: dict[str, dict[str, float]] = {}
    for path in sorted(cv_dir.glob("files-fold*.json")):
        body = json.loads(path.read_text(encoding="utf-8"))
        out.update({repo: body["files"] for repo in body["repos"]})
    return out
