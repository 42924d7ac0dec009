"""Does a variable or config name say it holds a credential? (for the generic rules)

Names are judged by their parts (``DB_PASSWORD`` → db, password; ``accessKeyId`` → access, key,
id), with set lookups rather than regexes: this runs on most hook runs, where compiling a
pattern costs more than using it.

The answer has three grades. ``STRONG``: the name says so outright (``password``,
``client_secret``, ``api_key``, ``auth_token``, ``access_id``). ``WEAK``: a name ending in
``key`` after a word that is not a credential word (``STRIPE_KEY``, ``zonka_key``): a vendor's
key more often than not, but also a sort key or a cache key, so its value must look random
beyond doubt. ``NONE``: not a credential name (``token_url``, ``public_key``, ``sort_key``).
"""

from __future__ import annotations

from ctxaction.secure.lazyre import LazyPattern
from ctxaction.secure.placeholders import word_list

NONE, WEAK, STRONG = 0, 1, 2

# ``key`` alone names too many things (``sort_key``, ``primary_key``): with one of these first
# it is a credential outright.
CREDENTIAL_PREFIXES = frozenset(
    word_list(
        """api app access secret private auth master encryption encrypt signing sign account license licence
        client session cookie webhook subscription consumer service admin write deploy integration hmac jwt
        crypt storage bot server partner merchant developer dev prod live cipher aes decryption decrypt
        shared psk wifi wpa"""
    )
)
# Last parts of names that hold a credential word but name something else (``TOKEN_URL``).
_NOT_SECRET_LAST = frozenset(
    word_list(
        """id ids url uri urls path file filename dir name names type types len length size count ttl timeout
        expiry expire expires expiration field fields header headers prefix suffix pattern regex format
        endpoint env var label policy mode version algorithm algo method hash hashed digest md5 checksum
        fingerprint limit min max enabled required rotation provider store storage class kind template
        placeholder hint prompt message msg error validator validation strength reset change confirm
        confirmation forgot input column index position pos offset start end usage budget estimate counter
        public pub publishable example sample test mock dummy fake user username login email host server
        realm scope scopes audience issuer callback redirect domain level flow strategy backend plugin
        module handler middleware response request state status context config options settings manager
        service factory builder parser schema spec loader source target param params arg args flag flags
        attr attribute property prop text string label title description desc doc docs
        icon image color colour style width height font button link href route page view screen window"""
    )
)
# The id half of a key pair (``access_key_id``, ``SecretId``) is a credential; other ids are not.
_ID_PAIR_WORDS = ("access", "secret")
# ``key`` as in a lookup key (``TOKEN_STORAGE_KEY``, ``SECRET_CACHE_KEY``), not a credential.
_LOOKUP_WORDS = word_list(
    """storage cache lookup header param query field column env var name map dict index sort primary
    foreign partition shard row table object bucket hash i18n translation locale lang message label
    route react list group region site public publishable foo bar baz dedup dedupe idempotency unique
    composite compound cursor pagination page sequence order redis memcache kv config setting settings
    registry metadata meta event events state store context provider icon"""
)
_PASSWORD_PARTS = ("password", "passwd", "passphrase", "passcode", "pwd")
_SECRET_PARTS = ("secret", "token", "credential", "apikey", "secretkey", "accesskey", "privatekey", "authkey")
# Words that name a credential as the last part of a name (``DB_PASS``, ``client.auth``), but
# not inside one (``AUTH_SIGV4_S3EXPRESS``, ``WithPassTypeIDSort``, ``"@supabase/auth-js"``).
_LAST_PARTS = frozenset(("pass", "auth", "creds", "pw", "passwort", "contrasena", "senha", "mdp"))
_CAMEL = LazyPattern(r"([a-z0-9])([A-Z])")


def parts_of(key: str) -> list[str]:
    """``key`` split into lowercase words at separators and camel-case humps."""
    spaced = _CAMEL.sub(r"\1_\2", key.strip("'\"` \t.-_$@")).lower()
    return [part for part in spaced.replace(".", "_").replace("-", "_").replace(" ", "_").split("_") if part]


def key_grade(key: str) -> int:
    """How surely ``key`` names a credential: :data:`STRONG`, :data:`WEAK` or :data:`NONE`."""
    parts = parts_of(key)
    if not parts:
        return NONE
    last = parts[-1]
    snake = "_".join(parts)
    joined = snake.replace("_", "")
    if last == "id" and len(parts) > 1 and any(word in parts[:-1] for word in _ID_PAIR_WORDS):
        return STRONG  # access_id, access_key_id, SecretId: the public half of a pair, flagged by all
    if last in _NOT_SECRET_LAST or (last.startswith("sha") and last[3:].isdigit()):
        return NONE
    if any("public" in part or "publishable" in part or part == "pub" for part in parts):
        return NONE
    for suffix in ("keys", "key"):
        if joined.endswith(suffix):
            if joined[: -len(suffix)].endswith(_LOOKUP_WORDS):
                return NONE
            break
    if any(word in snake for word in _PASSWORD_PARTS) or last in _LAST_PARTS:
        return STRONG
    if parts == ["private"]:
        return STRONG  # ``PRIVATE=…``; ``Libs.private``, ``privateImageRef`` name other things
    if any(word in joined for word in _SECRET_PARTS):
        return STRONG
    if last in ("key", "keys"):
        if len(parts) > 1 and parts[-2] in CREDENTIAL_PREFIXES:
            return STRONG
        return WEAK if len(parts) > 1 else NONE
    if any(last in (prefix + "key", prefix + "keys") for prefix in CREDENTIAL_PREFIXES):
        return STRONG
    return NONE
