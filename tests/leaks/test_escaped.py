"""A secret written with escapes, end to end: no piece of it in a package, ``scan`` or the hook.

A real repository holds a JSON config, a JS client, a C header, a Rust client and a JS module
whose keys are written with ``\\uXXXX``, ``\\xHH`` or ``\\u{H…}`` escapes (the prefix only, every
character in upper-case hex, every character in braces, the three kinds mixed with plain
characters), and a C file, a Python module, a Ruby client, an HTML page, a Swift file and a
shell script whose keys are written in octal, ``\\UXXXXXXXX``, Ruby's several codes in one pair of
braces, decimal and hex character references, ``\\u{…}`` padded to six digits, and octal mixed
with the others. Beside them, files full of ordinary escapes that must stay as they are: a
translation, byte strings and terminal colours (in hex and octal), emoji (in Rust and Ruby),
HTML's references of punctuation, and keys' escapes behind escaped backslashes or an escaped
``&`` (the texts ``\\x67…`` and ``&#103;…``, no key). The values are generated and escaped at run
time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ctxaction.hook import install
from ctxaction.secure.synth import expand
from tests.gitrepo import GitRepo
from tests.leaks.forms import (
    CONFIG,
    PROFILE,
    assert_no_key_pieces,
    commit_through_hook,
    run_ctxaction,
    staged_repo,
)

WINDOW = 8
KEYS = {
    "gh": (expand("<<gh:ghp>>", "escaped-e2e-gh"), "ghp_"),
    "aws": (expand("AKIA<<b32:16>>", "escaped-e2e-aws"), "AKIA"),
    "gh_x": (expand("<<gh:ghp>>", "escaped-e2e-gh-x"), "ghp_"),
    "aws_braces": (expand("AKIA<<b32:16>>", "escaped-e2e-aws-braces"), "AKIA"),
    "stripe_mixed": (expand("sk_live_<<alnum:32>>", "escaped-e2e-stripe-mixed"), "sk_live_"),
    "gh_octal": (expand("<<gh:ghp>>", "escaped-e2e-gh-octal"), "ghp_"),
    "aws_u8": (expand("AKIA<<b32:16>>", "escaped-e2e-aws-u8"), "AKIA"),
    "stripe_ruby": (expand("sk_live_<<alnum:32>>", "escaped-e2e-stripe-ruby"), "sk_live_"),
    "gh_html": (expand("<<gh:ghp>>", "escaped-e2e-gh-html"), "ghp_"),
    "aws_brace6": (expand("AKIA<<b32:16>>", "escaped-e2e-aws-brace6"), "AKIA"),
    "slack_shell": (expand("xoxb-<<digits:12>>-<<digits:13>>-<<alnum:24>>", "escaped-e2e-slack"), "xoxb-"),
}
# Where each key is written, and the rule that must find it there.
ESCAPED = {
    "leaks/client.js": "aws-access-key-id",
    "leaks/config.json": "github-pat",
    "leaks/keys.h": "github-pat",
    "leaks/client.rs": "aws-access-key-id",
    "leaks/billing.js": "stripe-secret-key",
    "leaks/auth.c": "github-pat",
    "leaks/settings.py": "aws-access-key-id",
    "leaks/billing.rb": "stripe-secret-key",
    "leaks/login.html": "github-pat",
    "leaks/Keys.swift": "aws-access-key-id",
    "leaks/notify.sh": "slack-bot-token",
}
ORDINARY = [
    "leaks/i18n.json",
    "leaks/bytes.c",
    "leaks/emoji.rs",
    "leaks/pattern.py",
    "leaks/blob.c",
    "leaks/faces.rb",
    "leaks/quotes.html",
]


def _escape(value: str, count: int, form: str = "\\u{:04x}") -> str:
    return "".join(form.format(ord(ch)) for ch in value[:count]) + value[count:]


def _mixed(value: str) -> str:
    """Every character in turn as ``\\xHH``, ``\\u{H…}``, ``\\uXXXX`` and as written."""
    forms = ("\\x{:02x}", "\\u{{{:x}}}", "\\u{:04x}")
    return "".join(ch if i % 4 == 3 else forms[i % 4].format(ord(ch)) for i, ch in enumerate(value))


def _in_turn(value: str) -> str:
    """Every character in turn as octal, ``\\xHH``, ``\\UXXXXXXXX`` and as written."""
    forms = ("\\{:03o}", "\\x{:02X}", "\\U{:08x}")
    return "".join(ch if i % 4 == 3 else forms[i % 4].format(ord(ch)) for i, ch in enumerate(value))


def _references(value: str) -> str:
    """The prefix as decimal references, the rest as hex ones."""
    return _escape(value[:4], 4, "&#{};") + _escape(value[4:], len(value), "&#x{:x};")


def _files() -> dict[str, str]:
    gh, aws = KEYS["gh"][0], KEYS["aws"][0]
    look_alike = expand("<<gh:ghp>>", "escaped-e2e-look-alike")
    return {
        ".github/context-packages.yaml": CONFIG,
        "leaks/config.json": '{\n  "github": {"token": "' + _escape(gh, 4) + '"}\n}\n',
        "leaks/client.js": "const id = '" + _escape(aws, len(aws), "\\u{:04X}") + "';\nexport default id;\n",
        "leaks/i18n.json": (
            '{"hello": "Bonjour, \\u00e7a va ?",\n "link": "\\u003ca href=\\u0022/\\u0022\\u003e"}\n'
        ),
        "leaks/keys.h": (
            'static const char *REMOTE_ID = "' + _escape(KEYS["gh_x"][0], 4, "\\x{:02x}") + '";\n'
        ),
        "leaks/client.rs": (
            'pub const ID: &str = "' + _escape(KEYS["aws_braces"][0], 20, "\\u{{{:X}}}") + '";\n'
        ),
        "leaks/billing.js": "export const KEY = '" + _mixed(KEYS["stripe_mixed"][0]) + "';\n",
        "leaks/bytes.c": (
            'static const unsigned char MAGIC[] = "\\x89PNG\\r\\n\\x1a\\n";\n'
            'static const char DATA[] = "\\x00\\x01\\xff";\nstatic const char *RESET = "\\x1b[0m";\n'
        ),
        "leaks/emoji.rs": 'pub const FACE: &str = "\\u{1F600}\\u{1F601}";\n',
        "leaks/pattern.py": "PATTERN = '" + _escape(look_alike, 4, "\\\\x{:02x}") + "'\n",
        "leaks/auth.c": 'const char *token = "' + _escape(KEYS["gh_octal"][0], 12, "\\{:03o}") + '";\n',
        "leaks/settings.py": "AWS_ID = '" + _escape(KEYS["aws_u8"][0], 20, "\\U{:08X}") + "'\n",
        "leaks/billing.rb": (
            "KEY = \"\\u{" + " ".join(f"{ord(ch):x}" for ch in KEYS["stripe_ruby"][0]) + '}".freeze\n'
        ),
        "leaks/login.html": '<meta name="token" content="' + _references(KEYS["gh_html"][0]) + '">\n',
        "leaks/Keys.swift": 'let id = "' + _escape(KEYS["aws_brace6"][0], 20, "\\u{{{:06x}}}") + '"\n',
        "leaks/notify.sh": "curl -H $'Authorization: Bearer " + _in_turn(KEYS["slack_shell"][0]) + "' x\n",
        "leaks/blob.c": (
            'static const char ICON[] = "\\211PNG\\r\\n\\032\\n\\0\\0\\0\\rIHDR\\377\\330";\n'
            'static const char *RESET = "\\033[0m", *NL = "\\12";\n'
        ),
        "leaks/faces.rb": 'FACES = "\\u{1F600 1F601}"\n',
        "leaks/quotes.html": (
            "<p>It&#39;s &#8217;quoted&#8217;&#160;&#8212; ok</p>\n"
            "<code>" + _escape(look_alike, 4, "&amp;#{};") + "</code>\n"
        ),
    }


FILES = _files()


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    return staged_repo(tmp_path_factory.mktemp("escaped-staged") / "repo", FILES)


def test_the_hook_blocks_escaped_keys_and_prints_no_piece(staged: GitRepo) -> None:
    install(staged.root)
    proc = commit_through_hook(staged, "add config")
    assert proc.returncode != 0, "the hook let the escaped keys through"
    assert_no_key_pieces(KEYS, proc.stdout + proc.stderr, WINDOW, "the pre-commit hook")
    reported = {line.split(":", 1)[0] for line in (proc.stdout + proc.stderr).splitlines()}
    assert set(ESCAPED) <= reported
    assert not reported & set(ORDINARY)


def test_scan_reports_escaped_keys_and_prints_no_piece(staged: GitRepo) -> None:
    run = run_ctxaction(["scan", "--staged", "--format", "json"], staged.root)
    assert run.returncode == 1, run.stderr
    assert_no_key_pieces(KEYS, run.stdout + run.stderr, WINDOW, "scan --format json")
    found = json.loads(run.stdout)["findings"]
    assert {f["path"]: f["rule"] for f in found} == ESCAPED
    assert len(found) == len(ESCAPED)


def test_build_holds_no_piece(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.commit(FILES, "config")
    issue = tmp_path / "issue.txt"
    issue.write_text("Client fails\n\nSee leaks/config.json and leaks/client.js.\n", encoding="utf-8")
    target = tmp_path / "package.md"
    args = ["build", "--repo", str(repo.root), "--task", PROFILE, "-o", str(target)]
    run = run_ctxaction([*args, "--issue-file", str(issue)], repo.root)
    assert run.returncode == 0, run.stderr
    package = target.read_text(encoding="utf-8")
    assert_no_key_pieces(KEYS, run.stdout + run.stderr + package, WINDOW, "build")
    for path in [*ESCAPED, *ORDINARY]:
        assert path in package, f"{path} was not packed"
    assert package.count("[REDACTED:") >= len(ESCAPED)
    ordinary = (
        "\\u00e7a va",
        '"\\x00\\x01\\xff"',
        "\\x1b[0m",
        '"\\u{1F600}\\u{1F601}"',
        "\\211PNG\\r\\n\\032\\n\\0\\0\\0\\rIHDR\\377\\330",
        '"\\033[0m", *NL = "\\12"',
        '"\\u{1F600 1F601}"',
        "It&#39;s &#8217;quoted&#8217;&#160;&#8212; ok",
    )
    assert [escapes for escapes in ordinary if escapes not in package] == []  # ordinary escapes stay
