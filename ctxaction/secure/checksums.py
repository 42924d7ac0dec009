"""Checksums some credential formats carry: a match that fails its checksum is a look-alike."""

from __future__ import annotations

import zlib

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def base62(number: int, width: int) -> str:
    """``number`` in base62 (digits, upper, lower), left-padded with ``0`` to ``width``."""
    digits = []
    while number:
        number, rem = divmod(number, 62)
        digits.append(BASE62[rem])
    return "".join(reversed(digits)).rjust(width, "0")


def crc32_base62_ok(token: str, prefix_len: int, width: int = 6) -> bool:
    """True when the last ``width`` chars are base62(CRC32(token[:-width])).

    GitHub's ``ghp_``/``gho_``/``ghu_``/``ghs_``/``ghr_`` tokens and npm's ``npm_`` tokens use
    this scheme: the CRC32 covers the random part (GitHub) or prefix + random part (npm).
    ``prefix_len`` is the number of leading characters left out of the checksum.
    """
    body, check = token[prefix_len:-width], token[-width:]
    return base62(zlib.crc32(body.encode("ascii", "replace")), width) == check


def github_token_ok(token: str) -> bool:
    """Checksum of a GitHub classic-style token (``ghp_`` + 30 random + 6 checksum chars)."""
    if len(token) != 40 or token[3] != "_":
        return False
    return crc32_base62_ok(token, 4) or crc32_base62_ok(token, 0)


def luhn_ok(number: str) -> bool:
    """Luhn check of a card number (digits only; separators stripped by the caller)."""
    digits = [int(ch) for ch in number if ch.isdigit()]
    if len(digits) < 12:
        return False
    total = 0
    for i, digit in enumerate(reversed(digits)):
        if i % 2:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def jwt_ok(token: str) -> bool:
    """True when the first two dot-separated parts decode to JSON objects (header has ``alg``)."""
    from ctxaction.jsonfile import TooDeep, loads  # here, not at import: only a JWT-shaped match needs it

    parts = token.split(".")
    if len(parts) < 3:
        return False
    try:
        header = loads(_b64url(parts[0]))
        try:
            payload = loads(_b64url(parts[1]))
        except TooDeep:  # an object too deep to decode safely is still a token's payload
            payload = {}
    except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors too
        return False
    return isinstance(header, dict) and "alg" in header and isinstance(payload, dict)


def _b64url(part: str) -> bytes:
    import base64

    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def b64_text(value: str) -> str | None:
    """``value`` decoded from standard base64 when that gives printable UTF-8 text, else None."""
    import base64

    if len(value) % 4:
        return None
    try:
        text = base64.b64decode(value, validate=True).decode("utf-8")
    except ValueError:
        return None
    return text if text and all(ch.isprintable() or ch in "\r\n\t" for ch in text) else None


def failed_checksum(value: str) -> bool:
    """True when ``value`` has the shape of a checksummed token format but a wrong checksum."""
    if len(value) == 40 and value[:4] in ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"):
        return not github_token_ok(value)
    if len(value) == 40 and value.startswith("npm_"):
        return not npm_token_ok(value)
    return False


def npm_token_ok(token: str) -> bool:
    """Checksum of an npm granular/automation token (``npm_`` + 30 random + 6 checksum chars)."""
    return len(token) == 40 and (crc32_base62_ok(token, 4) or crc32_base62_ok(token, 0))
