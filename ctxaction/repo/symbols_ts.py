"""Definitions read from tree-sitter parse trees (JS/TS, Go, Rust, Java).

The grammars are the per-language wheels from PyPI (``tree-sitter-javascript`` …), compiled in:
nothing is downloaded at run time. A missing or incompatible grammar makes :func:`ts_definitions`
return None and the caller falls back to the line scanner of :mod:`symbols_brace`.

One query per language captures every node that may define something; the language's reader
(:mod:`symbols_ts_langs`) turns a node into an :class:`Item` or drops it, and the engine here
gives each definition its parent (the nearest enclosing container: class, interface, impl,
trait, module, enum constant, object literal bound to a name) and its test marking, the same
shape the scanner produces.

C/C++ stay with the line scanner: export and attribute macros the grammar cannot expand
(``CLI11_NODISCARD int count() const {`` in a class body, ``class NetSSL_API Context : …``)
derail its reading of whole classes; on the training set its definitions, even only added to the
scanner's, lowered C++ line recall.
"""

from __future__ import annotations

import functools
import importlib

from ctxaction.repo.symbols_model import Definition
from ctxaction.repo.symbols_ts_base import Item, Spec
from ctxaction.repo.symbols_ts_langs import SPECS

try:
    import tree_sitter

    HAVE_TREE_SITTER = True
except ImportError:  # pragma: no cover - exercised by environments without the wheels
    HAVE_TREE_SITTER = False

# Grammar key -> (module, function returning the language pointer).
_GRAMMARS: dict[str, tuple[str, str]] = {
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
}


def grammar_of(path: str, lang: str) -> str | None:
    """The grammar key for a file of language ``lang`` (from :func:`language_of`), or None."""
    if lang == "typescript":
        return "tsx" if path.lower().endswith(".tsx") else "typescript"
    return lang if lang in _GRAMMARS else None


@functools.cache
def _compiled(key: str) -> tuple[tree_sitter.Language, tree_sitter.Query] | None:
    """(Language, Query) of a grammar, or None when its wheel is missing or does not load."""
    if not HAVE_TREE_SITTER:
        return None
    module_name, func = _GRAMMARS[key]
    try:
        module = importlib.import_module(module_name)
        language = tree_sitter.Language(getattr(module, func)())
        query = tree_sitter.Query(language, SPECS[key].query)
    except (ImportError, AttributeError, ValueError, TypeError, tree_sitter.QueryError):
        return None
    return language, query


# Top-level nodes of a tree with parse errors past which the grammar's reading is not used.
# 10,000 unclosed brackets cost the query about a third of a second.
MAX_FLAT_ERROR_CHILDREN = 10_000


def available(key: str) -> bool:
    """Whether the grammar ``key`` loads on this machine."""
    return key in _GRAMMARS and _compiled(key) is not None


def ts_definitions(text: str, path: str, lang: str) -> list[Definition] | None:
    """Definitions of one file in source order, or None when no grammar serves it here."""
    key = grammar_of(path, lang)
    compiled = _compiled(key) if key else None
    if key is None or compiled is None:
        return None
    language, query = compiled
    tree = tree_sitter.Parser(language).parse(text.encode("utf-8", "replace"))
    root = tree.root_node
    if root.has_error and root.child_count > MAX_FLAT_ERROR_CHILDREN:
        # Unbalanced brackets by the ten thousand ("{\n" repeated) leave a flat, broken tree that
        # the query cursor walks in quadratic time (450,000 lines: ten minutes); the grammar read
        # nothing useful from it anyway, and the line scanner reads it in seconds.
        return None
    found = tree_sitter.QueryCursor(query).captures(root).get("def", [])
    nodes = sorted(found, key=lambda n: (n.start_byte, -n.end_byte))
    return _collect(nodes, SPECS[key])


def _collect(nodes: list[tree_sitter.Node], spec: Spec) -> list[Definition]:
    """Items of the captured nodes (sorted outer first), each with its parent and test marking.

    The enclosing items of a node are the read ones whose byte range holds it: a stack over the
    sorted captures gives them without walking up the tree (a parent lookup starts at the root)."""
    out: list[Definition] = []
    stack: list[tuple[int, Item, bool]] = []  # (end byte, item, in test code)
    seen: set[int] = set()
    for node in nodes:
        if node.id in seen:  # captured by two patterns
            continue
        seen.add(node.id)
        item = spec.read(node)
        if item is None:
            continue
        while stack and stack[-1][0] < node.end_byte:
            stack.pop()
        parent = ""
        for _, held, _ in reversed(stack):
            # Inside a method defined outside its class (``X.prototype.m = …``, ``func (x *X) m``)
            # the owner is the parent, as inside a class.
            if held.container or held.owner:
                parent = held.name if held.container else held.owner
                break
        in_test = item.test_mark or any(t for _, _, t in stack)
        stack.append((node.end_byte, item, in_test))
        out.append(Definition(item.name, item.kind, item.start, item.end, item.owner or parent, in_test))
    out.sort(key=lambda d: (d.start, -d.end))
    return spec.finish(out) if spec.finish else out
