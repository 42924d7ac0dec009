"""Callee hop: files defining the functions that the issue's named definitions call.

An issue names the API a user touched (``YAML::Dump``, ``z.date().min()``); the bug is often one call
further down, in another file. For the few definitions the issue names most strongly (inside the
strongest candidates), the identifiers called in their bodies are resolved to the files defining them
with one ``git grep``; rare definitions (few defining files) become ``callee`` candidates with a focus
on the called definition. Common callees (``len``, ``push``, ``toString``, logging) never qualify:
they are defined nowhere in the repository, in too many files, or are skipped outright.
"""

from __future__ import annotations

import math
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ctxaction.rank.candidates import Context
from ctxaction.rank.defines import STATEMENT_WORDS, TYPE_WORDS, defined_on
from ctxaction.repo import search
from ctxaction.repo.imports import is_test_path
from ctxaction.repo.kinds import code_globs, language_of
from ctxaction.repo.symbols import Definition, file_definitions

SEED_FILES = 5  # strongest candidates whose named definitions are followed
MAX_SEEDS = 4  # named definitions followed
SEEDS_PER_FILE = 2
MIN_SEED = 0.45  # strength × relative score a named definition needs to be followed
MAX_BODY_LINES = 250  # longer bodies (whole classes, factories) call too much to say anything
MAX_CALLEES = 40  # names resolved by the one git grep
MAX_DEFINERS = 3  # a name defined in more files than this is too common to point anywhere
MAX_TYPES = 8  # type names followed per definition
TYPE_FACTOR = 0.6  # a type the definition uses says less than a function it calls
FOCUS_STRENGTH = 0.6  # focus weight of a called definition relative to a named one

_TYPE = re.compile(r"(?<![\w$.@])([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)\b(?!\s*\()")
_CALL = re.compile(r"(?<![\w$])([A-Za-z_]\w*)\s*(?:<[\w\s,:*&<>\[\]]*>\s*)?\(")
_STRING = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`(?:\\.|[^`\\])*`')
_LINE_COMMENT = re.compile(r"(?://|#(?!\s*(?:include|define|if|endif|else)\b)).*$")
# Calls too generic to follow even when the repository happens to define them.
_COMMON = frozenset(
    {"len", "str", "int", "float", "bool", "list", "dict", "set", "get", "put", "push", "pop", "append",
     "add", "remove", "map", "filter", "reduce", "format", "print", "println", "printf", "sprintf", "fprintf",
     "toString", "String", "equals", "hashCode", "size", "length", "log", "debug", "info", "warn", "warning",
     "error", "trace", "assert", "require", "super", "this", "self", "isinstance", "hasattr", "getattr",
     "setattr", "range", "enumerate", "zip", "sorted", "min", "max", "abs", "Some", "Ok", "Err", "unwrap",
     "expect", "clone", "into", "from", "new", "make", "panic", "main", "init", "call", "apply", "bind",
     "then", "catch", "resolve", "reject", "keys", "values", "items", "join", "split", "strip", "trim",
     "slice", "substring", "indexOf", "includes", "contains", "forEach", "malloc", "free", "memcpy",
     "memset", "strlen", "strcmp", "assert_eq", "vec", "write", "read", "close", "open", "begin", "end",
     "data", "empty", "valueOf", "parseInt", "Error", "Array", "Object", "Number", "Boolean", "Symbol"}
)  # fmt: skip
_NOT_CALLS = STATEMENT_WORDS | {
    "function", "def", "fn", "func", "fun", "class", "struct", "match", "loop", "using", "foreach",
    "defined", "lambda", "synchronized", "static_cast", "dynamic_cast", "reinterpret_cast", "const_cast",
    "decltype", "alignof", "noexcept", "static_assert", "with", "until", "unless", "when",
}  # fmt: skip


@dataclass(frozen=True)
class _Call:
    """A name used inside a followed definition, and how strongly that definition is named."""

    weight: float
    caller: str  # qualified name of the calling definition
    caller_path: str
    is_type: bool = False


def expand(ctx: Context, strong: Sequence[tuple[str, float]]) -> None:
    """Add ``callee`` candidates for the calls (and types) inside the most strongly named definitions."""
    used = _used_names(ctx, strong)
    if not used:
        return
    # Files already naming a definition keep their own focus: a callee there would pull it away.
    named = {p for p, e in list(ctx.board.entries.items()) if e.hints.defined}
    for name, files in _definers(ctx, used).items():
        call = used[name]
        files.discard(call.caller_path)
        # A C/C++ header and its source file define one thing between them.
        spread = len({posixpath.splitext(f)[0].rsplit("/", 1)[-1] for f in files})
        if not files or spread > MAX_DEFINERS:
            continue
        value = call.weight * (TYPE_FACTOR if call.is_type else 1.0) / spread
        how = "uses the type" if call.is_type else "calls"
        for path in sorted(files):
            reason = f"defines {name}; {call.caller} (named in the issue) {how} it"
            e = ctx.board.add(path, "callee", value, reason)
            if e is not None and not call.is_type and path not in named:
                e.hints.defined[name] = max(e.hints.defined.get(name, 0.0), FOCUS_STRENGTH * call.weight)


def _seeds(ctx: Context, strong: Sequence[tuple[str, float]]) -> list[tuple[float, str, str]]:
    """(weight, path, name) of the definitions the issue names most strongly, best first."""
    seeds: dict[tuple[str, str], float] = {}
    for path, rel in strong[:SEED_FILES]:
        entry = ctx.board.entries.get(path)
        if entry is None or is_test_path(path):
            continue
        named = [(s, n) for n, s in entry.hints.defined.items()]
        named += [(0.8 * v, n) for v, n in entry.hints.name_lines.values()]
        for strength, name in named:
            key = (path, name)
            seeds[key] = max(seeds.get(key, 0.0), strength * rel)
    ranked = sorted(
        ((w, p, n) for (p, n), w in seeds.items() if w >= MIN_SEED), key=lambda t: (-t[0], t[1], t[2])
    )
    # The same API is often defined in several files (versions, flavours): follow more than one.
    per_file: dict[str, int] = {}
    picked = []
    for seed in ranked:
        per_file[seed[1]] = per_file.get(seed[1], 0) + 1
        if per_file[seed[1]] <= SEEDS_PER_FILE:
            picked.append(seed)
    return picked[:MAX_SEEDS]


def _used_names(ctx: Context, strong: Sequence[tuple[str, float]]) -> dict[str, _Call]:
    """Names called (or types used) in the seeds' bodies, minus local and common ones, with their
    strongest caller."""
    parsed: dict[str, tuple[list[str], list[Definition]]] = {}
    used: dict[str, _Call] = {}
    for weight, path, name in _seeds(ctx, strong):
        if path not in parsed:
            text = ctx.repo.read_text(path)
            if text is None:
                continue
            parsed[path] = (text.split("\n"), file_definitions(ctx.repo, path, text))
        lines, defs = parsed[path]
        local = {d.name for d in defs} | {name}
        for d in defs:
            if d.name != name or d.kind == "variable" or d.end - d.start + 1 > MAX_BODY_LINES:
                continue
            calls, types = _calls_in(lines[d.start - 1 : d.end])
            for used_name, is_type in [*((c, False) for c in calls), *((t, True) for t in types[:MAX_TYPES])]:
                if used_name not in local and used_name not in used and len(used) < MAX_CALLEES:
                    used[used_name] = _Call(weight, d.qualname, path, is_type)
    return used


def local_calls(
    defs: Sequence[Definition], lines: Sequence[str], named: Mapping[str, float]
) -> dict[str, tuple[float, str]]:
    """Definitions of the file that its named definitions call (one hop inside the file): name ->
    (the caller's strength shared over the caller's local callees, the caller's qualified name).
    An issue names the API it used (``kickoff_for_each``); the fix is often in the helper it calls
    (``copy``)."""
    local = {d.name for d in defs if d.kind != "variable"}
    out: dict[str, tuple[float, str]] = {}
    for d in defs:
        strength = named.get(d.name, 0.0)
        if strength <= 0 or d.kind == "variable" or d.end - d.start + 1 > MAX_BODY_LINES:
            continue
        calls, _ = _calls_in(list(lines[d.start - 1 : d.end]))
        callees = [c for c in calls if c in local and c != d.name and c not in named]
        for name in callees:
            value = strength / math.sqrt(len(callees))
            if value > out.get(name, (0.0, ""))[0]:
                out[name] = (round(value, 6), d.qualname)
    return out


def _calls_in(body: list[str]) -> tuple[list[str], list[str]]:
    """Called identifiers (``f(``, ``.f(``, ``->f(``, ``::f(``, ``f<T>(``) and capitalized type names
    used, each in source order and deduplicated."""
    calls: dict[str, None] = {}
    types: dict[str, None] = {}
    for raw in body:
        line = _LINE_COMMENT.sub("", _STRING.sub('""', raw))
        for m in _CALL.finditer(line):
            name = m.group(1)
            if len(name) >= 3 and name not in _NOT_CALLS and name not in _COMMON:
                calls.setdefault(name, None)
        for m in _TYPE.finditer(line):
            if m.group(1) not in _COMMON:
                types.setdefault(m.group(1), None)
    return list(calls), [t for t in types if t not in calls]


def _definers(ctx: Context, used: dict[str, _Call]) -> dict[str, set[str]]:
    """name -> non-test files defining it, from one ``git grep`` for function names before ``(``/``=``/``:``
    and for type definitions (``class T``, ``struct T``, C++ ``T::method(``)."""
    calls = "|".join(n for n, c in used.items() if not c.is_type)
    types = "|".join(n for n, c in used.items() if c.is_type)
    pcre = search.has_pcre(ctx.repo)
    patterns = []
    if calls:
        patterns.append(
            rf"\b(?:{calls})\s*(?:<[^>]*>\s*)?[(=:]"
            if pcre
            else rf"(^|[^A-Za-z0-9_$])({calls})[[:space:]]*(<[^>]*>[[:space:]]*)?[(=:]"
        )
    if types:
        patterns.append(
            rf"\b(?:{TYPE_WORDS})\s+(?:[A-Z_]+\s+)?(?:{types})\b"
            if pcre
            else rf"({TYPE_WORDS})[[:space:]]+([A-Z_]+[[:space:]]+)?({types})"
        )
        patterns.append(rf"\b(?:{types})::" if pcre else rf"({types})::")
    # One alternation, not one ``-e`` each: git matches several patterns line by line, ten times slower.
    hits = search.grep(ctx.repo, ["-P" if pcre else "-E"], ["|".join(patterns)], code_globs())
    out: dict[str, set[str]] = {}
    for hit in hits:
        if hit.path not in ctx.files or is_test_path(hit.path):
            continue
        lang = language_of(hit.path)
        for name in defined_on(hit.text, lang):
            if name in used:
                out.setdefault(name, set()).add(hit.path)
    return out
