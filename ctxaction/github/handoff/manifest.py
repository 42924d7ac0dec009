"""The ``files`` output: the packed files as compact JSON (the Markdown package carries the rest)."""

from __future__ import annotations

import json

from ctxaction.model import Package
from ctxaction.render.names import displayed


def files_json(package: Package) -> str:
    """The packed files as compact JSON: path, mode, ranges, tokens, score and reasons (secrets in
    names redacted)."""
    package = displayed(package)
    return json.dumps(
        [
            {
                "path": f.path,
                "mode": f.mode,
                "ranges": [list(r) for r in f.ranges],
                "tokens": f.tokens,
                "score": round(f.score, 4),
                "reasons": f.reasons,
            }
            for f in package.files
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )
