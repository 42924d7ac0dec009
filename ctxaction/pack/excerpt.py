"""Excerpts of a file: the lines that matter with context, merged, and markers for what is left out.

Pure functions over a file's lines (split on "\\n" only, like git) and 1-based inclusive ranges.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ctxaction.model import Focus
from ctxaction.repo.files import split_lines
from ctxaction.repo.symbols import python_code
from ctxaction.text.omitted import marker

__all__ = ["Range", "expand", "gaps", "imports_header", "merge_ranges", "outline", "pieces", "render",
           "split_lines", "to_ranges"]

Range = tuple[int, int]

# A definition's first line in the languages we pack most (Python, JS/TS, Go, Rust, Java, C#,
# C/C++, Ruby, PHP, Kotlin, Swift, shell). Used for outlines, never for scoring.
_SIGNATURE = re.compile(
    r"""^\s*(?:
        (?:async\s+)?def\s+\w+ | class\s+\w+ |
        (?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s*\w* |
        (?:export\s+)?(?:abstract\s+)?(?:class|interface|enum|type)\s+\w+ |
        func\s+(?:\([^)]*\)\s*)?\w+ |
        (?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|impl|mod)\b |
        (?:(?:public|private|protected|internal|static|final|abstract|override|virtual|synchronized|
            open|suspend|inline)\s+)+[\w<>\[\],.?\s]*?\w+\s*\([^;]*$ |
        fun\s+\w+ | module\s+\w+ | def\s+self\.\w+ | sub\s+\w+ |
        (?:const|let|var)\s+\w+\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=> |
        \w[\w\s\*&:<>,]*?\b\w+\s*\([^;{]*\)\s*(?:const\s*)?\{?\s*$
    )""",
    re.VERBOSE,
)
_IMPORT = re.compile(
    r"(?:import\s|from\s+\S+\s+import\b|package\s|use\s|using\s|#include\b|#import\b|extern\s+crate\b|"
    r"(?:const|let|var)\s+[\w{}\s,]+=\s*require\()"
)
_PYTHON = (".py", ".pyi")
_COMMENT = ("#", "//", "/*", "*", "--", ";")
_PY_SIGNATURE = re.compile(r"^\s*(?:async\s+def|def|class)\s+\w+")
_CONTROL = re.compile(
    r"^\s*(?:if|for|while|switch|catch|return|else|elif|with|try|do|raise|throw|new|await|yield|"
    r"assert|print|delete|case|goto|sizeof|typeof)\b"
)


def merge_ranges(ranges: Iterable[Range], gap: int = 0) -> list[Range]:
    """Sort and merge ranges that overlap, touch, or are at most ``gap`` lines apart."""
    out: list[Range] = []
    for start, end in sorted(r for r in ranges if r[0] <= r[1]):
        if out and start <= out[-1][1] + 1 + gap:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def to_ranges(numbers: Iterable[int]) -> list[Range]:
    """Line numbers → merged ranges."""
    return merge_ranges((n, n) for n in numbers)


def expand(focus: Sequence[Focus], context: int, line_count: int) -> list[Range]:
    """Focus spans widened by ``context`` lines each side, clipped to the file and merged."""
    return merge_ranges(
        (max(1, f.start - context), min(line_count, f.end + context))
        for f in focus
        if f.start <= line_count and f.end >= 1
    )


def gaps(ranges: Sequence[Range], line_count: int) -> list[Range]:
    """The runs of lines that ``ranges`` (merged) leave out of a file of ``line_count`` lines."""
    out: list[Range] = []
    cursor = 1
    for start, end in ranges:
        if start > cursor:
            out.append((cursor, start - 1))
        cursor = max(cursor, end + 1)
    if cursor <= line_count:
        out.append((cursor, line_count))
    return out


def render(lines: Sequence[str], ranges: Sequence[Range]) -> str:
    """The text of an excerpt: the lines of ``ranges`` with a marker for each omitted run.

    Returns the whole file text (newline-terminated lines) when ``ranges`` cover every line.
    """
    merged = merge_ranges(ranges)
    missing = {start: end for start, end in gaps(merged, len(lines))}
    out: list[str] = []
    line = 1
    while line <= len(lines):
        if line in missing:
            out.append(marker(line, missing[line]))
            line = missing[line] + 1
            continue
        out.append(lines[line - 1])
        line += 1
    return "".join(f"{text}\n" for text in out)


def pieces(text: str, ranges: Sequence[Range], line_count: int) -> list[list[str]]:
    """The lines of each merged range of ``ranges``, read back from the ``text`` :func:`render`
    wrote for a file of ``line_count`` lines (markers dropped, lines without their newlines).

    Raises ValueError when ``text`` does not hold exactly those lines and markers.
    """
    merged = merge_ranges(ranges)
    lines = split_lines(text)
    out: list[list[str]] = []
    at, cursor, markers_ok = 0, 1, True
    for start, end in [*merged, (line_count + 1, line_count)]:
        if start > cursor:
            markers_ok &= at < len(lines) and lines[at] == marker(cursor, start - 1)
            at += 1
        if start <= end:
            out.append(lines[at : at + end - start + 1])
        at, cursor = at + end - start + 1, end + 1
    if at != len(lines) or not markers_ok:
        raise ValueError(f"an excerpt of {len(lines)} lines cannot hold ranges {merged} with their markers")
    return out


def outline(lines: Sequence[str], path: str = "") -> list[int]:
    """Line numbers of signatures (definitions' first lines): the skeleton of a file."""
    if path.endswith(_PYTHON):
        # A substring test first (the pattern needs one of these words): most lines skip the regex.
        return [
            n
            for n, text in enumerate(lines, start=1)
            if ("def" in text or "class" in text) and _PY_SIGNATURE.match(text)
        ]
    return [
        number
        for number, text in enumerate(lines, start=1)
        if len(text) < 300 and _SIGNATURE.match(text) and not _CONTROL.match(text)
    ]


def imports_header(lines: Sequence[str], limit: int = 80) -> Range | None:
    """The file's leading block of imports / includes / package lines, or None.

    Comments, blank lines, a module docstring and parenthesized multi-line imports may sit inside
    the block; the first other statement ends it. Only the first ``limit`` lines are read.
    """
    last = 0
    open_parens = 0
    docstring: str | None = None
    for number, text in enumerate(lines[:limit], start=1):
        stripped = text.strip()
        if docstring is not None:
            docstring = None if docstring in stripped else docstring
        elif open_parens > 0:
            open_parens += stripped.count("(") - stripped.count(")")
            last = number
        elif _IMPORT.match(stripped):
            open_parens = max(0, stripped.count("(") - stripped.count(")"))
            last = number
        elif stripped[:3] in ('"""', "'''"):
            quotes = stripped[:3]
            docstring = None if stripped.count(quotes) >= 2 else quotes
        elif stripped and not stripped.startswith(_COMMENT):
            break
    return (1, last) if last else None


# A docstring opens right below a `def` / `class` header (a line ending with ":") or at the top of
# the module. Only long ones count as prose (parameter tables, examples: numpy-style scientific
# code); shorter ones are often rewritten with the code they document. Their first lines (the
# summary) stay with the code.
_DOC_OPEN = re.compile(r"""^\s*[rRuUbB]{0,2}("{3}|'{3})""")
DOC_KEEP = 2
DOC_MIN_LINES = 40


def docstring_bodies(lines: Sequence[str], path: str = "") -> frozenset[int]:
    """Line numbers of Python docstrings of ``DOC_MIN_LINES`` lines or more, past their first
    ``DOC_KEEP`` lines: prose an excerpt can leave out before code. Empty for other languages."""
    if not path.endswith(_PYTHON):
        return frozenset()
    # The definitions scanner's string state: a quote inside another string opens nothing.
    code, in_string = python_code(lines)
    out: set[int] = set()
    previous = ""  # the last line's code, stripped ("" at the top of the module)
    i, n = 0, len(lines)
    while i < n:
        if in_string[i]:
            i += 1
            continue
        opens = ('"""' in lines[i] or "'''" in lines[i]) and _DOC_OPEN.match(lines[i])
        if opens and (previous == "" or previous.endswith(":")):
            last = next((k for k in range(i, n) if not in_string[k + 1]), n - 1)  # where it closes
            if last - i + 1 >= DOC_MIN_LINES:
                out.update(range(i + 1 + DOC_KEEP, last + 2))
            previous, i = '""', last + 1
            continue
        previous = code[i].strip() or previous
        i += 1
    return frozenset(out)
