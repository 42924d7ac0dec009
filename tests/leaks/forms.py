"""Every secret form issue 10 names, generated at test time, and the check that none leaked.

The forms: each rule's true-positive examples followed by each punctuation mark (and at end of
text); a PEM block long enough for a range inside it; a private key as quoted string lines in
code (with and without its BEGIN line); an ``AKIA… / <40>`` pair in prose and in a comment; a
base64 ``<Pass>``; UTF-16 and UTF-32 files; secrets in file and folder names, in the task text,
in a thread comment and in a commit subject. Values come from :mod:`ctxaction.secure.synth`, so
the repository holds no credential-shaped literal.

What must never appear: any 12-character piece of a secret (the random part a rule matched).
"""

from __future__ import annotations

import base64
import os
import random
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ctxaction.secure import QUOTE_WIDTH, scan
from ctxaction.secure.rules import ALL_RULES
from ctxaction.secure.synth import CLASSES, expand_parts, split_example
from tests.gitrepo import GitRepo, git_env

PUNCTUATION = (".", "!", "?", ":", "/", "-", "#", ">", ",", ";", "")
PIECE = 12
EXAMPLES_PER_FILE = 45
PROFILE = "leak"
CONFIG = f"""profiles:
  {PROFILE}:
    required_files:
      - {{pattern: "leaks/**", max_lines: null}}
    budget:
      total_tokens: 300000
      shares: {{files: 0.85, rules: 0.05, history: 0.05, reserve: 0.05}}
    max_files: 40
    min_files: 1
"""


@dataclass
class Forms:
    """Files to commit, texts to post, and the secrets none of them may reveal."""

    files: dict[str, str | bytes] = field(default_factory=dict)
    secrets: set[str] = field(default_factory=set)
    task_title: str = ""
    task_body: str = ""
    comment: str = ""
    commit_subject: str = ""
    pem_file: str = ""
    pem_lines: tuple[int, int] = (0, 0)
    name_secrets: list[str] = field(default_factory=list)
    named_files: list[str] = field(default_factory=list)
    utf_files: list[str] = field(default_factory=list)

    def learn(self, text: str, path: str, parts: list[str] | None = None) -> None:
        """Record what the engine calls secret in ``text`` (and the generated values inside)."""
        spans = [text[f.start : f.end] for f in scan(text, path)]
        assert spans, f"no secret recognised in a leak form for {path}: {text[:60]!r}"
        random = [p for p in parts or () if len(p) >= PIECE]
        for span in spans:
            inside = [p for p in random if p in span]
            # The random values, not a span's fixed text (``https://hooks.…``, ``-----BEGIN``);
            # a span with no long random value (``<<hex:8>>:<<hex:8>>``) counts whole.
            self.secrets.update(inside or ([span] if len(span) >= PIECE else []))

    def pieces(self) -> set[str]:
        """Every 12-character piece of every secret."""
        return {s[i : i + PIECE] for s in self.secrets for i in range(len(s) - PIECE + 1)}


def leaked(pieces: set[str], text: str) -> list[str]:
    """The pieces of a secret found in ``text`` (empty: clean)."""
    windows = {text[i : i + PIECE] for i in range(len(text) - PIECE + 1)}
    return sorted(pieces & windows)


def _rule_examples(forms: Forms) -> None:
    groups: dict[str, list[str]] = {}
    for rule in ALL_RULES:
        for i, example in enumerate(rule.tp):
            hint, template = split_example(example)
            text, parts = expand_parts(template, f"leak-{rule.id}-{i}")
            forms.learn(text, hint, parts)
            groups.setdefault(hint, []).extend(text + mark for mark in PUNCTUATION)
    for hint, variants in groups.items():
        if hint:
            forms.files[f"leaks/hint/{hint}"] = "\n\n".join(variants) + "\n"
            continue
        per_file = EXAMPLES_PER_FILE * len(PUNCTUATION)
        for n in range(0, len(variants), per_file):
            forms.files[f"leaks/examples_{n // per_file:02d}.txt"] = (
                "\n\n".join(variants[n : n + per_file]) + "\n"
            )


def _b64(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(CLASSES["b64"]) for _ in range(n))


def _keys(forms: Forms, rng: random.Random) -> None:
    pem, parts = expand_parts("<<pem:RSA PRIVATE KEY>>", "leak-pem")
    notes = [
        "# Deploy notes",
        "",
        "The staging host takes this key:",
        "",
        "```",
        pem,
        "```",
        "",
        "Rotate it.",
    ]
    forms.files["leaks/deploy_notes.md"] = "\n".join(notes) + "\n"
    forms.learn(pem, "deploy_notes.md", parts)
    forms.pem_file = "leaks/deploy_notes.md"
    first = notes.index("```") + 2  # 1-based line of the BEGIN line
    forms.pem_lines = (first + 2, first + 4)  # inside the block, no BEGIN/END line in the range

    body = ["MIIEowIBAAKCAQEA" + _b64(rng, 48), *(_b64(rng, 64) for _ in range(8))]
    quoted = "".join(f'    "{line}\\n"\n' for line in body)
    begin, end = (f'    "-----{word} RSA PRIVATE KEY-----\\n"\n' for word in ("BEGIN", "END"))
    code = f"KEY = (\n{begin}{quoted}{end})\n"
    forms.files["leaks/keys.py"] = code
    forms.learn(code, "keys.py", body)
    der = (
        "const KEY =\n"
        + " +\n".join(f"  '{line}'" for line in body[:1] + [_b64(rng, 64) for _ in range(6)])
        + ";\n"
    )
    forms.files["leaks/der.js"] = der
    forms.learn(der, "der.js", [line.strip().strip("'+;") for line in der.split("\n")[1:]])


def _pairs_and_fields(forms: Forms, rng: random.Random) -> None:
    key_id = "AKIA" + "".join(rng.choice(CLASSES["b32"]) for _ in range(16))
    secret = _b64(rng, 40)
    while not (
        any(c.isupper() for c in secret)
        and any(c.islower() for c in secret)
        and any(c.isdigit() for c in secret)
    ):
        secret = _b64(rng, 40)
    prose = f"# Staging access\n\nUse {key_id} / {secret} for the uploads bucket.\n"
    forms.files["leaks/AGENTS.md"] = prose
    forms.learn(prose, "AGENTS.md", [key_id, secret])
    comment = f"def upload():\n    # creds: {key_id}:{secret}\n    return None\n"
    forms.files["leaks/upload.py"] = comment
    forms.learn(comment, "upload.py", [key_id, secret])
    password = "".join(rng.choice(CLASSES["pw"]) for _ in range(16))
    encoded = base64.b64encode(password.encode()).decode()
    xml = (
        '<?xml version="1.0"?>\n<FileZilla3>\n  <Servers>\n    <Server>\n      <Host>ftp.example.org</Host>\n'
        f'      <User>deploy</User>\n      <Pass encoding="base64">{encoded}</Pass>\n    </Server>\n'
        "  </Servers>\n</FileZilla3>\n"
    )
    forms.files["leaks/sitemanager.xml"] = xml
    forms.learn(xml, "sitemanager.xml", [encoded])


def _encodings(forms: Forms) -> None:
    for name, codec, bom in (
        ("leaks/token16.ps1", "utf-16-le", b"\xff\xfe"),
        ("leaks/token16be.txt", "utf-16-be", b""),
        ("leaks/token32.txt", "utf-32-le", b""),
    ):
        text, parts = expand_parts('$Token = "<<gh:ghp>>"\nWrite-Host "ready"\n', f"leak-{name}")
        forms.learn(text, name, parts)
        forms.files[name] = bom + text.encode(codec)
        forms.utf_files.append(name)


def _names_and_thread(forms: Forms) -> None:
    for template in (
        "leaks/names/<<gh:ghp>>.md",
        "leaks/names/AKIA<<b32:16>>/README.md",
        "leaks/names/sk_live_<<alnum:24>>-notes.txt",
    ):
        path, parts = expand_parts(template, f"leak-name-{template}")
        forms.learn(path, "", parts)
        forms.name_secrets.extend(parts)
        forms.files[path] = "# Notes\n\nNothing secret in here.\n"
        forms.named_files.append(path)
    body, parts = expand_parts(
        "The deploy fails. Someone pasted use <<gh:ghp>> . and `sk_live_<<alnum:24>>`. in the README?\n"
        "Also xoxb-<<digits:12>>-<<digits:12>>-<<alnum:24>>! and a key <<jwt>>: see leaks/upload.py\n",
        "leak-task",
    )
    forms.learn(body, "", parts)
    forms.task_title = "Uploads fail with a leaked key in leaks/upload.py"
    forms.task_body = body
    comment, parts = expand_parts("Try this one: glpat-<<alnum:20>>/ or AKIA<<b32:16>>#", "leak-comment")
    forms.learn(comment, "", parts)
    forms.comment = comment
    subject, parts = expand_parts(
        "fix #7: drop the old key ghp_ prefix <<gh:ghp>>. from upload", "leak-subject"
    )
    forms.learn(subject, "", parts)
    forms.commit_subject = subject


def build_forms() -> Forms:
    """Every form, deterministic (fixed seeds)."""
    forms = Forms()
    rng = random.Random("leak-forms")
    _rule_examples(forms)
    _keys(forms, rng)
    _pairs_and_fields(forms, rng)
    _encodings(forms)
    _names_and_thread(forms)
    forms.files[".github/context-packages.yaml"] = CONFIG
    forms.files["src/upload.py"] = "def upload(bucket):\n    return bucket.put('x')\n"
    return forms


def key_pieces_leaked(keys: Mapping[str, tuple[str, str]], text: str, window: int) -> int:
    """How many runs of ``window`` characters of the keys' own parts (each key past its public
    prefix; ``keys``: name -> (value, prefix)) appear in ``text``. A count, never the pieces: a
    failing assertion prints its operands."""
    found = 0
    for value, prefix in keys.values():
        rest = value[len(prefix) :]
        found += sum(rest[i : i + window] in text for i in range(len(rest) - window + 1))
    return found


def assert_no_key_pieces(keys: Mapping[str, tuple[str, str]], text: str, window: int, where: str) -> None:
    """No run of the keys' own parts (:func:`key_pieces_leaked`) appears in ``text``, the output of
    ``where``."""
    # Out of a failure's traceback: pytest prints the arguments of every frame, the keys and text.
    __tracebackhide__ = True
    count = key_pieces_leaked(keys, text, window)
    assert count == 0, f"{count} piece(s) of a key leaked through {where}"


def straddling(key: str, tail: int = 0) -> str:
    """Words, then ``key`` across the place :func:`ctxaction.secure.quoted` cuts a quoted value
    (some 20 characters of the key before it), then ``tail`` more letters: cut there before the
    redaction, the key no longer matches its rule and most of it would be shown."""
    words = "word " * ((QUOTE_WIDTH - 22) // 5)
    return f"{words}{key} {'b' * tail}"


def run_ctxaction(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m ctxaction ARGS`` in ``cwd``, without the GitHub token variables, output captured."""
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_TOKEN", "GH_TOKEN")}
    return subprocess.run(
        [sys.executable, "-m", "ctxaction", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def staged_repo(root: Path, files: Mapping[str, str]) -> GitRepo:
    """A new repository at ``root`` with ``files`` written and staged, nothing committed."""
    repo = GitRepo(root)
    for path, content in files.items():
        repo.write(path, content)
    repo.git("add", "-A")
    return repo


def commit_through_hook(
    repo: GitRepo, message: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``git commit`` of what ``repo`` has staged, through the hooks installed in it."""
    return subprocess.run(
        ["git", "commit", "-q", "-m", message],
        cwd=repo.root,
        env=git_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
