"""Where a JSON package's tokens go: code, JSON escaping, omission markers, file metadata, rules.

The budget counts the whole rendered document (``total_tokens``, ../shared/DESIGN.md), while the
shared harness credits only the lines inside ``ranges``. This splits each package's total into
parts, as shares of it, so a change that would trim overhead can be weighed before it is built:

- ``code``: the packed lines as plain text (what the harness counts), markers left out;
- ``escaping``: what JSON adds to the file texts: quotes and commas around each line and escapes
  (``\\t``, ``\\"``), or in version 1's single string also ``\\n``; in version 3 it is less
  than nothing where leading tabs written as spaces cost fewer tokens than the tabs as text;
- ``markers``: version 1's "… lines A–B omitted …" lines (versions 2 and 3 have none);
- ``file meta``: each file entry without its text (path, mode, ranges, tokens, score, reasons);
- ``rules``, ``omitted``, ``history``: those sections whole;
- ``rest``: the note, task, budget, tokenizer, repo and warnings fields, and the braces between.

    python bench/package_tokens.py PACKAGE.json [MORE.json ...]

Each file is a ``ctxaction build --format json`` output; the last line is the mean share of each
part over the packages given.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ctxaction.render.jsonout import compact, file_lines
from ctxaction.tokens import get_counter

PARTS = ("code", "escaping", "markers", "file meta", "rules", "omitted", "history", "rest")
_MARKER = re.compile(r"^… lines? [0-9–]+ omitted …$", re.MULTILINE)


def split(package: dict[str, Any], count: Callable[[str], int]) -> dict[str, int]:
    """Tokens of each part of one package, written as the renderer writes it; they add up to the
    whole document (``rest`` also takes the few tokens a boundary between parts merges).

    Reads both layouts: ``content`` (each range's lines as a list; version 3's ranges with
    ``tab_spaces`` read back to their tabs) and version 1's ``text`` (one string with omission
    markers)."""
    files = package.get("files", [])
    if all("content" in f for f in files):
        bodies: list[Any] = [f["content"] for f in files]
        texts = ["".join(f"{line}\n" for piece in file_lines(f) for line in piece) for f in files]
    else:
        bodies = texts = [str(f.get("text", "")) for f in files]
    markers = sum(count(m + "\n") for t in texts for m in _MARKER.findall(t))
    plain = sum(count(t) for t in texts)
    escaped = sum(count(compact(b)) for b in bodies)
    sections = {k: count(compact(package.get(k, []))) for k in ("files", "rules", "omitted", "history")}
    whole = count(compact(package))
    parts = {
        "code": plain - markers,
        "escaping": escaped - plain,
        "markers": markers,
        "file meta": sections["files"] - escaped,
        "rules": sections["rules"],
        "omitted": sections["omitted"],
        "history": sections["history"],
    }
    parts["rest"] = whole - sum(parts.values())
    return parts


def main(argv: list[str] | None = None) -> int:
    """Print each package's split and the mean shares; returns 0 (2 when a file is unreadable)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("packages", type=Path, nargs="+")
    a = ap.parse_args(argv)
    counter = get_counter()
    shares: dict[str, list[float]] = {p: [] for p in PARTS}
    print("package\ttotal\t" + "\t".join(PARTS))
    for path in a.packages:
        try:
            package = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"{path}: not a JSON package ({exc})", file=sys.stderr)
            return 2
        parts = split(package, counter.count)
        total = sum(parts.values())
        print(f"{path.name}\t{total}\t" + "\t".join(str(parts[p]) for p in PARTS))
        for p in PARTS:
            shares[p].append(parts[p] / total if total else 0.0)
    print("mean share\t1.000\t" + "\t".join(f"{statistics.mean(shares[p]):.3f}" for p in PARTS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
