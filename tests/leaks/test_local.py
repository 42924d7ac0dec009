"""No piece of a secret in anything the CLI, the hook or the MCP server prints or writes.

One repository holds every form of :mod:`tests.leaks.forms`; it is scanned staged (hook, ``scan``
in three formats, a baseline), then committed (with a secret in the commit subject) and packed in
three formats, explained, and served over MCP. Every output is checked for any 12-character
piece of a secret, and for coverage: the forms must really have gone through each path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.gitrepo import GitRepo
from tests.leaks.forms import PROFILE, Forms, build_forms, leaked

BIN = Path(sys.executable).parent
TIMEOUT = 300


@dataclass
class Run:
    code: int
    out: str
    err: str


def _run(args: list[str], cwd: Path) -> Run:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_TOKEN", "GH_TOKEN")}
    proc = subprocess.run(
        args, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT, check=False
    )
    return Run(
        proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    )


def _clean(forms: Forms, text: str, where: str) -> None:
    # A count, not the list: a failing assertion prints its operands, and they are the pieces.
    found = len(leaked(forms.pieces(), text))
    assert found == 0, f"{found} piece(s) of a secret leaked through {where}"


@pytest.fixture(scope="module")
def forms() -> Forms:
    return build_forms()


@pytest.fixture(scope="module")
def staged(forms: Forms, tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("leak-staged") / "repo")
    for path, content in forms.files.items():
        repo.write(path, content)
    repo.git("add", "-A", "-f")
    return repo


@pytest.fixture(scope="module")
def committed(forms: Forms, tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("leak-committed") / "repo")
    repo.commit({"README.md": "# Uploads\n\nPuts files in buckets.\n"}, "initial")
    for path, content in forms.files.items():
        repo.write(path, content)
    repo.git("add", "-A", "-f")
    repo.git("commit", "-q", "-m", forms.commit_subject)
    return repo


@pytest.fixture(scope="module")
def issue_json(forms: Forms, tmp_path_factory: pytest.TempPathFactory) -> Path:
    issue = {
        "number": 7,
        "title": forms.task_title,
        "body": forms.task_body,
        "comments": [
            {"body": forms.comment, "user": {"login": "octocat"}, "created_at": "2024-05-01T10:00:00Z"}
        ],
    }
    path = tmp_path_factory.mktemp("leak-issue") / "issue.json"
    path.write_text(json.dumps(issue), encoding="utf-8")
    return path


def test_hook_blocks_every_form_and_prints_no_piece(forms: Forms, staged: GitRepo) -> None:
    run = _run([str(BIN / "ctxaction-secrets")], staged.root)
    assert run.code == 1, run.err
    _clean(forms, run.out + run.err, "the hook")
    reported = {line.split(":", 1)[0] for line in run.out.splitlines()}
    for name in forms.utf_files:  # UTF-16/32 text is decoded and scanned, not skipped as binary
        assert name in reported, f"{name}: the hook let its token through"
    assert sum(1 for line in run.out.splitlines() if ":0:" in line) >= len(forms.named_files)
    assert "leaks/keys.py" in reported and "leaks/sitemanager.xml" in reported


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_scan_reports_print_no_piece(forms: Forms, staged: GitRepo, fmt: str, tmp_path: Path) -> None:
    run = _run([str(BIN / "ctxaction"), "scan", "--staged", "--format", fmt], staged.root)
    assert run.code == 1, run.err
    _clean(forms, run.out + run.err, f"scan --staged --format {fmt}")
    written = tmp_path / f"report.{fmt}"
    tree = _run(
        [str(BIN / "ctxaction"), "scan", "leaks", "--no-ignore", "--format", fmt, "-o", str(written)],
        staged.root,
    )
    assert tree.code == 1, tree.err
    _clean(forms, tree.out + tree.err + written.read_text(encoding="utf-8"), f"scan PATH --format {fmt} -o")
    if fmt != "text":
        json.loads(run.out)


def test_baseline_file_holds_no_piece(forms: Forms, staged: GitRepo, tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    run = _run(
        [str(BIN / "ctxaction"), "scan", "--staged", "--baseline", str(baseline), "--update-baseline"],
        staged.root,
    )
    assert run.code == 0, run.err
    _clean(forms, run.out + run.err + baseline.read_text(encoding="utf-8"), "the baseline")


@pytest.fixture(scope="module")
def packages(
    forms: Forms, committed: GitRepo, issue_json: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    out_dir = tmp_path_factory.mktemp("leak-out")
    results: dict[str, Any] = {}
    for fmt in ("markdown", "xml", "json"):
        target = out_dir / f"package.{fmt}"
        args = ["build", "--repo", str(committed.root), "--issue-json", str(issue_json), "--task", PROFILE]
        run = _run([str(BIN / "ctxaction"), *args, "--format", fmt, "-o", str(target)], committed.root)
        assert run.code == 0, run.err
        results[fmt] = (run, target.read_text(encoding="utf-8"))
    return results


@pytest.mark.parametrize("fmt", ["markdown", "xml", "json"])
def test_build_in_each_format_holds_no_piece(forms: Forms, packages: dict[str, Any], fmt: str) -> None:
    run, text = packages[fmt]
    _clean(forms, run.out + run.err + text, f"build --format {fmt}")
    assert "[REDACTED:" in text


def test_build_packed_every_form_whole(forms: Forms, packages: dict[str, Any]) -> None:
    """Coverage: the forms went through packing (whole files, not left out or excerpted)."""
    package = json.loads(packages["json"][1])
    modes = {f["path"]: f["mode"] for f in package["files"]}
    for path in forms.files:
        if path.startswith("leaks/examples_") or path in (
            "leaks/keys.py",
            "leaks/der.js",
            "leaks/sitemanager.xml",
        ):
            assert modes.get(path) == "full", f"{path} was not packed whole: {modes.get(path)}"
    shown = [f["path"] for f in package["files"]] + [e["path"] for e in package["excluded"]]
    assert sum("[REDACTED:" in p for p in shown) >= 2  # the files named with a secret, named redacted


def test_explain_holds_no_piece(forms: Forms, committed: GitRepo, issue_json: Path) -> None:
    args = ["explain", "--repo", str(committed.root), "--issue-json", str(issue_json), "--task", PROFILE]
    run = _run([str(BIN / "ctxaction"), *args, "--limit", "200"], committed.root)
    assert run.code == 0, run.err
    _clean(forms, run.out + run.err, "explain")
    assert "leaks/names/" in run.out  # the named files are listed, their names redacted


def test_paths_given_on_the_command_line_are_echoed_redacted(
    forms: Forms, committed: GitRepo, issue_json: Path, tmp_path: Path
) -> None:
    """The notes and messages that echo a path the user passed: "wrote FILE" of build -o,
    config init --path and a baseline, hook install/uninstall and its error, mcp's "serving"."""
    folder = tmp_path / forms.name_secrets[0]  # a folder named with a token
    hook_repo = GitRepo(folder / "repo")
    ctx = str(BIN / "ctxaction")
    build = ["build", "--repo", str(committed.root), "--issue-json", str(issue_json), "--budget", "3000"]
    runs = {
        "build -o": [ctx, *build, "-o", str(folder / "package.md")],
        "config init --path": [ctx, "config", "init", "--path", str(folder / "config.yaml")],
        "scan --update-baseline": [
            ctx,
            "scan",
            "leaks/upload.py",
            "--baseline",
            str(folder / "b.json"),
            "--update-baseline",
        ],
        "hook install": [ctx, "hook", "install", "--repo", str(hook_repo.root)],
        "hook uninstall": [ctx, "hook", "uninstall", "--repo", str(hook_repo.root)],
        "hook install outside a repository": [ctx, "hook", "install", "--repo", str(folder / "none")],
        "mcp": [ctx, "mcp", "--repo", str(hook_repo.root)],
    }
    for what, args in runs.items():
        run = _run(args, committed.root)
        _clean(forms, run.out + run.err, what)
        assert "[REDACTED:github-pat]" in run.out + run.err, what  # the path was echoed, redacted


mcp = pytest.importorskip("mcp")
anyio = pytest.importorskip("anyio")


def _mcp_calls(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[bool, str]]:
    server = mcp.StdioServerParameters(
        command=str(BIN / "ctxaction"),
        args=["mcp", "--repo", str(root)],
        env={"TIKTOKEN_CACHE_DIR": os.environ["TIKTOKEN_CACHE_DIR"], "GITHUB_TOKEN": "", "GH_TOKEN": ""},
        cwd=str(root),
    )

    async def main() -> list[tuple[bool, str]]:
        async with mcp.Client(server, read_timeout_seconds=TIMEOUT) as client:
            out = []
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                text = "".join(getattr(block, "text", "") for block in result.content)
                out.append((bool(result.is_error), text))
            return out

    results: list[tuple[bool, str]] = anyio.run(main)
    return results


def test_mcp_tools_return_no_piece(forms: Forms, committed: GitRepo) -> None:
    task = f"{forms.task_title}\n\n{forms.task_body}"
    first, last = forms.pem_lines
    named = forms.named_files[0]
    calls: list[tuple[str, dict[str, Any]]] = [
        ("get_package", {"task": task, "budget": 20_000}),
        ("get_excerpt", {"path": forms.pem_file, "start": first, "end": last}),
        ("get_excerpt", {"path": "leaks/keys.py", "start": 3, "end": 6}),
        ("get_excerpt", {"path": "leaks/examples_00.txt", "start": 1, "end": 400}),
        ("get_excerpt", {"path": named}),
        ("get_excerpt", {"path": f"../{forms.name_secrets[0]}"}),
        ("get_excerpt", {"path": f"/{'x' * 60}/{forms.name_secrets[0]}.txt"}),
        ("explain", {"task": task, "path": named}),
        ("explain", {"task": task, "path": "leaks/upload.py"}),
    ]
    results = _mcp_calls(committed.root, calls)
    for (name, arguments), (_, text) in zip(calls, results, strict=True):
        _clean(forms, text, f"MCP {name} {sorted(arguments)}")
    pem_error, pem = results[1]
    assert not pem_error and f"lines {first}-{last}" in pem
    assert results[5][0] and results[6][0]  # refused paths: the error echoes the path, redacted
