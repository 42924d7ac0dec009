# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Generic ``password/secret/token/api_key = "…"`` assignments in code and config.

These are the rules that cry wolf in other tools, so a match must pass several checks: the key
name must really name a credential (not ``token_url``, ``password_field``, ``public_key``), the
value must be a literal (not a variable, call, env lookup or template), must not be a placeholder,
and must look random enough for what the key says it is.
"""

from __future__ import annotations

from ctxaction.secure.checksums import b64_text, failed_checksum
from ctxaction.secure.entropy import char_classes, is_hex, shannon, wordy
from ctxaction.secure.lazyre import LazyPattern
from ctxaction.secure.placeholders import is_placeholder
from ctxaction.secure.rule import Context, Rule
from ctxaction.secure.rules.keynames import NONE, STRONG, WEAK, key_grade, parts_of

# Matching starts at the credential word; the full name (``DB_PASSWORD``, ``stripe.api_key``)
# is recovered by the detector and graded by :func:`keynames.key_grade`.
_SECRET_WORDS = r"secret|token|credentials?|creds|key|auth|private|access|signing"
_PASSWORD_WORDS = r"password|passwd|passphrase|passcode|pwd|pass"
# Words joined by separators, no digits: identifiers and paths rather than random secrets.
_WORD_PATH = LazyPattern(r"[A-Za-z]{1,40}(?:[._:/\-]{1,2}[A-Za-z]{1,40}){1,8}")
_HEADER_NAMES = frozenset(
    ("authorization", "apikey", "api-key", "token", "auth", "auth-token", "secret", "password", "private-token")
)
# A header value inside a quoted string (``-H "X-Api-Key: v"``): token characters only.
_HEADER_VALUE = LazyPattern(r"[\w+/=.~\-]{10,300}")
# ``act --secret NAME="$VALUE"``: the option names a variable, its value comes after ``=``.
_NAME_EQUALS = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*=")
_CALL = LazyPattern(r"[A-Za-z_$][\w$.]*\(")
_CODE_EXT = frozenset({
    "py", "pyi", "js", "jsx", "ts", "tsx", "mjs", "cjs", "go", "java", "kt", "kts", "scala", "rb", "php",
    "cs", "c", "h", "cc", "cpp", "hpp", "cxx", "hxx", "hh", "cu", "cuh", "ino", "rs", "swift", "m", "mm",
    "dart", "lua", "groovy", "ex", "exs",
    "vue", "svelte", "r", "jl", "clj", "fs", "vb", "pl", "pm",
})
_IDENTIFIER = LazyPattern(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\[[^\]]{0,80}\])?(?:\(.{0,80}\))?")
_DOTTED = LazyPattern(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(.{0,80}\))?|[A-Za-z_$][\w$]*\(.{0,80}\)")
_FILENAME = LazyPattern(
    r"(?i)^[\w.\-/]{0,200}\.(?:json|ya?ml|txt|pem|key|crt|cer|p12|pfx|jks|env|ini|cfg|conf|toml|xml|"
    r"pub|der|gpg|asc|js|py|sh|csv|log)$"
)
_PATHLIKE = LazyPattern(r"^(?:/|\./|\.\./|~/|[A-Za-z]:\\|https?://|file://)")
# ``kueue.x-k8s.io/priority-boost``, ``slack:C123:1700.42``, ``#how-to-configure``: a domain's
# path, a namespaced id, a page anchor.
_NAME_SHAPED = LazyPattern(
    r"[\w\-]+(?:\.[\w\-]+)+/[\w./\-]*|[a-z]{3,20}:[\w.\-]+:[\w.:\-]+|#[a-z0-9]+(?:-[a-z0-9]+)+"
)
_SNAKE_WORDS = LazyPattern(r"[a-z]{1,30}(?:_[a-z]{1,30}){1,6}")
_NUMBER = LazyPattern(r"^[+\-]?\d{1,11}(?:\.\d+)?$")
_VERSION = LazyPattern(r"^v?\d+(?:\.\d+){1,3}(?:[\-+][\w.]+)?$")


def _ext(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


def _is_literal(secret: str, ctx: Context) -> bool:
    """A quoted value is a literal anywhere; an unquoted one only in config files (.env, yaml …)
    or at the end of a string that opened before its name (``-H "X-Api-Key: v"``)."""
    if ctx.after.startswith("<<"):
        return False  # an example template (``KEY=prefix<<b64:40>>``): the value is made at run time
    if ctx.quote:
        if ctx.quote == "`" and "${" in secret:
            return False  # a JS template literal interpolates: ``token = `t.${id}` ``
        if ctx.after[1:].lstrip().startswith("+"):
            return False  # ``"eyJ…" + "a" * 3000``: the start of a string built in code
        return ctx.after.startswith(ctx.quote)  # else the value ran into a space: prose
    first = ctx.after.strip()[:1]
    in_string = False
    if first in ("'", '"', "`"):
        before = ctx.line[: max(0, len(ctx.line) - len(ctx.after) - len(secret))]
        # Only a header (``name: value``) ends a string that way; ``"…?token=v&x=y"`` is a URL.
        in_string = (
            first in before
            and before.rstrip().endswith(":")
            and _header_name(ctx.key)
            and bool(_HEADER_VALUE.fullmatch(secret))
            and any(ch.isdigit() for ch in secret)
        )
        if not in_string:
            return False
    elif first not in ("", "#", ";", ",", "<", ">", "/"):
        return False  # prose after the value: ``password: Please enter your password``
    if _DOTTED.fullmatch(secret) or _CALL.match(secret):
        return False  # ``config.password``, ``settings.API_KEY``: an expression in any file type
    if any(ch in secret for ch in "()[]{}"):
        return False  # ``data={'password': password}``, ``tokens: dict[str, int] = {}``
    if in_string or _ext(ctx.path) not in _CODE_EXT:
        return True
    # In code an unquoted value is an expression: a name, or an operator first (``!!process.env.X``).
    return secret[0].isalnum() and not _IDENTIFIER.fullmatch(secret)


def _header_name(key: str) -> bool:
    """``X-Api-Key``, ``x-auth-token``, ``Private-Token``, ``Authorization``: an HTTP header's name,
    not ``generic-secret`` in ``"generic-secret:0740…"`` (a rule id and a hash)."""
    lower = key.lower()
    return lower in _HEADER_NAMES or lower.startswith("x-") or ("-" in key and key[:1].isupper())


_SETTERS = ("set", "with", "put", "add", "use")
_CALL_LAST = frozenset(
    ("password", "passwd", "passphrase", "pwd", "secret", "token", "key", "apikey", "credential", "credentials")
)
# Client keys that are public by design (PostHog project keys, Stripe publishable keys …).
_PUBLIC_PREFIXES = ("phc_", "pk_live_", "pk_test_", "sb_publishable_")


def _separator(secret: str, ctx: Context) -> str:
    """What stands between the name and the value (``" = '"``, ``"('"``, ``"', '"``)."""
    end = len(ctx.line) - len(ctx.after) - len(secret)
    name = ctx.key.rsplit(".", 1)[-1] or ctx.key
    start = ctx.line.rfind(name, 0, max(0, end))
    return ctx.line[start + len(name) : end] if start >= 0 and name else ""


def _call_ok(secret: str, ctx: Context) -> bool:
    """A value passed in a call counts for a setter (``setPassword("…")``, ``.withApiKey("…")``),
    not for ``hash_password("…")`` or ``token("…")``; a value after a comma (``("API_KEY", "…")``)
    only when the name says secret, token, key or password outright, not ``'05-auth', '06-…'``."""
    sep = _separator(secret, ctx)
    parts = parts_of(ctx.key)
    start = ctx.line.find(ctx.key)
    if start > 0 and ctx.line[start - 1] == "/":
        return False  # ``http://tokenauth:5001/token``: a host and port, not an assignment
    if start > 4 and ctx.line[:start].endswith(".svg?"):
        return False  # a badge image's read-only graphing token (codecov)
    if "(" in sep and not any(op in sep.split("(", 1)[0] for op in ("=", ":")):
        return any(part in _SETTERS for part in parts[:-1]) and parts[-1] in _CALL_LAST
    if "," in sep:
        return any(word in "".join(parts) for word in ("secret", "token", "key", "pass", "pwd", "credential"))
    return True


def looks_like_value(secret: str) -> bool:
    """Shapes that are never credentials: numbers, versions, paths, URLs, file names, identifiers."""
    if _NUMBER.match(secret) or _VERSION.match(secret) or _PATHLIKE.match(secret) or _FILENAME.match(secret):
        return False
    if is_placeholder(secret) or secret[0] == ":" or secret.startswith(_PUBLIC_PREFIXES):
        return False
    if secret.startswith("--") and secret[2:3].isalpha():
        return False  # a command-line option (``"--update-baseline"``)
    if _NAME_SHAPED.fullmatch(secret) or secret.endswith("\\") or "\\0" in secret or "\\x1b" in secret.lower():
        return False  # a name; a string running on past an escaped quote; terminal escapes
    decoded = b64_text(secret) if len(secret) >= 8 else None
    if decoded is not None and is_placeholder(decoded):
        return False  # base64 of a stand-in (a Secret manifest's ``Y2hhbmdlbWU=``, "changeme")
    return not failed_checksum(secret)


def _key_ok(key: str) -> bool:
    """True when ``key`` (a variable or config name) surely names a credential."""
    return key_grade(key) == STRONG


def _secret_check(secret: str, ctx: Context) -> bool:
    grade = key_grade(ctx.key)
    if grade == NONE or not _call_ok(secret, ctx) or not _is_literal(secret, ctx) or not looks_like_value(secret):
        return False
    return random_enough(secret, strict=grade == WEAK)


def random_enough(secret: str, *, strict: bool = False) -> bool:
    """Token-grade randomness, calibrated by length: a short value needs more character classes
    for the same entropy. ``strict`` (a name that only may hold a credential) asks for a longer
    value mixing letters and digits."""
    n = len(secret)
    if n < (16 if strict else 10):
        return False
    if secret.isalpha() and (secret.islower() or secret.isupper()):
        return False  # one word: ``token: bearer``, ``auth: BASIC``
    if _WORD_PATH.fullmatch(secret) or wordy(secret):
        return False  # ``auth.accessToken``, ``sb_temp_nonce123``, ``AnthropicCredential``: a name
    entropy = shannon(secret)
    if is_hex(secret):
        if strict:  # a vendor's hex key, not a SHA-1 / SHA-256 digest kept under a ``*_key`` name
            return n >= 32 and n not in (40, 64) and entropy >= 3.0
        return n >= 16 and entropy >= 3.0
    classes = char_classes(secret)
    alnum_classes = any(ch.islower() for ch in secret) + any(ch.isupper() for ch in secret) + any(
        ch.isdigit() for ch in secret
    )
    if strict:
        has_digit = any(ch.isdigit() for ch in secret)
        return has_digit and classes >= 2 and entropy >= (3.5 if n < 24 else 3.8)
    if classes < 2:
        return False
    if n < 16:  # short: lower, upper and digit all present buy a little entropy
        return entropy >= 3.2 or (entropy >= 2.9 and alnum_classes == 3)
    return entropy >= 3.2


def _password_check(secret: str, ctx: Context) -> bool:
    if _SNAKE_WORDS.fullmatch(secret):
        return False  # ``ldap_bindpw``: an identifier, a name in a list of names
    if not (_key_ok(ctx.key) and _call_ok(secret, ctx) and _is_literal(secret, ctx) and looks_like_value(secret)):
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


# Quoted, a value runs to its closing quote (a password may hold ``,;<>{}``); unquoted, it stops
# at the characters that end a value in code and config.
_VALUE = r"(?P<secret>(?(q)[^\s'\"`]{6,300}|[^\s'\"`,;<>]{6,300}))"


def _assign(words: str) -> str:
    return (
        rf"(?i)(?P<key>(?:{words})[\w.\-]{{0,30}}?)['\"]?\]?(?:\[\])?[ \t]{{0,4}}"
        # ``setPassword("…")`` (the ``label`` group marks a call), ``password == "…"`` (a
        # hard-coded comparison), a comma after a quoted key (``setdefault("KEY", "v")``,
        # ``os.environ.get("KEY", default="v")``) and a fallback after a lookup
        # (``process.env.KEY || "v"``, ``?? "v"``, PHP's ``?: "v"``, ``os.getenv("KEY") or "v"``)
        # count only before a quoted value (an unquoted argument is a variable); then the
        # assignment forms of code and config. (One lookahead for the first group: the pattern is
        # compiled on every hook run, and its size is what that costs.)
        r"(?:(?:(?P<label>\()|===?|,(?<=['\"],)(?:[ \t]{0,4}default[ \t]{0,2}=)?|"
        r"\)?[ \t]{0,4}(?:\|\||\?[?:]|(?<=[ \t])or))(?=[ \t]{0,4}['\"`])|=|:=|::=|=>|:|\?=|\|\|=)"
        # A value in parentheses (``DB_PASSWORD = ("…")``, a one-element tuple ``("…",)``).
        r"[ \t]{0,4}(?:\((?=[ \t]{0,4}['\"`])[ \t]{0,4})?(?:[@!]?(?P<q>['\"`]))?" + _VALUE
    )


RULES: list[Rule] = [
    Rule(
        "generic-secret", "Secret, token or API key assigned in code or config", _assign(_SECRET_WORDS),
        ("key", "secret", "token", "credential", "creds", "auth", "private", "access", "signing"), generic=True,
        anchored=True, check=_secret_check,
        tp=('API_KEY="<<alnum:32>>"', "client_secret: <<b64url:40>>", "SECRET_KEY=<<pw:50>>",
            '"apiKey": "<<hex:32>>",', "app.secret_key = '<<b64:44>>'", "auth_token=<<alnum:24>>",
            '[client.js] const apiToken = "<<alnum:14>>" +\n  "<<alnum:14>>";',
            # A value in parentheses, and a fallback after an environment lookup.
            '[settings.py] API_KEY = ("<<alnum:32>>",)', '[app.py] key = os.getenv("STRIPE_API_KEY") or "<<alnum:32>>"'),
        fp=('API_KEY="<your-api-key>"', "secret_key = os.environ['SECRET_KEY']", 'token_url = "https://x.io/oauth"',
            "public_key: <<b64:40>>", "[settings.py] api_key = settings.API_KEY", "SECRET_KEY=${SECRET_KEY}",
            'token_type = "Bearer"', "secret: changeme", 'key_file = "certs/server.key"', "max_tokens = 4096",
            'commit_sha = "<<hex:40>>"', "auth: true", "[app.py] token = get_token(user)",
            # Continued strings that are text, not a value: long SQL, a message.
            '[db.py] QUERY = ("SELECT token, secret_hash FROM sessions "\n         "WHERE user_id = %s")',
            '[errors.js] const msg = "The API token you passed is " +\n  "not valid for this workspace";',
            "[app.py] token = (yield)", '[app.py] token_type = ("Bearer")', "[app.ts] const t = process.env.API_TOKEN ?? ''"),
    ),
    Rule(
        "generic-password", "Password assigned in code or config", _assign(_PASSWORD_WORDS),
        ("pass", "pwd"), generic=True, anchored=True, check=_password_check,
        tp=('DB_PASSWORD="<<pw:14>>"', "password: <<pw:16>>", "spring.datasource.password=<<alnum:12>>",
            '"password": "<<pw:12>>"', "MYSQL_ROOT_PASSWORD=<<pw:20>>",
            "[values.yaml] db:\n  password: >-\n    <<alnum:9>>\n    <<alnum:9>>",
            '[settings.py] DB_PASSWORD = ("<<pw:14>>")', '[settings.py] pw = os.environ.get("DB_PASSWORD", default="<<pw:14>>")',
            "[db.js] const pw = process.env.DB_PASSWORD || '<<pw:14>>';"),
        fp=('password = "password"', "password: ${DB_PASSWORD}", "[cli.py] password = getpass.getpass()",
            'password_field = "password"', "PASSWORD_MIN_LENGTH=12", "password: Please enter your password",
            "[run.py] pwd = os.getcwd()", 'password = "<password>"', "passthrough = True", "db_password = config.password",
            '[app.py] password = (check_password(user, "<<alnum:12>>"))', '[app.js] const label = opts.password || "Password"',
            '[settings.py] pw = os.environ.get("DB_PASSWORD", default="changeme")'),
    ),
    Rule(
        "auth-pair-password", "Password in a (user, password) pair passed as HTTP auth",
        r"(?i)auth[ \t]{0,2}(?:[=:][ \t]{0,2})?\([ \t]{0,2}(?P<uq>['\"])[^'\"\n]{1,100}(?P=uq)[ \t]{0,2},[ \t]{0,2}"
        r"(?P<q>['\"])(?P<secret>[^'\"\s]{6,200})(?P=q)[ \t]{0,2}\)",
        ("auth",), generic=True, anchored=True,
        check=lambda s, ctx: looks_like_value(s) and strong_enough(s),
        tp=("r = requests.get(url, auth=('deploy', '<<pw:14>>'))", 'session.auth = ("svc", "<<alnum:16>>")',
            "client = HTTPBasicAuth('admin', '<<pw:16>>')"),
        fp=("r = requests.get(url, auth=(user, password))", "auth=('user', 'password')", "auth = ('admin', '${ADMIN_PW}')"),
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
