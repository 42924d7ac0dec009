# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Infrastructure config: Kubernetes Secret manifests, daemon config directives written as
``name value`` (ldap.conf ``bindpw``, redis.conf ``requirepass``, ``.netrc``), HTTP auth headers
and credentials on curl command lines."""

from __future__ import annotations

import re

from ctxaction.secure.checksums import b64_text
from ctxaction.secure.entropy import char_classes, shannon
from ctxaction.secure.placeholders import is_placeholder, is_reference, word_list
from ctxaction.secure.rule import Context, Rule
from ctxaction.secure.rules.generic import looks_like_value, strong_enough

# Keys of a Secret's data that hold no secret themselves.
_PUBLIC_KEY_NAMES = """username user login host hostname port database dbname db name namespace region endpoint
    url ca.crt tls.crt ca-bundle.crt cert.pem ca.pem"""
_PUBLIC_DATA_KEYS = frozenset(word_list(_PUBLIC_KEY_NAMES))
_PUBLIC_PEM = ("-----BEGIN CERTIFICATE", "-----BEGIN PUBLIC KEY", "ssh-rsa ", "ssh-ed25519 ")
_NETRC_NAMES = frozenset({".netrc", "_netrc", "netrc"})


def _k8s_data_check(secret: str, ctx: Context) -> bool:
    """A ``data:`` value of a Secret: base64 of text that is itself a credential."""
    if ctx.key.strip("'\"").lower() in _PUBLIC_DATA_KEYS:
        return False
    decoded = b64_text(secret)
    if decoded is None or decoded.startswith(_PUBLIC_PEM):
        return False
    if "PRIVATE KEY" in decoded:
        return True
    value = decoded.strip()
    return " " not in value and looks_like_value(value) and strong_enough(value)


def _directive_check(secret: str, ctx: Context) -> bool:
    if secret.startswith("{") or secret.startswith("$"):
        return False  # ``{SSHA}…`` and ``$6$…`` are password hashes; ``$VAR`` a reference
    return looks_like_value(secret) and strong_enough(secret)


def _netrc_check(secret: str, ctx: Context) -> bool:
    name = ctx.path.rsplit("/", 1)[-1].lower()
    line = ctx.line.lower()
    if name not in _NETRC_NAMES and not ("machine " in line and "login " in line):
        return False
    return looks_like_value(secret) and strong_enough(secret)


def _basic_auth_check(secret: str, ctx: Context) -> bool:
    """``Authorization: Basic base64(user:password)`` with a real password."""
    decoded = b64_text(secret)
    if decoded is None or ":" not in decoded:
        return False
    password = decoded.split(":", 1)[1]
    return len(password) >= 4 and not is_placeholder(password) and password.lower() not in {"pass", "password"}


def _bearer_check(secret: str, ctx: Context) -> bool:
    if is_placeholder(secret) or is_reference(secret) or char_classes(secret) < 2:
        return False
    return shannon(secret) >= 3.5


def _user_password_check(secret: str, ctx: Context) -> bool:
    return not is_reference(secret) and looks_like_value(secret) and strong_enough(secret)


def _prose_password_check(secret: str, ctx: Context) -> bool:
    """``the password is X``: only values no sentence would use as a word."""
    value = secret.rstrip(".,;:!?)")
    if len(value) < 8 or not looks_like_value(value) or not strong_enough(value):
        return False
    return char_classes(value) >= (2 if ctx.quote else 3)


# ``Authorization: <scheme> <value>`` as a header line, a dict entry or an assignment.
# ``Authorization: Basic …`` in code and HTTP, and in server configs where only blanks separate
# the header from its value (nginx ``proxy_set_header Authorization "Basic …"``, Apache
# ``RequestHeader set Authorization …``, HAProxy's escaped blank ``Basic\ …``).
_AUTH_HEADER = (
    r"(?i)authorization['\"]?\]?(?:[ \t]{{0,4}}[:=,][ \t]{{0,4}}|[ \t]{{1,4}})['\"]?{scheme}(?:[ \t]{{1,4}}|\\ )"
    r"(?P<secret>{value})"
)
_B64 = r"(?:[A-Za-z0-9+/]{4}){2,2000}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?"

RULES: list[Rule] = [
    Rule(
        "kubernetes-secret-data", "Base64 value under data: in a Kubernetes Secret manifest",
        rf"(?:^[ \t]{{1,12}}|[{{,][ \t]{{0,4}})['\"]?(?P<key>[\w.\-]{{1,253}})['\"]?[ \t]{{0,4}}:[ \t]{{1,4}}"
        rf"(?P<q>['\"]?)(?P<secret>{_B64})(?P=q)(?=[ \t]*(?:[,}}#\r\n]|$))",
        ("kind: secret", '"kind": "secret"', "kind: 'secret'", 'kind: "secret"'),
        flags=re.MULTILINE, multiline=True, check=_k8s_data_check,
        tp=("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  password: <<b64text:pw:18>>\n",
            'apiVersion: v1\nkind: Secret\ndata:\n  API_TOKEN: "<<b64text:alnum:32>>"\n  username: <<b64text:lower:8>>\n',
            '{"apiVersion": "v1", "kind": "Secret", "data": {"token": "<<b64text:alnum:40>>"}}'),
        fp=("kind: Secret\ndata:\n  password: <<b64text:word:changeme>>\n  username: <<b64text:lower:12>>\n",
            "kind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.crt: <<b64text:word:-----BEGIN CERTIFICATE-----MIIB>>\n",
            "kind: ConfigMap\ndata:\n  password: <<b64text:pw:18>>\n",
            "kind: Secret\nmetadata:\n  name: abcdEFGHijklMNOP\n"),
    ),
    Rule(
        "config-directive-password", "Password in a daemon config directive (ldap.conf bindpw, slapd rootpw, redis requirepass/masterauth, keepalived auth_pass)",
        r"(?im)^[ \t]*(?P<key>bindpw|rootpw|requirepass|masterauth|auth_pass|ldap_default_authtok|masterpassword)"
        r"(?:[ \t]{1,8}|[ \t]{0,8}=[ \t]{0,8})(?P<q>['\"]?)(?P<secret>[^\s'\"]{4,200})(?P=q)(?:(?<=['\"])[^\s\w'\"])?[ \t]*(?:[#;][^\n]*)?$",
        ("bindpw", "rootpw", "requirepass", "masterauth", "auth_pass", "ldap_default_authtok", "masterpassword"),
        generic=True, check=_directive_check,
        tp=("[ldap.conf] bindpw <<pw:14>>", "[redis.conf] requirepass <<alnum:24>>", "masterauth \"<<pw:16>>\"",
            "[sssd.conf] ldap_default_authtok = <<pw:14>>", "    auth_pass <<alnum:8>>"),
        fp=("rootpw {SSHA}<<b64:32>>", "requirepass foobared", "# requirepass <your password here>",
            "bindpw $LDAP_BIND_PASSWORD", "Set requirepass to protect the server."),
    ),
    Rule(
        "netrc-password", "Password in a .netrc entry (machine … login … password …)",
        r"(?i)(?:^|[ \t])password[ \t]{1,8}(?P<secret>[^\s'\"\\]{3,200})",
        ("password",), generic=True, check=_netrc_check,
        tp=("[.netrc] machine api.acme.io login deploy password <<pw:16>>",
            "[ci.sh] echo 'machine git.acme.io login ci password <<alnum:20>>' > ~/.netrc",
            "[.netrc] password <<alnum:18>>"),
        fp=("[.netrc] machine api.acme.io login deploy password ${NETRC_PASSWORD}",
            "[README.md] Enter your login and password below", "[app.py] # the password is never stored"),
    ),
    Rule(
        "prose-password", "Password written into prose (\"the password is …\", \"pwd: …\")",
        r"(?i)\b(?:password|passwd|passphrase)[ \t]{1,4}(?:is|was|for[ \t][\w.\-@]{1,60}[ \t]is)[ \t]{1,4}"
        r"(?P<q>[`'\"]?)(?P<secret>[^\s`'\"]{6,100})",
        ("password", "passwd", "passphrase"), generic=True, check=_prose_password_check,
        tp=("[notes.md] The staging database password is `<<pw:14>>` (user deploy).",
            "[handover.txt] root password for db-01 is <<pw:16>>"),
        fp=("[README.md] The password is required.", "[docs.md] If the password is incorrect, try again.",
            "[docs.md] the password is hashed with bcrypt", "[faq.md] The default password is `changeme`."),
    ),
    Rule(
        "http-basic-auth", "HTTP Basic credentials in an Authorization header",
        _AUTH_HEADER.format(scheme="basic", value=r"[A-Za-z0-9+/]{8,1000}={0,2}"),
        ("authorization",), check=_basic_auth_check,
        tp=('curl -H "Authorization: Basic <<b64text:basic:deploy>>" https://api.acme.io',
            'headers = {"Authorization": "Basic <<b64text:basic:svc>>"}',
            '[nginx.conf]     proxy_set_header Authorization "Basic <<b64text:basic:proxy>>";',
            "[haproxy.cfg]     http-request set-header Authorization Basic\\ <<b64text:basic:lb>>"),
        fp=('curl -H "Authorization: Basic <<b64text:word:user:pass>>" https://example.com',
            '[nginx.conf]     proxy_set_header Authorization "Basic $http_auth_b64";',
            'headers = {"Authorization": "Basic " + encoded}', "Authorization: Basic <credentials>"),
    ),
    Rule(
        "http-bearer-token", "Opaque bearer token in an Authorization header",
        _AUTH_HEADER.format(scheme="bearer", value=r"[A-Za-z0-9\-._~+/]{20,1000}=*"),
        ("authorization",), generic=True, check=_bearer_check,
        tp=('curl -H "Authorization: Bearer <<alnum:40>>" https://api.acme.io/v1/me',
            "Authorization: Bearer <<b64url:64>>"),
        fp=('curl -H "Authorization: Bearer $API_TOKEN" https://api.acme.io', "Authorization: Bearer <access-token>",
            'headers["Authorization"] = "Bearer " + token', "Authorization: Bearer YOUR_ACCESS_TOKEN_HERE"),
    ),
    Rule(
        "curl-user-password", "user:password on a curl command line (-u / --user)",
        r"(?i)\bcurl\b[^\n]{0,300}?[ \t](?:-u|--user)(?:[ \t]{1,4}|=)(?P<q>['\"]?)[^\s:'\"$]{1,100}:(?P<secret>[^\s'\"]{3,200})(?P=q)",
        ("curl",), generic=True, check=_user_password_check,
        tp=("curl -u admin:<<pw:16>> https://registry.acme.io/v2/_catalog",
            "curl -s --user 'deploy:<<alnum:20>>' -X POST https://ci.acme.io/job"),
        fp=("curl -u admin:$ADMIN_PASSWORD https://registry.acme.io", "curl -u user:password https://example.com",
            "curl -u \"$USER:$TOKEN\" https://api.acme.io"),
    ),
]
