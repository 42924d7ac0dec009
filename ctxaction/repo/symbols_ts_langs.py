"""Per-language tree-sitter queries and readers: a captured node to an :class:`Item`, or None.

Each reader decides only what a node defines (name, kind, lines, explicit owner such as a Go
receiver or a C++ ``Class::``); :mod:`symbols_ts` finds the enclosing container. Kinds and spans
follow the line scanner's conventions (:mod:`symbols_brace`) so that ranking reads both alike: a
span starts at the definition's decorators/attributes/``export``/``template`` line, JS/TS type
declarations and Rust types are ``type``, Rust functions inside ``impl`` stay ``function``,
definitions need a body (prototypes and abstract signatures are not definitions).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxaction.repo.symbols_brace import factories_as_classes
from ctxaction.repo.symbols_model import Definition

if TYPE_CHECKING:
    from tree_sitter import Node


@dataclass(frozen=True)
class Item:
    """What one node defines; ``container`` items name their members' parent."""

    name: str
    kind: str
    start: int
    end: int
    owner: str = ""
    container: bool = False
    test_mark: bool = False


@dataclass(frozen=True)
class Spec:
    """A language: its query (captures ``@def``), its reader and an optional post-pass."""

    query: str
    read: Callable[[Node], Item | None]
    finish: Callable[[list[Definition]], list[Definition]] | None = None


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def _start(node: Node) -> int:
    return node.start_point.row + 1


def _end(node: Node) -> int:
    """Last line (1-based) holding part of ``node`` (a node ending with its newline ends above)."""
    row, col = node.end_point.row, node.end_point.column
    return row + 1 if col > 0 or row == node.start_point.row else row


def _leading(node: Node, types: frozenset[str]) -> tuple[int, str]:
    """First line of the decorators/attributes right before ``node`` and their text."""
    start = _start(node)
    marks: list[str] = []
    prev = node.prev_named_sibling
    while prev is not None and prev.type in types:
        start = _start(prev)
        marks.append(_text(prev))
        prev = prev.prev_named_sibling
    return start, " ".join(marks)


# -- JavaScript / TypeScript -------------------------------------------------------------------

_JS_COMMON = """
(function_declaration) @def
(generator_function_declaration) @def
(class_declaration) @def
(method_definition) @def
(variable_declarator) @def
(assignment_expression left: (member_expression)) @def
(pair) @def
"""
_JS_QUERY = _JS_COMMON + "(field_definition) @def\n"
_TS_QUERY = _JS_COMMON + """
(public_field_definition) @def
(abstract_class_declaration) @def
(interface_declaration) @def
(type_alias_declaration) @def
(enum_declaration) @def
(internal_module) @def
(module) @def
"""
_JS_FUNCTIONS = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function", "generator_function_declaration"}
)
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
        return _text(node)[1:-1]
    words = _JS_WORD.findall(_text(node))
    return words[-1] if words else ""


def _read_js(node: Node) -> Item | None:
    t = node.type
    if t in ("function_declaration", "generator_function_declaration"):
        outer = _js_outer(node)
        return Item(_text(node.child_by_field_name("name")), "function", _start(outer), _end(node))
    if t in ("class_declaration", "abstract_class_declaration") or t in _JS_TYPES:
        name = node.child_by_field_name("name")
        if name is None or name.type == "string":
            return None
        kind = "type" if t in _JS_TYPES else "class"
        return Item(_text(name), kind, _start(_js_outer(node)), _end(node), container=True)
    if t == "method_definition":
        if node.child_by_field_name("body") is None:
            return None
        name = _js_member_name(node.child_by_field_name("name"))
        return Item(name, "method", _leading(node, _JS_DECORATORS)[0], _end(node)) if name else None
    if t in ("field_definition", "public_field_definition"):
        value = node.child_by_field_name("value")
        if value is None or value.type not in _JS_FUNCTIONS:
            return None
        name = _js_member_name(node.child_by_field_name("property") or node.child_by_field_name("name"))
        return Item(name, "method", _leading(node, _JS_DECORATORS)[0], _end(node)) if name else None
    if t == "variable_declarator":
        return _js_variable(node)
    if t == "assignment_expression":
        return _js_assignment(node)
    if t == "pair":
        value = node.child_by_field_name("value")
        if value is None or value.type not in _JS_FUNCTIONS:
            return None
        name = _js_member_name(node.child_by_field_name("key"))
        return Item(name, "method", _start(node), _end(node)) if name else None
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
    start = _start(outer) if first else _start(node)
    end = _end(decl) if last and decl is not None else _end(node)
    if value.type in _JS_FUNCTIONS:
        return Item(_text(name), "function", start, end)
    if value.type == "class":
        return Item(_text(name), "class", start, end, container=True)
    if outer.parent is None or outer.parent.type != "program":
        return None  # locals are not definitions
    return Item(_text(name), "variable", start, end, container=value.type == "object")


def _js_assignment(node: Node) -> Item | None:
    """``a.b = function …`` / ``X.prototype.m = (…) => …`` / ``module.exports = function name …``."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or right.type not in _JS_FUNCTIONS:
        return None
    name = _text(left.child_by_field_name("property"))
    if name in ("exports", "default"):
        name = _text(right.child_by_field_name("name"))
        if not name:
            return None
    target = left.child_by_field_name("object")
    owner = ""
    if target is not None and target.type == "member_expression":
        if _text(target.child_by_field_name("property")) == "prototype":
            owner = _text(target.child_by_field_name("object")).split(".")[-1]
    stmt = node.parent if node.parent is not None and node.parent.type == "expression_statement" else node
    return Item(name, "method" if owner else "function", _start(stmt), _end(stmt), owner)


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
    return _text(kind)


def _read_go(node: Node) -> Item | None:
    t = node.type
    name = _text(node.child_by_field_name("name"))
    if not name:
        return None
    if t == "function_declaration":
        return Item(name, "function", _start(node), _end(node))
    if t == "method_declaration":
        return Item(name, "method", _start(node), _end(node), _go_receiver(node))
    # A lone spec spans its whole declaration (``type X struct {`` starts at ``type``).
    decl = node.parent
    lone = decl is not None and decl.type.endswith("_declaration") and decl.named_child_count == 1
    span = decl if lone and decl is not None else node
    if t in ("type_spec", "type_alias"):
        return Item(name, "type", _start(span), _end(span), container=True)
    return Item(name, "variable", _start(span), _end(span))


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
            return _text(node)
        if node.type == "scoped_type_identifier":
            node = node.child_by_field_name("name")
        elif node.type in ("generic_type", "reference_type", "pointer_type"):
            node = node.child_by_field_name("type")
        elif node.type == "dynamic_type":
            node = node.child_by_field_name("trait")
        else:
            m = _RS_LAST_NAME.search(re.sub(r"<.*>", "", _text(node)))
            return m.group(1) if m else ""
    return ""


def _read_rust(node: Node) -> Item | None:
    t = node.type
    start, marks = _leading(node, _RS_ATTRIBUTES)
    test = bool(_RS_TEST.search(marks))
    if t == "impl_item":
        name = _rs_type_name(node.child_by_field_name("type"))
        return Item(name, "impl", start, _end(node), container=True, test_mark=test) if name else None
    name = _text(node.child_by_field_name("name"))
    if not name:
        return None
    if t == "function_item":
        return Item(name, "function", start, _end(node), test_mark=test)
    if t in _RS_TYPES:
        return Item(name, "type", start, _end(node), container=True, test_mark=test)
    if t == "mod_item":
        if node.child_by_field_name("body") is None:
            return None  # ``mod foo;`` only names a file
        return Item(name, "module", start, _end(node), container=True, test_mark=test)
    if t == "macro_definition":
        return Item(name, "macro", start, _end(node))
    return Item(name, "variable", start, _end(node))


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
    name = _text(node.child_by_field_name("name"))
    if not name:
        return None
    if t in ("method_declaration", "constructor_declaration"):
        if node.child_by_field_name("body") is None:
            return None
        modifiers = next((c for c in node.named_children if c.type == "modifiers"), None)
        test = bool(_JAVA_TEST.search(_text(modifiers)))
        return Item(name, "method", _start(node), _end(node), test_mark=test)
    kind = "type" if t == "enum_constant" else "class"
    return Item(name, kind, _start(node), _end(node), container=True)


# -- C / C++ -----------------------------------------------------------------------------------

_C_QUERY = """
(function_definition) @def
(struct_specifier body: (_)) @def
(union_specifier body: (_)) @def
(enum_specifier body: (_)) @def
(preproc_def) @def
(preproc_function_def) @def
"""
_CPP_QUERY = _C_QUERY + "(class_specifier body: (_)) @def\n"
_C_WRAPPERS = frozenset(
    {"pointer_declarator", "reference_declarator", "attributed_declarator", "parenthesized_declarator"}
)
_C_TYPES = frozenset({"struct_specifier", "union_specifier", "enum_specifier", "class_specifier"})
_ANGLES = re.compile(r"<.*>", re.S)
_SPACES = re.compile(r"\s+")


def _c_function_name_node(node: Node | None) -> Node | None:
    """The name node of a function definition's declarator (``operator bool`` has no declarator)."""
    while node is not None and node.type in _C_WRAPPERS:
        node = node.child_by_field_name("declarator") or (
            node.named_children[-1] if node.named_children else None
        )
    if node is None:
        return None
    if node.type == "function_declarator":
        return node.child_by_field_name("declarator")
    if node.type == "operator_cast" or (
        node.type == "qualified_identifier" and _text(node.child_by_field_name("name")).startswith("operator")
    ):
        return node
    return None


def _c_name(node: Node | None) -> tuple[str, str]:
    """(name, qualifying class) of a function declarator's name node."""
    owner = ""
    while node is not None and node.type == "qualified_identifier":
        scope = node.child_by_field_name("scope")
        owner = _ANGLES.sub("", _text(scope)).strip()
        node = node.child_by_field_name("name")
    if node is None:
        return "", owner
    if node.type == "template_function":
        node = node.child_by_field_name("name")
    if node is not None and node.type == "operator_cast":
        return "operator " + _text(node.child_by_field_name("type")), owner
    text = _text(node)
    return (_SPACES.sub("", text) if text.startswith("~") else _SPACES.sub(" ", text).strip()), owner


def _in_class_body(node: Node) -> bool:
    up = node.parent
    if up is not None and up.type == "template_declaration":
        up = up.parent
    if up is not None and up.type == "compound_statement":
        return up.parent is not None and _macro_class_name(up.parent) != ""
    return up is not None and up.type == "field_declaration_list"


def _macro_class_name(node: Node) -> str:
    """The class of ``class EXPORT_MACRO Name : Base {`` (which the grammar reads as a function
    whose return type is ``class EXPORT_MACRO``), or ""."""
    if node.type != "function_definition":
        return ""
    kind, declarator = node.child_by_field_name("type"), node.child_by_field_name("declarator")
    if kind is None or kind.type not in _C_TYPES or declarator is None or declarator.type != "identifier":
        return ""
    # ``class API Name : private Base {`` puts Name in an error before the declarator (Base);
    # ``class API Name : public Base {`` reads Name as the declarator and Base as an error after it.
    error = next((c for c in node.named_children if c.type == "ERROR"), None)
    if error is None or error.start_byte > declarator.start_byte:
        return _text(declarator)
    named = next((c for c in error.named_children if c.type == "identifier"), None)
    return _text(named or declarator)


def _read_c(node: Node) -> Item | None:
    t = node.type
    if t in ("preproc_def", "preproc_function_def"):
        name = _text(node.child_by_field_name("name"))
        return Item(name, "macro", _start(node), _end(node)) if name else None
    outer = node.parent if node.parent is not None and node.parent.type == "template_declaration" else node
    if t in _C_TYPES:
        name = _text(node.child_by_field_name("name"))
        if not name and node.parent is not None and node.parent.type == "type_definition":
            name = _text(node.parent.child_by_field_name("declarator"))  # typedef struct { … } Name;
        return Item(name, "type", _start(outer), _end(node), container=True) if name else None
    named = _c_function_name_node(node.child_by_field_name("declarator"))
    if named is None:
        name = _macro_class_name(node)
        return Item(name, "type", _start(outer), _end(node), container=True) if name else None
    name, owner = _c_name(named)
    if not name:
        return None
    kind = "method" if owner or _in_class_body(node) else "function"
    return Item(name, kind, _start(outer), _end(node), owner)


SPECS: dict[str, Spec] = {
    "javascript": Spec(_JS_QUERY, _read_js, factories_as_classes),
    "typescript": Spec(_TS_QUERY, _read_js, factories_as_classes),
    "tsx": Spec(_TS_QUERY, _read_js, factories_as_classes),
    "go": Spec(_GO_QUERY, _read_go),
    "rust": Spec(_RS_QUERY, _read_rust),
    "java": Spec(_JAVA_QUERY, _read_java),
    "c": Spec(_C_QUERY, _read_c),
    "cpp": Spec(_CPP_QUERY, _read_c),
}
