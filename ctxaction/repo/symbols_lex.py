"""Code of brace-language lines with strings and comments blanked, for brace matching.

Strings become ``""`` (their braces and semicolons vanish), comments vanish, multi-line constructs
(``/* */``, JS template literals, Go raw strings, Rust raw strings, ``\"\"\"`` text blocks) carry
over to the next lines. In C, preprocessor lines are blanked and only the first branch of an
``#if``/``#else`` is kept, so duplicated signature lines in both branches do not unbalance braces.
"""

from __future__ import annotations

import re

JS_FAMILY = frozenset({"javascript", "typescript", "vue", "svelte"})
C_FAMILY = frozenset({"c", "cpp", "objc"})
# Languages where a line break can end a statement: a header never runs on past one at depth 0.
NO_SEMICOLONS = JS_FAMILY | {"go", "kotlin", "swift", "scala"}
_TRIPLE_QUOTED = frozenset({"java", "kotlin", "scala", "swift", "csharp"})

_MULTILINE_STRINGS = frozenset({"rust", "php"})  # plain "…" strings may span lines
_OPEN_STRING = '"\n'  # closer marking a plain string left open at the end of a line
_RUST_CHAR = re.compile(r"'(?:\\[^']{1,10}|[^\\'])'")
_JS_REGEX = re.compile(r"/(?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\[])+/[a-z]*")
_REGEX_BEFORE = re.compile(r"(?:^|[(,=:\[!&|?{};+\-*%<>~^]|\breturn|\btypeof|\bcase)\s*$")
_PP_DIRECTIVE = re.compile(r"\s*#\s*(\w*)")


def _specials(lang: str) -> re.Pattern[str]:
    alts = [r"//", r"/\*", r'"', r"'"]
    if lang in _TRIPLE_QUOTED:
        alts.insert(0, r'"""')
    if lang in JS_FAMILY or lang == "go":
        alts.append("`")
    if lang in JS_FAMILY:
        alts.append(r"/")
    if lang == "rust":
        alts.insert(0, r'(?<![\w])(?:r|br)#*"')
    return re.compile("|".join(alts))


def code_lines(lines: list[str], lang: str) -> list[str]:
    """Each line's code with strings as ``""`` and comments removed (same number of lines)."""
    specials = _specials(lang)
    is_c = lang in C_FAMILY
    out: list[str] = []
    closer = ""  # what ends the multi-line construct the current line starts inside ("" for none)
    templates: list[int] = []  # open JS template literals, see _template
    # Per open #if: the brace depth at the #if, or None once its remaining branches are skipped.
    branches: list[int | None] = []
    depth = 0  # C only: braces opened and not closed in the code kept so far
    continued = False  # previous preprocessor line ended with a backslash
    for line in lines:
        if is_c and not closer:
            d = _PP_DIRECTIVE.match(line) if not continued else None
            if continued or d:
                if d:
                    word = d.group(1)
                    if word in ("if", "ifdef", "ifndef"):
                        branches.append(depth)
                    elif word in ("else", "elif", "elifdef", "elifndef") and branches:
                        # A branch that closed every brace it opened is a whole alternative (a second
                        # version of a function): the next one is read too. One that left a brace open
                        # (a signature per platform, one body) ends the reading of the #if.
                        if depth != branches[-1]:
                            branches[-1] = None
                    elif word == "endif" and branches:
                        branches.pop()
                continued = line.rstrip().endswith("\\")
                out.append("")
                continue
            if None in branches:
                out.append("")
                continue
        buf: list[str] = []
        pos = 0
        n = len(line)
        while pos < n:
            if closer == "`" and lang in JS_FAMILY:
                pos = _template(line, pos, templates)
                if not templates:
                    closer = ""
                continue
            if closer:
                # A Rust/PHP string left open goes on until an unescaped quote.
                after = _quoted(line, pos - 1, '"') if closer == _OPEN_STRING else line.find(closer, pos)
                if after < 0:
                    pos = n
                    continue
                pos, closer = (after if closer == _OPEN_STRING else after + len(closer)), ""
                continue
            m = specials.search(line, pos)
            if m is None:
                buf.append(line[pos:])
                break
            buf.append(line[pos : m.start()])
            tok = m.group(0)
            pos = m.end()
            if tok == "//":
                break
            if tok == "/*":
                closer = "*/"
            elif tok == '"""':
                buf.append('""')
                closer = '"""'
            elif tok == "`":
                buf.append('""')
                closer = "`"
                templates = [0]
            elif tok.endswith('"') and len(tok) > 1:  # Rust raw string r#"…"#
                buf.append('""')
                closer = '"' + "#" * tok.count("#")
            elif tok == "/":
                pos = _slash(line, m.start(), "".join(buf), buf)
            elif tok == "'" and lang == "rust" and not _RUST_CHAR.match(line, m.start()):
                buf.append("'")  # a lifetime such as 'a
            else:
                pos = _quoted(line, m.start(), tok)
                buf.append(tok + tok)
                if pos < 0:
                    pos = n
                    closer = _OPEN_STRING if tok == '"' and lang in _MULTILINE_STRINGS else ""
        code = "".join(buf)
        if is_c:
            depth += code.count("{") - code.count("}")
        out.append(code)
    return out


def _quoted(line: str, start: int, quote: str) -> int:
    """Position after the string opening at ``start`` (-1 when it is not closed on this line)."""
    pos = start + 1
    while pos < len(line):
        ch = line[pos]
        if ch == "\\":
            pos += 2
            continue
        if ch == quote:
            return pos + 1
        pos += 1
    return -1


def _template(line: str, pos: int, levels: list[int]) -> int:
    """Advance inside template literals; ``levels`` holds, per open literal (nested ones inside
    ``${…}`` included), the brace depth of its current ``${…}`` (0 in its text). Empty when closed."""
    while pos < len(line) and levels:
        ch = line[pos]
        if ch == "\\":
            pos += 2
            continue
        if levels[-1] == 0:
            if ch == "`":
                levels.pop()
            elif line.startswith("${", pos):
                levels[-1] = 1
                pos += 1
        elif ch == "`":
            levels.append(0)
        elif ch == "{":
            levels[-1] += 1
        elif ch == "}":
            levels[-1] -= 1
        pos += 1
    return pos


def _slash(line: str, start: int, before: str, buf: list[str]) -> int:
    """A JS ``/``: skip a regular-expression literal, keep a division sign."""
    if _REGEX_BEFORE.search(before):
        m = _JS_REGEX.match(line, start)
        if m:
            buf.append("/r/")
            return m.end()
    buf.append("/")
    return start + 1
