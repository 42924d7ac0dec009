"""Checks shared by rules whose value shape alone is loose (a vendor's name plus any token).

A vendor-named rule such as ``rapidapi … [A-Za-z0-9_-]{15,80}`` would otherwise take
identifiers (``getGeminiMdFileCount: mockFn``) and data keys (``"etsy_products": "…"``) for
credentials: the name the value is assigned to must say it holds one, and the value must mix
letters and digits.
"""

from __future__ import annotations

from ctxaction.secure.entropy import char_classes
from ctxaction.secure.rule import Context

# Words of a name that holds a credential (``etsyApiKey``, ``ROLLBAR_ACCESS_TOKEN``, ``dsn``).
_CREDENTIAL_WORDS = (
    "key", "token", "secret", "auth", "pass", "pwd", "cred", "api", "sid", "licen", "dsn", "access",
)


def named_random(secret: str, ctx: Context) -> bool:
    """True when the name before ``secret`` names a credential and ``secret`` mixes classes."""
    end = len(ctx.line) - len(ctx.after) - len(secret)
    before = ctx.line[max(0, end - 60) : max(0, end)].lower()
    if not any(word in before for word in _CREDENTIAL_WORDS):
        return False
    has_digit = any(ch.isdigit() for ch in secret)
    return has_digit and char_classes(secret) >= 2 and not secret.isdigit()
