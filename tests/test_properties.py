"""Property tests: whatever a user or a hostile repository writes as path patterns, config values or
issue JSON, ctxaction answers with its own error (one line) or a result, never a traceback, and the
CLI exits 0, 1 or 2 as documented."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ctxaction.cli import main
from ctxaction.config.load import config_from_text
from ctxaction.errors import ConfigError
from ctxaction.secure import PathRules
from ctxaction.secure.globs import PatternError, gitignore_spec, valid_only
from ctxaction.secure.settings import load_settings
from ctxaction.task import TaskError, read_issue_json, task_from_json
from tests.gitrepo import GitRepo

# Pattern text leaning on the characters that make gitignore patterns (and their regexes) fail.
pattern_text = st.text(alphabet=st.sampled_from(list("[]!*?\\/-az^.#{} \t")) | st.characters(), max_size=12)
paths = st.sampled_from(["a.py", "src/b.py", "x/y/z.pem", ".env", "[z-a]", "dir/"])


@settings(max_examples=300, deadline=None)
@given(st.lists(pattern_text, max_size=6), paths)
def test_pattern_lists_compile_or_name_the_bad_one(patterns: list[str], path: str) -> None:
    try:
        spec = gitignore_spec(patterns)
    except PatternError as exc:
        assert patterns[exc.index] == exc.pattern and str(exc).startswith("bad pattern ")
        spec = gitignore_spec(valid_only(patterns))
    spec.match_file(path)


@settings(max_examples=150, deadline=None)
@given(st.lists(pattern_text, max_size=6), paths)
def test_contextignore_is_read_or_names_its_line(lines: list[str], path: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ignore = Path(tmp, ".contextignore")
        ignore.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
        try:
            rules = PathRules.from_repo(Path(tmp))
        except PatternError as exc:
            assert str(exc).startswith(f"{ignore}:")
            return
        rules.reason(path)


scalars = st.none() | st.booleans() | st.integers(-10, 10**6) | st.floats(allow_nan=True) | pattern_text
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(pattern_text, inner, max_size=3),
    max_leaves=6,
)
KEYS = [
    ("version",), ("encoding",), ("default_profile",), ("agent",), ("sensitive_paths",),
    ("rules", "sources"), ("rules", "nested"), ("rules", "skills"),
    ("profiles", "bugfix", "max_files"), ("profiles", "bugfix", "required_files"),
    ("profiles", "bugfix", "budget", "shares"), ("profiles", "bugfix", "scoring"),
    ("profiles", "mine", "extends"), ("secrets", "allowlist", "paths"), ("secrets", "max_file_size"),
]  # fmt: skip
rule_source = st.fixed_dictionaries(
    {"pattern": pattern_text, "priority": st.integers(-3, 9), "max_lines": st.none() | st.integers(-5, 500)}
)


def nest(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    for key in reversed(path):
        value = {key: value}
    return value  # type: ignore[no-any-return]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(KEYS), values | st.lists(rule_source, max_size=3))
def test_config_values_load_or_fail_with_a_config_error(key: tuple[str, ...], value: Any) -> None:
    text = yaml.safe_dump(nest(key, value), allow_unicode=True)
    try:
        config = config_from_text(text, "cfg.yaml")
    except ConfigError as exc:
        assert str(exc).startswith("cfg.yaml")
        return
    config.profile("auto", ["bug"])


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_config_text_loads_or_fails_with_a_config_error(text: str) -> None:
    with contextlib.suppress(ConfigError):
        config_from_text(text, "cfg.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "cfg.yaml")
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            load_settings(Path(tmp), path)
        except ConfigError as exc:
            assert str(exc).startswith(str(path))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
issue_keys = st.sampled_from(["title", "body", "comments", "labels", "files", "number", "user", "issue"])
issues = st.dictionaries(issue_keys, json_values, max_size=6)


@settings(max_examples=300, deadline=None)
@given(issues | st.fixed_dictionaries({"issue": issues}))
def test_issue_objects_become_a_task_or_a_task_error(obj: dict[str, Any]) -> None:
    try:
        task = task_from_json(obj, "issue.json")
    except TaskError as exc:
        assert str(exc).startswith("issue.json: ")
        return
    assert isinstance(task.title, str) and all(isinstance(c.body, str) for c in task.comments)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_issue_file_becomes_a_task_or_a_task_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "issue.json")
        path.write_bytes(data)
        try:
            read_issue_json(path)
        except TaskError as exc:
            assert str(exc)


@pytest.fixture(scope="module")
def small_repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("props") / "repo")
    repo.commit({"app/auth.py": "def check(pw):\n    return pw\n", "README.md": "hi\n"})
    return repo


def _exit_code(argv: list[str]) -> int:
    """main's return value, or the code of the SystemExit argparse raises for a usage error."""
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pattern_text, issues)
def test_cli_exits_0_1_or_2(
    small_repo: GitRepo, capsys: pytest.CaptureFixture[str], pattern: str, obj: dict[str, Any]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        issue = Path(tmp, "issue.json")
        issue.write_text(json.dumps({"title": "check fails", **obj}), encoding="utf-8")
        root = str(small_repo.root)
        # A pattern starting with "-" reads as an option: argparse's usage error exits 2 itself.
        build = ["build", "--repo", root, "--issue-json", str(issue)]
        assert _exit_code([*build, f"--exclude={pattern}"]) in (0, 1, 2)
        assert _exit_code([*build, "--exclude", pattern]) in (0, 1, 2)
        ignore = small_repo.root / ".contextignore"
        ignore.write_text(pattern, encoding="utf-8", errors="surrogatepass")
        try:
            assert main(["build", "--repo", root, "--sample", "--budget", "800"]) in (0, 1, 2)
        finally:
            ignore.unlink()
        config = Path(tmp, "cfg.yaml")
        config.write_text(yaml.safe_dump({"secrets": {"allowlist": {"paths": [pattern]}}}), encoding="utf-8")
        assert main(["scan", "--config", str(config), str(small_repo.root / "app")]) in (0, 1, 2)
    err = capsys.readouterr().err
    assert "Traceback" not in err
