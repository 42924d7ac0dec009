"""Shared pieces of the tree-sitter readers: the :class:`Item` a reader returns, a language's
:class:`Spec`, and line/text helpers (1-based lines counted on ``\n`` as git does)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

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


def text_of(node: Node | None) -> str:
    """The source text of ``node`` ("" for none)."""
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def start_line(node: Node) -> int:
    """First line (1-based) of ``node``."""
    return int(node.start_point.row) + 1


def end_line(node: Node) -> int:
    """Last line (1-based) holding part of ``node`` (a node ending with its newline ends above)."""
    row, col = int(node.end_point.row), int(node.end_point.column)
    return row + 1 if col > 0 or row == node.start_point.row else row


def leading(node: Node, types: frozenset[str]) -> tuple[int, str]:
    """First line of the decorators/attributes right before ``node`` and their text."""
    start = start_line(node)
    marks: list[str] = []
    prev = node.prev_named_sibling
    while prev is not None and prev.type in types:
        start = start_line(prev)
        marks.append(text_of(prev))
        prev = prev.prev_named_sibling
    return start, " ".join(marks)
