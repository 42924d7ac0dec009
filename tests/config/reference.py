"""The README's configuration table, generated from the shipped JSON Schema.

``python -m tests.config.reference`` rewrites the table in README.md; the tests check that the
README holds exactly what this generates, so the two cannot drift apart.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from ctxaction.config.schema import schema

ROOT = Path(__file__).resolve().parents[2]
HEADER = "| key | type | default | meaning |\n| --- | --- | --- | --- |\n"
Node = Mapping[str, object]
_TYPES = {"string": "string", "integer": "int", "number": "number", "boolean": "bool", "null": "null"}


def _resolve(node: Node, root: Node) -> Node:
    ref = node.get("$ref")
    if isinstance(ref, str):
        target: object = root
        for part in ref.removeprefix("#/").split("/"):
            assert isinstance(target, Mapping)
            target = target[part]
        assert isinstance(target, Mapping)
        return {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _limits(node: Node) -> str:
    parts = []
    if "minimum" in node:
        parts.append(f"≥ {node['minimum']}")
    if "exclusiveMinimum" in node:
        parts.append(f"> {node['exclusiveMinimum']}")
    if "maximum" in node:
        parts.append(f"≤ {node['maximum']}")
    return (" " + ", ".join(parts)) if parts else ""


def type_text(node: Node, root: Node) -> str:
    """How the table shows a value's type."""
    node = _resolve(node, root)
    if "enum" in node:
        values = node["enum"]
        assert isinstance(values, list)
        return "one of " + ", ".join(f"`{v}`" for v in values)
    if "const" in node:
        return f"int (only `{node['const']}`)"
    kind = node.get("type")
    if kind == "array":
        items = node.get("items")
        assert isinstance(items, Mapping)
        item = _resolve(items, root)
        fields = item.get("properties")
        if isinstance(fields, Mapping):
            return "list of `{" + ", ".join(fields) + "}`"
        return f"list of {type_text(item, root)}s"
    if kind == "object":
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            inner = {type_text(v, root) for v in properties.values()}
            shown = ", ".join(f"`{k}`" for k in properties)
            return f"mapping of {shown} to {inner.pop()}" if len(inner) == 1 else f"mapping of {shown}"
        return "mapping of names to profiles"
    kinds = kind if isinstance(kind, list) else [kind]
    return " or ".join(_TYPES[str(k)] for k in kinds) + _limits(node)


def _default(node: Node) -> str:
    if "x-doc-default" in node:
        return str(node["x-doc-default"])
    if "default" in node:
        return f"`{json.dumps(node['default'], ensure_ascii=False).strip(chr(34))}`"
    return ""


def rows(node: Node, root: Node, path: str = "") -> Iterator[tuple[str, Node]]:
    """(key path, schema node) for every key the table lists, in schema order."""
    node = _resolve(node, root)
    properties = node.get("properties")
    described = isinstance(properties, Mapping) and all(
        "description" in _resolve(v, root) for v in properties.values()
    )
    if path and "description" in node and not (described and node.get("type") == "object"):
        yield path, node
    if described and isinstance(properties, Mapping):
        for key, child in properties.items():
            yield from rows(child, root, f"{path}.{key}" if path else key)
    extra = node.get("additionalProperties")
    if isinstance(extra, Mapping):
        yield from rows(extra, root, f"{path}.<name>")


def table() -> str:
    """The Markdown table of every configuration key."""
    root = schema()
    lines = [
        f"| `{path}` | {type_text(node, root)} | {_default(node)} | {node['description']} |"
        for path, node in rows(root, root)
    ]
    return HEADER + "\n".join(lines) + "\n"


def readme_with_table(readme: str) -> str:
    """``readme`` with its configuration table replaced by :func:`table`."""
    start = readme.index(HEADER)
    end = readme.index("\n\n", start) + 1
    return readme[:start] + table() + readme[end:]


def main() -> int:
    """Rewrite the README's table in place."""
    path = ROOT / "README.md"
    path.write_text(readme_with_table(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
