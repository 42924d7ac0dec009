# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Key material and signed tokens: PEM/OpenSSH/PGP private key blocks, PuTTY, age, JWTs."""

from __future__ import annotations

from ctxaction.secure.checksums import jwt_ok
from ctxaction.secure.rule import Rule, prefixed

# Inside a key block: base64, header fields, and newlines written raw or escaped in JSON ("\n"),
# the block written as quoted string lines in code (``"MIIE…\n" +``), or each line behind a quote
# or comment marker: a reply quoting a comment that held a key (``> MIIE…``), a key commented out
# in a script or config (``# MIIE…``, ``// MIIE…``, `` * MIIE…``, ``; MIIE…``, ``% MIIE…``, ``! MIIE…``).
_BODY = r"[A-Za-z0-9+/=\s:,.\-\\\"'`>#*;%!]{64,20000}?"
# How the base64 (DER) of a private key starts: RSA PKCS#1 and PKCS#8, EC (SEC1, PKCS#8), Ed25519,
# OpenSSH. Certificates and public keys start otherwise (``MIIDdzCCA…``, ``MIIBIjANBgkq…``).
_DER_START = (
    r"MII[A-Za-z0-9+/]{3}IBAAK|MII[A-Za-z0-9+/]{3}IBADANBgkqhkiG9w0BAQEFAASC|MHcCAQEEI|MIGkAgEBBD"
    r"|MI[GH][A-Za-z0-9+/]{1,2}AgEAMB[AM]GByqGSM49AgEG|MC4CAQAwBQYDK2VwBCIEI|b3BlbnNzaC1rZXktdjEA"
)
# Base64 characters, escaped newlines, and line breaks between quoted string pieces
# (``"…\n"`` / ``"…" +`` / ``'…',``): the key body however a program spells it.
_DER_BODY = (
    r"(?:[A-Za-z0-9+/=]|\\[nr]|[\"'`]?[ \t]{0,8}[+,]?[ \t]{0,8}\r?\n[ \t]{0,40}\+?[ \t]{0,8}[\"'`]?"
    r"(?=[A-Za-z0-9+/]))"
)

RULES: list[Rule] = [
    Rule(
        "private-key", "Private key block (PEM, OpenSSH, PKCS#8, EC, DSA, encrypted)",
        r"(?P<secret>-----BEGIN[ A-Z0-9_]{0,40}PRIVATE KEY(?: BLOCK)?-----" + _BODY
        + r"-----END[ A-Z0-9_]{0,40}PRIVATE KEY(?: BLOCK)?-----)",
        ("PRIVATE KEY",), min_len=100, multiline=True,
        tp=("<<pem:RSA PRIVATE KEY>>", "<<pem:OPENSSH PRIVATE KEY>>", "<<pem:PRIVATE KEY>>",
            "<<pem:EC PRIVATE KEY>>", "<<pem:PGP PRIVATE KEY BLOCK>>",
            '  "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ'
            '<<b64:64>>\\n<<b64:64>>\\n-----END PRIVATE KEY-----\\n",',
            "[issue.md] > -----BEGIN RSA PRIVATE KEY-----\n> <<b64:64>>\n> <<b64:64>>\n> -----END RSA PRIVATE KEY-----",
            "[deploy.sh] # -----BEGIN OPENSSH PRIVATE KEY-----\n# <<b64:64>>\n# <<b64:64>>\n# -----END OPENSSH PRIVATE KEY-----"),
        fp=("-----BEGIN PUBLIC KEY-----\n<<b64:64>>\n<<b64:64>>\n-----END PUBLIC KEY-----",
            "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
            'PEM_HEADER = "-----BEGIN RSA PRIVATE KEY-----"'),
    ),
    Rule(
        "private-key-der", "Private key body without its BEGIN line (base64 DER, raw or as quoted string lines)",
        rf"(?P<secret>(?:{_DER_START}){_DER_BODY}{{100,20000}})",
        ("MII", "MIG", "MHcCAQEEI", "MC4CAQAwBQYDK2VwBCIEI", "b3BlbnNzaC1rZXktdjEA"), anchored=True, min_len=120,
        entropy=4.0,
        tp=('KEY = (\n    "MIIEowIBAAKCAQEA<<b64:48>>\\n"\n    "<<b64:64>>\\n"\n    "<<b64:64>>\\n"\n)',
            "const key = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC<<b64:32>>' +\n  '<<b64:64>>' +\n  '<<b64:64>>';",
            "MHcCAQEEI<<b64:55>>\n<<b64:64>>\n<<b64:40>>"),
        fp=('CERT = (\n    "MIIDdzCCAl+gAwIBAgI<<b64:45>>\\n"\n    "<<b64:64>>\\n"\n    "<<b64:64>>\\n"\n)',
            "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA<<b64:64>><<b64:64>>",
            "MIIEowIBAAKCAQEA" + "A" * 120),
    ),
    prefixed(
        "private-key-base64", "Base64-encoded private key block (kubeconfig client-key-data …)",
        r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{0,40}(?:UFJJVkFURSBLRVk|QUklWQVRFIEtFW|SVZBVEUgS0VZ)[A-Za-z0-9+/=]{100,20000}",
        ("LS0tLS1CRUdJTi",), reach=20100,
        tp=("    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo<<b64:200>>",),
        fp=("    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk<<b64:200>>",),
    ),
    Rule(
        "putty-private-key", "PuTTY private key file",
        r"(?P<secret>PuTTY-User-Key-File-[23]: [\w\-]{3,30}\r?\n(?:[^\n]{0,200}\n){1,6}?Private-Lines: \d{1,3}"
        r"\r?\n[A-Za-z0-9+/=]{1,128}(?:\r?\n[A-Za-z0-9+/=]{1,128}){0,80})",
        ("PuTTY-User-Key-File",), min_len=64, multiline=True,
        tp=("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n"
            "<<b64:64>>\n<<b64:16>>\nPrivate-Lines: 1\n<<b64:64>>\n",),
        fp=("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n",),
    ),
    prefixed(
        "age-secret-key", "age encryption secret key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        ("AGE-SECRET-KEY-1",),
        tp=("# created: 2024-01-01\nAGE-SECRET-KEY-1<<bech32:58>>",), fp=("AGE-SECRET-KEY-1<<upper:10>>",),
    ),
    prefixed(
        "jwt", "JSON Web Token (signed)",
        r"eyJ[A-Za-z0-9_\-]{10,2000}\.eyJ[A-Za-z0-9_\-]{2,8000}\.[A-Za-z0-9_\-]{16,1000}",
        ("eyJ",), validate=jwt_ok, min_len=40, reach=12000,
        tp=("Authorization: Bearer <<jwt>>", 'const token = "<<jwt>>";'),
        fp=("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
            "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
            "eyJ<<b64url:20>>.eyJ<<b64url:20>>.<<b64url:20>>"),
    ),
]
