"""Definitions of brace languages: signature headers joined across lines, bodies by brace matching.

One pass over the lines keeps a stack of open braces, each knowing what it opened (a class body,
a function body, an object literal, plain code). A line in a context where definitions can start is
joined with the following lines up to the first ``{`` or ``;`` outside parentheses (the *header*,
so wrapped parameter lists, return types on their own line and ``template <…>`` lines are one
string) and handed to the language's detector. A definition ends on the line of the brace that
closes the one its header opened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ctxaction.repo.symbols_langs import DETECTORS, Detector, Found, Opened, block_kind_of, worth_trying
from ctxaction.repo.symbols_lex import JS_FAMILY, NO_SEMICOLONS, code_lines
from ctxaction.repo.symbols_model import Definition

MAX_HEADER_LINES = 12
FACTORY_MEMBERS = 3
MAX_STATEMENT_LINES = 400
_CONTINUATIONS = (".", "?", ":", "+", "|")
_TOKENS = re.compile(r"[()\[\]{};]")
_ANNOTATION = re.compile(r"\s*(?:@[\w.]+(?:\(.*\))?|#!?\[.*\]|\[\[.*\]\]|\[[\w.]+(?:\(.*\))?\])\s*$")
_TYPEDEF_NAME = re.compile(r"\s*\**\s*([A-Za-z_]\w*)\s*[;,\[]")
# A header's first line holds a name, keyword or type; a line of brackets alone (a generated or
# hostile file of 400,000 lines of `(`) would otherwise each read up to MAX_HEADER_LINES ahead.
_WORDLESS = re.compile(r"[^\w$~]*")
_TEST_MARK = re.compile(r"#\[(?:cfg\(test\)|(?:\w+::)*test\b)|@(?:\w+\.)*(?:Test|ParameterizedTest)\b")


@dataclass
class _Pending:
    found: Found
    start: int
    in_test: bool


def brace_definitions(lines: list[str], lang: str) -> list[Definition]:
    """Definitions of one file of a brace language, in source order."""
    detect = DETECTORS.get(lang)
    if detect is None:
        return []
    codes = code_lines(lines, lang)
    out: list[Definition] = []
    stack: list[Opened] = []
    pending: dict[tuple[int, int], _Pending] = {}
    top = Opened("top", "", False)
    skip_until = 0
    for i, code in enumerate(codes):
        ctx = stack[-1] if stack else top
        if i >= skip_until and ctx.kind != "code":
            skip_until = _detect_at(lines, codes, i, ctx, lang, detect, pending, out)
        for m in _TOKENS.finditer(code):
            ch = m.group(0)
            if ch == "{":
                held = pending.pop((i, m.start()), None)
                cur = stack[-1] if stack else top
                opened = _opened(held, cur) if held else _unclaimed(code[: m.start()], codes, i, lang, cur)
                stack.append(opened)
            elif ch == "}" and stack:
                closed = stack.pop()
                if closed.definition is not None:
                    f, start, parent = closed.definition
                    alias = _TYPEDEF_NAME.match(code, m.end()) if f.typedef else None
                    name = alias.group(1) if alias else f.name
                    if name:
                        out.append(Definition(name, f.kind, start, i + 1, parent, closed.in_test))
    for opened in stack:  # never closed: runs to the end of the file
        if opened.definition is not None and opened.definition[0].name:
            f, start, parent = opened.definition
            out.append(Definition(f.name, f.kind, start, len(lines), parent, opened.in_test))
    out.sort(key=lambda d: (d.start, -d.end))
    return factories_as_classes(out) if lang in JS_FAMILY else out


def factories_as_classes(defs: list[Definition]) -> list[Definition]:
    """A JS function holding several function definitions is a module/factory (``module.exports =
    function command (yargs) { self.run = function … }``): a container, like a class, so its own
    lines are its head and its keywords are its members'."""
    out: list[Definition] = []
    for n, d in enumerate(defs):  # sorted by start: what a definition holds follows it
        if d.kind == "function":
            inner = 0
            for x in defs[n + 1 :]:
                if x.start > d.end or inner >= FACTORY_MEMBERS:
                    break
                inner += x.kind in ("function", "method")
            if inner >= FACTORY_MEMBERS:
                d = replace(d, kind="class")
        out.append(d)
    return out


def _opened(held: _Pending, ctx: Opened) -> Opened:
    """The block a definition's ``{`` opens; class-like blocks name their members' parent."""
    f = held.found
    parent = f.parent or ctx.parent
    own = f.name if f.block in ("class", "enum", "object") else parent
    return Opened(f.block, own, held.in_test, (f, held.start, parent))


def _unclaimed(before: str, codes: list[str], i: int, lang: str, ctx: Opened) -> Opened:
    return Opened(block_kind_of(before, codes, i, lang, ctx), ctx.parent, ctx.in_test)


def _detect_at(
    lines: list[str],
    codes: list[str],
    i: int,
    ctx: Opened,
    lang: str,
    detect: Detector,
    pending: dict[tuple[int, int], _Pending],
    out: list[Definition],
) -> int:
    """Try a definition starting at line ``i``; returns the first line to try next."""
    code = codes[i].strip()
    raw = lines[i]
    if not code:  # only a preprocessor line (#define) can define something here
        if not raw.lstrip().startswith("#"):
            return i + 1
        header, end_line, brace_col = "", i, None
    elif _WORDLESS.fullmatch(code) or _ANNOTATION.match(code) or not worth_trying(lang, ctx.kind, code):
        return i + 1
    else:
        header, end_line, brace_col = _header(codes, i, lang)
    found = detect(header, raw, ctx, brace_col is not None)
    if found is None:
        return i + 1
    start, marks = _leading_annotations(lines, i)
    in_test = ctx.in_test or bool(_TEST_MARK.search(marks))
    if brace_col is not None and found.block:
        pending[(end_line, brace_col)] = _Pending(found, start, in_test)
        return end_line + 1
    end = statement_end(codes, lines, i)
    out.append(Definition(found.name, found.kind, start, end, found.parent or ctx.parent, in_test))
    return end


def _header(codes: list[str], i: int, lang: str) -> tuple[str, int, int | None]:
    """Code from line ``i`` to the first ``{`` or ``;`` outside brackets: (text, its line, ``{`` column)."""
    parts: list[str] = []
    depth = 0
    for j in range(i, min(len(codes), i + MAX_HEADER_LINES)):
        code = codes[j]
        if j > i and not code.strip():
            if depth > 0:  # a comment (blanked) or empty line inside a parameter list
                continue
            break
        for m in _TOKENS.finditer(code):
            ch = m.group(0)
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif depth <= 0 and ch in "{;}":
                parts.append(code[: m.start()])
                return " ".join(p.strip() for p in parts), j, m.start() if ch == "{" else None
        parts.append(code)
        if (
            depth <= 0
            and lang in NO_SEMICOLONS
            and not _continues(code, codes[j + 1] if j + 1 < len(codes) else "")
        ):
            break  # without semicolons a line break at depth 0 may end the statement
    return " ".join(p.strip() for p in parts), i, None


_ENDS_OPEN = (",", "(", "[", "=", "=>", ":", "|", "&", "<", "->", "extends", "implements")
_STARTS_CONTINUED = ("{", ")", ":", ".", "=>", "|", "&", "->", "extends", "implements", "where")


def _continues(code: str, next_code: str) -> bool:
    """Whether a header line without a terminator goes on to the next line."""
    return code.rstrip().endswith(_ENDS_OPEN) or next_code.lstrip().startswith(_STARTS_CONTINUED)


def _leading_annotations(lines: list[str], i: int) -> tuple[int, str]:
    """First line of the decorators/attributes right above line ``i`` (1-based) and their text."""
    start = i
    while start > 0 and _ANNOTATION.match(lines[start - 1]):
        start -= 1
    return start + 1, " ".join(lines[start:i])


def statement_end(codes: list[str], lines: list[str], i: int) -> int:
    """Last line (1-based) of a statement starting at line ``i``: brackets balanced, no continuation."""
    depth = 0
    for j in range(i, min(len(codes), i + MAX_STATEMENT_LINES)):
        code = codes[j]
        depth += code.count("{") + code.count("(") + code.count("[")
        depth -= code.count("}") + code.count(")") + code.count("]")
        if depth > 0:
            continue
        closed = code.rstrip().endswith((";", "}"))
        if closed or not lines[j].rstrip().endswith(("\\", ",", "=", "(", "=>")):
            if j + 1 < len(codes) and codes[j + 1].lstrip().startswith(_CONTINUATIONS):
                continue  # a chained or wrapped expression continues on the next line
            return j + 1
    return i + 1
