# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Generic ``password/secret/token/api_key = "…"`` assignments in code and config.

These are the rules that cry wolf in other tools, so a match must pass several checks: the key
name must really name a credential (not ``token_url``, ``password_field``, ``public_key``), the
value must be a literal (not a variable, call, env lookup or template), must not be a placeholder,
and must look random enough for what the key says it is.
"""

from __future__ import annotations

from ctxaction.secure.checksums import b64_text, failed_checksum
from ctxaction.secure.entropy import char_classes, is_hex, shannon
from ctxaction.secure.lazyre import LazyPattern
from ctxaction.secure.placeholders import is_placeholder, word_list
from ctxaction.secure.rule import Context, Rule

# Matching starts at the credential word; the full name (``DB_PASSWORD``, ``stripe.api_key``)
# is recovered by the detector and judged by ``_key_ok``.
_SECRET_WORDS = r"secret|token|credentials?|key"
_PASSWORD_WORDS = r"password|passwd|passphrase|passcode|pwd|pass"
# Key names are judged by their parts (``DB_PASSWORD`` → db, password), with set lookups rather
# than regexes: this check runs on most hook runs, where compiling a pattern costs more than using it.
# ``key`` alone names too many things (``sort_key``, ``primary_key``): it needs a credential prefix.
_CREDENTIAL_PREFIXES = frozenset(
    word_list(
        """api app access secret private auth master encryption encrypt signing sign account license licence
        client session cookie webhook subscription consumer service admin write deploy integration hmac jwt
        crypt storage bot server partner merchant developer dev prod live"""
    )
)
# Last parts of names that hold a credential word but name something else (``TOKEN_URL``).
_NOT_SECRET_LAST = frozenset(
    word_list(
        """id ids url uri urls path file filename dir name names type types len length size count ttl timeout
        expiry expire expires expiration field fields header prefix suffix pattern regex format endpoint env
        var label policy mode version algorithm algo method hash hashed digest md5 checksum fingerprint limit
        min max enabled required rotation provider store storage class kind template placeholder hint prompt
        message msg error validator validation strength reset change confirm confirmation forgot input column
        index position pos offset start end usage budget estimate counter public pub publishable example
        sample test mock dummy fake"""
    )
)
# ``key`` as in a lookup key (``TOKEN_STORAGE_KEY``, ``SECRET_CACHE_KEY``), not a credential.
_LOOKUP_WORDS = word_list("storage cache lookup header param query field column env var name map dict index")
_PASSWORD_PARTS = ("password", "passwd", "passphrase", "passcode", "pwd")
# Words joined by separators, no digits: identifiers and paths rather than random secrets.
_WORD_PATH = LazyPattern(r"[A-Za-z]{1,40}(?:[._:/\-][A-Za-z]{1,40}){1,8}")
# ``act --secret NAME="$VALUE"``: the option names a variable, its value comes after ``=``.
_NAME_EQUALS = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*=")
_CAMEL = LazyPattern(r"([a-z0-9])([A-Z])")
_CALL = LazyPattern(r"[A-Za-z_$][\w$.]*\(")
_CODE_EXT = frozenset({
    "py", "pyi", "js", "jsx", "ts", "tsx", "mjs", "cjs", "go", "java", "kt", "kts", "scala", "rb", "php",
    "cs", "c", "h", "cc", "cpp", "hpp", "rs", "swift", "m", "mm", "dart", "lua", "groovy", "ex", "exs",
    "vue", "svelte", "r", "jl", "clj", "fs", "vb", "pl", "pm",
})
_IDENTIFIER = LazyPattern(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\[[^\]]{0,80}\])?(?:\(.{0,80}\))?")
_DOTTED = LazyPattern(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(.{0,80}\))?|[A-Za-z_$][\w$]*\(.{0,80}\)")
_FILENAME = LazyPattern(
    r"(?i)^[\w.\-/]{0,200}\.(?:json|ya?ml|txt|pem|key|crt|cer|p12|pfx|jks|env|ini|cfg|conf|toml|xml|"
    r"pub|der|gpg|asc|js|py|sh|csv|log)$"
)
_PATHLIKE = LazyPattern(r"^(?:/|\./|\.\./|~/|[A-Za-z]:\\|https?://|file://)")
_NUMBER = LazyPattern(r"^[+\-]?\d{1,11}(?:\.\d+)?$")
_VERSION = LazyPattern(r"^v?\d+(?:\.\d+){1,3}(?:[\-+][\w.]+)?$")


def _ext(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


def _is_literal(secret: str, ctx: Context) -> bool:
    """A quoted value is a literal anywhere; an unquoted one only in config files (.env, yaml …)."""
    if ctx.quote:
        return ctx.after.startswith(ctx.quote)  # else the value ran into a space: prose
    if ctx.after.strip()[:1] not in ("", "#", ";", ",", "<", ">", "/"):
        return False  # prose after the value: ``password: Please enter your password``
    if _DOTTED.fullmatch(secret) or _CALL.match(secret):
        return False  # ``config.password``, ``settings.API_KEY``: an expression in any file type
    if any(ch in secret for ch in "()[]{}"):
        return False  # ``data={'password': password}``, ``tokens: dict[str, int] = {}``
    if _ext(ctx.path) not in _CODE_EXT:
        return True
    # In code an unquoted value is an expression: a name, or an operator first (``!!process.env.X``).
    return secret[0].isalnum() and not _IDENTIFIER.fullmatch(secret)


def looks_like_value(secret: str) -> bool:
    """Shapes that are never credentials: numbers, versions, paths, URLs, file names, identifiers."""
    if _NUMBER.match(secret) or _VERSION.match(secret) or _PATHLIKE.match(secret) or _FILENAME.match(secret):
        return False
    if is_placeholder(secret) or (secret.startswith("--") and secret[2:3].isalpha()):
        return False  # a stand-in, or a command-line option (``"--update-baseline"``)
    decoded = b64_text(secret) if len(secret) >= 8 else None
    if decoded is not None and is_placeholder(decoded):
        return False  # base64 of a stand-in (a Secret manifest's ``Y2hhbmdlbWU=``, "changeme")
    return not failed_checksum(secret)


def _key_ok(key: str) -> bool:
    """True when ``key`` (a variable or config name) names a credential."""
    spaced = _CAMEL.sub(r"\1_\2", key.strip("'\"` \t.-_")).lower()
    parts = [part for part in spaced.replace(".", "_").replace("-", "_").split("_") if part]
    if not parts:
        return False
    last = parts[-1]
    if last in _NOT_SECRET_LAST or (last.startswith("sha") and last[3:].isdigit()):
        return False
    if any("public" in part or "publishable" in part or part == "pub" for part in parts):
        return False
    snake = "_".join(parts)
    joined = snake.replace("_", "")
    for suffix in ("keys", "key"):
        if joined.endswith(suffix):
            if joined[: -len(suffix)].endswith(_LOOKUP_WORDS):
                return False
            break
    if "pass" in parts or any(word in snake for word in _PASSWORD_PARTS):
        return True
    if any(word in snake for word in ("secret", "token", "credential", "apikey", "secretkey", "accesskey")):
        return True
    if last in ("key", "keys"):
        return len(parts) > 1 and parts[-2] in _CREDENTIAL_PREFIXES
    return any(last in (prefix + "key", prefix + "keys") for prefix in _CREDENTIAL_PREFIXES)


def _secret_check(secret: str, ctx: Context) -> bool:
    if not (_key_ok(ctx.key) and _is_literal(secret, ctx) and looks_like_value(secret)):
        return False
    if len(secret) < 10 or (char_classes(secret) < 2 and not is_hex(secret)):
        return False
    if secret.isalpha() and (secret.islower() or secret.isupper()):
        return False  # one word: ``token: bearer``, ``auth: BASIC``
    if _WORD_PATH.fullmatch(secret):
        return False  # ``auth.accessToken``, ``session/refresh-token``: a name, not a credential
    if is_hex(secret):
        return len(secret) >= 16 and shannon(secret) >= 3.0
    return shannon(secret) >= 3.2


def _password_check(secret: str, ctx: Context) -> bool:
    if not (_key_ok(ctx.key) and _is_literal(secret, ctx) and looks_like_value(secret)):
        return False
    return strong_enough(secret)


def strong_enough(secret: str) -> bool:
    """Password-grade randomness: not a word, not a short simple string."""
    return len(secret) >= 6 and shannon(secret) >= 2.3 and (char_classes(secret) >= 2 or len(secret) >= 12)


def _base64_password_check(secret: str, ctx: Context) -> bool:
    """An element marked ``encoding="base64"`` (FileZilla's ``<Pass>``): the decoded value must be
    a real password, not a stand-in."""
    decoded = b64_text(secret)
    if decoded is None or not _key_ok(ctx.key):
        return False
    value = decoded.strip()
    return len(value) >= 4 and not is_placeholder(value)


_VALUE = r"(?P<secret>[^\s'\"`,;<>]{6,300})"


def _assign(words: str) -> str:
    return (
        rf"(?i)(?P<key>(?:{words})[\w.\-]{{0,30}}?)['\"]?[ \t]{{0,4}}"
        # A comma separates a quoted key from a quoted value (``setdefault("KEY", "v")``); an
        # unquoted argument after it is a variable.
        r"(?:=|:=|::=|=>|:|\?=|\|\|=|(?<=['\"]),(?=[ \t]{0,4}['\"`]))[ \t]{0,4}(?:[@!]?(?P<q>['\"`]))?" + _VALUE
    )


RULES: list[Rule] = [
    Rule(
        "generic-secret", "Secret, token or API key assigned in code or config", _assign(_SECRET_WORDS),
        ("key", "secret", "token", "credential"), generic=True, anchored=True, check=_secret_check,
        tp=('API_KEY="<<alnum:32>>"', "client_secret: <<b64url:40>>", "SECRET_KEY=<<pw:50>>",
            '"apiKey": "<<hex:32>>",', "app.secret_key = '<<b64:44>>'", "auth_token=<<alnum:24>>"),
        fp=('API_KEY="<your-api-key>"', "secret_key = os.environ['SECRET_KEY']", 'token_url = "https://x.io/oauth"',
            "public_key: <<b64:40>>", "[settings.py] api_key = settings.API_KEY", "SECRET_KEY=${SECRET_KEY}",
            'token_type = "Bearer"', "secret: changeme", 'key_file = "certs/server.key"', "max_tokens = 4096",
            'commit_sha = "<<hex:40>>"', "auth: true", "[app.py] token = get_token(user)"),
    ),
    Rule(
        "generic-password", "Password assigned in code or config", _assign(_PASSWORD_WORDS),
        ("pass", "pwd"), generic=True, anchored=True, check=_password_check,
        tp=('DB_PASSWORD="<<pw:14>>"', "password: <<pw:16>>", "spring.datasource.password=<<alnum:12>>",
            '"password": "<<pw:12>>"', "MYSQL_ROOT_PASSWORD=<<pw:20>>"),
        fp=('password = "password"', "password: ${DB_PASSWORD}", "[cli.py] password = getpass.getpass()",
            'password_field = "password"', "PASSWORD_MIN_LENGTH=12", "password: Please enter your password",
            "[run.py] pwd = os.getcwd()", 'password = "<password>"', "passthrough = True", "db_password = config.password"),
    ),
    Rule(
        "config-add-key-secret",
        "Secret in a .NET appSettings / NuGet-style <add key=\"…\" value=\"…\"/> entry",
        r"(?i)<add[ \t]{1,4}key=\"(?P<key>[^\"]{0,60}?(?:password|passwd|pwd|secret|token|api[_\-]?key|apikey|access[_\-]?key)"
        r"[^\"]{0,30})\"[ \t]{1,4}value=(?P<q>\")(?P<secret>[^\"\s]{6,300})\"",
        ("add key",),
        generic=True,
        check=lambda s, ctx: _key_ok(ctx.key) and looks_like_value(s) and _password_check(s, ctx),
        tp=('<add key="ApiKey" value="<<alnum:32>>" />', '<add key="Smtp.Password" value="<<pw:14>>"/>'),
        fp=('<add key="ApiKeyHeader" value="X-Api-Key" />', '<add key="Password" value="#{DbPassword}#" />'),
    ),
    Rule(
        "cli-password",
        "Password or token passed on a command line (sshpass -p, --password=, mysql -p…)",
        r"(?i)(?:sshpass[ \t]{1,4}-p[ \t]{0,4}|mysql(?:dump|admin)?[^\n]{0,100}?[ \t]-p|"
        r"--(?:password|passwd|token|api-key|apikey|secret|client-secret|auth-token)(?:=|[ \t]{1,4}))"
        r"(?P<q>['\"]?)(?P<secret>[^\s'\"$`{}<>()]{6,200})",
        ("sshpass", "mysql", "--pass", "--token", "--api", "--secret", "--client-secret", "--auth-token"),
        generic=True,
        anchored=True,
        check=lambda s, ctx: looks_like_value(s) and strong_enough(s) and not _NAME_EQUALS.fullmatch(s),
        tp=("sshpass -p '<<pw:12>>' ssh deploy@10.0.0.5", "mysql -u root -p<<alnum:14>> shop",
            "mysqladmin --password <<pw:14>> status"),
        fp=('parser.add_argument("--password", help="db password")', "mysql -u root -p shop",
            "deploy --token=$DEPLOY_TOKEN"),
    ),
    Rule(
        "xml-base64-password", "Password stored base64-encoded in an XML element (FileZilla <Pass encoding=\"base64\">)",
        r"(?i)<(?P<key>[\w:.\-]{0,40}?(?:pass|pwd|secret|token|api[_\-]?key|apikey)[\w:.\-]{0,30})[ \t][^<>]{0,120}?"
        r"encoding[ \t]{0,2}=[ \t]{0,2}[\"']base64[\"'][^<>]{0,120}?>[ \t]{0,4}(?P<secret>[A-Za-z0-9+/]{4,400}={0,2})[ \t]{0,4}</",
        ("encoding",), generic=True, check=_base64_password_check, min_len=4,
        tp=('<Server><Host>ftp.acme.io</Host><User>deploy</User><Pass encoding="base64"><<b64text:pw:14>></Pass></Server>',
            "  <Password encoding='base64'><<b64text:alnum:12>></Password>"),
        fp=('<Pass encoding="base64"><<b64text:word:changeme>></Pass>', '<Pass encoding="base64" />',
            '<Comment encoding="base64"><<b64text:alnum:20>></Comment>'),
    ),
    Rule(
        "xml-secret", "Secret or password as an XML element value",
        r"(?i)<(?P<key>[\w:.\-]{0,40}?(?:password|passwd|secret|token|api[_\-]?key|apikey|access[_\-]?key)"
        r"[\w:.\-]{0,30})>[ \t]{0,4}(?P<secret>[^<\s]{6,300})[ \t]{0,4}</",
        ("pass", "secret", "token", "key"), generic=True,
        check=lambda s, ctx: _key_ok(ctx.key) and looks_like_value(s) and _password_check(s, ctx),
        tp=("<password><<pw:16>></password>", "<add key='x'/><apiKey><<alnum:32>></apiKey>"),
        fp=("<password>${db.password}</password>", "<token>xxxxxxxx</token>", "<passwordLength>12</passwordLength>"),
    ),
]
