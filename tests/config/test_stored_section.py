"""The ``secrets:`` section of a validated config is stored as JSON beside its cache marker, so the
hook reads no YAML for a config it has seen; an entry that cannot be trusted only means reading
the file again, with the same result."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction.config import cache
from ctxaction.config.read import read_secrets
from ctxaction.config.secrets import SecretsConfig
from ctxaction.errors import ConfigError
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """secrets:
  allowlist:
    paths: ["fixtures/**"]
    regexes: ["ALLOW-ME"]
    stopwords: ["localdev"]
  disabled_rules: [generic-password]
  max_file_size: 500000
"""
EXPECTED = SecretsConfig(
    paths=("fixtures/**",),
    regexes=("ALLOW-ME",),
    stopwords=("localdev",),
    disabled_rules=("generic-password",),
    max_file_size=500000,
)
KEY = expand('API_KEY = "<<alnum:32>>"\n', "stored-section")
PASSWORD = expand('password = "<<alnum:20>>"\n', "stored-section")
# A well-formed entry that disagrees with the file: if it were used, the result would change.
OTHER = {"paths": [], "regexes": [], "stopwords": [], "disabled_rules": [], "max_file_size": 7}


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "context-packages.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def entry() -> Path:
    return cache.folder() / (cache.key(CONFIG) + cache.SECTION_SUFFIX)


def expected(config: Path) -> SecretsConfig:
    return SecretsConfig(
        paths=EXPECTED.paths,
        regexes=EXPECTED.regexes,
        stopwords=EXPECTED.stopwords,
        disabled_rules=EXPECTED.disabled_rules,
        max_file_size=EXPECTED.max_file_size,
        source=str(config),
    )


def test_the_section_is_stored_once_validated_and_read_back(cache_home: Path, config: Path) -> None:
    assert read_secrets(config.parent, config) == expected(config)
    stored = json.loads(entry().read_text(encoding="utf-8"))
    assert stored["key"] == cache.key(CONFIG) and stored["stopwords"] == ["localdev"]
    assert cache.is_valid(CONFIG) and (entry().stat().st_mode & 0o777) == 0o600
    assert read_secrets(config.parent, config) == expected(config)


def test_the_stored_section_is_what_is_used(cache_home: Path, config: Path) -> None:
    """An entry of ours with the right name is taken as is (planted here with other values, which
    only the stored copy could produce): the YAML is not read again."""
    read_secrets(config.parent, config)
    entry().write_text(json.dumps({**OTHER, "key": cache.key(CONFIG)}), encoding="utf-8")
    assert read_secrets(config.parent, config).max_file_size == 7


@pytest.mark.parametrize(
    "content",
    [
        "",
        "{not json",
        '{"paths": [',
        "[" * 100_000,
        b"\xff\xfe garbage",
        "[]",
        json.dumps({**OTHER, "key": "0" * 64}),  # another text's section
        json.dumps(OTHER),  # no key
        json.dumps({**OTHER, "paths": "fixtures/**", "key": "<key>"}),
        json.dumps({**OTHER, "stopwords": [1], "key": "<key>"}),
        json.dumps({**OTHER, "max_file_size": True, "key": "<key>"}),
        json.dumps({**OTHER, "max_file_size": "7", "key": "<key>"}),
        json.dumps({**OTHER, "extra": 1, "key": "<key>"}),
    ],
)
def test_a_damaged_entry_means_parsing_again_and_is_replaced(
    cache_home: Path, config: Path, content: str | bytes
) -> None:
    read_secrets(config.parent, config)
    if isinstance(content, str):
        entry().write_text(content.replace("<key>", cache.key(CONFIG)), encoding="utf-8")
    else:
        entry().write_bytes(content)
    assert read_secrets(config.parent, config) == expected(config)
    assert json.loads(entry().read_text(encoding="utf-8"))["stopwords"] == ["localdev"]  # stored again


def test_an_entry_not_created_by_us_is_never_trusted(cache_home: Path, config: Path, tmp_path: Path) -> None:
    planted = tmp_path / "planted.json"
    planted.write_text(json.dumps({**OTHER, "key": cache.key(CONFIG)}), encoding="utf-8")
    cache.folder().mkdir(parents=True)
    entry().symlink_to(planted)
    assert read_secrets(config.parent, config) == expected(config)
    assert entry().is_symlink() and json.loads(planted.read_text(encoding="utf-8")) == {
        **OTHER,
        "key": cache.key(CONFIG),
    }  # O_EXCL | O_NOFOLLOW: nothing written through the link

    entry().unlink()
    entry().write_text(planted.read_text(encoding="utf-8"), encoding="utf-8")
    entry().chmod(0o664)  # writable by others: not a file this cache created
    assert read_secrets(config.parent, config) == expected(config)

    entry().unlink()
    os.mkfifo(entry())  # opened without blocking, then refused
    assert read_secrets(config.parent, config) == expected(config)


ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.mark.skipif(not ROOT_USER, reason="changing a file's owner needs root")
def test_an_entry_owned_by_another_user_is_never_trusted(cache_home: Path, config: Path) -> None:
    read_secrets(config.parent, config)
    entry().write_text(json.dumps({**OTHER, "key": cache.key(CONFIG)}), encoding="utf-8")
    os.chown(entry(), 65534, 65534)
    assert read_secrets(config.parent, config) == expected(config)
    os.chown(cache.folder() / cache.key(CONFIG), 65534, 65534)
    assert not cache.is_valid(CONFIG)


def test_an_edit_is_read_and_validated_again(cache_home: Path, config: Path) -> None:
    read_secrets(config.parent, config)
    config.write_text(CONFIG.replace("localdev", "devonly"), encoding="utf-8")
    assert read_secrets(config.parent, config).stopwords == ("devonly",)
    config.write_text(CONFIG.replace("generic-password", "nope"), encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown rule 'nope'"):
        read_secrets(config.parent, config)
    config.write_text(CONFIG, encoding="utf-8")
    assert read_secrets(config.parent, config) == expected(config)


PROBE = (
    "import sys\nfrom ctxaction.hook import main\ncode = main(sys.argv[1:])\n"
    "print('yaml' in sys.modules, 'pathspec' in sys.modules, code)"
)


def hook(repo: GitRepo, cache_home: Path, *args: str) -> tuple[str, str, str]:
    """A hook run in its own interpreter: (what it printed, its messages, the probe line)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRE_COMMIT")}
    env.update(XDG_CACHE_HOME=str(cache_home), PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    *report, probe = proc.stdout.rstrip("\n").split("\n")
    return "\n".join(report), proc.stderr, probe


def test_the_hook_finds_the_same_with_and_without_the_stored_section(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit({"README.md": "hello\n"})
    repo.write(".github/context-packages.yaml", CONFIG)
    repo.write("fixtures/keys.py", KEY)  # allowlisted path
    repo.write("conf.py", KEY.rstrip("\n") + "  # ALLOW-ME\n")  # allowlisted regex
    repo.write("db.py", PASSWORD)  # disabled rule
    repo.write("app.py", KEY)  # found
    repo.git("add", "-A")
    blocked = tmp_path / "no-cache"
    blocked.write_text("", encoding="utf-8")  # a cache home that is a file: nothing is remembered
    home = tmp_path / "cache"

    uncached = hook(repo, blocked)
    first = hook(repo, home)
    cached = hook(repo, home)
    assert uncached[2] == first[2] == "True True 1"  # parsed; the finding loads the path patterns
    assert cached[2] == "False True 1"  # no YAML read
    assert uncached[:2] == first[:2] == cached[:2]
    assert "app.py" in cached[0] + cached[1]
    for name in ("fixtures/keys.py", "conf.py", "db.py"):
        assert name not in cached[0] + cached[1]

    # Without hits the path patterns are never compiled: no pathspec import either.
    repo.git("rm", "-q", "--cached", "app.py", "fixtures/keys.py")
    assert hook(repo, home)[2] == "False False 0"
    assert hook(repo, blocked)[2] == "True True 0"  # validation checks that the patterns compile

    # A damaged entry: read again, same answer, stored again.
    for path in (home / "ctxaction" / "valid-config").glob("*" + cache.SECTION_SUFFIX):
        path.write_text('{"paths": 1}', encoding="utf-8")
    assert hook(repo, home)[2] == "True False 0"
    assert hook(repo, home)[2] == "False False 0"

    # An edit is validated again: a broken section stops the hook with one line.
    repo.write(".github/context-packages.yaml", CONFIG.replace("500000", "big"))
    _, err, probe = hook(repo, home)
    assert probe == "True True 2" and "max_file_size" in err and "Traceback" not in err
    assert hook(repo, home)[2] == "True True 2"  # a broken text is never remembered
