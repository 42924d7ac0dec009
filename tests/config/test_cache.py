"""Valid config texts are remembered, so the hook validates (and imports jsonschema) once per
change; the cache is never written through a symlink and never needed."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxaction import __version__
from ctxaction.config import cache
from ctxaction.config.read import read_config
from ctxaction.config.schema import schema_text
from ctxaction.config.source import default_text
from ctxaction.errors import ConfigError
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]
GOOD = "secrets:\n  disabled_rules: [generic-secret]\n"


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


def test_a_valid_text_is_remembered_and_an_invalid_one_never(cache_home: Path, tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(GOOD, encoding="utf-8")
    assert not cache.is_valid(GOOD)
    read_config(tmp_path, config)
    assert cache.is_valid(GOOD) and not cache.is_valid(GOOD + "# edited\n")
    assert [p.name for p in cache.folder().iterdir()] == [cache.key(GOOD)]
    assert cache.folder() == cache_home / "ctxaction" / "valid-config"
    config.write_text("secrets:\n  disabled_rules: [nope]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown rule 'nope'"):
        read_config(tmp_path, config)
    assert len(list(cache.folder().iterdir())) == 1


def test_a_known_text_is_not_validated_again(cache_home: Path, tmp_path: Path) -> None:
    """What the cache is for: a text listed as valid is taken without checking it (planted
    here for a broken text, which only a validation would refuse)."""
    broken = "secrets:\n  disabled_rules: [nope]\n"
    config = tmp_path / "c.yaml"
    config.write_text(broken, encoding="utf-8")
    with pytest.raises(ConfigError):
        read_config(tmp_path, config)
    cache.folder().mkdir(parents=True)
    (cache.folder() / cache.key(broken)).touch()
    doc = read_config(tmp_path, config)
    assert doc is not None and doc.data == {"secrets": {"disabled_rules": ["nope"]}}


def test_a_symlinked_cache_folder_is_never_written_through(cache_home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (cache_home / "ctxaction").mkdir(parents=True)
    (cache_home / "ctxaction" / "valid-config").symlink_to(elsewhere, target_is_directory=True)
    cache.remember(GOOD)
    assert list(elsewhere.iterdir()) == [] and not cache.is_valid(GOOD)


def test_an_entry_that_is_a_symlink_does_not_count(cache_home: Path, tmp_path: Path) -> None:
    cache.folder().mkdir(parents=True)
    target = tmp_path / "target"
    target.touch()
    (cache.folder() / cache.key(GOOD)).symlink_to(target)
    assert not cache.is_valid(GOOD)
    cache.remember(GOOD)  # O_EXCL: the link stays as it was, nothing is written to its target
    assert target.read_text(encoding="utf-8") == "" and (cache.folder() / cache.key(GOOD)).is_symlink()


def test_a_cache_that_cannot_be_written_is_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    config = tmp_path / "c.yaml"
    config.write_text(GOOD, encoding="utf-8")
    assert read_config(tmp_path, config) is not None
    assert not cache.is_valid(GOOD)


def test_entries_are_named_by_the_sha256_of_what_they_cover() -> None:
    """The hash comes from the interpreter's own SHA-256 module (``hashlib`` loads OpenSSL, a
    noticeable share of a hook run): the same digest as hashlib's."""
    parts = (__version__, schema_text(), default_text(), GOOD)
    expected = hashlib.sha256(b"".join(part.encode("utf-8") + b"\0" for part in parts)).hexdigest()
    assert cache.key(GOOD) == expected


def test_old_entries_are_pruned(cache_home: Path) -> None:
    for i in range(cache.MAX_ENTRIES + 5):
        cache.remember(f"# {i}\n")
    names = {p.name for p in cache.folder().iterdir()}
    assert len(names) == cache.MAX_ENTRIES and cache.key(f"# {cache.MAX_ENTRIES + 4}\n") in names


PROBE = (
    "import sys\nfrom ctxaction.hook import main\ncode = main([])\n"
    "print(code, 'jsonschema' in sys.modules, 'yaml' in sys.modules)"
)


def hook_run(repo: GitRepo, cache_home: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRE_COMMIT")}
    env.update(XDG_CACHE_HOME=str(cache_home), PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=repo.root, capture_output=True, text=True, check=False, env=env
    )
    return proc.stdout.strip().split("\n")[-1]


def test_the_hook_imports_jsonschema_only_for_a_config_it_has_not_seen(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    repo = make_repo()
    repo.commit({"a.py": "x = 1\n"})
    repo.write("b.py", "y = 2\n")
    repo.git("add", "b.py")
    home = tmp_path / "hook-cache"
    assert hook_run(repo, home) == "0 False False"  # no config: neither YAML nor the schema
    repo.write(".github/context-packages.yaml", GOOD)
    assert hook_run(repo, home) == "0 True True"  # first sight: validated
    assert hook_run(repo, home) == "0 False False"  # known valid: its stored section, no YAML
    repo.write(".github/context-packages.yaml", GOOD + "  max_file_size: big\n")
    assert hook_run(repo, home).startswith("2 True")
