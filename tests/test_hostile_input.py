"""Hostile or careless input gets one clear line naming the file, key or option, never a traceback:
YAML alias bombs and recursion, deeply nested JSON, patterns that do not compile, misleading
values, and file names that would issue workflow commands when printed."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from ctxaction import yamlsafe
from ctxaction.cli import main
from ctxaction.config.load import config_from_text
from ctxaction.config.model import ProfileError
from ctxaction.errors import ConfigError
from ctxaction.pack.rules import frontmatter, matches_any
from ctxaction.secure.checksums import jwt_ok
from ctxaction.secure.synth import expand
from ctxaction.task import TaskError, read_issue_json
from tests.gitrepo import GitRepo
from tests.leaks.forms import assert_no_key_pieces, straddling

KEY = expand('API_KEY = "<<alnum:32>>"\n', "hostile")
SECRET = KEY.split('"')[1]
BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 12)
)
CHAIN = "a0: &a0 " + "[" * 40 + "]" * 40 + "\n" + "".join(
    f"a{i}: &a{i} " + "[" * 40 + f"*a{i - 1}" + "]" * 40 + "\n" for i in range(1, 30)
)


@pytest.fixture
def repo(make_repo: Callable[..., GitRepo]) -> GitRepo:
    repo = make_repo()
    repo.commit({"app/auth.py": "def check_password(pw):\n    return pw == 'x'\n", "README.md": "hi\n"})
    return repo


def issue(tmp_path: Path) -> str:
    path = tmp_path / "issue.txt"
    path.write_text("check_password fails\n\n`check_password` in app/auth.py is wrong.\n", encoding="utf-8")
    return str(path)


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("ctxaction")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("yaml_text", "problem"),
    [
        ("a: &a [*a]\n", "alias *a refers to a value that contains it"),
        ("secrets: &s {allowlist: *s}\n", "alias *s refers to a value that contains it"),
        (BOMB, "expands to more than 100,000 values"),
        ("x: " + "[" * 100_000 + "]" * 100_000 + "\n", "nested deeper than 50 levels"),
        (CHAIN, "nested deeper than 50 levels through its aliases"),
    ],
)
def test_yaml_recursion_bombs_and_depth_are_one_error(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], yaml_text: str, problem: str
) -> None:
    (repo.root / "context-packages.yaml").write_text(yaml_text, encoding="utf-8")
    # A broken config is a usage error (exit 2) for build and scan alike.
    assert main(["build", "--repo", str(repo.root), "--issue-file", issue(tmp_path)]) == 2
    line = one_line_error(capsys)
    assert "context-packages.yaml:" in line and "not valid YAML" in line and problem in line
    scan_dir = repo.root / "app"
    assert main(["scan", str(scan_dir)]) == 2
    assert problem in one_line_error(capsys)


def test_rule_frontmatter_bombs_and_bad_globs_are_ignored() -> None:
    meta, body = frontmatter("---\nglobs: &g [*g]\n---\nUse tabs.\n")
    assert meta == {} and body == "Use tabs.\n"
    meta, _ = frontmatter("---\n" + BOMB + "---\nx\n")
    assert meta == {}
    assert frontmatter("---\nsince: 2001-13-45\n---\nx\n") == ({}, "x\n")
    assert matches_any(["[z-a]", "src/**"], ["src/a.py"])
    assert not matches_any(["[z-a]"], ["src/a.py"])


def test_deep_json_is_one_error(repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"title": "x", "body": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert main(["build", "--repo", str(repo.root), "--issue-json", str(deep)]) == 1
    assert "line 1: not valid JSON (nested deeper than 100 levels)" in one_line_error(capsys)
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"findings": ' + "[" * 100_000, encoding="utf-8")
    assert main(["scan", "--baseline", str(baseline), str(repo.root / "app")]) == 2
    assert "not valid JSON" in one_line_error(capsys)


def test_a_token_with_a_deeply_nested_payload_is_still_a_token() -> None:
    def part(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    header = part(b'{"alg":"HS256"}')
    payload = part(b'{"a":' + b"[" * 2500 + b"]" * 2500 + b"}")
    token = f"{header}.{payload}.sig"
    assert jwt_ok(token)


def test_bad_patterns_are_named_with_file_and_line(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    build = ["build", "--repo", str(repo.root), "--issue-file", issue(tmp_path)]
    (repo.root / ".contextignore").write_text("# comment\n\nbuild/\n[z-a]\n", encoding="utf-8")
    assert main(build) == 1
    assert one_line_error(capsys).endswith(
        ".contextignore:4: bad pattern '[z-a]': bad character range z-a "
        "(character classes run low to high, like [a-z]; escape a literal [ as \\[)"
    )
    (repo.root / ".contextignore").unlink()
    for option in ("--include", "--exclude"):
        assert main([*build, option, "src/\\"]) == 2
        assert f"{option} 'src/\\\\': not a valid gitignore pattern" in one_line_error(capsys)
    config = repo.root / "context-packages.yaml"
    config.write_text('sensitive_paths:\n  - "*.pem"\n  - "[z-a]"\n', encoding="utf-8")
    assert main(build) == 2
    assert "context-packages.yaml:3: sensitive_paths[1]: bad pattern '[z-a]'" in one_line_error(capsys)
    allow = 'secrets:\n  allowlist:\n    paths:\n      - "ok/**"\n      - "[z-a]"\n'
    config.write_text(allow, encoding="utf-8")
    repo.write("app/key.py", KEY)
    monkeypatch.chdir(repo.root)
    assert main(["scan", "app"]) == 2  # a usage error, not "found"
    line = one_line_error(capsys)
    assert "context-packages.yaml:5: secrets.allowlist.paths[1]: bad pattern '[z-a]'" in line


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        (
            "rules:\n  sources:\n    - {pattern: CLAUDE.md, priority: 1, max_lines: -3}\n",
            "cfg.yaml:3: rules.sources[0].max_lines: must be at least 1",
        ),
        (
            "rules:\n  sources:\n    - {pattern: ../../etc/passwd, priority: 1, max_lines: 5}\n",
            "cfg.yaml:3: rules.sources[0].pattern: '../../etc/passwd' climbs out with '..'",
        ),
        (
            "rules:\n  sources:\n    - {pattern: CLAUDE.md, priority: 0, max_lines: 5}\n",
            "cfg.yaml:3: rules.sources[0].priority: must be at least 1 (layers 1 and 2 are always packed",
        ),
        (
            "profiles:\n  bugfix:\n    required_files:\n      - {pattern: README.md, max_lines: 0}\n",
            "cfg.yaml:4: profiles.bugfix.required_files[0].max_lines: must be at least 1",
        ),
        ("rules:\n  skills: ['']\n", "cfg.yaml:2: rules.skills[0]: empty pattern"),
        ("=\n", "cfg.yaml:1: not valid YAML: could not determine a constructor"),
        ("version: 2001-13-45\n", "cfg.yaml: not valid YAML: month must be in 1..12"),
    ],
)
def test_misleading_config_values_are_rejected(yaml_text: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        config_from_text(yaml_text, "cfg.yaml")
    assert str(info.value).startswith(message)


def test_unknown_profile_blames_the_request(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ProfileError) as info:
        config_from_text(None, None).profile("nope")
    assert not str(info.value).startswith("<built-in defaults>")
    assert main(["build", "--repo", str(repo.root), "--issue-file", issue(tmp_path), "--task", "nope"]) == 2
    assert one_line_error(capsys) == (
        "ctxaction build: no profile 'nope'; "
        "known: bugfix, feature (from <built-in defaults>) and auto"
    )


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["build", "--task", "{v}"], "ctxaction build: no profile 'word word"),
        (["build", "--include", "[z-a]{v}"], "ctxaction build: --include '[z-a]word word"),
        (["build", "{v}"], "unexpected argument 'word word"),
        (["scan", "--history", "{v}"], "ctxaction scan: unknown revision or range 'word word"),
        (["build", "--budget", "{v}"], "argument --budget: invalid int value: 'word word"),  # argparse's
    ],
)
def test_a_long_argument_is_quoted_short_with_no_piece_of_a_key(
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    where: str,
) -> None:
    keys = {"gh": (expand("<<gh:ghp>>", "cli-long-argument"), "ghp_")}
    value = straddling(keys["gh"][0], tail=70_000)
    monkeypatch.chdir(repo.root)
    argv = [arg.format(v=value) for arg in args]
    if args[0] == "build":
        argv += ["--repo", str(repo.root), "--issue-file", issue(tmp_path)]
    code: int | str | None
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    err = capsys.readouterr().err
    assert_no_key_pieces(keys, err, 8, f"ctxaction {args[0]} {args[1]}")
    # Facts, not the text: a failing assertion prints its operands.
    facts = [where in err, "[REDACTED:" in err, " (70,1" in err, len(err) < 600, "Traceback" not in err]
    assert (code, facts) == (2, [True] * 5)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"title": "x", "comments": "hello"}, "'comments' must be a list of comment objects"),
        ({"title": 5}, "'title' must be a string, got a number"),
        ({"title": "x", "comments": ["hi"]}, "'comments[0]' must be a comment object"),
        ({"title": "x", "labels": "bug"}, "'labels' must be a list"),
        ({"issue": {"title": "x", "body": ["a"]}}, "'body' must be a string or null"),
    ],
)
def test_issue_json_of_the_wrong_shape_is_rejected(tmp_path: Path, obj: object, message: str) -> None:
    path = tmp_path / "issue.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    with pytest.raises(TaskError) as info:
        read_issue_json(path)
    assert str(info.value).startswith(f"{path}: {message}")


def test_a_long_bad_contextignore_line_is_quoted_short_with_no_piece_of_a_key(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 70,000-character line of .contextignore that does not compile makes one short message
    naming the file and line, the key in it redacted before the cut."""
    keys = {"gh": (expand("<<gh:ghp>>", "contextignore-long-line"), "ghp_")}
    (repo.root / ".contextignore").write_text(f"build/\n[z-a]{straddling(keys['gh'][0], tail=70_000)}\n")
    assert main(["build", "--repo", str(repo.root), "--issue-file", issue(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert_no_key_pieces(keys, err, 8, ".contextignore")
    facts = [".contextignore:2: bad pattern " in err, "[REDACTED:" in err, " (70,1" in err, len(err) < 600]
    assert facts == [True] * 4


def test_github_shapes_are_still_accepted(tmp_path: Path) -> None:
    path = tmp_path / "issue.json"
    path.write_text(
        json.dumps({"title": "t", "body": None, "comments": 3, "labels": [{"name": "bug"}], "number": 4}),
        encoding="utf-8",
    )
    task = read_issue_json(path)
    assert (task.title, task.body, task.labels, task.number) == ("t", "", ["bug"], 4)


def test_file_names_cannot_issue_workflow_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "dump"
    folder.mkdir()
    (folder / "x\n::warning ::pwned").write_text(KEY, encoding="utf-8")
    (folder / "y\r\x1b[2K%#?.bin").write_bytes(b"\0" * 8)
    monkeypatch.chdir(tmp_path)
    # -v: a skipped binary file is listed by name (and the name escaped) only when asked for.
    assert main(["scan", "-v", "--no-ignore", "dump"]) == 1
    out, err = capsys.readouterr()
    assert not any(line.startswith("::") for line in (out + err).splitlines())
    assert "dump/x\\n::warning ::pwned:1:12: generic-secret" in out
    assert "note: dump/y\\r\\x1b[2K%#?.bin: skipped: binary" in err
    assert SECRET not in out + err
    assert main(["scan", "--no-ignore", "--format", "sarif", "dump"]) == 1
    sarif = json.loads(capsys.readouterr().out)
    results = sarif["runs"][0]["results"]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    assert uris == ["dump/x%0A::warning%20::pwned"]


@pytest.mark.parametrize("fmt", ["markdown", "xml", "json"])
def test_lone_surrogates_in_issue_json_become_replacement_characters(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    # JSON's "\ud800" escape decodes to a lone surrogate, which no UTF-8 file can hold: the build
    # failed at the very end with "'utf-8' codec can't encode character '\ud800'".
    path = tmp_path / "issue.json"
    path.write_text(
        '{"title": "check_password \\udc00", "body": "\\ud800 app/auth.py", "labels": ["bug\\ud800"],'
        ' "files": ["app/auth\\ud800.py"], "comments": [{"body": "me too \\udfff",'
        ' "user": {"login": "ana\\ud800"}}]}',
        encoding="ascii",
    )
    out = tmp_path / f"package.{fmt}"
    argv = ["build", "--repo", str(repo.root), "--issue-json", str(path), "--format", fmt, "-o", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    assert "check_password \ufffd" in text and "app/auth.py" in text


def test_a_long_list_without_aliases_is_not_called_an_alias_bomb(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bound, lowered: a real list past 100,000 values takes PyYAML seconds to read.
    monkeypatch.setattr(yamlsafe, "MAX_VALUES", 50)
    with pytest.raises(yaml.YAMLError) as info:
        yamlsafe.compose("sensitive_paths: [" + ", ".join(["a"] * 60) + "]\n")
    assert str(info.value).startswith("holds more than 50 values\n")  # was "… through its aliases"
    with pytest.raises(yaml.YAMLError) as info:
        yamlsafe.compose("a: &a [x, x, x, x, x, x, x, x]\nb: [*a, *a, *a, *a, *a, *a, *a, *a]\n")
    assert str(info.value).startswith("expands to more than 50 values through its aliases\n")
