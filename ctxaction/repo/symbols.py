"""Definitions (functions, classes, types …) with the line spans of their bodies.

Python is read by an indentation scanner (:func:`python_ast` is the exact reference; the scanner
was faster with the same names). JS/TS, Go, Rust and Java are parsed with tree-sitter
(:mod:`symbols_ts`); every other brace language (C/C++, Kotlin, C#, PHP …), and any file whose
grammar does not load, by
:mod:`symbols_brace`: signature headers joined across lines, per-language detectors, brace
matching outside strings and comments. Only candidate files are ever parsed, and only their first
``MAX_CHARS`` characters.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from ctxaction.repo.files import MAX_FILE_BYTES, RepoView, split_lines
from ctxaction.repo.kinds import language_of
from ctxaction.repo.memo import cached
from ctxaction.repo.symbols_model import Definition

__all__ = ["MAX_CHARS", "Definition", "definitions", "file_definitions", "innermost", "python_ast"]

# The biggest file the repository reader takes (a character is at least a byte): a single-header
# library's fix sits anywhere in it, and parsing a megabyte takes a tenth of a second. Text handed
# in directly past this is cut: definitions further down are not found and an unclosed body runs
# to the cut.
MAX_CHARS = MAX_FILE_BYTES


def definitions(text: str, path: str) -> list[Definition]:
    """Definitions of a file, in source order; [] for languages without a finder."""
    if len(text) > MAX_CHARS:
        cut = text.rfind("\n", 0, MAX_CHARS)
        text = text[: cut if cut > 0 else MAX_CHARS]
    lang = language_of(path)
    if lang == "python":
        return _python(text)
    # Imported here: loading the brace and tree-sitter finders (some sixty patterns compiled,
    # tree-sitter's binding) takes 10 ms that a build reading only Python never needs.
    from ctxaction.repo.symbols_brace import brace_definitions
    from ctxaction.repo.symbols_ts import ts_definitions

    parsed = ts_definitions(text, path, lang)
    return parsed if parsed is not None else brace_definitions(split_lines(text), lang)


def file_definitions(repo: RepoView, path: str, text: str) -> list[Definition]:
    """:func:`definitions` of ``path`` read from ``repo`` as ``text``, parsed once per repository
    state (a fresh list each call: callers may sort or trim it)."""
    return list(cached(repo.memo, ("definitions", path, text), lambda: definitions(text, path)))


def innermost(defs: list[Definition], line: int) -> Definition | None:
    """The smallest function/class definition containing ``line``."""
    best: Definition | None = None
    for d in defs:
        if (
            d.start <= line <= d.end
            and d.kind != "variable"
            and (best is None or d.end - d.start < best.end - best.start)
        ):
            best = d
    return best


# -- Python --------------------------------------------------------------------------------


def _python(text: str) -> list[Definition]:
    """Python definitions by indentation: as exact as ``ast`` on real code and ~5x faster."""
    return _python_scan(split_lines(text))


def python_ast(text: str) -> list[Definition]:
    """Python definitions from :mod:`ast` (falls back to the scanner for code ``ast`` rejects)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _python_scan(split_lines(text))
    out: list[Definition] = []

    def visit(body: list[ast.stmt], parent: str, in_class: bool) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                end = node.end_lineno or node.lineno
                if isinstance(node, ast.ClassDef):
                    out.append(Definition(node.name, "class", start, end, parent))
                    visit(node.body, node.name, True)
                else:
                    out.append(
                        Definition(node.name, "method" if in_class else "function", start, end, parent)
                    )
                    visit(node.body, node.name, False)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and (in_class or not parent):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        out.append(
                            Definition(t.id, "variable", node.lineno, node.end_lineno or node.lineno, parent)
                        )
            elif isinstance(node, (ast.If, ast.Try, ast.With)) and not in_class and not parent:
                # Module-level definitions guarded by version checks or try/except imports.
                nested: list[ast.stmt] = list(getattr(node, "body", []))
                nested += list(getattr(node, "orelse", []))
                for handler in getattr(node, "handlers", []):
                    nested += list(handler.body)
                visit(nested, parent, in_class)

    visit(tree.body, "", False)
    out.sort(key=lambda d: (d.start, -d.end))
    return out


_PY_DEF = re.compile(r"^(\s*)(?:async\s+)?(def|class)\s+(\w+)")
_PY_VAR = re.compile(r"^(\s*)([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)|^(\s+)([A-Za-z_]\w*)\s*:\s*[\w\"'\[][^=]*$")
# Outside a string: a triple quote opens one, a single-quoted string runs to its closing quote (or
# the line's end), ``#`` starts a comment. Triple quotes first: ``"""`` is no empty string.
_PY_TOKEN = re.compile(r"\"\"\"|'''|\"(?:\\.|[^\"\\])*\"?|'(?:\\.|[^'\\])*'?|#")
_PY_CLOSE = {q: re.compile(r"\\.|" + q) for q in ('"""', "'''")}
# A line with no triple quote, outside one: _PY_TOKEN's single-quoted strings and comment in one
# substitution (a comment runs to the line's end), what _py_code's loop does token by token.
_PY_SHORT = re.compile(r"\"(?:\\.|[^\"\\])*\"?|'(?:\\.|[^'\\])*'?|#.*")


def _py_code(line: str, quote: str) -> tuple[str, str]:
    """The code of ``line``: its text outside strings and comments, each string left as ``""``;
    and the triple quote still open at its end. ``quote``: the one the line starts inside ("" when
    none). A quote inside another string or a comment (``"'''"``, ``# ends at \"""``) opens nothing."""
    out: list[str] = []
    pos = 0
    while pos < len(line):
        if quote:
            close = next((m for m in _PY_CLOSE[quote].finditer(line, pos) if m.group(0) == quote), None)
            if close is None:
                return "".join(out), quote
            out.append('""')
            quote, pos = "", close.end()
            continue
        m = _PY_TOKEN.search(line, pos)
        if m is None:
            out.append(line[pos:])
            break
        out.append(line[pos : m.start()])
        token = m.group(0)
        if token == "#":
            break
        if token in _PY_CLOSE:
            quote = token
        else:
            out.append('""')
        pos = m.end()
    return "".join(out), quote


def python_code(lines: Sequence[str]) -> tuple[list[str], list[bool]]:
    """Each line's code (strings and comments blanked, each string left as ``""``) and whether it
    starts inside a triple-quoted string; the second list has one more entry, the state after the
    last line."""
    code: list[str] = []
    in_string = [False] * (len(lines) + 1)
    open_quote = ""
    # The cases most lines are, answered here as _py_code would answer them (a quarter to a third
    # less time over sphinx, xarray and pytest): inside a string its closing quote cannot be when
    # absent, without quotes only a comment can start, and without triple quotes no string stays
    # open.
    for i, line in enumerate(lines):
        if open_quote:
            in_string[i] = True
            if open_quote not in line:
                code.append("")
                continue
        elif '"' not in line and "'" not in line:
            cut = line.find("#")
            code.append(line if cut < 0 else line[:cut])
            continue
        elif '"""' not in line and "'''" not in line:
            code.append(_PY_SHORT.sub(_short_blank, line))
            continue
        text, open_quote = _py_code(line, open_quote)
        code.append(text)
    in_string[len(lines)] = bool(open_quote)
    return code, in_string


def _short_blank(m: re.Match[str]) -> str:
    return "" if m.group(0).startswith("#") else '""'


def _python_scan(lines: list[str]) -> list[Definition]:
    """Indentation-based definitions; strings and comments do not end a block or open one."""
    code, in_string = python_code(lines)
    out: list[Definition] = []
    stack: list[tuple[int, str, bool]] = []  # (indent, name, is a class)
    for i, line in enumerate(lines):
        if in_string[i]:
            continue
        # Substring tests first (each pattern needs one of these): most lines skip the regexes.
        m = _PY_DEF.match(line) if "def" in line or "class" in line else None
        v = None if m or ("=" not in line and ":" not in line) else _PY_VAR.match(line)
        if m is None and v is None:
            continue
        indent = len((m.group(1) if m else _group(v, 1)).expandtabs())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else ""
        if v is not None:
            # Module constants and class attributes; assignments inside functions are locals.
            if not stack or stack[-1][2]:
                end = _py_statement_end(lines, code, in_string, i)
                out.append(Definition(_group(v, 2), "variable", i + 1, end, parent))
            continue
        assert m is not None
        end = _py_block_end(lines, code, in_string, i, indent)
        start = _py_decorated_start(lines, code, i, indent)
        is_class = m.group(2) == "class"
        in_class = bool(stack) and stack[-1][2]
        kind = "class" if is_class else ("method" if in_class else "function")
        out.append(Definition(m.group(3), kind, start, end, parent))
        stack.append((indent, m.group(3), is_class))
    return out


def _group(m: re.Match[str] | None, n: int) -> str:
    """Group ``n`` of a two-alternative match (the second alternative's groups follow the first's)."""
    if m is None:
        return ""
    return m.group(n) if m.group(n) is not None else m.group(n + 2) or ""


def _py_decorated_start(lines: list[str], code: list[str], i: int, indent: int) -> int:
    """First line of the decorators above line ``i`` (multi-line decorator calls included)."""
    start = i + 1
    depth = 0
    for j in range(i - 1, max(-1, i - 60), -1):
        stripped = lines[j].strip()
        depth -= _py_depth(code[j])
        if stripped.startswith("@") and depth <= 0 and len(lines[j]) - len(lines[j].lstrip()) == indent:
            start, depth = j + 1, 0
        elif depth <= 0:
            break
    return start


def _py_block_end(lines: list[str], code: list[str], in_string: list[bool], i: int, indent: int) -> int:
    end = i + 1
    depth = 0
    for j in range(i, len(lines)):
        if j == i or depth > 0:
            depth += _py_depth(code[j])
            end = j + 1
            continue
        if in_string[j]:
            end = j + 1
            continue
        stripped = lines[j].strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(lines[j]) - len(lines[j].lstrip()) <= indent:
            break
        end = j + 1
    return end


def _py_depth(code: str) -> int:
    """Brackets ``code`` opens minus those it closes."""
    return (
        code.count("(") + code.count("[") + code.count("{")
        - code.count(")") - code.count("]") - code.count("}")
    )


def _py_statement_end(lines: list[str], code: list[str], in_string: list[bool], i: int) -> int:
    """Last line of a Python assignment: brackets balanced, no backslash continuation and no
    triple-quoted string left open (a template's text is its variable's)."""
    depth = 0
    for j in range(i, min(len(lines), i + 3000)):
        depth += _py_depth(code[j])
        if depth <= 0 and not in_string[j + 1] and not lines[j].rstrip().endswith("\\"):
            return j + 1
    return i + 1
