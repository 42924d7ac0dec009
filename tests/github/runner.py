"""Run ``ctxaction action`` as a subprocess under a simulated GitHub Actions runner environment.

What a runner gives a container action, reproduced with real files: the workspace (a real git
clone with history and an ``origin`` holding ``refs/pull/N/head``), ``GITHUB_EVENT_PATH`` with a
recorded webhook payload, empty ``GITHUB_OUTPUT`` / ``GITHUB_STEP_SUMMARY`` files, every input of
action.yml as ``INPUT_<NAME>`` (hyphens kept) with its default, and ``GITHUB_API_URL`` pointing at
the loopback fake REST server.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.ghserver import FakeGitHub, Recorded
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "ghs_" + "T3stInstallationToken0000000000000000"[:36]
RUN_TIMEOUT = 180
_OUTPUT_RE = re.compile(r"^([\w-]+)<<(ghadelimiter_[0-9a-f-]+)\n(.*?)\n\2\n", re.MULTILINE | re.DOTALL)


def entrypoint() -> list[str]:
    """The installed ``ctxaction`` console script (what the image's ENTRYPOINT runs), else ``-m``.

    The script, unlike ``python -m``, does not put the working directory (the workspace being
    packaged) on ``sys.path``.
    """
    script = Path(sys.executable).with_name("ctxaction")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "ctxaction"]


def image_entrypoint() -> list[str]:
    """The Dockerfile's exec-form ENTRYPOINT, with the image's paths mapped to this environment
    (the venv's interpreter and console script), so its flags run as the image runs them."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    match = re.search(r"^ENTRYPOINT (\[.*\])$", text, re.MULTILINE)
    assert match is not None, "the Dockerfile has no exec-form ENTRYPOINT"
    local = {
        "/opt/ctxaction/venv/bin/python": sys.executable,
        "/usr/local/bin/ctxaction": str(Path(sys.executable).with_name("ctxaction")),
    }
    return [local.get(arg, arg) for arg in json.loads(match.group(1))]


def action_defaults() -> dict[str, str]:
    """``INPUT_*`` variables as the runner sets them from action.yml's defaults."""
    meta = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    env = {}
    for name, spec in meta["inputs"].items():
        default = str(spec.get("default", ""))
        env[f"INPUT_{name.upper()}"] = TOKEN if "github.token" in default else default
    return env


@dataclass
class RunResult:
    """What one action run left behind."""

    code: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str
    requests: list[Recorded]

    def annotations(self, kind: str) -> list[str]:
        """The ``::kind ...::message`` lines of the log."""
        return [line for line in self.stdout.split("\n") if line.startswith(f"::{kind}")]


class ActionRunner:
    """Runs the action against ``fake`` in ``workspace``; each run gets fresh runner files."""

    def __init__(
        self, tmp: Path, fake: FakeGitHub, workspace: Path, extra_env: dict[str, str] | None = None
    ) -> None:
        self.tmp = tmp
        self.fake = fake
        self.workspace = workspace
        # Runner variables a scenario sets itself (GITHUB_REF_NAME, GITHUB_HEAD_REF …).
        self.extra_env: dict[str, str] = dict(extra_env or {})
        self._counter = itertools.count(1)
        # The command line up to and including ``action`` (``image_entrypoint()`` runs the image's).
        self.command = [*entrypoint(), "action"]

    def run(self, event: str, payload: dict[str, Any], **inputs: str) -> RunResult:
        """Run once for ``event`` with ``payload``; ``inputs`` override action.yml defaults
        (``output="artifact"``, ``min_permission="admin"`` → ``INPUT_MIN-PERMISSION``)."""
        n = next(self._counter)
        runner_dir = self.tmp / f"runner{n}"
        runner_dir.mkdir()
        event_path = runner_dir / "event.json"
        event_path.write_text(json.dumps(payload), encoding="utf-8")
        output, summary = runner_dir / "output", runner_dir / "summary.md"
        output.touch()
        summary.touch()
        home = runner_dir / "home"
        home.mkdir()
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "TIKTOKEN_CACHE_DIR": os.environ.get("TIKTOKEN_CACHE_DIR", str(runner_dir / "tiktoken")),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GITHUB_ACTIONS": "true",
            "CI": "true",
            "GITHUB_EVENT_NAME": event,
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_API_URL": self.fake.base_url,
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_REPOSITORY": str(payload.get("repository", {}).get("full_name", "o/r")),
            "GITHUB_RUN_ID": "4242",
            "RUNNER_TEMP": str(runner_dir),
            **action_defaults(),
            **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"},
            **self.extra_env,
        }
        for key, value in inputs.items():
            env[f"INPUT_{key.upper().replace('_', '-')}"] = value
        before = len(self.fake.requests)
        proc = subprocess.run(
            self.command,
            cwd=self.workspace,
            env=env,
            capture_output=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        return RunResult(
            code=proc.returncode,
            stdout=proc.stdout.decode("utf-8", "replace"),
            stderr=proc.stderr.decode("utf-8", "replace"),
            outputs={m.group(1): m.group(3) for m in _OUTPUT_RE.finditer(output.read_text(encoding="utf-8"))},
            summary=summary.read_text(encoding="utf-8"),
            requests=self.fake.requests[before:],
        )


def make_upstream(root: Path) -> tuple[GitRepo, str, str]:
    """An 'origin' with history on main and a PR head at ``refs/pull/1/head`` (no branch points to it).

    Returns (repo, main sha, PR head sha).
    """
    up = GitRepo(root)
    up.commit(
        {
            "README.md": "# Hello World\n\nA greeting library. Please committ your changes with care.\n",
            "CLAUDE.md": "# Rules\n\n- Run `pytest -q` before every commit.\n- Keep functions small.\n",
            "src/hello/__init__.py": '"""Hello package."""\n',
            "src/hello/greet.py": 'def greet(name: str) -> str:\n    return f"Hello, {name}!"\n',
            "tests/test_greet.py": "from hello.greet import greet\n\n\ndef test_greet():\n"
            '    assert greet("x") == "Hello, x!"\n',
        },
        "initial layout",
        date="2024-01-01T10:00:00Z",
    )
    for i in range(4):
        up.commit(
            {"README.md": f"# Hello World\n\nA greeting library (v{i}). Please committ your changes.\n"},
            f"docs: README tweak {i}",
            date=f"2024-02-0{i + 1}T10:00:00Z",
        )
    main = up.git("rev-parse", "HEAD").strip()
    up.git("checkout", "-q", "-b", "feature")
    pr_head = up.commit(
        {"src/hello/greet.py": 'def greet(name: str) -> str:\n    return f"Howdy, {name}! PR_HEAD_MARKER"\n'},
        "feat: friendlier greeting",
        date="2024-03-01T10:00:00Z",
    )
    up.git("update-ref", "refs/pull/1/head", pr_head)
    up.git("update-ref", "refs/pull/2/head", pr_head)
    up.git("checkout", "-q", "main")
    up.git("branch", "-q", "-D", "feature")
    return up, main, pr_head


def clone(upstream: GitRepo, target: Path, depth: int | None = None) -> GitRepo:
    """Clone ``upstream`` like actions/checkout would (optionally shallow).

    Through ``file://`` so only reachable objects travel (a plain path clone copies them all,
    PR heads included).
    """
    depth_args = [f"--depth={depth}"] if depth else []
    subprocess.run(
        ["git", "clone", "-q", *depth_args, f"file://{upstream.root}", str(target)],
        check=True,
        capture_output=True,
    )
    return GitRepo(target)  # re-running init on a clone changes nothing
