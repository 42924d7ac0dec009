"""Recognise values that only look like secrets: placeholders, examples, references, templates."""

from __future__ import annotations

import re

from ctxaction.secure.entropy import longest_run, sequential_share
from ctxaction.secure.lazyre import LazyPattern


def word_list(text: str) -> tuple[str, ...]:
    """A whitespace-separated word list (keeps long vocabularies readable)."""
    return tuple(text.split())


# Words that mark a value as a stand-in. Checked as substrings of the lowercased value.
PLACEHOLDER_WORDS: tuple[str, ...] = word_list(
    """example placeholder changeme change_me change-me changeit replace your_ your- yourkey
    yourtoken yoursecret yourpassword my_secret mysecret mypassword my-secret insert redacted dummy
    fake sample mock xxxx **** ... … todo fixme foobar notasecret not_a_secret not-a-secret nosecret
    secret_here token_here key_here password_here put_your enter_your abcdef qwerty 00000 12345 lorem
    ipsum test- test_ -test _test not-for-prod not_for_prod
    notforprod do-not-use do_not_use donotuse dev-only dev_only"""
)

# Template and placeholder syntax inside a value (``prefix-${VAR}``, ``{{ .Values.x }}``,
# ``<your key>``, ``%(name)s``, ``#{x}``). Shapes, not bare brackets: a random password may hold
# ``${``, ``{{`` or ``>`` among its punctuation.
_TEMPLATE = LazyPattern(
    r"""\$\{[A-Za-z_][\w.:\-]{0,80}(?:[:?]?[-=+?][^}]{0,80})?\}   # ${VAR} ${VAR:-x}
      | \$\([^)]{1,200}\)                                          # $(command)
      | \{\{.{0,200}?\}\} | \[\[.{0,200}?\]\] | <%.{0,200}?%>       # {{ x }} [[ x ]] <%= x %>
      | %\([\w.\-]{1,80}\)[sdr] | \#\{[^}]{1,80}\}                   # %(name)s #{x}
      | <[A-Za-z_][\w .:/\-]{0,80}> | <<.{0,80}?>>                   # <your-key> <<token>>
      | [<>]$ | ^[<>] | ^@[A-Za-z_][\w.\-]{0,80}@$                      # <partial, @AUTOCONF_VAR@
      | (?<!\{)\{[A-Za-z_]\w{0,40}\}                                  # {name}: a format field""",
    re.VERBOSE,
)

# Whole values (lowercased) that are never secrets by themselves: words, defaults of dev images.
PLACEHOLDER_VALUES: frozenset[str] = frozenset(
    word_list(
        """password passwd secret token apikey api_key api-key key none null nil true false undefined
    default test testing tests admin root user username pass string str value empty required optional
    hidden masked secretkey secret_key accesstoken access_token bearer token123 password1 password123
    pass123 letmein welcome guest guest123 s3cr3t supersecret super_secret topsecret top_secret hunter2
    foo bar baz qux secret123 secretpassword testpassword testpass test123 testtoken testsecret mytoken
    mykey abc123 pa55word p@ssw0rd p@ssword postgres postgresql mysql mariadb redis mongo mongodb
    rabbitmq sa oracle elastic kibana minio minioadmin administrator __token__"""
    )
)

# Values that refer to a secret held elsewhere rather than being one.
_REFERENCE = LazyPattern(
    r"""^(?:
        \$\{?[A-Za-z_][A-Za-z0-9_.:-]{0,80}\}?      # $VAR ${VAR} ${VAR:-x}
      | \$\w{0,40}\{.{0,200}\}                      # $__env{X}, $env{X}
      | %[A-Za-z_][A-Za-z0-9_]{0,80}%               # %VAR%
      | \$\(.{0,200}\)                              # $(command)
      | \{\{.{0,200}\}\}                            # {{ template }}
      | \{[A-Za-z_][\w.\[\]'"-]{0,80}(?:![rsa])?(?::[^{}]{0,20})?\}  # {name}: str.format / f-string field
      | <%.{0,200}%>                                # <%= erb %>
      | <[A-Za-z_][A-Za-z0-9 _.:-]{0,80}>           # <your-key>
      | (?:os\.environ|os\.getenv|process\.env|env|ENV|getenv|System\.getenv|secrets|vars)\b.{0,120}
      | [A-Za-z_][\w.]{0,100}\(.{0,200}\)           # a call: get_secret("x"), getpass.getpass()
      | (?:vault|ssm|arn|secretsmanager|keyvault|projects)[:/].{0,300}
      | ENC\[[A-Z0-9_]{1,30}.{0,5000}               # SOPS-encrypted value
    )$""",
    re.VERBOSE,
)

# Famous documentation values that circulate in READMEs and tests.
KNOWN_EXAMPLES: frozenset[str] = frozenset(
    {
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        # Azurite / storage emulator account key, published in Microsoft's docs.
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    }
)


# Leetspeak spellings of the words above (``P4$$w0rd``, ``s3cr3t``) are the same stand-ins.
_LEET = str.maketrans("4@$0315!7", "aasoeisit")


# Words stand-in values are made of (``topS3cr3tP4$$w0rd``, ``stub-password``, ``secret-123``).
_STAND_IN_WORDS: tuple[str, ...] = tuple(
    sorted(
        word_list(
            """secret secrets password passwd passphrase phrase pass word top super my your our new old
            stub demo dummy fake mock sample example test testing default change me it admin user client
            db database root key token api app local dev prod secure strong weak value string some foo bar
            baz qux hello world abc xyz private public access auth the this is not real here insert put
            valid invalid wrong right good bad correct incorrect other another random pw pwd guest owner
            reader writer"""
        ),
        key=len,
        reverse=True,
    )
)


def _stand_in(value: str) -> bool:
    """True when ``value``'s letters (as written, or read as leetspeak) are stand-in words only."""
    for letters in (
        "".join(ch for ch in value.lower() if ch.isalpha()),
        "".join(ch for ch in value.lower().translate(_LEET) if ch.isalpha()),
    ):
        if len(letters) < 4:
            continue
        rest = letters
        for word in _STAND_IN_WORDS:
            rest = rest.replace(word, "")
        if len(rest) <= 1:
            return True
    return False


def is_reference(value: str) -> bool:
    """True when ``value`` points at a secret stored elsewhere (env var, template, call, vault)."""
    return bool(_REFERENCE.match(value.strip()))


def is_placeholder(value: str) -> bool:
    """True when ``value`` is a stand-in, an example or a template rather than a real secret."""
    stripped = value.strip().strip("'\"`")
    if not stripped:
        return True
    lower = stripped.lower()
    if stripped in KNOWN_EXAMPLES or {lower, lower.translate(_LEET)} & PLACEHOLDER_VALUES:
        return True
    if any(word in lower for word in PLACEHOLDER_WORDS) or "%s" in stripped or "%d" in stripped:
        return True
    if _TEMPLATE.search(stripped) or _stand_in(stripped):
        return True
    if is_reference(stripped):
        return True
    if len(set(lower)) <= 2 or longest_run(lower) >= max(6, len(lower) // 2):
        return True
    return len(lower) >= 6 and sequential_share(lower) >= 0.6


# For tokens with a vendor prefix the value's shape is already strong evidence, so only clear
# stand-ins count (``sk_test_`` keys, for instance, are real credentials).
_FAKE_WORDS: tuple[str, ...] = word_list(
    """example xxxxx placeholder your redacted dummy fake sample insert replace changeme < > ${ {{
    **** .... … 0000000000 1234567890 abcdefghij"""
)


def is_fake_token(value: str) -> bool:
    """True when a prefixed token is a documentation stand-in (``ghp_xxxx…``, ``…EXAMPLE``)."""
    lower = value.lower()
    if any(example in value for example in KNOWN_EXAMPLES):
        return True
    if any(word in lower for word in _FAKE_WORDS):
        return True
    return len(set(lower)) <= 4 or longest_run(lower) >= max(8, len(lower) // 3)
