"""YAML read with bounds: no recursive aliases, no alias bombs, no deep nesting, no huge documents.

``yaml.safe_load`` builds nothing dangerous, but a document can still take the process down: an
alias that refers to the node holding it (``a: &a [*a]``) makes every walker recurse forever, a
few lines of nested aliases expand to billions of values ("billion laughs"), and a hundred
thousand ``[`` exhaust the recursion limit. Every YAML ctxaction reads (the config, its
``secrets:`` section, rule-file frontmatter) is composed here; each of those is a
:class:`yaml.YAMLError` with the line, so callers report it like any other syntax error.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import ComposerError

MAX_DEPTH = 50  # levels of nesting, aliases expanded
MAX_VALUES = 100_000  # values in the document, aliases expanded
MAX_CHARS = 1_000_000


class _BoundedLoader(yaml.SafeLoader):
    """A safe loader that measures every node as it is composed (size and height with aliases
    expanded) and refuses a document past the bounds."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._measures: dict[int, tuple[int, int]] = {}  # id(node) -> (values, height)
        self._aliased = False  # an alias was read: a count past the bound may be its expansion

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            target = self.anchors.get(event.anchor)
            if target is not None and id(target) not in self._measures:
                raise ComposerError(
                    None, None, f"alias *{event.anchor} refers to a value that contains it", event.start_mark
                )
            self._aliased = True
            return super().compose_node(parent, index)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels", mark)
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if node is not None:
            self._measure(node)
        return node

    def _measure(self, node: yaml.Node) -> None:
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        measured = [self._measures.get(id(child), (1, 1)) for child in children]
        values = 1 + sum(v for v, _ in measured)
        height = 1 + max((h for _, h in measured), default=0)
        if values > MAX_VALUES:
            # A long plain list is no alias bomb: "through its aliases" would send its author
            # looking for aliases it does not have.
            problem = "expands to" if self._aliased else "holds"
            where = " through its aliases" if self._aliased else ""
            raise ComposerError(
                None, None, f"{problem} more than {MAX_VALUES:,} values{where}", node.start_mark
            )
        if height > MAX_DEPTH:
            raise ComposerError(
                None, None, f"nested deeper than {MAX_DEPTH} levels through its aliases", node.start_mark
            )
        self._measures[id(node)] = (values, height)


def compose(text: str) -> yaml.Node | None:
    """The node tree of the single document in ``text`` (None when empty); raises YAMLError."""
    if len(text) > MAX_CHARS:
        raise yaml.YAMLError(f"larger than {MAX_CHARS:,} characters")
    loader = _BoundedLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def load(text: str) -> Any:
    """The plain Python value of the document in ``text`` (safe types only); raises YAMLError."""
    if len(text) > MAX_CHARS:
        raise yaml.YAMLError(f"larger than {MAX_CHARS:,} characters")
    loader = _BoundedLoader(text)
    try:
        return loader.get_single_data()
    except (ValueError, OverflowError) as exc:  # a scalar its type cannot hold (2001-13-45)
        raise yaml.YAMLError(f"a value that cannot be read: {exc}") from exc
    finally:
        loader.dispose()
