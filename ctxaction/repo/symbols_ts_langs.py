"""Per-language tree-sitter queries and readers: a captured node to an :class:`Item`, or None.

Go, Rust and Java here, JavaScript/TypeScript in :mod:`symbols_ts_js`. Each reader
decides only what a node defines (name, kind, lines, explicit owner such as a Go
receiver); :mod:`symbols_ts` finds the enclosing container. Kinds and spans
follow the line scanner's conventions (:mod:`symbols_brace`) so that ranking reads both alike: a
span starts at the definition's decorators/attributes/``export``/``template`` line, JS/TS type
declarations and Rust types are ``type``, Rust functions inside ``impl`` stay ``function``,
definitions need a body (prototypes and abstract signatures are not definitions).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ctxaction.repo.symbols_brace import factories_as_classes
from ctxaction.repo.symbols_ts_base import Item, Spec, end_line, leading, start_line, text_of
from ctxaction.repo.symbols_ts_js import JS_QUERY, TS_QUERY, read_js

if TYPE_CHECKING:
    from tree_sitter import Node


# -- Go ----------------------------------------------------------------------------------------

_GO_QUERY = """
(function_declaration) @def
(method_declaration) @def
(type_spec) @def
(type_alias) @def
(source_file (var_declaration (var_spec) @def))
(source_file (var_declaration (var_spec_list (var_spec) @def)))
(source_file (const_declaration (const_spec) @def))
"""


def _go_receiver(node: Node) -> str:
    """The type a method's receiver names (``(c *Command)`` and ``(l List[T])`` -> the type)."""
    receiver = node.child_by_field_name("receiver")
    decl = receiver.named_children[0] if receiver is not None and receiver.named_children else None
    kind = decl.child_by_field_name("type") if decl is not None else None
    while kind is not None and kind.type in ("pointer_type", "generic_type", "parenthesized_type"):
        kind = kind.child_by_field_name("type") or (kind.named_children[0] if kind.named_children else None)
    return text_of(kind)


def _read_go(node: Node) -> Item | None:
    t = node.type
    name = text_of(node.child_by_field_name("name"))
    if not name:
        return None
    if t == "function_declaration":
        return Item(name, "function", start_line(node), end_line(node))
    if t == "method_declaration":
        return Item(name, "method", start_line(node), end_line(node), _go_receiver(node))
    # A lone spec spans its whole declaration (``type X struct {`` starts at ``type``).
    decl = node.parent
    lone = decl is not None and decl.type.endswith("_declaration") and decl.named_child_count == 1
    span = decl if lone and decl is not None else node
    if t in ("type_spec", "type_alias"):
        return Item(name, "type", start_line(span), end_line(span), container=True)
    return Item(name, "variable", start_line(span), end_line(span))


# -- Rust --------------------------------------------------------------------------------------

_RS_QUERY = """
(function_item) @def
(struct_item) @def
(enum_item) @def
(union_item) @def
(trait_item) @def
(type_item) @def
(mod_item) @def
(impl_item) @def
(macro_definition) @def
(const_item) @def
(static_item) @def
"""
_RS_TYPES = frozenset({"struct_item", "enum_item", "union_item", "trait_item", "type_item"})
_RS_ATTRIBUTES = frozenset({"attribute_item"})
_RS_TEST = re.compile(r"#\[(?:cfg\(test\)|(?:\w+::)*test\b)")
_RS_LAST_NAME = re.compile(r"(\w+)\W*$")


def _rs_type_name(node: Node | None) -> str:
    """The name an ``impl`` is for: ``Wrapper<T>`` -> Wrapper, ``&'a mut fmt::Formatter`` -> Formatter."""
    while node is not None:
        if node.type in ("type_identifier", "primitive_type", "identifier"):
            return text_of(node)
        if node.type == "scoped_type_identifier":
            node = node.child_by_field_name("name")
        elif node.type in ("generic_type", "reference_type", "pointer_type"):
            node = node.child_by_field_name("type")
        elif node.type == "dynamic_type":
            node = node.child_by_field_name("trait")
        else:
            m = _RS_LAST_NAME.search(re.sub(r"<.*>", "", text_of(node)))
            return m.group(1) if m else ""
    return ""


def _read_rust(node: Node) -> Item | None:
    t = node.type
    start, marks = leading(node, _RS_ATTRIBUTES)
    test = bool(_RS_TEST.search(marks))
    if t == "impl_item":
        name = _rs_type_name(node.child_by_field_name("type"))
        return Item(name, "impl", start, end_line(node), container=True, test_mark=test) if name else None
    name = text_of(node.child_by_field_name("name"))
    if not name:
        return None
    if t == "function_item":
        return Item(name, "function", start, end_line(node), test_mark=test)
    if t in _RS_TYPES:
        return Item(name, "type", start, end_line(node), container=True, test_mark=test)
    if t == "mod_item":
        if node.child_by_field_name("body") is None:
            return None  # ``mod foo;`` only names a file
        return Item(name, "module", start, end_line(node), container=True, test_mark=test)
    if t == "macro_definition":
        return Item(name, "macro", start, end_line(node))
    return Item(name, "variable", start, end_line(node))


# -- Java --------------------------------------------------------------------------------------

_JAVA_QUERY = """
(class_declaration) @def
(interface_declaration) @def
(enum_declaration) @def
(record_declaration) @def
(annotation_type_declaration) @def
(method_declaration) @def
(constructor_declaration) @def
(enum_constant body: (_)) @def
"""
_JAVA_TEST = re.compile(r"@(?:\w+\.)*(?:Test|ParameterizedTest)\b")


def _read_java(node: Node) -> Item | None:
    t = node.type
    name = text_of(node.child_by_field_name("name"))
    if not name:
        return None
    if t in ("method_declaration", "constructor_declaration"):
        if node.child_by_field_name("body") is None:
            return None
        modifiers = next((c for c in node.named_children if c.type == "modifiers"), None)
        test = bool(_JAVA_TEST.search(text_of(modifiers)))
        return Item(name, "method", start_line(node), end_line(node), test_mark=test)
    kind = "type" if t == "enum_constant" else "class"
    return Item(name, kind, start_line(node), end_line(node), container=True)


SPECS: dict[str, Spec] = {
    "javascript": Spec(JS_QUERY, read_js, factories_as_classes),
    "typescript": Spec(TS_QUERY, read_js, factories_as_classes),
    "tsx": Spec(TS_QUERY, read_js, factories_as_classes),
    "go": Spec(_GO_QUERY, _read_go),
    "rust": Spec(_RS_QUERY, _read_rust),
    "java": Spec(_JAVA_QUERY, _read_java),
}
