"""The engine's public API: scan, redact, PathRules, bulk_personal_data, allow markers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ctxaction.secure import Allowlist, Detector, PathRules, bulk_personal_data, redact, scan
from ctxaction.secure.rules import ALL_RULES
from ctxaction.secure.synth import expand

try:  # Python 3.11+ moved the parser; 3.10 only has the deprecated alias
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_parse

SECRET_LINE = 'API_KEY = "<<alnum:32>>"'


def test_finding_positions_are_one_based_and_offsets_exact() -> None:
    text = expand("import os\n\n" + SECRET_LINE + "\n", 1)
    (finding,) = scan(text, "app.py")
    assert (finding.line, finding.column) == (3, 12)
    assert text[finding.start : finding.end] == text.split('"')[1]
    assert finding.rule == "generic-secret"
    assert text[finding.start : finding.end] not in finding.preview


def test_crlf_lines_count_like_git() -> None:
    text = expand("a = 1\r\nb = 2\r\n" + SECRET_LINE + "\r\n", 2)
    (finding,) = scan(text, "app.py")
    assert finding.line == 3
    assert "\r" not in finding.preview


def test_redact_keeps_line_numbers_for_multiline_keys() -> None:
    text = expand("before\n<<pem:RSA PRIVATE KEY>>\n" + SECRET_LINE + "\nafter\n", 3)
    redacted, findings = redact(text, "keys.txt")
    assert [f.rule for f in findings] == ["private-key", "generic-secret"]
    assert redacted.count("\n") == text.count("\n")
    lines = redacted.split("\n")
    assert lines[1] == "[REDACTED:private-key]"
    assert lines[-2] == "after"
    assert "[REDACTED:generic-secret]" in redacted


def test_fingerprint_is_stable_across_positions() -> None:
    line = expand(SECRET_LINE, 4)
    first = scan(line, "a.py")[0].fingerprint
    moved = scan("\n\n\n" + line, "b.py")[0].fingerprint
    assert first == moved


@pytest.mark.parametrize("marker", ["# ctxaction: allow", "# pragma: allowlist secret", "# gitleaks:allow"])
def test_inline_allow_markers(marker: str) -> None:
    assert scan(expand(f"{SECRET_LINE}  {marker}", 5), "app.py") == []


def test_detect_secrets_next_line_marker() -> None:
    text = expand(f"# pragma: allowlist nextline secret\n{SECRET_LINE}\n{SECRET_LINE}\n", 6)
    assert [f.line for f in scan(text, "app.py")] == [3]


def test_config_allowlist_paths_regexes_stopwords_and_disabled_rules() -> None:
    text = expand(SECRET_LINE + "\nDB_PASSWORD=localdev<<pw:8>>\n", 7)
    assert len(Detector(ALL_RULES).scan(text, "app.py")) == 2
    assert Detector(ALL_RULES, Allowlist(paths=("tests/**",))).scan(text, "tests/x/app.py") == []
    by_stopword = Detector(ALL_RULES, Allowlist(stopwords=("LOCALDEV",))).scan(text, "app.py")
    assert [f.rule for f in by_stopword] == ["generic-secret"]
    by_regex = Detector(ALL_RULES, Allowlist(regexes=(r"^API_KEY",))).scan(text, "app.py")
    assert [f.rule for f in by_regex] == ["generic-password"]
    disabled = Detector(ALL_RULES, Allowlist(disabled_rules=("generic-password",))).scan(text, "app.py")
    assert [f.rule for f in disabled] == ["generic-secret"]


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("deploy/staging.env", "sensitive path (*.env)"),
        (".env", "sensitive path (.env)"),
        (".env.local", "sensitive path (.env.*)"),
        ("deploy/certs/server.pem", "sensitive path (*.pem)"),
        ("home/.ssh/id_rsa", "sensitive path (id_rsa*)"),
        ("app/secrets/db.yaml", "sensitive path (**/secrets/**)"),
        ("ops/credentials/aws.json", "sensitive path (**/credentials/**)"),
        ("config/production.yml", "sensitive path (config/production.*)"),
        (".env.example", None),
        ("home/.ssh/id_rsa.pub", None),
        ("src/app.py", None),
    ],
)
def test_default_path_rules(path: str, reason: str | None) -> None:
    assert PathRules.from_repo(None).reason(path) == reason


def test_contextignore_and_extra_patterns(tmp_path: Path) -> None:
    (tmp_path / ".contextignore").write_text(
        "# internal\n\ndata/*.csv\n!config/production.yml\n", encoding="utf-8"
    )
    rules = PathRules.from_repo(tmp_path, extra_patterns=["fixtures/big/"])
    assert rules.reason("data/users.csv") == ".contextignore: line 3"
    assert rules.reason("config/production.yml") is None
    assert rules.reason("fixtures/big/a.json") == "excluded by config (fixtures/big/)"
    assert rules.reason("data/sub/users.csv") is None


def test_bulk_personal_data() -> None:
    rows = "\n".join(
        expand(f"{i},<<lower:6>>.<<lower:5>>@mail{i % 7}.net,+1 415-<<digits:3>>-<<digits:4>>", i)
        for i in range(40)
    )
    reason = bulk_personal_data("id,email,phone\n" + rows, "fixtures/customers.csv")
    assert reason is not None and "email addresses" in reason and "phone numbers" in reason
    cards = "\n".join(expand("<<card:4:16>>", i) for i in range(5))
    assert bulk_personal_data(cards, "dump.txt") == "bulk personal data (5 card numbers)"
    assert bulk_personal_data(rows, "AUTHORS") is None
    assert bulk_personal_data("contact: a@b.io, c@d.io\n", "README.md") is None
    bad_cards = "\n".join(expand("<<cardbad:4:16>>", i) for i in range(5))
    assert bulk_personal_data(bad_cards, "dump.txt") is None


def _unbounded_repeat_nested(tree: sre_parse.SubPattern, inside_repeat: bool = False) -> bool:
    """True when an unbounded repeat sits inside another repeat (the catastrophic shape)."""
    for op, arg in tree.data:
        children: list[tuple[sre_parse.SubPattern, bool]] = []
        if op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT):
            _, high, sub = arg
            if high == sre_parse.MAXREPEAT and inside_repeat:
                return True
            children = [(sub, inside_repeat or high > 1)]
        elif op is sre_parse.SUBPATTERN:
            children = [(arg[-1], inside_repeat)]
        elif op is sre_parse.BRANCH:
            children = [(branch, inside_repeat) for branch in arg[1]]
        elif op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
            children = [(arg[1], inside_repeat)]
        if any(_unbounded_repeat_nested(child, nested) for child, nested in children):
            return True
    return False


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.id for r in ALL_RULES])
def test_rule_regex_has_no_nested_unbounded_repeat(rule: object) -> None:
    pattern = rule.pattern  # type: ignore[attr-defined]
    tree = sre_parse.parse(pattern, re.compile(pattern).flags)
    assert not _unbounded_repeat_nested(tree)


def test_one_megabyte_minified_line_is_scanned_and_secret_at_its_end_found() -> None:
    # Every keyword, quotes and assignment characters repeated: the shape that makes backtracking
    # regexes explode. The scan must finish and still find the real secret at the end.
    chunk = 'var token=a.key,secret:"",password=b,api_key=c("x"),auth:{},eyJ.eyJ.' * 10
    line = (chunk * (1_000_000 // len(chunk) + 1))[:1_000_000]
    text = line + expand(';var apiKey="<<alnum:32>>";', 8)
    findings = scan(text, "bundle.min.js")
    assert [f.rule for f in findings] == ["generic-secret"]
    assert findings[0].line == 1 and findings[0].start > 1_000_000


def test_long_line_windows_find_tokens_anywhere_and_never_cut_one_short() -> None:
    # Lines over LONG_LINE are searched in windows around keyword hits; a long token straddling
    # a window's edge must be reported whole, once.
    jwt = expand("<<jwt>>", "long-line")
    long_token = "eyJhbGciOiJIUzI1NiJ9.eyJ" + "a" * 3000 + ".c2lnbmF0dXJlc2lnbmF0dXJl"  # ctxaction: allow
    text = "x=1;" * 2000 + f'const a="{jwt}";' + "y=2;" * 2000 + f'const b="{long_token}";'
    findings = scan(text, "bundle.min.js")
    spans = [text[f.start : f.end] for f in findings]
    assert jwt in spans
    assert all(span in (jwt, long_token) for span in spans) and len(spans) == len(set(spans))


def test_offsets_hold_when_lowercasing_changes_length() -> None:
    # "İ".lower() is two characters: keyword positions must still map onto the original text.
    secret = expand("<<gh:ghp>>", "unicode")
    text = "İİİ note\nTOKEN = " + f'"{secret}"\n'
    findings = scan(text, "app.py")
    assert [text[f.start : f.end] for f in findings] == [secret]
    redacted, _ = redact(text, "app.py")
    assert redacted == 'İİİ note\nTOKEN = "[REDACTED:github-pat]"\n'


def test_capitalised_keywords_only_wake_rules_where_written_so() -> None:
    key = expand("SK<<hex:32>>", "twilio")
    assert [f.rule for f in scan(f"TWILIO_API_KEY={key}\n", ".env")] == ["twilio-api-key"]
    assert all(f.rule != "twilio-api-key" for f in scan(f"TWILIO_API_KEY={key.lower()}\n", ".env"))


def test_lone_surrogates_do_not_break_the_scan() -> None:
    # JSON payloads may carry "\\ud800"; json.loads turns that into a lone surrogate.
    secret = expand("<<gh:ghp>>", "surrogate")
    text = f'note \ud800 then TOKEN = "{secret}"\n'
    assert [text[f.start : f.end] for f in scan(text, "app.py")] == [secret]
    assert secret not in redact(text, "app.py")[0]


def test_clip_redacts_before_it_cuts() -> None:
    from ctxaction.secure import clip, redact_text

    token = expand("sk_live_<<alnum:60>>", "clip")
    shown = clip(f"not a profile: {token}", 40)
    assert token[:12] not in shown and "[REDACTED:stripe-secret-key]" in redact_text(token)
    assert clip("short", 40) == "short" and clip("x" * 50, 40) == "x" * 40 + "…"


def test_preview_masks_a_secret_no_rule_named_beside_a_finding() -> None:
    # Without the pair rule the 40-character half would still be masked in the preview.
    from ctxaction.secure.finding import preview_line

    key_id, secret = expand("AKIA<<b32:16>>", "pv"), expand("<<b64:40>>", "pv")
    line = f"Use {key_id} / {secret} for uploads"
    preview = preview_line(line, [(4, 24)])
    assert key_id not in preview and secret[:12] not in preview and "for uploads" in preview


def test_preview_shows_no_character_of_a_secret_past_its_rules_prefix() -> None:
    # A preview once kept up to four leading characters of every secret: a password's, an AWS
    # secret key's, a base64 _auth's. Only a vendor's literal prefix, the same in every token of
    # the kind, may be shown.
    password, secret_key = expand("<<pw:18>>", "preview-pw"), expand("<<b64:40>>", "preview-aws")
    key_id, token = expand("AKIA<<b32:16>>", "preview-id"), expand("<<gh:ghp>>", "preview-gh")
    text = f'DB_PASSWORD = "{password}"\nGITHUB_TOKEN = "{token}"\nUse {key_id} / {secret_key} now\n'
    previews = {f.rule: f.preview for f in scan(text, "settings.py")}
    expected = {
        "generic-password": 'DB_PASSWORD = "****"',
        "github-pat": 'GITHUB_TOKEN = "ghp_****"',
        "aws-secret-access-key-pair": "Use AKIA**** / **** now",
    }
    # Rule ids only: a failing comparison of previews would print what they leak.
    assert sorted(rule for rule, shown in expected.items() if previews.get(rule) != shown) == []


def test_utf16_and_utf32_text_is_decoded_binary_is_not() -> None:
    from ctxaction.secure.decoding import decode_text

    text = 'token = "ghp_x"\nsecond line\n'
    for codec in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"):
        assert decode_text(text.encode(codec)) == text, codec
    assert decode_text(bytes(range(256)) * 8) is None
    assert decode_text(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" * 40) is None


def test_a_short_rest_of_an_overlapping_secret_is_redacted_with_the_hit_it_touches() -> None:
    # The password is the whole quoted value; the token rule matched its head only, and the rest
    # (three characters, too short to be a hit of its own) was left in clear after the marker.
    token, tail = expand("<<gh:ghp>>", "rest"), "!" + expand("<<alnum:2>>", "rest")
    for text in (f'password = "{token}{tail}"\n', f'password = "{tail}{token}"\n'):
        redacted, findings = redact(text, "app.py")
        whole = redacted == 'password = "[REDACTED:github-pat]"\n'
        assert whole, "part of the password was left in clear"  # a failure prints no operand
        assert [f.rule for f in findings] == ["github-pat"]


def test_overlapping_hit_keeps_what_reaches_past_the_kept_one() -> None:
    first = expand("<<pem:RSA PRIVATE KEY>>", "overlap-1")
    second = expand("<<pem:EC PRIVATE KEY>>", "overlap-2")
    redacted, _ = redact(f"{first}\n{second}\n", "keys.txt")
    body = [line for line in (first + second).split("\n") if "-----" not in line]
    assert not any(line in redacted for line in body)
