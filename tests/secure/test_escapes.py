"""Secrets written with escapes (escapes.py): ``\\uXXXX``, ``\\xHH``, ``\\u{H…}`` at every width and
with several codes (Ruby), octal, ``\\UXXXXXXXX`` and HTML character references; found, redacted
whole, nothing shown.

Every value is generated at run time (:mod:`ctxaction.secure.synth`) and escaped here, so no
source line holds a secret, plain or escaped.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from ctxaction.secure import redact, scan
from ctxaction.secure.detect import LONG_LINE
from ctxaction.secure.escapes import ESCAPE_MARKERS, Decoded, escaped_lines
from ctxaction.secure.synth import expand

# (rule, literal prefix, template)
SECRETS = [
    ("github-pat", "ghp_", "<<gh:ghp>>"),
    ("stripe-secret-key", "sk_live_", "sk_live_<<alnum:32>>"),
    ("aws-access-key-id", "AKIA", "AKIA<<b32:16>>"),
    ("slack-bot-token", "xoxb-", "xoxb-<<digits:12>>-<<digits:13>>-<<alnum:24>>"),
]


# How a character is escaped: ``\uXXXX``, ``\xHH``, ``\u{H…}`` (the shortest form and every
# padding up to six digits), octal, ``\UXXXXXXXX``, decimal and hex character references; in
# lower- and upper-case hex.
FORMS = {
    "u": "\\u{:04x}",
    "U": "\\u{:04X}",
    "x": "\\x{:02x}",
    "X": "\\x{:02X}",
    "brace": "\\u{{{:x}}}",
    "BRACE": "\\u{{{:X}}}",
    "brace3": "\\u{{{:03x}}}",
    "brace4": "\\u{{{:04x}}}",
    "brace5": "\\u{{{:05X}}}",
    "brace6": "\\u{{{:06x}}}",
    "octal": "\\{:03o}",
    "U8": "\\U{:08x}",
    "U8upper": "\\U{:08X}",
    "dec": "&#{};",
    "hex": "&#x{:x};",
    "HEX": "&#X{:X};",
}


def _escape(value: str, count: int, form: str = FORMS["u"]) -> str:
    """The first ``count`` characters of ``value`` as escapes written in ``form``."""
    return "".join(form.format(ord(ch)) for ch in value[:count]) + value[count:]


def _braced(value: str, count: int, per: int) -> str:
    """The first ``count`` characters of ``value`` as Ruby's ``\\u{67 68 70}``, ``per`` codes in
    each pair of braces."""
    head = value[:count]
    groups = [head[i : i + per] for i in range(0, len(head), per)]
    braced = ("\\u{" + " ".join(f"{ord(ch):x}" for ch in group) + "}" for group in groups)
    return "".join(braced) + value[count:]


def _mixed(value: str) -> str:
    """``value`` with its characters escaped in every form in turn, every fourth one plain."""
    forms = list(FORMS.values())
    return "".join(ch if i % 4 == 3 else forms[i % len(forms)].format(ord(ch)) for i, ch in enumerate(value))


Layout = Callable[[str], str]
LAYOUTS: dict[str, tuple[str, Layout]] = {
    "json": ("config.json", lambda v: '{\n  "service": {"name": "billing", "key": "' + v + '"}\n}\n'),
    "json, one line": ("config.json", lambda v: '{"a":1,"b":"' + v + '","c":[1,2]}'),
    "js": ("client.js", lambda v: "const k = '" + v + "';\nexport default k;\n"),
    "java": ("A.java", lambda v: 'class A { static final String K = "' + v + '"; }\n'),
    "python": ("keys.py", lambda v: 'K = "' + v + '"\n'),
    "c": ("keys.c", lambda v: 'static const char *k = "' + v + '";\n'),
    "rust": ("main.rs", lambda v: 'let k = "' + v + '";\n'),
    "go": ("main.go", lambda v: 'k := "' + v + '"\n'),
    "ruby": ("keys.rb", lambda v: 'KEY = "' + v + '".freeze\n'),
    "shell": ("deploy.sh", lambda v: "export KEY=$'" + v + "'\n"),
    "html": ("index.html", lambda v: '<input type="hidden" name="key" value="' + v + '">\n'),
    "xml": ("settings.xml", lambda v: "<settings>\n  <key>" + v + "</key>\n</settings>\n"),
}
CASES = [(rule, prefix, template, layout) for rule, prefix, template in SECRETS for layout in LAYOUTS]


@pytest.mark.parametrize(("rule", "prefix", "template", "layout"), CASES)
def test_an_escaped_secret_is_found_and_redacted_whole(
    rule: str, prefix: str, template: str, layout: str
) -> None:
    secret = expand(template, f"escaped-{rule}")
    path, shape = LAYOUTS[layout]
    rest = secret[len(prefix) :]
    windows = {rest[i : i + 6] for i in range(len(rest) - 5)}
    # In every form: the prefix escaped, the whole value escaped, one character of the prefix;
    # and every form mixed in one value, with plain characters between.
    counts = (len(prefix), len(secret), 1)
    written = [_escape(secret, count, form) for form in FORMS.values() for count in counts]
    braced = [_braced(secret, count, per) for count in counts[:2] for per in (3, len(secret))]
    for value in [*written, *braced, _mixed(secret)]:
        text = shape(value)
        case = f"{layout}: {len(value) - len(secret)} characters of escapes"
        redacted, findings = redact(text, path)
        assert [f.rule for f in findings] == [rule], case
        assert redacted.count("\n") == text.count("\n")
        shown = redacted + "".join(f.preview for f in findings)
        # A count, not the pieces: a failing assertion prints its operands.
        assert sum(w in shown for w in windows) == 0, case
        assert "\\" not in redacted and "&#" not in redacted, f"{case}: an escape of the value was left"


def test_an_escaped_secret_keeps_the_fingerprint_of_the_plain_one() -> None:
    secret = expand("<<gh:ghp>>", "escaped-fingerprint")
    (plain,) = scan(f'{{"token": "{secret}"}}', "a.json")
    (escaped,) = scan(f'{{"token": "{_escape(secret, 4)}"}}', "a.json")
    assert escaped.fingerprint == plain.fingerprint
    assert escaped.preview.count("****") == 1 and "\\u" not in escaped.preview


def test_an_escaped_password_is_judged_under_its_name() -> None:
    value = expand("<<pw:16>>", "escaped-password")
    text = '{"db": {"password": "' + _escape(value, len(value)) + '"}}\n'
    assert [f.rule for f in scan(text, "settings.json")] == ["generic-password"]


def test_an_escaped_secret_in_a_minified_line_is_found() -> None:
    secret = expand("<<gh:ghp>>", "escaped-minified")
    filler = "var a=1;" * (LONG_LINE // 4)
    line = filler + 'var k="' + _escape(secret, 4) + '";' + filler
    redacted, findings = redact(line, "bundle.min.js")
    assert [f.rule for f in findings] == ["github-pat"]
    assert secret[10:30] not in redacted


BENIGN = {
    # Translations, HTML escaped by a JSON encoder, words written with escapes, an escaped
    # backslash (the text ``\\u0041…``, no escape), a lone surrogate.
    "i18n.json": (
        '{"greeting": "Bonjour, \\u00e7a va ? \\u00c9t\\u00e9",\n'
        ' "link": "\\u003ca href=\\u0022x\\u0022\\u003e"}\n'
    ),
    "words.json": '{"title": "\\u0048\\u0065llo \\u0057orld", "token_type": "\\u0042earer"}\n',
    "regex.js": "const re = /\\\\u0041\\\\u004b[A-Z0-9]{16}/;\nconst s = '\\\\u0067\\\\u0068p_';\n",
    "emoji.json": '{"face": "\\ud83d\\ude00", "x": "\\u0041\\u0042\\u0043"}\n',
    # Byte strings, terminal colours, words in ``\\x`` escapes, an escaped backslash.
    "bytes.py": (
        'MAGIC = b"\\x89PNG\\r\\n\\x1a\\n"\nDATA = b"\\x00\\x01\\xff\\xfe"\nRED = "\\x1b[31m"\n'
        'HI = "\\x48\\x65llo \\x57orld"\nRE = r"\\\\x67\\\\x68p_[A-Za-z0-9]{36}"\n'
    ),
    # Emoji, accents and code points past Unicode in ``\\u{…}``, words written with them.
    "emoji.rs": (
        'let face = "\\u{1F600}\\u{1f601}";\nlet cafe = "caf\\u{e9}";\nlet nul = \'\\u{0}\';\n'
        'let big = "\\u{110000}\\u{D800}";\nlet hi = "\\u{48}\\u{65}llo";\n'
    ),
    # Octal byte strings and terminal colours, words in octal, NUL and newline in their short
    # forms, escaped backslashes before digits (a regex's back-references, a Windows path).
    "bytes.c": (
        'static const char MAGIC[] = "\\211PNG\\r\\n\\032\\n";\n'
        'static const char ELF[] = "\\177ELF\\002\\001";\n'
        'static const char *RED = "\\033[31m", *NL = "\\12\\0";\n'
        'static const char *HI = "\\110\\145llo \\127orld";\n'
        'static const char *RE = "(\\\\w+)=\\\\1\\\\2";\n'
        'static const char *DIR = "C:\\\\Users\\\\101\\\\data";\n'
    ),
    # Backslashes before digits that are no string escapes: a Windows path, sed's back-references.
    "paths.sh": "ROOT='C:\\Users\\101\\x64\\0'\nsed -e 's/\\(ab\\)\\(cd\\)/\\2\\1\\101/' in.txt\n",
    # Ruby's several codes in one pair of braces: emoji, a word.
    "emoji.rb": 'FACES = "\\u{1F600 1F601}"\nHI = "\\u{48 65 6c 6c 6f}"\n',
    # HTML's references: quotes, spaces, typography, an address written in references (what
    # pages do to hide it from harvesters), an ``&amp;`` escaped one (the text ``&#103;``).
    "page.html": (
        "<p>It&#39;s &#x27;here&#x27;&#160;&#8212; &#8217;ok&#8217;</p>\n"
        '<a href="&#109;&#97;&#105;&#108;&#116;&#111;&#58;'
        '&#106;&#111;&#101;&#64;&#101;&#120;&#46;&#105;&#111;">mail</a>\n'
        "<code>&amp;#103;&amp;#104;&amp;#112;&amp;#95;</code>\n"
    ),
}

# What byte strings, emoji and HTML write: no marker in it, so no line of theirs is read decoded.
UNMARKED = (
    'b"\\x00\\x01\\xff\\xfe\\x1b\\x7f\\x20\\x2e" "\\u{1F600}\\u{e9}\\u{0}\\u{7f}\\u{20}"'
    ' "\\0\\12\\033\\177\\200\\377\\000\\001\\040\\056" "\\u{1F600 1F601}" "\\U0001F600"'
    " &#39;&#x27;&#160;&#xA0;&#8217;&#x2014;&#34;&#38;&#60;&#62;&#32;"
)


def test_an_octal_blob_is_not_flagged() -> None:
    """A binary file compiled into C as an octal string (a font, an icon): every byte escaped,
    most lines read decoded, nothing found."""
    rng = random.Random(8)
    lines = ['"' + "".join(f"\\{rng.randrange(256):03o}" for _ in range(24)) + '"' for _ in range(400)]
    text = "static const char FONT[] =\n" + "\n".join(lines) + ";\n"
    assert scan(text, "font.c") == []


@pytest.mark.parametrize("path", list(BENIGN))
def test_ordinary_escapes_are_not_flagged(path: str) -> None:
    assert scan(BENIGN[path], path) == []


def test_ordinary_escapes_wake_no_decoding() -> None:
    assert [marker for marker in ESCAPE_MARKERS if marker in UNMARKED.lower()] == []


@pytest.mark.parametrize(
    "form", ["\\\\x{:02x}", "\\\\u{{{:x}}}", "\\\\u{:04x}", "\\\\{:03o}", "\\\\U{:08x}", "&amp;#{};"]
)
def test_a_key_behind_escaped_backslashes_is_no_key(form: str) -> None:
    """``\\\\x67…`` is the text ``\\x67…`` once read, ``&amp;#103;…`` the text ``&#103;…``: no
    token, so nothing to find."""
    secret = expand("<<gh:ghp>>", "escaped-backslash")
    text = "K = '" + _escape(secret, 4, form) + "'\n"
    assert scan(text, "keys.py") == []


def test_an_escaped_backslash_is_kept_as_written() -> None:
    text = 'a "\\\\u0041" b "\\u0041"'
    decoded = Decoded(text, [(0, len(text))])
    assert decoded.text == 'a "\\\\u0041" b "A"\n\n'
    assert decoded.locate(decoded.text.index("A"), decoded.text.index("A") + 1) == (15, 21)
    assert decoded.locate(0, 3) is None  # no escape in it: the plain scan saw it


def test_each_escape_maps_back_over_its_written_length() -> None:
    text = 'k = "\\x41\\u{42}\\u{000043}D\\u0045\\\\x46\\u{110000}"'
    decoded = Decoded(text, [(0, len(text))])
    assert decoded.text == 'k = "ABCDE\\\\x46\\u{110000}"\n\n'
    spans = [decoded.locate(i, i + 1) for i in range(5, 10)]
    assert spans == [(5, 9), (9, 15), (15, 25), None, (26, 32)]
    assert decoded.locate(5, 10) == (5, 32)  # a hit over all of them takes every escape whole


def test_the_new_forms_map_back_over_their_written_length() -> None:
    text = 'k = "\\101\\U00000042&#67;&#X044;\\u{045}\\u{00046}\\u{000047}"'
    decoded = Decoded(text, [(0, len(text))])
    assert decoded.text == 'k = "ABCDEFG"\n\n'
    spans = [decoded.locate(i, i + 1) for i in range(5, 12)]
    assert spans == [(5, 9), (9, 19), (19, 24), (24, 31), (31, 38), (38, 47), (47, 57)]


def test_several_codes_in_braces_map_back_piece_by_piece() -> None:
    """Each code of ``\\u{…}`` takes its digits and what stands before them, the last one the
    closing brace too: a hit over all of them takes the escape whole, one over the last ones
    leaves the first as written."""
    text = 'k = "\\u{ 41 42\t43 }\\u{44}"'
    decoded = Decoded(text, [(0, len(text))])
    assert decoded.text == 'k = "ABCD"\n\n'
    assert [decoded.locate(i, i + 1) for i in range(5, 9)] == [(5, 11), (11, 14), (14, 19), (19, 25)]
    assert decoded.locate(5, 9) == (5, 25)
    assert decoded.locate(6, 8) == (11, 19)


def test_what_is_no_escape_of_these_forms_stays_as_written() -> None:
    """Octal takes three digits at most; ``\\u`` with eight digits is ``\\u`` and four (Java, JS);
    a reference needs its ``;``; a code past U+10FFFF, a surrogate or a malformed list in braces
    is no character."""
    cases = {
        "\\1014": "A4",
        "\\0\\12x": "\x00\nx",
        "\\u00000041": "\x000041",
        "&#65&#x41": "&#65&#x41",
        "&#0000065;&#x000041;": "AA",
        "&#1114112;&#x110000;\\U00110000": "&#1114112;&#x110000;\\U00110000",
        "\\u{41 D800}\\u{41 1234567}\\u{41,42}": "\\u{41 D800}\\u{41 1234567}\\u{41,42}",
        "\\\\101&amp;#65;": "\\\\101&amp;#65;",
    }
    decoded = {text: Decoded(text, [(0, len(text))]).text[:-2] for text in cases}
    assert decoded == cases


def test_each_escaped_line_is_read_once() -> None:
    text = "x\n" + "\\u0041" * 100 + "\n" + "y" * (3 * LONG_LINE) + "\\u0042" * 3 + "\n"
    marks = [i for i in range(len(text)) if text.startswith("\\u00", i)]
    spans = escaped_lines(text, marks, LONG_LINE)
    assert spans[0] == (2, 2 + 600)
    assert len(spans) == 2 and spans[1][1] - spans[1][0] <= LONG_LINE
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
