"""Every rule's own examples: true positives must be found by it, false positives must not."""

from __future__ import annotations

import pytest

from ctxaction.secure import redact, scan
from ctxaction.secure.rules import ALL_RULES
from ctxaction.secure.synth import expand, expand_parts, split_example

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
    # A preview shows at most the rule's literal prefix (``ghp_``), nothing of the secret's own
    # characters: no 5-character piece of a generated value, once that prefix is set aside.
    rule = next(r for r in ALL_RULES if r.id == rule_id)
    prefix = max((len(k) for k in rule.keywords if secret.lower().startswith(k.lower())), default=0)
    assert not [n for n in range(prefix + 1, prefix + 5) if secret[:n] + "****" in finding.preview]
    shown = finding.preview.replace(secret[:prefix] + "****", "****")
    _, parts = expand_parts(template, f"{rule_id}-{kind}-{index}")
    pieces = {p[i : i + 5] for p in parts if p in secret for i in range(len(p) - 4)}
    assert sum(piece in shown for piece in pieces) == 0  # a count: the pieces are not printed
    redacted, _ = redact(text, path)
    assert secret not in redacted
    assert f"[REDACTED:{rule_id}]" in redacted
    assert redacted.count("\n") == text.count("\n")


# Prose and Markdown put sentence punctuation right after a token ("use ghp_… .", "`sk_live_…`.").
PUNCTUATION = (".", "!", "?", ":", "/", "-", "#", ">", ",", ";", "")
TP_CASES = [c for c in CASES if c[1] == "tp"]


@pytest.mark.parametrize(
    ("rule_id", "kind", "index", "example"), TP_CASES, ids=[f"{c[0]}-{c[2]}" for c in TP_CASES]
)
def test_rule_example_followed_by_punctuation(rule_id: str, kind: str, index: int, example: str) -> None:
    path, template = split_example(example)
    text = expand(template, f"{rule_id}-{kind}-{index}")
    own = [f for f in scan(text, path) if f.rule == rule_id]
    assert own, f"{rule_id} missed its example"
    secret = text[own[0].start : own[0].end]
    generic = next(rule.generic for rule in ALL_RULES if rule.id == rule_id)
    for mark in PUNCTUATION:
        # Free-form values (passwords) end at whitespace, so only line ends follow them.
        endings = ("", "\n") if generic else ("", "\n", " and more", "\nnext line")
        for ending in endings:
            variant = text + mark + ending
            redacted, findings = redact(variant, path)
            assert findings, f"{rule_id}: nothing found once followed by {mark + ending!r}"
            assert secret not in redacted, f"{rule_id}: its secret survived {mark + ending!r}"
            pieces = {secret[i : i + 12] for i in range(len(secret) - 11)}
            assert not any(piece in redacted for piece in pieces), (
                f"{rule_id}: a 12-character piece of its secret survived {mark + ending!r}"
            )
