"""C/C++ function headers: the defined name behind export macros, attributes and qualifiers.

``CJSON_PUBLIC(void) cJSON_Minify(char *json)``, ``__attribute__((cold)) static int f(void)``,
``template <typename T> T Box<T>::get() const``, ``bool operator==(const A &a)``, explicit
specializations (``template <> int Box<int>::get<int>() const``) and GNU style (return type on
the line above) all reduce to a name, and the ``Class`` of ``Class::method``.
"""

from __future__ import annotations

import re

# Looked for right before a top-level "(" in a short window: linear, unlike one pattern over the header.
_OPERATOR_BEFORE = re.compile(r"operator\s*(?:\(\s*\)|\[\s*\]|[^\w\s()]+|\s[\w\s:*&<>]+?)\s*$")
_IDENT_BEFORE = re.compile(r"(?:~\s*)?[A-Za-z_]\w*\s*$")
_QUALIFIER_BEFORE = re.compile(r"[A-Za-z_]\w*\s*(?:<[^<>()]*>)?\s*::\s*$")
# Template arguments between a name and its "(": a specialization's ``get<object>(``, one level nested.
_ARGS_BEFORE = re.compile(r"<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>\s*$")
_PARENS = re.compile(r"[()]")
_WINDOW = 100
_MACRO_LIKE = re.compile(r"[A-Z][A-Z0-9_]*|__\w+|alignas|decltype|_Alignas")
_TRAILING = re.compile(r"(?:const|volatile|noexcept|override|final|throw|try|requires|mutable)\b|&|->|:|$")
_ANGLES = re.compile(r"<[^<>]*>")
_DECL_PREFIX = re.compile(r"[\w\s*&:,~\[\]]*")
_QUAL_SPLIT = re.compile(r"\s*::\s*")
NOT_NAMES = frozenset(
    {"if", "for", "while", "switch", "catch", "return", "function", "else", "do", "try", "new", "sizeof",
     "typeof", "await", "throw", "case", "match", "loop", "defined", "elif", "foreach", "using", "lock",
     "super", "this", "with", "synchronized", "assert", "delete", "static_assert", "alignof", "yield"}
)  # fmt: skip


def function_name(header: str) -> tuple[str, str] | None:
    """(name, qualifying class) of a C/C++ function header without its body, or None."""
    seg = 0  # start of the part not consumed by a leading macro such as CJSON_PUBLIC(void)
    for open_at in _top_level_parens(header):
        if open_at < seg:
            continue
        callee = _callee_before(header, open_at)
        if callee is None or callee[1] == "operator":
            continue
        start, name = callee
        close = matching_paren(header, open_at)
        if close is None or not _is_decl_prefix(header[seg:start]):
            return None
        rest = header[close + 1 :].strip()
        if _MACRO_LIKE.fullmatch(name) and not _TRAILING.match(rest):
            seg = close + 1
            continue
        if "=" in rest.split("->")[0].split(":")[0]:
            return None
        parts = _QUAL_SPLIT.split(name)
        last = re.sub(r"\s+", "", parts[-1]) if parts[-1].startswith("~") else re.sub(r"\s+", " ", parts[-1])
        if last in NOT_NAMES:
            return None
        owner = _ANGLES.sub("", parts[-2]).strip() if len(parts) > 1 else ""
        return last, owner
    return None


def _top_level_parens(header: str) -> list[int]:
    """Positions of the ``(`` that open at parenthesis depth 0."""
    out: list[int] = []
    depth = 0
    for m in _PARENS.finditer(header):
        if m.group(0) == "(":
            if depth == 0:
                out.append(m.start())
            depth += 1
        else:
            depth = max(0, depth - 1)
    return out


def _callee_before(header: str, open_at: int) -> tuple[int, str] | None:
    """(start, qualified name) of the identifier or operator right before the ``(`` at ``open_at``."""
    base = max(0, open_at - _WINDOW)
    end = open_at
    m = _OPERATOR_BEFORE.search(header, base, open_at)
    if m is None:
        args = _ARGS_BEFORE.search(header, base, open_at)
        if args is not None:
            end = args.start()
        m = _IDENT_BEFORE.search(header, base, end)
    if m is None:
        return None
    start = m.start()
    while True:
        base = max(0, start - _WINDOW)
        q = _QUALIFIER_BEFORE.search(header, base, start)
        if q is None:
            break
        start = q.start()
    return start, header[start:end].strip()


def _is_decl_prefix(prefix: str) -> bool:
    """Types, qualifiers and template heads only: no assignment, call, member access or return."""
    for _ in range(3):
        prefix = _ANGLES.sub(" ", prefix)
    return bool(_DECL_PREFIX.fullmatch(prefix)) and not re.search(r"\b(?:return|else|case|goto)\b", prefix)


def matching_paren(text: str, open_at: int) -> int | None:
    """Index of the ``)`` closing the ``(`` at ``open_at``."""
    depth = 0
    for pos in range(open_at, len(text)):
        ch = text[pos]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return pos
    return None
