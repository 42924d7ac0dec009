"""Whether a source line defines a name: the one home of the line recognisers ranking uses.

Two questions, from one vocabulary of definition words and signature shapes:

- :func:`definition_patterns` / :func:`maybe_definition` / :func:`keyword_definition`: does a
  line define one of the names the issue names, as anything (function, method, class, type,
  constant), and which name does a definition word introduce? A name the issue names
  points at its definition whatever it is (``symbol_definition``); a line the one-line patterns
  cannot read (a wrapped signature, a macro before the name) is only a maybe, confirmed by the
  definitions index.
- :func:`defines` / :func:`defined_on`: does a line define a *function* of that name (or, for
  :func:`defined_on`, a type or a C++ method's owner)? A name a definition calls is followed to
  the functions of that name only (``callee``), so constants and variables do not count, and
  Python, Go and Rust lines need their keyword.

Fixed patterns plus string checks: a per-name pattern over a long line backtracks badly.
"""

from __future__ import annotations

import re

DEF_WORDS = (
    r"(?:def|class|function|func|fn|struct|enum|trait|interface|type|impl|union|module|mod|record|object|"
    r"macro_rules!|#\s*define|typedef\s+\w+|fun|val|var|let|const)"
)
TYPE_WORDS = "class|struct|interface|enum|record|trait|union|type"
# Languages whose functions or methods are written with no definition word before the name
# (``static int parse(``, ``public void parse(``, a class's ``parse(text) {``).
SIGNATURE_LANGUAGES = frozenset({"c", "cpp", "objc", "java", "csharp", "javascript", "typescript"})
_KEYWORD_NAME = re.compile(rf"{DEF_WORDS}\s+(?:\([^)]*\)\s*)?[*&]?(\w+)")
STATEMENT_WORDS = frozenset(
    {"return", "else", "throw", "await", "yield", "new", "case", "delete", "typeof", "if", "while", "for",
     "not", "and", "or", "in", "go", "defer", "echo", "print", "assert", "raise", "do", "elif", "switch",
     "catch", "sizeof", "co_await", "co_return", "goto", "let", "var", "const", "val"}
)  # fmt: skip


def definition_patterns(names: list[str]) -> tuple[re.Pattern[str], ...]:
    """Patterns of a line that defines one of ``names`` (function, class, type, constant, method);
    the defined name is the ``name`` group."""
    n = "(?P<name>" + "|".join(re.escape(x) for x in names) + ")"
    return (
        re.compile(rf"{DEF_WORDS}\s+(?:\([^)]*\)\s*)?[*&]?{n}\b"),
        re.compile(
            rf"^\s*(?:export\s+)?(?:(?:public|private|protected|static|final|readonly)\s+)*{n}\s*(?::[^=]*)?=[^=]"
        ),
        # A method/function signature: `name(args) {` or a typed declaration ending in `{`.
        re.compile(rf"^\s*(?:[\w<>\[\],*&:]+\s+)*{n}\s*\([^;]*\)\s*(?:[\w:<>\s,]*)\{{\s*$"),
    )


def keyword_definition(line: str) -> str | None:
    """The name the first definition word of ``line`` introduces (``def``, ``class``, ``const`` …)."""
    m = _KEYWORD_NAME.search(line)
    return m.group(1) if m else None


def maybe_definition(names: list[str]) -> re.Pattern[str]:
    """A line that may open a definition of one of ``names`` whose signature the one-line
    patterns cannot see: a wrapped parameter list, the brace on the next line, a macro or
    attribute before the name (``CJSON_PUBLIC(void) cJSON_Minify(``, ``coerce(\\n  keys,``)."""
    n = "(?P<name>" + "|".join(re.escape(x) for x in names) + ")"
    return re.compile(rf"^\s*(?:[\w<>\[\],*&:@]+(?:\([\w\s,*]*\))?\s+)*[*&]?{n}\s*(?:<[^>]*>\s*)?\([^;]*$")


def defined_on(line: str, lang: str) -> list[str]:
    """Names a grep hit line may define: functions before ``(``/``=``/``:``, types after a type word,
    and the owner of a C++ out-of-class method definition (``T::method(``)."""
    out = [m.group(1) for m in _NAME_AT.finditer(line) if defines(line, m.group(1), lang)]
    m = _TYPE_DEF.search(line)
    if m and not line.rstrip().endswith(";"):
        out.append(m.group(1))
    for m in _METHOD_OF.finditer(line):
        if defines(line, m.group(2), lang):
            out.append(m.group(1))
    return out


_NAME_AT = re.compile(r"(?<![\w$])([A-Za-z_]\w*)\s*(?:<[^>]*>\s*)?[(=:]")
_TYPE_DEF = re.compile(rf"\b(?:{TYPE_WORDS})\s+(?:[A-Z_]+\s+)?([A-Za-z_]\w*)")
_METHOD_OF = re.compile(r"\b([A-Z]\w*)(?:<[^>]*>)?::(~?\w+)\s*\(")
_KEYWORD_DEF = re.compile(r"\b(?:def|function|func|fn|fun)\s*\*?\s*(?:\([^)]*\)\s*)?(\w+)\s*[(<]")
_ASSIGNED_FUNCTION = re.compile(
    r"(?:^|[\s.])([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]*)?=>|\w+\s*=>)"
)
_OBJECT_FUNCTION = re.compile(r"^\s*(\w+)\s*:\s*(?:async\s+)?function\b")
_QUALIFIER = re.compile(r"(?:\w+(?:<[^>]*>)?::)+$")
_SIGNATURE_PREFIX = re.compile(r"[\w$<>\[\],.?*&:~@()\s]*")
_BODY_OPENS = re.compile(r"\)\s*(?::[^{;=]*)?(?:const\s*)?\{\s*$")


def defines(line: str, name: str, lang: str) -> bool:
    """Whether one source line defines the function/method ``name`` (not merely calls it).

    Fixed patterns plus string checks: a per-name pattern over a long line backtracks badly."""
    if any(m.group(1) == name for m in _KEYWORD_DEF.finditer(line)):
        return True
    if lang in ("python", "go", "rust"):
        return False  # those languages always define functions with their keyword
    if any(m.group(1) == name for m in _ASSIGNED_FUNCTION.finditer(line)):
        return True
    m = _OBJECT_FUNCTION.match(line)
    if m and m.group(1) == name:
        return True
    for m in _NAME_AT.finditer(line):
        if m.group(1) == name and line[m.end() - 1] == "(":
            return _signature(line[: m.start()], line[m.end() :])
    return False


def _signature(before: str, after: str) -> bool:
    """Whether ``before name(after`` reads as a signature: a type or modifiers before the name (never a
    statement word such as ``return``), or a parameter list that closes and opens a body on this line."""
    if ";" in after:
        return False
    prefix = _QUALIFIER.sub("", before).rstrip("*&")
    if prefix.strip() and not prefix[-1].isspace():
        return False  # ``obj.name(`` or ``f(name(``: a call
    if not _SIGNATURE_PREFIX.fullmatch(prefix) or "=" in prefix:
        return False
    words = prefix.split()
    if words:
        return words[0] not in STATEMENT_WORDS
    return bool(_BODY_OPENS.search(after)) and "=>" not in after
