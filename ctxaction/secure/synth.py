"""Expand example templates into synthetic, format-valid credentials at run time.

Rule examples and the test corpus are written as templates such as
``token = "ghp_<<gh>>"`` or ``AKIA<<upnum:16>>`` so that this repository never holds a
credential-shaped literal (push protection and our own hook would rightly object). Expansion is
deterministic for a given seed.

Forms: ``<<CLASS:N>>`` (N random chars of CLASS), ``<<gh:PREFIX>>`` / ``<<ghbad:PREFIX>>``
(GitHub token with a valid / broken checksum), ``<<npm>>``, ``<<card:PREFIX:LEN>>`` (Luhn-valid),
``<<cardbad:PREFIX:LEN>>``, ``<<jwt>>``, ``<<uuid>>``, ``<<pem:LABEL>>`` (a key block),
``<<b64text:CLASS:N>>`` / ``<<b64text:word:TEXT>>`` / ``<<b64text:basic:USER>>`` (base64 of random
text, of TEXT, of ``USER:password``).
"""

from __future__ import annotations

import base64
import json
import random
import re
import zlib

from ctxaction.secure.checksums import base62, luhn_ok

CLASSES: dict[str, str] = {
    "hex": "0123456789abcdef",
    "HEX": "0123456789ABCDEF",
    "digits": "0123456789",
    "lower": "abcdefghijklmnopqrstuvwxyz",
    "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "alnum": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
    "upnum": "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    "lownum": "abcdefghijklmnopqrstuvwxyz0123456789",
    "b32": "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
    "bech32": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
    "b64": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "b64url": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
    "pw": "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%^*-_+=",
    # Passwords with the brackets and sigils that template syntax also uses (``{``, ``$``, ``>``).
    "punct": "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789{}()[]<>$#!-_",
}

_TOKEN = re.compile(r"<<([A-Za-z0-9]+)(?::([^>]*))?>>")
# Random draws that read like placeholders are redrawn so an example never turns into a look-alike.
_AVOID = re.compile(r"(?i)xxxx|exampl|test|fake|dummy|sample|abcd|1234|0000|(.)\1\1\1")


def expand(template: str, seed: int | str = 0) -> str:
    """``template`` with every ``<<…>>`` form replaced by synthetic data (deterministic per seed)."""
    return expand_parts(template, seed)[0]


def expand_parts(template: str, seed: int | str = 0) -> tuple[str, list[str]]:
    """:func:`expand`, plus the generated values in order (tests check none of them leaks)."""
    rng = random.Random(str(seed))
    parts: list[str] = []

    def generate(match: re.Match[str]) -> str:
        parts.append(_generate(rng, match.group(1), match.group(2) or ""))
        return parts[-1]

    return _TOKEN.sub(generate, template), parts


def _chars(rng: random.Random, alphabet: str, n: int) -> str:
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if not _AVOID.search(value):
            return value


def _generate(rng: random.Random, kind: str, arg: str) -> str:
    if kind in CLASSES:
        return _chars(rng, CLASSES[kind], int(arg or 32))
    if kind in ("gh", "ghbad"):
        body = _chars(rng, CLASSES["alnum"], 30)
        check = base62(zlib.crc32(body.encode()), 6)
        if kind == "ghbad":
            check = check[::-1] if check[::-1] != check else "000000"
        return f"{arg or 'ghp'}_{body}{check}"
    if kind == "npm":
        body = _chars(rng, CLASSES["alnum"], 30)
        return f"npm_{body}{base62(zlib.crc32(body.encode()), 6)}"
    if kind in ("card", "cardbad"):
        prefix, _, length = arg.partition(":")
        return _card(rng, prefix or "4", int(length or 16), valid=kind == "card")
    if kind == "b64text":
        return base64.b64encode(_b64_plain(rng, arg).encode()).decode()
    if kind == "uuid":
        h = _chars(rng, CLASSES["hex"], 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"
    if kind == "jwt":
        return _jwt(rng)
    if kind == "pem":
        return _pem(rng, arg or "RSA PRIVATE KEY")
    raise ValueError(f"unknown example form <<{kind}>>")


def _b64_plain(rng: random.Random, arg: str) -> str:
    """The text a ``<<b64text:…>>`` form encodes: ``CLASS:N`` random characters, ``word:TEXT``
    literally, ``basic:USER`` as ``USER:`` + a random password."""
    form, _, rest = arg.partition(":")
    if form == "word":
        return rest
    if form == "basic":
        return f"{rest}:{_chars(rng, CLASSES['pw'], 16)}"
    return _chars(rng, CLASSES[form], int(rest or 32))


def _card(rng: random.Random, prefix: str, length: int, *, valid: bool) -> str:
    while True:
        digits = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix)))
        if luhn_ok(digits) == valid and not _AVOID.search(digits):
            return digits


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _jwt(rng: random.Random) -> str:
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = {
        "sub": str(rng.randrange(10**8)),
        "name": "svc-" + _chars(rng, CLASSES["lower"], 6),
        "iat": 1700000000 + rng.randrange(10**6),
    }
    payload = _b64url(json.dumps(claims).encode())
    return f"{header}.{payload}.{_chars(rng, CLASSES['b64url'], 43)}"


def _pem(rng: random.Random, label: str) -> str:
    body = _chars(rng, CLASSES["b64"], 64 * 6)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----"])


_PATH_PREFIX = re.compile(r"^\[([\w./\-]+)\] ")


def split_example(example: str) -> tuple[str, str]:
    """``(path, template)`` of a rule example; ``[app.py] text`` scans ``text`` as ``app.py``."""
    match = _PATH_PREFIX.match(example)
    return (match.group(1), example[match.end() :]) if match else ("", example)
