"""The callee hop and C/C++ header ↔ source pairing, end to end through collect() on real repositories."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ctxaction.config.load import load_config
from ctxaction.model import Candidate, Task
from ctxaction.rank import DEFAULT_WEIGHTS, collect
from ctxaction.rank.scoring import parts
from ctxaction.repo.files import open_repo
from tests.gitrepo import GitRepo

MakeRepo = Callable[..., GitRepo]


@dataclass
class Profile:
    scoring: dict[str, float] = field(default_factory=dict)
    history_days: int = 90


def _noise(n: int, ext: str, body: Callable[[int], str]) -> dict[str, str]:
    return {f"src/noise{i}{ext}": body(i) for i in range(n)}


def _rank(cands: list[Candidate], path: str) -> int:
    return next(i for i, c in enumerate(cands) if c.path == path)


def _focus_covers(cand: Candidate, line: int) -> bool:
    return any(f.start <= line <= f.end for f in cand.focus[:3])


CPP_FILES: dict[str, str] = {
    "include/yamlish/emit.h": "#pragma once\n#include <string>\nstd::string Dump(const Node& node);\n",
    "src/emit.cpp": '#include "yamlish/emit.h"\n\nstd::string Dump(const Node& node) {\n'
    "  std::string out;\n  EmitLongKey(out, node.key());\n  return out;\n}\n",
    "include/yamlish/emitter.h": "#pragma once\n"
    "void EmitLongKey(std::string& out, const std::string& key);\n",
    "src/emitter.cpp": '#include "yamlish/emitter.h"\n\n'
    + "".join(f"int pad{i}(int x) {{\n  return x + {i};\n}}\n\n" for i in range(30))
    + "void EmitLongKey(std::string& out, const std::string& key) {\n  if (key.size() > 1024) {\n"
    '    out += "? ";\n  }\n  out += key;\n}\n',
    **_noise(6, ".cpp", lambda i: f"int unrelated{i}(int v) {{\n  return v * {i};\n}}\n"),
}


def test_cpp_callee_of_named_function_is_a_candidate_with_focus(make_repo: MakeRepo) -> None:
    repo = make_repo()
    repo.commit(dict(CPP_FILES), "initial")
    issue = Task(
        title="Dump breaks on long keys", body="`Dump(node)` with a 2000-character key fails to load."
    )
    cands = collect(open_repo(repo.root), issue, Profile())
    by_path = {c.path: c for c in cands}
    emitter = by_path["src/emitter.cpp"]
    assert emitter.signals.get("callee", 0) > 0
    assert "defines EmitLongKey; Dump (named in the issue) calls it" in emitter.reasons
    define_line = (
        CPP_FILES["src/emitter.cpp"]
        .split("\n")
        .index("void EmitLongKey(std::string& out, const std::string& key) {")
    )
    assert _focus_covers(emitter, define_line + 2)
    assert _rank(cands, "src/emitter.cpp") <= 3, [c.path for c in cands]
    assert not any("noise" in p for p in by_path)
    # The named file's header comes in as its pair.
    assert "header of src/emit.cpp" in by_path["include/yamlish/emit.h"].reasons


def test_java_and_typescript_callees_in_other_files(make_repo: MakeRepo) -> None:
    repo = make_repo()
    repo.commit(
        {
            "src/main/java/org/acme/TokenState.java": "package org.acme;\n\nclass TokenState {\n"
            '    void readRawText(CharacterReader r) {\n        if (r.matchesIgnoreCase("</title")) {\n'
            "            r.advance();\n        }\n    }\n}\n",
            "src/main/java/org/acme/CharacterReader.java": "package org.acme;\n\n"
            "public class CharacterReader {\n"
            "    public boolean matchesIgnoreCase(String seq) {\n        return false;\n    }\n\n"
            "    public void advance() {\n    }\n}\n",
            "src/main/java/org/acme/Other.java": "package org.acme;\n\nclass Other {\n}\n",
            "packages/core/schemas.ts": "import { greaterThan } from './checks';\n\nexport class ZodDate {\n"
            "  minDate(value: Date) {\n    return this.check(greaterThan(value));\n  }\n}\n",
            "packages/core/checks.ts": "export function greaterThan(value: Date) {\n  return { value };\n}\n",
        },
        "initial",
    )
    cands = collect(
        open_repo(repo.root),
        Task(title="readRawText ignores closing tag", body="See `readRawText`."),
        Profile(),
    )
    reader = next(c for c in cands if c.path.endswith("CharacterReader.java"))
    assert "defines matchesIgnoreCase; TokenState.readRawText (named in the issue) calls it" in reader.reasons
    cands = collect(
        open_repo(repo.root), Task(title="ZodDate.minDate accepts equal dates", body=""), Profile()
    )
    checks = next(c for c in cands if c.path == "packages/core/checks.ts")
    assert checks.signals.get("callee", 0) > 0
    assert any("greaterThan" in r and "ZodDate.minDate" in r for r in checks.reasons)


def test_common_and_widely_defined_callees_pull_in_nothing(make_repo: MakeRepo) -> None:
    helpers = {f"pkg/mod{i}.py": f"def normalize(x):\n    return x + {i}\n" for i in range(5)}
    repo = make_repo()
    repo.commit(
        {
            "pkg/core.py": "def parse_url(text):\n    parts = text.split('/')\n    parts.append(len(parts))\n"
            "    print(str(parts))\n    return normalize(split_netloc(parts))\n",
            "pkg/netloc.py": "def split_netloc(parts):\n    return parts[2]\n",
            "pkg/printing.py": "def print(x):\n    return x\n",
            **helpers,
        },
        "initial",
    )
    cands = collect(
        open_repo(repo.root), Task(title="parse_url drops the port", body="`parse_url`"), Profile()
    )
    hopped = {c.path for c in cands if c.signals.get("callee")}
    assert hopped == {"pkg/netloc.py"}


def test_config_weighs_the_callee_signal(make_repo: MakeRepo) -> None:
    repo = make_repo()
    repo.commit(
        {**CPP_FILES, "context-packages.yaml": "profiles:\n  bugfix:\n    scoring: {callee: 0}\n"}, "initial"
    )
    profile = load_config(repo.root, None).profile("bugfix", [])
    assert profile.scoring["callee"] == 0
    issue = Task(title="Dump breaks on long keys", body="`Dump(node)` fails.")
    emitter = next(c for c in collect(open_repo(repo.root), issue, profile) if c.path == "src/emitter.cpp")
    assert emitter.signals["callee"] > 0
    assert parts(emitter, profile.scoring)["callee"] == 0
    default = load_config(make_repo().root, None).profile("bugfix", [])
    assert default.scoring["callee"] == DEFAULT_WEIGHTS["callee"] > 0
