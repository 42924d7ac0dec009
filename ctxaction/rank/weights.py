"""The shipped weights: plain numbers in ``ctxaction/defaults/scoring.json``, written by ``bench/fit.py``.

``files`` weighs the signals of a candidate file (phase 2), ``definitions`` the evidence inside a
function, method or class (focus). Read once, with the standard library only.
"""

from __future__ import annotations

import json
from functools import cache

# Not importlib.resources: its import (zipfile and its readers) costs a build 6 ms.
from ctxaction.config.source import shipped


@cache
def _shipped() -> dict[str, dict[str, float]]:
    text = shipped("scoring.json")
    body = json.loads(text)
    return {k: {n: float(v) for n, v in body[k].items()} for k in ("files", "definitions")}


def file_weights() -> dict[str, float]:
    """Signal name -> weight of the file score (a fresh copy)."""
    return dict(_shipped()["files"])


def definition_weights() -> dict[str, float]:
    """Evidence feature -> points of a definition (a fresh copy)."""
    return dict(_shipped()["definitions"])
