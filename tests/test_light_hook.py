"""The hook needs only the base install: it imports none of the extras' modules, and an environment
holding only the base dependencies runs the hook and `scan`, while commands needing an extra say
which one in a line."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import venv
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parent.parent
KEY = expand('API_KEY = "<<alnum:32>>"\n', "light")
# What the extras bring (and what they pull in): the hook must load none of it.
HEAVY = (
    "tiktoken", "github", "jinja2", "bpe_openai", "git", "requests", "regex", "mcp", "markdown_it", "nh3"
)
# The base install's import names (jsonschema validates a config the hook has not seen).
BASE = (
    "yaml", "_yaml", "pathspec", "ahocorasick_rs",
    "jsonschema", "jsonschema_specifications", "referencing", "rpds", "attrs", "typing_extensions",
)

PROBE = """
import sys
from ctxaction.cli import main as cli
from ctxaction.hook import main as hook
codes = [
    hook([]),
    hook(["--baseline", "baseline.json", "app.py"]),
    cli(["scan", "--history", "--format", "sarif", "-o", "out.sarif"]),
    cli(["scan", "--diff", "HEAD", "--format", "json"]),
]
heavy = sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)
print(codes, heavy, file=sys.stderr)
"""


def staged_repo(make_repo: Callable[..., GitRepo]) -> GitRepo:
    repo = make_repo()
    repo.commit({"old.py": KEY, "context-packages.yaml": "secrets:\n  allowlist:\n    paths: [docs/**]\n"})
    repo.write("baseline.json", '{"findings": []}\n')
    repo.write("app.py", KEY)
    repo.git("add", "app.py")
    return repo


def test_hook_and_scan_import_nothing_from_the_extras(make_repo: Callable[..., GitRepo]) -> None:
    repo = staged_repo(make_repo)
    proc = subprocess.run(
        [sys.executable, "-c", f"HEAVY = {HEAVY!r}\n{PROBE}"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "[1, 1, 1, 0] []"


def test_a_commit_loads_no_history_or_report_modules(make_repo: Callable[..., GitRepo]) -> None:
    """The commit-time hook is what runs most: it must not pay for push, SARIF or history code."""
    repo = staged_repo(make_repo)
    code = (
        "import sys\nfrom ctxaction.hook import main\ncode = main([])\n"
        "print(code, sorted(m for m in sys.modules if m.startswith('ctxaction')))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRE_COMMIT")}
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=repo.root, capture_output=True, text=True, check=False, env=env
    )
    status, _, modules = proc.stdout.strip().split("\n")[-1].partition(" ")
    assert status == "1", proc.stderr
    for heavy in ("secure.history", "secure.sarif", "github", "tokens"):
        assert f"'ctxaction.{heavy}" not in modules, heavy


@pytest.fixture(scope="module")
def base_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real virtual environment holding ctxaction and only its base dependencies (linked from
    this environment's copies, so no download): no tiktoken, Jinja2, PyGithub."""
    folder = tmp_path_factory.mktemp("base-env")
    venv.EnvBuilder(with_pip=False).create(folder)
    site = next((folder / "lib").glob("python*/site-packages"))
    for name in BASE:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            source = Path(next(iter(spec.submodule_search_locations)))
            (site / name).symlink_to(source, target_is_directory=True)
        elif spec is not None and spec.origin and spec.origin.endswith(".py"):  # a one-file module
            (site / Path(spec.origin).name).symlink_to(spec.origin)
    (site / "ctxaction-src.pth").write_text(f"{ROOT}\n", encoding="utf-8")
    return folder / "bin" / "python"


def test_base_environment_runs_the_hook_and_scan(base_only: Path, make_repo: Callable[..., GitRepo]) -> None:
    repo = staged_repo(make_repo)
    check = subprocess.run(
        [
            str(base_only),
            "-c",
            f"import importlib.util as u; print([n for n in {HEAVY!r} if u.find_spec(n)])",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert check.stdout.strip() == "[]"
    hook = subprocess.run(
        [str(base_only), "-m", "ctxaction.hook"], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert hook.returncode == 1 and "app.py:1:12: generic-secret" in hook.stdout, hook.stderr
    scan = subprocess.run(
        [str(base_only), "-m", "ctxaction", "scan", "--history"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert scan.returncode == 1 and "old.py:1:12" in scan.stdout, scan.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["build", "--sample"],
            "markdown-it-py, nh3, tiktoken, Jinja2 not installed: pip install 'ctxaction[build]'",
        ),
        (
            ["build", "--sample", "--allow-estimate", "--format", "json"],
            "markdown-it-py, nh3 not installed: pip install 'ctxaction[build]'",
        ),
        (["build", "--issue", "1", "--allow-estimate", "--format", "json"], "PyGithub not installed"),
        (
            ["action"],
            "ctxaction action: PyGithub, tiktoken, Jinja2, markdown-it-py, nh3 not installed: "
            "pip install 'ctxaction[action]'",
        ),
    ],
)
def test_commands_needing_an_extra_say_which(
    base_only: Path, make_repo: Callable[..., GitRepo], args: list[str], message: str
) -> None:
    repo = make_repo()
    repo.commit({"a.py": "def f():\n    return 1\n"})
    proc = subprocess.run(
        [str(base_only), "-m", "ctxaction", *args], cwd=repo.root, capture_output=True, text=True, check=False
    )
    if message:
        assert proc.returncode == 2
        assert len(proc.stderr.strip().splitlines()) == 1 and message in proc.stderr, proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
        assert '"files"' in proc.stdout


def test_the_project_scans_clean_with_its_own_settings() -> None:
    """What the project's .pre-commit-config.yaml runs, over every tracked file: no findings (fake
    secrets in the engine's corpus and rule modules are allowlisted in .github/context-packages.yaml)."""
    proc = subprocess.run(
        [sys.executable, "-m", "ctxaction", "scan", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    config = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-config", ".pre-commit-config.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert config.returncode == 0, config.stdout + config.stderr
