"""The shipped JSON Schema, the code that reads the config and the README agree."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping

import jsonschema
import pytest

from ctxaction.agents import AGENT_NAMES
from ctxaction.cli import main
from ctxaction.config import model
from ctxaction.config.load import config_from_text
from ctxaction.config.schema import MODELINE, SCHEMA_FILE, SCHEMA_URL, schema, schema_text
from ctxaction.config.secrets import SecretsConfig
from ctxaction.config.source import BUILTIN, default_text, parse
from ctxaction.config.validate import problems
from ctxaction.rank.scoring import DEFAULT_WEIGHTS
from ctxaction.secure.sources import DEFAULT_MAX_BYTES
from tests.config.reference import ROOT, readme_with_table

Node = Mapping[str, object]


def resolve(node: Node, root: Node) -> Node:
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return node
    target: object = root
    for part in ref.removeprefix("#/").split("/"):
        assert isinstance(target, Mapping)
        target = target[part]
    assert isinstance(target, Mapping)
    return target


def props(node: Node, root: Node, *path: str) -> Node:
    """The schema node at ``path`` (``*`` steps into additionalProperties, ``[]`` into items)."""
    node = resolve(node, root)
    for key in path:
        step = node["additionalProperties"] if key == "*" else node["items"] if key == "[]" else None
        if step is None:
            properties = node["properties"]
            assert isinstance(properties, Mapping)
            step = properties[key]
        assert isinstance(step, Mapping)
        node = resolve(step, root)
    return node


def keys(node: Node) -> set[str]:
    properties = node.get("properties", {})
    assert isinstance(properties, Mapping)
    return set(properties)


def key_paths(value: object, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every key path of a plain mapping, lists and profile names generalised."""
    if isinstance(value, dict):
        for key, item in value.items():
            here = (*path, "*" if path == ("profiles",) else key)
            yield here
            yield from key_paths(item, here)
    elif isinstance(value, list):
        for item in value:
            yield from key_paths(item, (*path, "[]"))


def test_schema_is_a_valid_draft_2020_12_schema_and_the_defaults_pass_it() -> None:
    root = schema()
    jsonschema.Draft202012Validator.check_schema(root)
    assert root["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert problems(parse(default_text(), BUILTIN)) == []


def test_every_key_of_the_defaults_is_in_the_schema() -> None:
    root = schema()
    found = set(key_paths(parse(default_text(), BUILTIN).data))
    for path in found:
        props(root, root, *path)  # KeyError when the schema lacks it
    assert ("profiles", "*", "budget", "shares", "reserve") in found


def test_the_schema_and_the_typed_model_name_the_same_keys() -> None:
    root = schema()
    profile = props(root, root, "profiles", "*")
    fields = {f.name for f in dataclasses.fields(model.Profile)} - {"name"}
    assert keys(profile) == fields | {"extends"}
    assert keys(profile) == set(model.RawProfile.__annotations__) | {"extends"}
    assert keys(props(root, root, "profiles", "*", "budget")) == set(model.RawBudget.__annotations__)
    assert {f.name for f in dataclasses.fields(model.Budget)} == set(model.RawBudget.__annotations__)
    assert keys(props(root, root, "profiles", "*", "budget", "shares")) == set(model.SECTIONS)
    assert keys(props(root, root, "profiles", "*", "scoring")) == set(DEFAULT_WEIGHTS)
    sources = props(root, root, "rules", "sources", "[]")
    assert keys(sources) == set(model.RawRuleSource.__annotations__)
    assert keys(sources) == {f.name for f in dataclasses.fields(model.RuleSource)}
    required = props(root, root, "profiles", "*", "required_files", "[]")
    assert keys(required) == {f.name for f in dataclasses.fields(model.RequiredFile)}
    assert keys(required) == set(model.RawRequiredFile.__annotations__)
    assert keys(props(root, root, "rules")) == set(model.RawRules.__annotations__)
    assert keys(root) == set(model.RawConfig.__annotations__) | {"secrets"}


def test_the_schema_and_the_scanner_section_agree() -> None:
    root = schema()
    secrets = props(root, root, "secrets")
    allow = props(root, root, "secrets", "allowlist")
    fields = set(SecretsConfig.__slots__) - {"source"}
    assert (keys(secrets) - {"allowlist"}) | keys(allow) == fields
    assert props(root, root, "secrets", "max_file_size")["default"] == DEFAULT_MAX_BYTES
    assert props(root, root, "agent")["enum"] == list(AGENT_NAMES)


def test_schema_defaults_are_the_built_in_values() -> None:
    root = schema()
    defaults = config_from_text(None, None).data
    properties = root["properties"]
    assert isinstance(properties, Mapping)
    for key, node in properties.items():
        if "default" in node:
            assert defaults[key] == node["default"], key


def test_readme_table_is_generated_from_the_schema() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme_with_table(readme) == readme, "run: python -m tests.config.reference"
    assert MODELINE.split("=", 1)[1] in readme


def test_config_schema_prints_the_shipped_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "schema"]) == 0
    out = capsys.readouterr().out
    assert out == schema_text() and json.loads(out)["title"]
    assert (ROOT / "ctxaction" / "defaults" / SCHEMA_FILE).read_text(encoding="utf-8") == out
    assert SCHEMA_URL.endswith(f"/ctxaction/defaults/{SCHEMA_FILE}") and "/v" in SCHEMA_URL
