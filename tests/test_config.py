"""context-packages.yaml: lookup order, merging, profiles, and errors that name file, key and line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from ctxaction.config.dump import effective_yaml
from ctxaction.config.load import config_from_text, load_config
from ctxaction.config.model import SECTIONS
from ctxaction.config.source import default_text
from ctxaction.errors import ConfigError, ConfigErrors
from ctxaction.rank.scoring import DEFAULT_WEIGHTS
from tests.gitrepo import GitRepo


def error_of(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        config_from_text(text, "cfg.yaml")
    return info.value


def problems_of(err: ConfigError) -> tuple[ConfigError, ...]:
    return err.problems if isinstance(err, ConfigErrors) else (err,)


def test_defaults_have_bugfix_and_feature_with_shares_adding_to_one() -> None:
    config = config_from_text(None, None)
    assert set(config.profiles) >= {"bugfix", "feature"}
    for profile in config.profiles.values():
        assert abs(sum(profile.budget.shares.values()) - 1) < 1e-9
        assert set(profile.scoring) >= set(DEFAULT_WEIGHTS)
        assert 0 < profile.min_files <= profile.max_files
    assert config.encoding == "o200k_base"


def test_shipped_default_is_commented_and_valid_yaml() -> None:
    text = default_text()
    assert sum(line.lstrip().startswith("#") for line in text.split("\n")) > 20
    assert isinstance(yaml.safe_load(text), dict)


def test_lookup_order_explicit_then_github_then_root(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    assert load_config(repo.root).source == "<built-in defaults>"
    repo.write("context-packages.yaml", "default_profile: feature\n")
    assert load_config(repo.root).default_profile == "feature"
    repo.write(".github/context-packages.yaml", "encoding: cl100k_base\n")
    config = load_config(repo.root)
    assert (config.encoding, config.default_profile) == ("cl100k_base", "bugfix")
    explicit = repo.write("elsewhere.yaml", "model: gpt-4o\n")
    config = load_config(repo.root, explicit)
    assert (config.model, config.token_model, config.encoding) == ("gpt-4o", "gpt-4o", "o200k_base")


def test_missing_explicit_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(tmp_path, tmp_path / "nope.yaml")


def test_user_profile_merges_key_by_key_over_the_default() -> None:
    config = config_from_text(
        "profiles:\n  bugfix:\n    max_files: 4\n    scoring:\n      keyword_match: 0.9\n", "cfg.yaml"
    )
    bugfix = config.profiles["bugfix"]
    default = config_from_text(None, None).profiles["bugfix"]
    assert bugfix.max_files == 4
    assert bugfix.scoring["keyword_match"] == 0.9
    assert bugfix.scoring["issue_reference"] == default.scoring["issue_reference"]
    assert bugfix.budget == default.budget
    assert bugfix.labels == default.labels


def test_new_profile_extends_a_builtin_one() -> None:
    config = config_from_text(
        "profiles:\n  docs:\n    extends: feature\n    labels: [documentation]\n"
        "    budget: {total_tokens: 3000, shares: {files: 1.0}}\n",
        "cfg.yaml",
    )
    docs = config.profiles["docs"]
    assert docs.labels == ("documentation",)
    assert docs.max_files == config.profiles["feature"].max_files
    assert docs.budget.sections() == {"files": 3000, "rules": 0, "history": 0, "reserve": 0}


def test_profile_chosen_by_label_then_default() -> None:
    config = config_from_text("default_profile: feature\n", "cfg.yaml")
    assert config.profile("auto", ["Bug"]).name == "bugfix"
    assert config.profile("auto", ["enhancement"]).name == "feature"
    assert config.profile("auto", ["question"]).name == "feature"
    assert config.profile("bugfix", ["enhancement"]).name == "bugfix"
    with pytest.raises(ConfigError, match="no profile 'nope'"):
        config.profile("nope", [])


def test_unknown_key_names_key_and_line() -> None:
    err = error_of("version: 1\nprofiles:\n  bugfix:\n    max_filez: 3\n")
    assert (err.source, err.key, err.line) == ("cfg.yaml", "profiles.bugfix.max_filez", 4)
    assert "unknown key" in str(err) and "max_files" in str(err)


def test_unknown_weight_lists_the_known_names() -> None:
    err = error_of("profiles:\n  bugfix:\n    scoring:\n      keyword_matches: 1\n")
    assert err.key == "profiles.bugfix.scoring.keyword_matches" and err.line == 4
    assert "keyword_match" in str(err)


@pytest.mark.parametrize(
    ("text", "key", "line"),
    [
        ("encoding: 5\n", "encoding", 1),
        ("profiles:\n  bugfix:\n    max_files: many\n", "profiles.bugfix.max_files", 3),
        ("profiles:\n  bugfix:\n    min_files: true\n", "profiles.bugfix.min_files", 3),
        ("rules:\n  nested: 1\n", "rules.nested", 2),
        ("sensitive_paths: '*.env'\n", "sensitive_paths", 1),
        ("profiles:\n  feature:\n    required_files:\n      - {pattern: 3}\n",
         "profiles.feature.required_files[0].pattern", 4),
        ("profiles:\n  feature:\n    scoring:\n      keyword_match: .nan\n",
         "profiles.feature.scoring.keyword_match", 4),
    ],
)
def test_wrong_types_name_key_and_line(text: str, key: str, line: int) -> None:
    found = [p for p in problems_of(error_of(text)) if (p.key, p.line) == (key, line)]
    assert len(found) == 1 and str(found[0]).startswith(f"cfg.yaml:{line}: {key}: expected")


def test_shares_must_add_up_and_are_replaced_whole() -> None:
    err = error_of("profiles:\n  bugfix:\n    budget:\n      shares: {files: 0.5, rules: 0.2}\n")
    assert (err.key, err.line) == ("profiles.bugfix.budget.shares", 4)
    assert "add up to 1" in str(err) and "0.7" in str(err)
    config = config_from_text("profiles:\n  bugfix:\n    budget:\n      shares: {files: 1}\n", "c.yaml")
    assert config.profiles["bugfix"].budget.shares == {s: float(s == "files") for s in SECTIONS}


def test_semantic_errors_name_line() -> None:
    err = error_of("profiles:\n  bugfix:\n    min_files: 9\n    max_files: 2\n")
    assert err.key == "profiles.bugfix.min_files" and err.line == 3
    err = error_of("\n\ndefault_profile: docs\n")
    assert (err.key, err.line) == ("default_profile", 3)
    err = error_of("profiles:\n  bugfix:\n    budget: {total_tokens: 0, shares: {files: 1}}\n")
    assert err.key == "profiles.bugfix.budget.total_tokens" and err.line == 3
    err = error_of("profiles:\n  docs:\n    extends: nothing\n")
    assert (err.key, err.line) == ("profiles.docs.extends", 3)


def test_malformed_yaml_and_duplicate_keys() -> None:
    err = error_of("profiles:\n  bugfix: [1,\n")
    assert err.line is not None and "not valid YAML" in str(err)
    err = error_of("encoding: a\nencoding: b\n")
    assert (err.key, err.line) == ("encoding", 2) and "duplicate" in str(err)
    err = error_of("- just\n- a list\n")
    assert "mapping" in str(err)


def test_empty_file_means_defaults() -> None:
    assert config_from_text("", "cfg.yaml").profiles == config_from_text(None, None).profiles


def test_effective_yaml_round_trips_without_anchors() -> None:
    config = config_from_text("profiles:\n  docs:\n    extends: feature\n", "cfg.yaml")
    text = effective_yaml(config)
    assert "&id" not in text and "cfg.yaml" in text.split("\n")[0]
    reloaded = config_from_text(text, "again.yaml")
    assert reloaded.profiles == config.profiles


def test_non_utf8_config_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "c.yaml"
    bad.write_bytes(b"encoding: \xff\xfe\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(tmp_path, bad)
