"""JavaScript/TypeScript readers for :mod:`symbols_ts`: the shapes JS code defines things in.

Declarations (functions, classes, interfaces, types, enums, namespaces), class members (methods,
fields holding functions), functions bound to names (``const f = () =>``, ``a.b = function``,
``X.prototype.m = …``, ``module.exports = function name``), object-literal methods and
``key: function``/arrow pairs, and top-level constants (an object literal bound to a name is the
parent of its methods, as the scanner has it).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ctxaction.repo.symbols_ts_base import Item, end_line, leading, start_line, text_of

if TYPE_CHECKING:
    from tree_sitter import Node


_JS_COMMON = """
(function_declaration) @def
(generator_function_declaration) @def
(class_declaration) @def
(method_definition) @def
(variable_declarator) @def
(assignment_expression left: (member_expression)) @def
(pair) @def
"""
JS_QUERY = _JS_COMMON + "(field_definition) @def\n"
TS_QUERY = _JS_COMMON + """
(public_field_definition) @def
(abstract_class_declaration) @def
(interface_declaration) @def
(type_alias_declaration) @def
(enum_declaration) @def
(internal_module) @def
(module) @def
"""
_JS_FUNCTIONS = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function",
     "generator_function_declaration"}
)  # fmt: skip
_JS_WRAPPERS = frozenset({"export_statement", "ambient_declaration"})
_JS_DECORATORS = frozenset({"decorator"})
_JS_TYPES = frozenset(
    {"interface_declaration", "type_alias_declaration", "enum_declaration", "internal_module", "module"}
)
_JS_WORD = re.compile(r"[\w$]+")


def _js_outer(node: Node) -> Node:
    """The statement a declaration heads (``export``/``declare`` wrappers included)."""
    while node.parent is not None and node.parent.type in _JS_WRAPPERS:
        node = node.parent
    return node


def _js_member_name(node: Node | None) -> str:
    """A property/method name: ``#priv`` -> ``priv``, ``[kReset]`` -> ``kReset``, ``'a b'`` -> ``a b``."""
    if node is None:
        return ""
    if node.type == "string":
        return text_of(node)[1:-1]
    words = _JS_WORD.findall(text_of(node))
    return words[-1] if words else ""


def read_js(node: Node) -> Item | None:
    """What a captured JS/TS node defines, or None (anonymous, no body, a local value)."""
    t = node.type
    if t in ("function_declaration", "generator_function_declaration"):
        outer = _js_outer(node)
        return Item(text_of(node.child_by_field_name("name")), "function", start_line(outer), end_line(node))
    if t in ("class_declaration", "abstract_class_declaration") or t in _JS_TYPES:
        name = node.child_by_field_name("name")
        if name is None or name.type == "string":
            return None
        kind = "type" if t in _JS_TYPES else "class"
        return Item(text_of(name), kind, start_line(_js_outer(node)), end_line(node), container=True)
    if t == "method_definition":
        if node.child_by_field_name("body") is None:
            return None
        member = _js_member_name(node.child_by_field_name("name"))
        return Item(member, "method", leading(node, _JS_DECORATORS)[0], end_line(node)) if member else None
    if t in ("field_definition", "public_field_definition"):
        value = node.child_by_field_name("value")
        if value is None or value.type not in _JS_FUNCTIONS:
            return None
        member = _js_member_name(node.child_by_field_name("property") or node.child_by_field_name("name"))
        return Item(member, "method", leading(node, _JS_DECORATORS)[0], end_line(node)) if member else None
    if t == "variable_declarator":
        return _js_variable(node)
    if t == "assignment_expression":
        return _js_assignment(node)
    if t == "pair":
        value = node.child_by_field_name("value")
        if value is None or value.type not in _JS_FUNCTIONS:
            return None
        member = _js_member_name(node.child_by_field_name("key"))
        return Item(member, "method", start_line(node), end_line(node)) if member else None
    return None


def _js_variable(node: Node) -> Item | None:
    name = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    if name is None or name.type != "identifier" or value is None:
        return None
    decl = node.parent
    outer = _js_outer(decl) if decl is not None else node
    first = decl is not None and decl.named_children[:1] == [node]
    last = decl is not None and decl.named_children[-1:] == [node]
    start = start_line(outer) if first else start_line(node)
    end = end_line(decl) if last and decl is not None else end_line(node)
    if value.type in _JS_FUNCTIONS:
        return Item(text_of(name), "function", start, end)
    if value.type == "class":
        return Item(text_of(name), "class", start, end, container=True)
    if outer.parent is None or outer.parent.type != "program":
        return None  # locals are not definitions
    return Item(text_of(name), "variable", start, end, container=value.type == "object")


def _js_assignment(node: Node) -> Item | None:
    """``a.b = function …`` / ``X.prototype.m = (…) => …`` / ``module.exports = function name …``."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or right.type not in _JS_FUNCTIONS:
        return None
    name = text_of(left.child_by_field_name("property"))
    if name in ("exports", "default"):
        name = text_of(right.child_by_field_name("name"))
        if not name:
            return None
    target = left.child_by_field_name("object")
    owner = ""
    if (
        target is not None
        and target.type == "member_expression"
        and text_of(target.child_by_field_name("property")) == "prototype"
    ):
        owner = text_of(target.child_by_field_name("object")).split(".")[-1]
    stmt = node.parent if node.parent is not None and node.parent.type == "expression_statement" else node
    return Item(name, "method" if owner else "function", start_line(stmt), end_line(stmt), owner)
