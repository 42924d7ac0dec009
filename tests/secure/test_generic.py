"""The generic detector's parts: key-name grades, word-made values, stand-ins, randomness by length."""

from __future__ import annotations

import random
import string

import pytest

from ctxaction.secure import scan
from ctxaction.secure.entropy import wordy
from ctxaction.secure.placeholders import is_placeholder
from ctxaction.secure.rules.generic import random_enough
from ctxaction.secure.rules.keynames import NONE, STRONG, WEAK, key_grade
from ctxaction.secure.synth import expand


@pytest.mark.parametrize(
    ("key", "grade"),
    [
        ("DB_PASSWORD", STRONG),
        ("clientSecret", STRONG),
        ("X-Api-Key", STRONG),
        ("access_key_id", STRONG),
        ("SecretId", STRONG),
        ("client.auth", STRONG),
        ("PRIVATE", STRONG),
        ("signingKey", STRONG),
        ("MYSQL_PASS", STRONG),
        ("STRIPE_KEY", WEAK),
        ("zonka_key", WEAK),
        ("client_id", NONE),
        ("sort_key", NONE),
        ("TOKEN_URL", NONE),
        ("public_key", NONE),
        ("privateImageRef", NONE),
        ("Libs.private", NONE),
        ("AUTH_SIGV4_S3EXPRESS", NONE),
        ("auth-js", NONE),
        ("WithPassTypeIDCertificatesSort", NONE),
        ("password_hash", NONE),
        ("key", NONE),
    ],
)
def test_key_grade(key: str, grade: int) -> None:
    assert key_grade(key) == grade


@pytest.mark.parametrize(
    "value",
    ["AnthropicCredential", "sb_temp_nonce123_payload456", "development-secret-at-least-256-bits-long",
     "RUNSTATE_ACCESS_SENTINEL_42", "distributionSha256Sum", "OAuth2AdvancedOptions"],
)
def test_names_made_of_words_are_wordy(value: str) -> None:
    assert wordy(value)


@pytest.mark.parametrize(
    ("alphabet", "length", "most"),
    [
        (string.ascii_letters + string.digits, 16, 0.01),
        (string.ascii_lowercase + string.digits, 16, 0.0),
        (string.ascii_uppercase + string.digits, 20, 0.0),
        (string.ascii_letters + string.digits + "-_", 24, 0.005),
    ],
)
def test_random_tokens_are_rarely_wordy(alphabet: str, length: int, most: float) -> None:
    rng = random.Random(f"{alphabet}{length}")
    draws = ["".join(rng.choice(alphabet) for _ in range(length)) for _ in range(2000)]
    assert sum(map(wordy, draws)) / len(draws) <= most


@pytest.mark.parametrize(
    ("value", "stand_in"),
    [
        ("topS3cr3tP4$$w0rd", True),
        ("stub-password", True),
        ("secret-123", True),
        ("Cl1ent$ecret!", True),
        ("prefix-${VAR}", True),
        ("@LIBS_PRIVATE@", True),
        ("id_{user_id}", True),
        ("Tr0ub4dor&3", False),
        ("m{{h}o)p${e]nob(ody[finds>-_$#thisone}", False),
        ("correct-horse-battery-staple", False),
    ],
)
def test_stand_ins(value: str, stand_in: bool) -> None:
    assert is_placeholder(value) is stand_in


def test_randomness_is_calibrated_by_length() -> None:
    rng = random.Random(7)
    alnum = string.ascii_letters + string.digits
    twelve = ["".join(rng.choice(alnum) for _ in range(12)) for _ in range(500)]
    assert sum(map(random_enough, twelve)) / len(twelve) >= 0.9
    assert not random_enough("abcdefghij")  # one word
    assert not random_enough("7f3a9c")  # too short for a token
    weak_ok = ["".join(rng.choice(alnum) for _ in range(24)) for _ in range(200)]
    assert sum(random_enough(v, strict=True) for v in weak_ok) / len(weak_ok) >= 0.9
    assert not random_enough("a" * 8 + "1" * 8, strict=True)


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("app.py", "settings['PASSWORD'] = '<<pw:14>>'"),
        ("app.js", "client.auth = '<<alnum:40>>';"),
        ("Main.java", 'conn.setPassword("<<pw:14>>");'),
        ("app.c", 'char password[] = "<<pw:14>>";'),
        ("app.php", "$password = '<<pw:14>>';"),
        ("deploy.sh", 'curl -H "X-Api-Key: <<alnum:32>>" https://api.acme.io/v1'),
        ("app.py", "secret = '<<punct:36>>'"),
        ("app.py", "ZONKA_KEY = '<<alnum:36>>'"),
    ],
)
def test_generic_forms_are_found(path: str, template: str) -> None:
    text = expand(template, template)
    findings = scan(text, path)
    assert findings and findings[0].rule.startswith(("generic-", "auth-pair"))


# A value wrapped in parentheses, a one-element tuple, a trailing comma, the ``default=`` of an
# environment lookup and a fallback after one: still a literal assigned to a credential name.
WRAPPED = [
    ("settings.py", 'DB_PASSWORD = ("<<pw:14>>")', "generic-password"),
    ("settings.py", 'DB_PASSWORD = ( "<<pw:14>>" )', "generic-password"),
    ("settings.py", 'DB_PASSWORD = ("<<pw:14>>",)', "generic-password"),
    ("settings.py", 'DB_PASSWORD = "<<pw:14>>",', "generic-password"),
    ("settings.py", "API_KEY = ('<<alnum:32>>')", "generic-secret"),
    ("app.js", "const dbPassword = ('<<pw:14>>');", "generic-password"),
    ("settings.py", 'pw = os.environ.get("DB_PASSWORD", default="<<pw:14>>")', "generic-password"),
    ("settings.py", 'pw = os.getenv("DB_PASSWORD") or "<<pw:14>>"', "generic-password"),
    ("app.js", 'const pw = process.env.DB_PASSWORD || "<<pw:14>>";', "generic-password"),
    ("app.ts", "const key = process.env.API_KEY ?? '<<alnum:32>>';", "generic-secret"),
    ("app.php", "$pw = getenv('DB_PASSWORD') ?: '<<pw:14>>';", "generic-password"),
]


@pytest.mark.parametrize(("path", "template", "rule"), WRAPPED)
def test_wrapped_values_and_lookup_defaults_are_found(path: str, template: str, rule: str) -> None:
    text = expand(template, template)
    assert [f.rule for f in scan(text, path)] == [rule]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("app.py", "password = (check_password(user, pw))"),
        ("app.py", 'password = ("Enter your password")'),
        ("app.py", 'PASSWORD_CHARS = ("abcdefghijklmnopqrstuvwxyz")'),
        ("app.py", 'token_type = ("Bearer")'),
        ("app.py", "token = (yield)"),
        ("app.py", 'auth = ("basic")'),
        ("app.py", 'x = form.get("password") or "anonymous"'),
        ("app.py", 'msg = "missing password" or "Your token"'),
        ("app.py", 'pw = os.environ.get("DB_PASSWORD", default="changeme")'),
        ("app.js", 'const label = opts.password || "Password";'),
        ("app.js", 'const pw = process.env.DB_PASSWORD || "";'),
        ("app.js", "if (password || '') { login(); }"),
    ],
)
def test_wrapped_look_alikes_stay_quiet(path: str, text: str) -> None:
    assert scan(text, path) == []
