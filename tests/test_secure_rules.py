"""Every rule's own examples: true positives must be found by it, false positives must not."""

from __future__ import annotations

import pytest

from ctxaction.secure import redact, scan
from ctxaction.secure.rules import ALL_RULES
from ctxaction.secure.synth import expand, split_example

CASES = [
    (rule.id, kind, i, example)
    for rule in ALL_RULES
    for kind, examples in (("tp", rule.tp), ("fp", rule.fp))
    for i, example in enumerate(examples)
]


def test_every_rule_has_examples_of_both_kinds() -> None:
    lacking = [rule.id for rule in ALL_RULES if not rule.tp or not rule.fp]
    assert lacking == []


def test_rule_ids_are_unique() -> None:
    ids = [rule.id for rule in ALL_RULES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    ("rule_id", "kind", "index", "example"), CASES, ids=[f"{c[0]}-{c[1]}{c[2]}" for c in CASES]
)
def test_rule_example(rule_id: str, kind: str, index: int, example: str) -> None:
    path, template = split_example(example)
    text = expand(template, f"{rule_id}-{kind}-{index}")
    found = [f for f in scan(text, path) if f.rule == rule_id]
    if kind == "fp":
        assert found == [], f"{rule_id} flagged its own look-alike"
        return
    assert found, f"{rule_id} missed its example"
    finding = found[0]
    secret = text[finding.start : finding.end]
    assert secret not in finding.preview
    redacted, _ = redact(text, path)
    assert secret not in redacted
    assert f"[REDACTED:{rule_id}]" in redacted
    assert redacted.count("\n") == text.count("\n")
