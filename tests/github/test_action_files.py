"""Static checks of action.yml, the Dockerfile and the example workflows (what the validators in
.ci/run do not cover: our own conventions)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.github.runner import ROOT

OWN_EXAMPLES = ("context-package.yml", "artifact-only.yml", "summary-only.yml")
ISSUE_INPUTS = (
    "github-token",
    "task",
    "budget",
    "config",
    "output",
    "command",
    "min-permission",
    "format",
    "history-depth",
)
ISSUE_OUTPUTS = ("package-path", "tokens", "files", "comment-url", "truncated")


def _action() -> dict[str, Any]:
    action: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return action


def test_action_metadata_inputs_outputs_and_runs() -> None:
    meta = _action()
    assert meta["runs"] == {"using": "docker", "image": "Dockerfile"}
    assert set(meta["branding"]) == {"icon", "color"}
    for name in ISSUE_INPUTS:
        assert name in meta["inputs"], name
    for name, spec in meta["inputs"].items():
        assert re.fullmatch(r"[a-z]+(?:-[a-z]+)*", name), f"input {name} is not kebab-case"
        assert spec.get("description"), f"input {name} has no description"
        assert isinstance(spec.get("default"), str), f"input {name} needs a string default"
    assert meta["inputs"]["github-token"]["default"] == "${{ github.token }}"
    assert meta["inputs"]["command"]["default"] == "/context"
    assert meta["inputs"]["min-permission"]["default"] == "write"
    assert set(ISSUE_OUTPUTS) <= set(meta["outputs"])
    assert all(spec.get("description") for spec in meta["outputs"].values())


def test_every_input_is_read_by_the_action() -> None:
    source = (ROOT / "ctxaction/github/inputs.py").read_text(encoding="utf-8")
    for name in _action()["inputs"]:
        assert f'"{name}"' in source, f"input {name} is declared but never read"


def test_dockerfile_conventions() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    instructions = [
        line.split(None, 1)[0] for line in text.split("\n") if line and not line.startswith(("#", " "))
    ]
    assert "USER" not in instructions and "WORKDIR" not in instructions
    # Multi-stage, every base pinned by digest (a tag can move under a released action).
    bases = re.findall(r"^FROM (\S+)", text, re.MULTILINE)
    assert len(bases) == 2 and all(re.fullmatch(r"python:3\.\d+-slim@sha256:[0-9a-f]{64}", b) for b in bases)
    assert "COPY --from=build /opt/ctxaction /opt/ctxaction" in text
    entry = re.search(r"^ENTRYPOINT (\[.*\])$", text, re.MULTILINE)
    assert entry is not None
    # Isolated: no PYTHONPATH, user site or current folder (the workspace) on the import path.
    assert json.loads(entry.group(1)) == [
        "/opt/ctxaction/venv/bin/python", "-I", "-u", "-B", "-m", "ctxaction", "action"
    ]
    assert re.search(r"^ENV PYTHONUNBUFFERED=1", text, re.MULTILINE)
    assert re.search(r"^ENV TIKTOKEN_CACHE_DIR=/\S+$", text, re.MULTILINE)
    assert "install -y --no-install-recommends git" in text


def test_dockerfile_seeding_step_works_offline(tmp_path: Path) -> None:
    """Run the image's tiktoken seeding command as written, into an empty cache, then load ranks."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    snippet = re.search(r'python -c "([^"]+)"', text)
    assert snippet is not None
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", snippet.group(1)], env=env, check=True, timeout=120)
    assert len(list(tmp_path.iterdir())) == 2
    check = "import tiktoken; assert tiktoken.get_encoding('o200k_base').encode('hello world')"
    subprocess.run([sys.executable, "-c", check], env=env, check=True, timeout=120)


def test_lockfile_pins_every_runtime_dependency() -> None:
    # pyproject.toml itself, not the installed metadata (an editable install can be stale).
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r"^dependencies = \[(.*?)^\]", text, re.M | re.S)
    assert block is not None
    deps = re.findall(r'"([^"]+)"', block.group(1))
    # The image installs the [action] extra, which pulls [offline] and [build].
    for extra in ("build", "offline", "action"):
        line = re.search(rf"^{extra} = \[(.*)\]$", text, re.M)
        assert line is not None, extra
        deps += [d for d in re.findall(r'"([^"]+)"', line.group(1)) if not d.startswith("ctxaction[")]
    assert "PyGithub>=2.3" in deps and "tiktoken>=0.7" in deps
    assert 'ctxaction/src[action]"' in (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lock = (ROOT / "action/requirements.lock").read_text(encoding="utf-8")
    pinned = {m.group(1).lower() for m in re.finditer(r"^([A-Za-z0-9_.-]+)==\S+$", lock, re.MULTILINE)}
    for dep in deps:
        name = re.match(r"[A-Za-z0-9_.-]+", dep)
        assert name is not None and name.group(0).lower().replace("_", "-") in pinned, dep


def test_dockerignore_lets_in_only_what_the_image_installs() -> None:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").split("\n")
    assert "*" in lines
    # COPY from the build context (COPY --from=<stage> copies between stages).
    copied = re.findall(
        r"^COPY (?!--from)(.+) /", (ROOT / "Dockerfile").read_text(encoding="utf-8"), re.MULTILINE
    )
    for sources in copied:
        for source in sources.split():
            assert f"!{source.rstrip('/')}" in lines or f"!{source}/" in lines, source


@pytest.mark.parametrize("name", OWN_EXAMPLES)
def test_example_workflows_are_minimal_and_serialized(name: str) -> None:
    workflow = yaml.safe_load((ROOT / "action/examples" / name).read_text(encoding="utf-8"))
    assert workflow["permissions"] == {}
    (job,) = workflow["jobs"].values()
    # Job-level, after `if:`: a skipped run never joins the group and cancels a queued command.
    assert "concurrency" not in workflow and "number" in job["concurrency"]["group"]
    allowed = {"contents": {"read"}, "issues": {"read", "write"}, "pull-requests": {"read", "write"}}
    assert job["permissions"]["contents"] == "read"
    for scope, level in job["permissions"].items():
        assert level in allowed[scope], (scope, level)
    steps = job["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0 and checkout["with"]["persist-credentials"] is False
    for step in steps:
        if "uses" in step:
            assert re.search(r"@[0-9a-f]{40}$", step["uses"]), f"{step['uses']} is not pinned to a commit"


def test_comment_example_covers_every_trigger() -> None:
    workflow = yaml.safe_load((ROOT / "action/examples/context-package.yml").read_text(encoding="utf-8"))
    on = workflow[True]  # YAML 1.1 reads the key `on` as a boolean
    assert set(on["issues"]["types"]) == {"opened", "edited", "reopened", "labeled"}
    assert set(on["pull_request"]["types"]) == {"opened", "synchronize", "reopened", "ready_for_review"}
    assert on["issue_comment"]["types"] == ["created"]
    assert "number" in on["workflow_dispatch"]["inputs"]
    job = workflow["jobs"]["package"]
    assert job["permissions"] == {"contents": "read", "issues": "write", "pull-requests": "write"}


def test_release_workflow_pins_the_image_by_digest_in_action_yml(tmp_path: Path) -> None:
    """The release step's own rewrite, run on a copy of action.yml with a made-up digest."""
    workflow = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text(encoding="utf-8"))
    assert workflow[True]["push"]["tags"] == ["v*.*.*"] and workflow["permissions"] == {}
    [job] = workflow["jobs"].values()
    assert job["permissions"] == {"contents": "write", "packages": "write"}
    step = next(s for s in job["steps"] if s.get("name", "").startswith("Publish action.yml"))
    script = step["run"].split("git -c user.name", 1)[0]  # the rewrite and its checks
    (tmp_path / "action.yml").write_text((ROOT / "action.yml").read_text(encoding="utf-8"))
    ref = "docker://ghcr.io/o/ctxaction@sha256:" + "ab" * 32
    subprocess.run(["bash", "-c", script], cwd=tmp_path, env={**os.environ, "IMAGE_REF": ref}, check=True)
    released = yaml.safe_load((tmp_path / "action.yml").read_text(encoding="utf-8"))
    assert released["runs"] == {"using": "docker", "image": ref}
    assert released["inputs"] == _action()["inputs"]
