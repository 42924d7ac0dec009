"""Secrets split into string pieces the language joins (continued.py): found and redacted whole.

Every value is generated at run time (:mod:`ctxaction.secure.synth`) and cut into pieces here, so
no source line holds a secret, whole or as literal pieces a scan would join.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ctxaction.secure import redact, scan
from ctxaction.secure.continued import MAX_LINES, chains
from ctxaction.secure.detect import LONG_LINE
from ctxaction.secure.junctions import junctions
from ctxaction.secure.synth import expand

# (rule, literal prefix, template): the prefix is the part a preview may show.
SECRETS = [
    ("github-pat", "ghp_", "<<gh:ghp>>"),
    ("stripe-secret-key", "sk_live_", "sk_live_<<alnum:32>>"),
    ("aws-access-key-id", "AKIA", "AKIA<<b32:16>>"),
    ("slack-bot-token", "xoxb-", "xoxb-<<digits:12>>-<<digits:13>>-<<alnum:24>>"),
]

Shape = Callable[[list[str]], str]

# Path, then the text of the pieces laid out the way each language continues a string.
SHAPES: dict[str, tuple[str, Shape]] = {
    "python backslash": ("app.py", lambda p: 'token = "' + '" \\\n    "'.join(p) + '"\nTIMEOUT = 5\n'),
    "python parens, one line": ("keys.py", lambda p: 'KEY = ("' + '" "'.join(p) + '")\n'),
    "python parens": ("keys.py", lambda p: 'KEY = (\n    "' + '"\n    "'.join(p) + '"\n)\n'),
    "python f-string piece": ("keys.py", lambda p: 'KEY = ("' + '"\n       f"'.join(p) + '")\n'),
    "js plus": ("client.js", lambda p: "const t = '" + "' +\n  '".join(p) + "';\n"),
    "java leading plus": ("A.java", lambda p: 'String t = "' + '"\n    + "'.join(p) + '";\n'),
    "c adjacent": ("notify.c", lambda p: '#define TOKEN "' + '"\n              "'.join(p) + '"\n'),
    "php dot": ("a.php", lambda p: "$token = '" + "' .\n  '".join(p) + "';\n"),
    "yaml plain": ("config.yaml", lambda p: "api:\n  key: " + "\n    ".join(p) + "\nother: 1\n"),
    "yaml folded": ("config.yml", lambda p: "api:\n  token: >-\n    " + "\n    ".join(p) + "\n"),
    "yaml open quote": ("config.yml", lambda p: 'api:\n  token: "' + "\n    ".join(p) + '"\n'),
    # A backslash ending the line inside the literal: the next line goes on from its first column.
    "c splice": ("notify.c", lambda p: 'static const char *t = "' + "\\\n".join(p) + '";\nint n;\n'),
    "python splice": ("keys.py", lambda p: 'T = "' + "\\\n".join(p) + '"\n'),
    "shell splice": ("deploy.sh", lambda p: 'export T="' + "\\\r\n".join(p) + '"\r\n'),
}


def _cuts(secret: str, prefix: str) -> list[list[str]]:
    """The secret in two pieces (cut right after its prefix, in the middle, near the end) and in
    three. A cut inside the prefix hides the keyword itself: see PREFIX_SHAPES."""
    n, p = len(secret), len(prefix)
    twos = [[secret[:cut], secret[cut:]] for cut in (p, p + 3, n // 2, n - 3)]
    a, b = p + n // 6, p + 2 * (n // 3)
    return [*twos, [secret[:a], secret[a:b], secret[b:]]]


def _windows(secret: str, prefix: str, size: int = 6) -> set[str]:
    rest = secret[len(prefix) :]
    return {rest[i : i + size] for i in range(len(rest) - size + 1)}


CASES = [(rule, prefix, template, shape) for rule, prefix, template in SECRETS for shape in SHAPES]


@pytest.mark.parametrize(("rule", "prefix", "template", "shape"), CASES)
def test_split_secret_is_found_and_redacted_whole(rule: str, prefix: str, template: str, shape: str) -> None:
    secret = expand(template, f"split-{rule}")
    path, layout = SHAPES[shape]
    for pieces in _cuts(secret, prefix):
        label = f"{shape}: {len(pieces)} pieces"
        _assert_redacted_whole(layout(pieces), path, rule, secret, prefix, pieces[1:], label)


def _assert_redacted_whole(
    text: str, path: str, rule: str, secret: str, prefix: str, pieces: list[str], label: str
) -> None:
    """One finding of ``rule``, lines kept, and no window of the secret's own part nor any of
    ``pieces`` (4+ characters) left in the redacted text or the previews."""
    redacted, findings = redact(text, path)
    assert [f.rule for f in findings] == [rule], label
    assert redacted.count("\n") == text.count("\n")
    shown = redacted + "".join(f.preview for f in findings)
    # A count, not the pieces: a failing assertion prints its operands.
    assert sum(w in shown for w in _windows(secret, prefix)) == 0, label
    assert sum(len(p) >= 4 and p in shown for p in pieces) == 0, label


# A cut inside the literal prefix (``"gh" "p_…"``) leaves no keyword whole on any line: the
# keyword pass finds where the pieces meet instead. No name here holds a keyword.
PREFIX_SHAPES: dict[str, tuple[str, Shape]] = {
    "python adjacent": ("keys.py", lambda p: 'X = ("' + '" "'.join(p) + '")\n'),
    "python adjacent, lines": ("keys.py", lambda p: 'X = (\n    "' + '"\n    "'.join(p) + '"\n)\n'),
    "python backslash": ("app.py", lambda p: 'x = "' + '" \\\n    "'.join(p) + '"\n'),
    "python plus": ("app.py", lambda p: "x = '" + "' + '".join(p) + "'\n"),
    "js plus": ("client.js", lambda p: "const t = '" + "'+'".join(p) + "';\n"),
    "js plus, lines": ("client.js", lambda p: "const t = '" + "' +\n  '".join(p) + "';\n"),
    "ts template": ("client.ts", lambda p: "const t = `" + "` + `".join(p) + "`;\n"),
    "java leading plus": ("A.java", lambda p: 'String t = "' + '"\n        + "'.join(p) + '";\n'),
    "c adjacent": ("n.c", lambda p: 'const char *t = "' + '"\n                  "'.join(p) + '";\n'),
    "c adjacent, crlf": ("n.c", lambda p: 'const char *t = "' + '"\r\n\t"'.join(p) + '";\r\n'),
    "php dot": ("a.php", lambda p: "$t = '" + "' . '".join(p) + "';\n"),
    "go plus": ("main.go", lambda p: 'var t = "' + '" +\n\t"'.join(p) + '"\n'),
}
PREFIX_CASES = [
    (rule, prefix, template, shape) for rule, prefix, template in SECRETS for shape in PREFIX_SHAPES
]


@pytest.mark.parametrize(("rule", "prefix", "template", "shape"), PREFIX_CASES)
def test_a_secret_cut_inside_its_prefix_is_found_and_redacted_whole(
    rule: str, prefix: str, template: str, shape: str
) -> None:
    secret = expand(template, f"split-prefix-{rule}")
    path, layout = PREFIX_SHAPES[shape]
    p = len(prefix)
    # Every cut inside the prefix, and the prefix in two pieces before the rest (``"gh" "p_" "…"``).
    cuts = [[secret[:cut], secret[cut:]] for cut in range(1, p)]
    cuts.append([secret[: p // 2], secret[p // 2 : p], secret[p:]])
    for pieces in cuts:
        label = f"{shape}: cut at {len(pieces[0])}"
        _assert_redacted_whole(layout(pieces), path, rule, secret, prefix, pieces, label)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_split_secret_keeps_the_fingerprint_of_the_whole(shape: str) -> None:
    secret = expand("<<gh:ghp>>", "split-fingerprint")
    (whole,) = scan(f'token = "{secret}"\n', "app.py")
    path, layout = SHAPES[shape]
    (split,) = scan(layout([secret[:12], secret[12:]]), path)
    assert split.fingerprint == whole.fingerprint
    assert split.preview.count("ghp_****") == 1


def test_a_piece_that_already_matched_widens_to_the_whole_secret() -> None:
    # The first piece alone is a valid-looking Stripe key: it used to be the only part redacted.
    secret = expand("sk_live_<<alnum:48>>", "split-widen")
    text = f'STRIPE = "{secret[:30]}" \\\n    "{secret[30:]}"\n'
    redacted, findings = redact(text, "billing.py")
    assert [f.rule for f in findings] == ["stripe-secret-key"]
    assert (findings[0].line, findings[0].end_line) == (1, 2)
    assert secret[30:] not in redacted


@pytest.mark.parametrize(
    ("path", "layout"),
    [
        ("settings.py", 'DB_PASSWORD = "{a}" \\\n    "{b}"\n'),
        ("db.js", "const dbPassword = '{a}' +\n  '{b}';\n"),
    ],
)
def test_a_generic_value_is_joined_under_its_name(path: str, layout: str) -> None:
    # The first half alone passes for a password; the second, alone on its line, was printed.
    value = expand("<<alnum:10>>", "split-generic") + expand("<<alnum:10>>", "split-generic-2")
    redacted, findings = redact(layout.format(a=value[:10], b=value[10:]), path)
    assert [f.rule for f in findings] == ["generic-password"]
    assert value[:10] not in redacted and value[10:] not in redacted


@pytest.mark.parametrize(
    "where",
    [
        'KEY = ("{a}"  # ctxaction: allow\n       "{b}")\n',
        'KEY = ("{a}"\n       "{b}")  # ctxaction: allow\n',
    ],
)
def test_an_inline_marker_on_any_piece_line_allows_it(where: str) -> None:
    secret = expand("<<gh:ghp>>", "split-allow")
    assert scan(where.format(a=secret[:14], b=secret[14:]), "keys.py") == []


BENIGN = {
    "db.py": (
        "QUERY = (\n"
        '    "SELECT id, password_hash, api_token "\n'
        '    "FROM users WHERE secret_question = %s "\n'
        '    "AND token_expires_at > now()"\n'
        ")\n"
        'msg = "Your access token has expired; " + \\\n'
        '      "please sign in again to get a new one."\n'
        'logger.warning("The API key for %s is missing, "\n'
        '               "set STRIPE_SECRET_KEY in the environment", name)\n'
        'HEADERS = ["Authorization",\n'
        '           "X-Api-Key"]\n'
        'doc = """The token endpoint."""\n'
    ),
    "Query.java": (
        'String sql = "UPDATE accounts SET password = ? " +\n'
        '    "WHERE api_key_id = ? AND secret_version = ?";\n'
        'throw new IllegalStateException("credentials for " + user\n'
        '    + " were rejected by the token service");\n'
    ),
    "msg.c": (
        'static const char *usage = "usage: tool --token FILE "\n'
        '                           "--secret-key-file FILE\\n";\n'
        'static const char *help = "Reads the API token from the file \\\n'
        'named by --token-file, then the secret key\\n";\n'
        "#define TOKEN_ERROR(e) \\\n"
        '    fprintf(stderr, "token: %s\\n", (e)); \\\n'
        "    exit(1)\n"
    ),
    "deploy.sh": (
        "# don't print the token \\\n"
        "curl -H 'Accept: json' \\\n"
        '  --data "secret_version=2" \\\n'
        "  https://acme.io/token\n"
    ),
    "ci.yaml": (
        "description: >-\n"
        "  Rotates the deploy key every\n"
        "  ninety days.\n"
        "token_ttl: 3600\n"
        "secrets:\n"
        "  - name: api_token\n"
        "    value_from: vault\n"
        "auth_header: Authorization\n"
        "  # the header name\n"
    ),
}


# Pieces that meet with a keyword cut between them, and hold no secret.
BENIGN["labels.py"] = (
    'LABEL = ("gh" "p_" + "token")\n'
    'HELP = ("sk" "_live_ keys start with this prefix")\n'
    'URL = "https://api.github.com/" "repos"\n'
    "SEP = ' ' + ' '\n"
    'PARTS = ("to" "ken", "pass" "word")\n'
)
BENIGN["labels.js"] = "const kind = 'xo' + 'xb-' + name;\nconst empty = '' + '';\n"


@pytest.mark.parametrize("path", list(BENIGN))
def test_ordinary_continued_strings_are_not_flagged(path: str) -> None:
    assert scan(BENIGN[path], path) == []


def test_chains_are_bounded() -> None:
    # A continued literal of many lines, every one holding a keyword: each literal joins one
    # chain at most, and a chain reaches MAX_LINES lines either side of where it started.
    text = "X = (\n" + "".join(f'    "token part {i} "\n' for i in range(10 * MAX_LINES)) + ")\n"
    spots = [i for i in range(len(text)) if text.startswith("token", i)]
    found = chains(text, spots, "big.py", LONG_LINE)
    pieces = [segment for chain in found for segment in chain]
    assert len(pieces) == 10 * MAX_LINES
    assert max(len(chain) for chain in found) <= 2 * MAX_LINES + 1


def test_long_lines_join_nothing() -> None:
    # Minified code: a line past LONG_LINE is never read whole, so its literals start no chain.
    secret = expand("<<gh:ghp>>", "split-long")
    line = 'a="x"+"y";' * (LONG_LINE // 10 + 1) + f'k="{secret[:14]}"+"{secret[14:]}";'
    spots = [line.index("ghp_")]
    assert chains(line + "\n", spots, "bundle.min.js", LONG_LINE) == []


def test_an_escaped_backslash_splices_nothing() -> None:
    # ``"…\\`` ends in an escaped backslash: the line break after it is not part of the literal.
    secret = expand("<<gh:ghp>>", "split-escaped")
    text = f'x = "{secret[:14]}\\\\\n{secret[14:]}"\n'
    assert chains(text, [text.index("ghp_")], "a.c", LONG_LINE) == []
    spliced = f'x = "{secret[:14]}\\\n{secret[14:]}"\n'
    assert len(chains(spliced, [spliced.index("ghp_")], "a.c", LONG_LINE)) == 1


def test_meetings_on_a_long_line_are_passed_over() -> None:
    # Minified code: past LONG_LINE characters of one line, a meeting costs no keyword check (the
    # chains would join nothing there anyway), so a line of many pieces stays linear.
    secret = expand("<<gh:ghp>>", "split-long-prefix")
    line = '"ab" "cd" ' * LONG_LINE + f'k = "gh" "{secret[2:]}";'
    joints = [(i, i + 3) for i in range(len(line)) if line.startswith('" "', i)]
    checked: list[int] = []

    def meet(left: str, right: str) -> bool:
        checked.append(len(left))
        return True

    spots = junctions(line, joints, meet, 40, LONG_LINE)
    assert len(joints) >= 2 * LONG_LINE and len(checked) <= LONG_LINE // 5 + 1  # one meeting in 5 characters
    assert all(spot < LONG_LINE for spot in spots)
    assert scan(line + "\n", "bundle.min.js") == []
