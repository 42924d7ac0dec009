"""The per-host example workflows agree with action.yml and keep the recipe's shape.

(`check-jsonschema` and `zizmor --offline` run on the same files in .ci/run.)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = {
    "agent-claude-code.yml": ("anthropics/claude-code-action@", "claude"),
    "agent-codex.yml": ("openai/codex-action@", "codex"),
    "agent-gemini-cli.yml": ("google-github-actions/run-gemini-cli@", "gemini"),
    "copilot-setup-steps.yml": (None, "copilot"),
}
OUTPUT_REF = re.compile(r"steps\.ctx\.outputs\.([\w-]+)")
PINNED = re.compile(r"^[\w.-]+/[\w.-]+@[0-9a-f]{40}$")


def _action() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8")))


def _workflow(name: str) -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "action" / "examples" / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_runs_ctxaction_first_then_the_agent_failing_open(name: str) -> None:
    agent_action, preset = EXAMPLES[name]
    action, workflow = _action(), _workflow(name)
    text = (ROOT / "action" / "examples" / name).read_text(encoding="utf-8")
    assert workflow["permissions"] == {}
    [(job_name, job)] = workflow["jobs"].items()
    if name == "copilot-setup-steps.yml":
        assert job_name == "copilot-setup-steps"  # the name Copilot looks for
    assert "concurrency" in job and "concurrency" not in workflow
    assert job["permissions"] and "write-all" not in str(job["permissions"])
    steps = job["steps"]
    uses = [str(step.get("uses", "")) for step in steps]
    assert all(PINNED.match(u) for u in uses if u), uses
    ours = next(i for i, u in enumerate(uses) if u.startswith("ctxaction/ctxaction@"))
    with_ = steps[ours]["with"]
    assert set(with_) <= set(action["inputs"]), set(with_) - set(action["inputs"])
    assert with_["agent"] == preset and with_["fail-on-error"] == "false"
    assert set(OUTPUT_REF.findall(text)) <= set(action["outputs"])
    if agent_action:
        agent = next(i for i, u in enumerate(uses) if u.startswith(agent_action))
        assert ours < agent and steps[ours].get("id") == "ctx"
        assert OUTPUT_REF.search(str(steps[agent]))  # the agent is pointed at the package
    assert steps[0]["with"]["persist-credentials"] is False
