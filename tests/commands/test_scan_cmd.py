"""``ctxaction scan`` against real repositories: sources, formats, exit codes, allowlists, bad input."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.cli import main
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo

KEY = expand('API_KEY = "<<alnum:32>>"\n', "cli")
KEY2 = expand('TOKEN = "<<gh:ghp>>"\n', "cli2")
SECRET = KEY.split('"')[1]


def run(repo: GitRepo | Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.chdir(repo.root if isinstance(repo, GitRepo) else repo)
    return main(["scan", *args])


def test_staged_scans_only_added_lines_unless_all_lines(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit({"app.py": "x = 1\n" + KEY})
    repo.write("app.py", "x = 1\n" + KEY + "y = 2\n")
    repo.git("add", "app.py")
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 0
    assert run(repo, "--staged", "--all-lines", monkeypatch=monkeypatch) == 1
    out = capsys.readouterr().out
    assert out.startswith("app.py:2:12: generic-secret ")
    assert SECRET not in out


def test_staged_reads_the_index_not_the_work_tree(
    make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.write("a.py", KEY)
    repo.git("add", "a.py")
    repo.write("a.py", "x = 1\n")  # the secret is still staged
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 1
    repo.git("add", "a.py")
    repo.write("a.py", KEY)  # unstaged secret: not part of the commit
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 0


def test_exit_codes_and_formats(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.write("a.py", KEY + KEY2)
    repo.git("add", "a.py")
    assert run(repo, "--staged", "--format", "json", monkeypatch=monkeypatch) == 1
    doc = json.loads(capsys.readouterr().out)
    assert [(f["path"], f["line"], f["column"], f["rule"]) for f in doc["findings"]] == [
        ("a.py", 1, 12, "generic-secret"),
        ("a.py", 2, 10, "github-pat"),
    ]
    assert run(repo, "--staged", "--format", "sarif", "-o", "out.sarif", monkeypatch=monkeypatch) == 1
    sarif = json.loads((repo.root / "out.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    assert sarif["version"] == "2.1.0" and len(results) == 2
    assert results[1]["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["generic-secret", "github-pat"]
    repo.git("rm", "-q", "--cached", "a.py")
    repo.write("b.py", "print('hello')\n")
    repo.git("add", "b.py")
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 0
    assert run(repo, "--staged", "some/path", monkeypatch=monkeypatch) == 2
    assert "cannot be combined" in capsys.readouterr().err


def test_paths_recursive_honour_gitignore(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit({".gitignore": "build/\n", "src/ok.py": "x = 1\n"})
    repo.write("build/gen.py", KEY)
    repo.write("src/deep/er/conf.py", KEY2)
    assert run(repo, "src", "build", monkeypatch=monkeypatch) == 1
    out = capsys.readouterr().out
    assert "src/deep/er/conf.py:1:" in out and "build/gen.py" not in out
    assert run(repo, "--no-ignore", "build", monkeypatch=monkeypatch) == 1
    assert "build/gen.py:1:" in capsys.readouterr().out
    assert run(repo, "nope", monkeypatch=monkeypatch) == 2


def test_a_folder_scan_reads_files_whose_names_are_not_utf8(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # git lists the name's raw bytes; decoded with U+FFFD the path opened nothing and the file
    # was passed over without a word. Tracked and untracked, found with git and without, and
    # shown with U+FFFD (a surrogate could not be printed in a UTF-8 locale).
    repo = make_repo()
    repo.commit({os.fsdecode(b"src/caf\xe9.py"): KEY})
    repo.write(os.fsdecode(b"src/new\xff.py"), KEY2)
    assert run(repo, "src", monkeypatch=monkeypatch) == 1
    assert run(repo, "--no-ignore", "src", monkeypatch=monkeypatch) == 1
    out = capsys.readouterr().out
    with_git, walked = out[: len(out) // 2], out[len(out) // 2 :]
    assert with_git == walked
    assert with_git.count("src/caf\ufffd.py:1:") == with_git.count("src/new\ufffd.py:1:") == 1


def test_paths_outside_a_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.env").write_text(KEY, encoding="utf-8")
    assert run(tmp_path, "d", monkeypatch=monkeypatch) == 1
    assert "d/x.env:1:12" in capsys.readouterr().out
    assert run(tmp_path, "--staged", monkeypatch=monkeypatch) == 2
    assert "not a git repository" in capsys.readouterr().err


def test_diff_rev_and_range(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    base = repo.commit({"a.py": "x = 1\n"})
    repo.commit({"b.py": KEY})
    repo.commit({"c.py": "y = 2\n"})
    assert run(repo, "--diff", base, monkeypatch=monkeypatch) == 1
    assert "b.py:1:12" in capsys.readouterr().out
    assert run(repo, "--diff", "HEAD~1", monkeypatch=monkeypatch) == 0
    assert run(repo, "--diff", f"{base}..HEAD~1", monkeypatch=monkeypatch) == 1
    assert run(repo, "--diff=--upload-pack=evil", monkeypatch=monkeypatch) == 2
    assert run(repo, "--diff", "no-such-ref", monkeypatch=monkeypatch) == 2
    assert "unknown revision 'no-such-ref'" in capsys.readouterr().err


def test_config_allowlist_section(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.write("tests/fixtures/keys.py", KEY)
    repo.write("app.py", KEY2)
    repo.git("add", "-A")
    repo.write(".github/context-packages.yaml", "secrets:\n  allowlist:\n    paths: ['tests/fixtures/**']\n")
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 1
    assert "tests/fixtures" not in capsys.readouterr().out
    repo.write(
        ".github/context-packages.yaml",
        "secrets:\n  disabled_rules: [github-pat, generic-secret]\n  allowlist:\n    paths: ['tests/**']\n",
    )
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 0
    repo.write(".github/context-packages.yaml", "secrets:\n  allowlist:\n    regex: [x]\n")
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 2
    err = capsys.readouterr().err
    assert "context-packages.yaml:3: secrets.allowlist.regex: unknown key" in err
    repo.write(".github/context-packages.yaml", "secrets:\n  allowlist:\n    regexes: ['(']\n")
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 2
    assert "secrets.allowlist.regexes[0]: invalid regex" in capsys.readouterr().err


def test_baseline_adoption(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit({"old.py": KEY})
    assert run(repo, ".", "--baseline", ".secrets-baseline.json", monkeypatch=monkeypatch) == 2
    assert "no such file; create it with --update-baseline" in capsys.readouterr().err
    assert (
        run(repo, ".", "--baseline", ".secrets-baseline.json", "--update-baseline", monkeypatch=monkeypatch)
        == 0
    )
    baseline = (repo.root / ".secrets-baseline.json").read_text(encoding="utf-8")
    assert SECRET not in baseline and '"path": "old.py"' in baseline
    assert run(repo, ".", "--baseline", ".secrets-baseline.json", monkeypatch=monkeypatch) == 0
    repo.write("new.py", KEY2)
    assert run(repo, ".", "--baseline", ".secrets-baseline.json", monkeypatch=monkeypatch) == 1
    assert "new.py" in capsys.readouterr().out
    (repo.root / "bad.json").write_text('{"findings": [{"path": "x"}]}', encoding="utf-8")
    assert run(repo, ".", "--baseline", "bad.json", monkeypatch=monkeypatch) == 2
    assert "findings[0] has no valid fingerprint" in capsys.readouterr().err
    assert run(repo, ".", "--update-baseline", monkeypatch=monkeypatch) == 2


def test_bad_input_never_crashes_or_leaks(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit({"keep.py": "a = 1\n", "gone.py": "b = 2\n", "mode.sh": "echo hi\n", "old_name.py": KEY})
    repo.write("bin.dat", b"\x00\x01" + KEY.encode() + b"\xff" * 100)
    repo.write("big.txt", "x" * 2_100_000 + KEY)
    repo.write("latin1.py", KEY.encode().replace(b"API_KEY", b"API_KEY") + "café = 1\n".encode("latin-1"))
    repo.write("crlf.env", KEY.replace("\n", "\r\n"))
    repo.write("minified.js", "var a=1;" * 100_000 + "\n")
    repo.git("rm", "-q", "gone.py")
    repo.git("update-index", "--chmod=+x", "mode.sh")
    repo.git("mv", "old_name.py", "new_name.py")
    repo.git("add", "-A")
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 1
    out, err = capsys.readouterr()
    assert {line.split(":")[0] for line in out.strip().split("\n")} == {"latin1.py", "crlf.env"}
    assert "note: 1 binary file skipped (-v lists them)" in err and "bin.dat" not in err
    assert "note: big.txt: skipped: 2,1" in err
    assert SECRET not in out + err
    assert run(repo, "--staged", "-v", monkeypatch=monkeypatch) == 1
    err = capsys.readouterr().err
    assert "note: bin.dat: skipped: binary" in err and "binary file skipped" not in err


def test_binary_files_are_counted_not_listed(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of images makes one summary line, not one line an image; -v lists them."""
    repo = make_repo()
    repo.commit({f"img/{i}.png": b"\x89PNG\r\n\x1a\n\x00\x00" + bytes(range(256)) for i in range(30)})
    repo.commit({"app.py": KEY})
    assert run(repo, "--quiet", ".", monkeypatch=monkeypatch) == 1
    assert capsys.readouterr().err == ""
    assert run(repo, ".", monkeypatch=monkeypatch) == 1
    err = capsys.readouterr().err
    assert "note: 30 binary files skipped (-v lists them)" in err and ".png" not in err
    assert "1 secret found in 1 file" in err and SECRET not in err
    assert run(repo, "-v", ".", monkeypatch=monkeypatch) == 1
    err = capsys.readouterr().err
    assert sum(line.endswith(".png: skipped: binary") for line in err.splitlines()) == 30


def test_merge_commit_in_progress(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit({"a.py": "x = 1\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit({"b.py": KEY})
    repo.git("checkout", "-q", "main")
    repo.commit({"c.py": "y = 1\n"})
    repo.git("merge", "--no-commit", "--no-ff", "-q", "feature")
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 1
    assert "b.py:1:12" in capsys.readouterr().out
    repo.git("merge", "--abort")
    repo.git("checkout", "-q", "feature")
    repo.write("a.py", "x = 2\n")
    repo.git("commit", "-qam", "conflicting")
    repo.git("checkout", "-q", "main")
    repo.write("a.py", "x = 3\n")
    repo.git("commit", "-qam", "other side")
    with pytest.raises(Exception):  # noqa: B017 - git exits 1 on the conflict
        repo.git("merge", "-q", "feature")
    assert run(repo, "--staged", monkeypatch=monkeypatch) == 1
    err = capsys.readouterr().err
    assert "a.py: skipped: unmerged" in err


def test_one_config_file_serves_build_and_scan(
    make_repo: Callable[..., GitRepo],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = make_repo()
    config = (
        "default_profile: bugfix\n"
        "secrets:\n"
        "  allowlist:\n"
        "    paths: ['tests/fixtures/**']\n"
        "    stopwords: [localdev]\n"
        "  disabled_rules: [jwt]\n"
        "  max_file_size: 500000\n"
    )
    source = "def parse_date(text):\n    return text.split('-')\n\n" + KEY
    repo.commit(
        {"context-packages.yaml": config, "lib/dates.py": source, "tests/fixtures/keys.py": KEY2}, "init"
    )
    issue = tmp_path / "issue.txt"
    issue.write_text("parse_date fails\n\nparse_date in lib/dates.py breaks.\n", encoding="utf-8")
    build = ["build", "--repo", str(repo.root), "--issue-file", str(issue), "--format", "json"]
    assert main(build) == 0
    out, err = capsys.readouterr()
    assert "lib/dates.py" in out and "[REDACTED:generic-secret]" in out
    assert SECRET not in out + err
    assert run(repo, "tests", monkeypatch=monkeypatch) == 0  # allowlisted path
    assert run(repo, "lib", monkeypatch=monkeypatch) == 1
    assert SECRET not in "".join(capsys.readouterr())
    (repo.root / "context-packages.yaml").write_text(config.replace("500000", "big"), encoding="utf-8")
    assert main(build) != 0
    assert "context-packages.yaml:7: secrets.max_file_size" in capsys.readouterr().err
    assert run(repo, "lib", monkeypatch=monkeypatch) == 2
    assert "context-packages.yaml:7: secrets.max_file_size" in capsys.readouterr().err


def test_paths_in_another_repository_use_its_config(
    make_repo: Callable[..., GitRepo],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = make_repo()
    repo.write("tests/fixtures/keys.py", KEY)
    repo.write("app.py", KEY2)
    repo.write(".github/context-packages.yaml", "secrets:\n  allowlist:\n    paths: ['tests/fixtures/**']\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "context-packages.yaml").write_text("secrets:\n  disabled_rules: [github-pat]\n")
    assert run(elsewhere, str(repo.root), "--format", "json", monkeypatch=monkeypatch) == 1
    found = {f["path"] for f in json.loads(capsys.readouterr().out)["findings"]}
    assert found == {"app.py"}
    assert SECRET not in json.dumps(sorted(found))


def test_secret_in_a_file_name_is_reported_on_line_zero_and_shown_redacted(
    make_repo: Callable[..., GitRepo], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    token = expand("<<gh:ghp>>", "file-name")
    repo.write(f"notes/{token}.md", "nothing secret in here\n")
    repo.git("add", "-A")
    monkeypatch.chdir(repo.root)
    for fmt in ("text", "json", "sarif"):
        assert main(["scan", "--staged", "--format", fmt]) == 1
        out, err = capsys.readouterr()
        assert token not in out + err and token[:12] not in out + err
        if fmt == "text":
            assert out.startswith("notes/[REDACTED:github-pat].md:0:") and "file name:" in out
        elif fmt == "sarif":
            (result,) = json.loads(out)["runs"][0]["results"]
            assert "region" not in result["locations"][0]["physicalLocation"]
