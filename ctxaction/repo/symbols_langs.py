"""Per-language detectors: a definition header (code up to its ``{`` or ``;``) to a :class:`Found`.

A detector sees the header as one string whatever its line breaks, the raw first line, the kind of
block it sits in (``top``, ``class``, ``enum``, ``object``, ``body``, ``ns``) and whether a body
follows. It decides only *what* is defined; the engine in :mod:`symbols_brace` decides the span.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ctxaction.repo.symbols_c import NOT_NAMES, function_name, matching_paren
from ctxaction.repo.symbols_lex import C_FAMILY, JS_FAMILY


@dataclass(frozen=True)
class Found:
    """What a header defines; ``block`` is the kind of block its ``{`` opens ("" for a statement)."""

    name: str
    kind: str
    block: str = ""
    parent: str = ""
    typedef: bool = False  # a C typedef: the name after the closing brace names it ("" until then)


@dataclass
class Opened:
    """An open brace: the block kind, the parent name its members get, and the definition it ends."""

    kind: str
    parent: str
    in_test: bool
    definition: tuple[Found, int, str] | None = None  # (found, start line, parent)


Detector = Callable[[str, str, Opened, bool], "Found | None"]

# -- JavaScript / TypeScript ---------------------------------------------------------------

_ARROW = r"(?:async\s+)?(?:function\b|(?:<[^=]*>\s*)?\([^=]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)"
_JS_FUNC = re.compile(r"(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\b\s*\*?\s*([\w$]+)")
_JS_CLASS = re.compile(r"(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+([\w$]+)")
_JS_TYPE = re.compile(
    r"(?:export\s+)?(?:declare\s+)?(?:const\s+)?(?:interface|enum|namespace|module|type)\s+([\w$]+)"
)
_JS_VAR_FN = re.compile(rf"(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=\s*{_ARROW}")
_JS_VAR = re.compile(r"(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=")
_JS_MEMBER = re.compile(rf"((?:[\w$]+\.)+)([\w$]+)\s*=\s*{_ARROW}")
_JS_NAMED_FN = re.compile(r"function\b\s*\*?\s*([\w$]+)")
_JS_FIELD_FN = re.compile(
    rf"(?:(?:public|private|protected|static|readonly|override|declare)\s+)*#?([\w$]+)\s*[?!]?\s*(?::[^=]+)?=\s*{_ARROW}"
)
_JS_METHOD = re.compile(
    r"(?:(?:public|private|protected|static|async|readonly|override|abstract|declare|get|set)\s+)*"
    r"\*?\s*(#?[\w$]+|\[[^\]]+\])\s*[?!]?\s*(?:<.*>)?\s*\("
)
_JS_PROP_FN = re.compile(rf"([\w$]+)\s*:\s*{_ARROW}")
_RETURN_TYPE = re.compile(r"\s*(?::.*)?")


def _js(header: str, raw: str, ctx: Opened, body: bool) -> Found | None:
    if m := _JS_FUNC.match(header):
        return Found(m.group(1), "function", "body") if body else None
    if m := _JS_CLASS.match(header):
        return Found(m.group(1), "class", "class") if body else None
    if m := _JS_TYPE.match(header):
        return Found(m.group(1), "type", "class")
    if m := _JS_VAR_FN.match(header):
        return Found(m.group(1), "function", "body")
    if m := _JS_MEMBER.match(header):
        owner, name = m.group(1).rstrip(".").split("."), m.group(2)
        named = _JS_NAMED_FN.search(header, m.end(2))
        if name in ("exports", "default"):
            if named is None:
                return None
            name = named.group(1)
        parent = owner[0] if len(owner) > 1 and owner[1] == "prototype" else ""
        return Found(name, "method" if parent else "function", "body", parent)
    if ctx.kind in ("class", "object"):
        if m := _JS_FIELD_FN.match(header):
            return Found(m.group(1), "method", "body")
        m = _JS_METHOD.match(header)
        if m and body and _params_then(header, m.end() - 1, _RETURN_TYPE):
            words = re.findall(r"[\w$]+", m.group(1))
            # `#private()` or a computed `[Symbol.iterator]()` may leave no plain word to name it.
            return None if not words or words[-1] in NOT_NAMES else Found(words[-1], "method", "body")
    if ctx.kind != "top" and (m := _JS_PROP_FN.match(header)):
        return Found(m.group(1), "method", "body")
    if ctx.kind == "top" and (m := _JS_VAR.match(header)):
        return Found(m.group(1), "variable", "object")
    return None


def _params_then(header: str, open_at: int, rest: re.Pattern[str]) -> bool:
    """The parameter list opening at ``open_at`` closes and is followed by what ``rest`` allows."""
    close = matching_paren(header, open_at)
    return close is not None and bool(rest.fullmatch(header, close + 1))


_PHP_FUNC = re.compile(r"(?:(?:abstract|final|public|private|protected|static)\s+)*function\s+&?(\w+)")
_PHP_CLASS = re.compile(r"(?:(?:abstract|final|readonly)\s+)*(?:class|interface|trait|enum)\s+(\w+)")


def _php(header: str, raw: str, ctx: Opened, body: bool) -> Found | None:
    if m := _PHP_CLASS.match(header):
        return Found(m.group(1), "class", "class") if body else None
    if (m := _PHP_FUNC.match(header)) and body:
        return Found(m.group(1), "method" if ctx.kind == "class" else "function", "body")
    return None


# -- Go --------------------------------------------------------------------------------------

_GO_METHOD = re.compile(r"func\s*\(\s*(?:\w+\s+)?\*?\s*(\w+)(?:\[[^\]]*\])?\s*\)\s*(\w+)")
_GO_FUNC = re.compile(r"func\s+(\w+)")
_GO_TYPE = re.compile(r"type\s+(\w+)")
_GO_GROUPED_TYPE = re.compile(r"(\w+)\s+(?:struct|interface)\s*")
_GO_VAR = re.compile(r"(?:var|const)\s+(\w+)")


def _go(header: str, raw: str, ctx: Opened, body: bool) -> Found | None:
    if ctx.kind != "top":
        return None
    if m := _GO_METHOD.match(header):
        return Found(m.group(2), "method", "body", m.group(1)) if body else None
    if m := _GO_FUNC.match(header):
        return Found(m.group(1), "function", "body") if body else None
    if m := _GO_TYPE.match(header):
        return Found(m.group(1), "type", "class")
    if raw[:1].isspace() and (m := _GO_GROUPED_TYPE.fullmatch(header)):
        return Found(m.group(1), "type", "class")
    if m := _GO_VAR.match(header):
        return Found(m.group(1), "variable")
    return None


# -- Rust ------------------------------------------------------------------------------------

_RS_VIS = r"(?:pub(?:\s*\([^)]*\))?\s+)?"
_RS_FN = re.compile(rf'{_RS_VIS}(?:(?:default|const|async|unsafe|extern(?:\s+"")?)\s+)*fn\s+(\w+)')
_RS_TYPE = re.compile(rf"{_RS_VIS}(?:unsafe\s+)?(struct|enum|trait|union|type|mod)\s+(\w+)")
_RS_IMPL = re.compile(
    r"(?:unsafe\s+)?impl\b\s*(?:<.*?>)?\s*(?:!?(?:\w+::)*\w+(?:<.*?>)?\s+for\s+)?"
    r"[&\s]*(?:'\w+\s+)?(?:mut\s+)?(?:dyn\s+)?(?:\w+::)*(\w+)"
)
_RS_MACRO = re.compile(r"macro_rules!\s*(\w+)")
_RS_CONST = re.compile(rf"{_RS_VIS}(?:const|static)\s+(?:mut\s+)?(\w+)")


def _rust(header: str, raw: str, ctx: Opened, body: bool) -> Found | None:
    if ctx.kind == "object":
        return None
    if m := _RS_FN.match(header):
        return Found(m.group(1), "function", "body") if body else None
    if m := _RS_TYPE.match(header):
        if m.group(1) == "mod":
            return Found(m.group(2), "module", "class") if body else None
        return Found(m.group(2), "type", "class")
    if m := _RS_IMPL.match(header):
        return Found(m.group(1), "impl", "class") if body else None
    if m := _RS_MACRO.match(header):
        return Found(m.group(1), "macro", "body")
    if m := _RS_CONST.match(header):
        return Found(m.group(1), "variable")
    return None


# -- Java, Kotlin, C#, Scala, Swift ----------------------------------------------------------

_MODS = (
    r"(?:public|private|protected|static|final|abstract|sealed|non-sealed|strictfp|data|open|internal|partial|"
    r"inner|annotation|companion|synchronized|native|default|override|async|virtual|unsafe|extern|new|suspend|"
    r"inline|operator|transient|volatile|readonly|const|lateinit|tailrec|infix|external|value|fileprivate|"
    r"mutating|required|convenience|implicit|lazy|case)"
)
_ANNOS = r"(?:@[\w.]+(?:\((?:[^()]|\([^()]*\))*\))?\s*)*"
_JV_CLASS = re.compile(
    rf"{_ANNOS}(?:{_MODS}\s+)*(class|interface|enum|record|object|struct|@interface|trait|protocol|extension)\s+(\w+)"
)
_JV_FUN = re.compile(rf"{_ANNOS}(?:{_MODS}\s+)*(?:fun|func|def)\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?(\w+)")
_JV_METHOD = re.compile(
    rf"{_ANNOS}(?:{_MODS}\s+)*(?:<.+?>\s*)?(?:[\w.$]+(?:<.*?>)?(?:\[\s*\])*\??\s+)?(\w+)\s*\("
)
_JV_AFTER_PARAMS = re.compile(r"\s*(?:throws\s+[\w.,\s<>]+|:.*|->.*|where\b.*)?")
_JV_CONSTANT = re.compile(r"([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*")
_TYPED_PARAM = re.compile(r"[\w>\]]\s+\w")


def _java(header: str, raw: str, ctx: Opened, body: bool) -> Found | None:
    if m := _JV_CLASS.match(header):
        block = "enum" if m.group(1) == "enum" else "class"
        return Found(m.group(2), "class", block) if body else None
    if m := _JV_FUN.match(header):
        return Found(m.group(1), "method" if ctx.kind in ("class", "enum") else "function", "body")
    if ctx.kind not in ("class", "enum") or not body:
        return None
    if ctx.kind == "enum" and (m := _JV_CONSTANT.fullmatch(header)):
        args = m.group(2)
        if m.group(1) not in NOT_NAMES and (args is None or not _TYPED_PARAM.search(args)):
            return Found(m.group(1), "type", "class")
    m = _JV_METHOD.match(header)
    if m and m.group(1) not in NOT_NAMES and _params_then(header, m.end() - 1, _JV_AFTER_PARAMS):
        return Found(m.group(1), "method", "body")
    return None


# -- C / C++ ---------------------------------------------------------------------------------

_C_TYPE = re.compile(
    r"(?:typedef\s+)?(?:template\s*<.*>\s*)?(?:struct|class|union|enum(?:\s+class|\s+struct)?)\s+"
    r"(?:\w+(?:\s*\(.*?\))?\s+)*?(\w+)\s*(?:final\s*)?(?::[^;{]*)?"
)
_DEFINE = re.compile(r"\s*#\s*define\s+(\w+)")
# ``typedef enum {`` … ``} ZSTD_strategy;``: the name code uses comes after the body, if at all before.
_C_TYPEDEF = re.compile(r"typedef\s+(?:struct|union|enum)(?:\s+(\w+))?\s*")
# Statements that are no prototype: a typedef, an access label run into the next line (``public:``
# then ``int f();``: the next line is tried on its own), a function pointer ``int (*cb)(void);``.
_NOT_PROTOTYPE = re.compile(r"\s*(?:typedef\b|(?:public|private|protected)\s*:(?!:)|[^(]*\(\s*[*^])")


def _c(header: str, raw: str, ctx: Opened, body: bool) -> Found | None:
    if m := _DEFINE.match(raw):
        return Found(m.group(1), "macro")
    if ctx.kind not in ("top", "class", "ns"):
        return None
    if body and (m := _C_TYPEDEF.fullmatch(header)):
        return Found(m.group(1) or "", "type", "class", typedef=True)
    if body and (m := _C_TYPE.fullmatch(header)):
        return Found(m.group(1), "type", "class")
    # A declaration without a body (``ZSTDLIB_API size_t ZSTD_frameHeaderSize(const void* src, …);``,
    # ``void paint(Canvas &c) const;`` in a class) is a definition too: a C header's API is its
    # prototypes, and an issue naming one should focus that line, not a macro whose name holds it.
    if not body and _NOT_PROTOTYPE.match(header):
        return None
    named = function_name(header)
    if named is None:
        return None
    name, owner = named
    if not body and not _declares(header, name, ctx):
        return None
    kind = "method" if owner or ctx.kind == "class" else "function"
    return Found(name, kind, "body" if body else "", owner)


def _declares(header: str, name: str, ctx: Opened) -> bool:
    """A statement that declares ``name``: a type comes before it (``FOO(x);`` at the top level is a
    macro call), except a class's own constructor and destructor."""
    before = header[: header.find(name)].strip()
    return bool(before) or (ctx.kind == "class" and name.lstrip("~") == ctx.parent.rsplit(".", 1)[-1])


DETECTORS: dict[str, Detector] = {
    **dict.fromkeys(JS_FAMILY, _js), "php": _php, "go": _go, "rust": _rust,
    **dict.fromkeys(("java", "kotlin", "scala", "csharp", "swift"), _java), **dict.fromkeys(C_FAMILY, _c),
}  # fmt: skip

_JS_NESTED = re.compile(r"function|=>|\bclass\b|[(,<]\s*$")
_WHERE: dict[str, frozenset[str]] = {
    **dict.fromkeys(C_FAMILY, frozenset({"top", "class", "ns"})), "go": frozenset({"top"}),
    **dict.fromkeys(("java", "kotlin", "scala", "csharp", "swift"), frozenset({"top", "class", "enum"})),
    "rust": frozenset({"top", "class", "body"}), "php": frozenset({"top", "class"}),
}  # fmt: skip


def worth_trying(lang: str, ctx: str, code: str) -> bool:
    """Cheap gate before a header is built: can a definition start on this line in this block?"""
    if lang in JS_FAMILY:
        return ctx != "body" or bool(_JS_NESTED.search(code))
    return ctx in _WHERE.get(lang, ())


_JS_OBJECT_BEFORE = re.compile(r"(?:[=(,:\[?]|\breturn|\bdefault|&&|\|\||\?\?)\s*$")
_NAMESPACE_BEFORE = re.compile(r'(?:\bnamespace\b[\w:\s]*|\bextern\s*""\s*)$')


# How much of the code before a ``{`` the patterns above read: they are anchored at its end, and
# reading all of it made a line of 100,000 ``{`` cost 100,000 scans of up to the whole line.
_BEFORE_TAIL = 200


def block_kind_of(before: str, codes: list[str], i: int, lang: str, ctx: Opened) -> str:
    """Kind of a ``{`` no definition claimed, from the code before it."""
    text = before[-_BEFORE_TAIL:].rstrip() or (codes[i - 1][-_BEFORE_TAIL:].rstrip() if i > 0 else "")
    if lang in JS_FAMILY:
        # The pattern ends at the text's end, which has no blank left: its longest alternative
        # (``\bdefault``) reads the last 8 characters.
        if _JS_OBJECT_BEFORE.search(text[-8:]):
            return "object"
        return "body" if ctx.kind == "body" or text.endswith("=>") else "code"
    if lang in C_FAMILY and ("namespace" in text or "extern" in text) and _NAMESPACE_BEFORE.search(text):
        return "ns"
    return "code"
