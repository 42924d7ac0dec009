"""Bulk personal data: a file that is a list of people (emails, phone numbers, card numbers)."""

from __future__ import annotations

import re

from ctxaction.secure.checksums import luhn_ok
from ctxaction.secure.lazyre import LazyPattern

_EMAIL = LazyPattern(
    r"(?<![\w.+\-])[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8}"
)
_PHONE = LazyPattern(r"(?<![\w+.])(?:\+\d{1,3}[ .\-]?)?\(?\d{2,4}\)?[ .\-]\d{3,4}[ .\-]\d{3,4}(?!\w|\.\d)")
_CARD = LazyPattern(r"(?<![\d\-])(?:\d[ \-]?){12,18}\d(?![\d\-])")
# Cheap necessary conditions, so most files skip the full patterns (whose leading lookbehinds make
# the regex engine try every position): every card match holds a run of 13 digits, every phone
# match a digit, separator, digit triple (the one before its last group).
_DIGIT_RUN = LazyPattern(r"\d(?:[ \-]?\d){12}")
_DIGIT_SEP_DIGIT = LazyPattern(r"\d[ .\-]\d")
# Documented test card numbers (Stripe, Braintree, PayPal docs) are not customer data.
_TEST_CARDS = frozenset(
    {
        "4242424242424242",
        "4000056655665556",
        "5555555555554444",
        "2223003122003222",
        "5200828282828210",
        "378282246310005",
        "371449635398431",
        "6011111111111117",
        "3056930009020004",
        "4111111111111111",
        "4012888888881881",
        "5105105105105100",
        "30569309025904",
        "38520000023237",
        "6011000990139424",
    }
)
# Files that list people on purpose and are public by design.
_PUBLIC_LISTS = frozenset(
    {
        "authors",
        "authors.md",
        "authors.txt",
        "authors.rst",
        "contributors",
        "contributors.md",
        "contributors.txt",
        ".mailmap",
        "codeowners",
        "maintainers",
        "maintainers.md",
        "credits",
        "credits.md",
        "thanks",
        "thanks.md",
        "people.md",
    }
)

MIN_EMAILS = 20
MIN_PHONES = 20
MIN_CARDS = 3


def bulk_personal_data(text: str, path: str = "") -> str | None:
    """A reason when ``text`` is a dump of personal data (many distinct emails, phone numbers or
    Luhn-valid card numbers), else None. Contributor lists (AUTHORS, .mailmap …) are exempt."""
    name = path.rsplit("/", 1)[-1].lower()
    if name in _PUBLIC_LISTS or not text:
        return None
    reasons = []
    if text.count("@") >= MIN_EMAILS:
        emails = {m.group(0).lower() for m in _EMAIL.finditer(text)}
        if len(emails) >= MIN_EMAILS:
            reasons.append(f"{len(emails)} email addresses")
    if _DIGIT_RUN.search(text):
        cards = {
            d
            for d in (re.sub(r"[ \-]", "", m.group(0)) for m in _CARD.finditer(text))
            if d not in _TEST_CARDS and luhn_ok(d) and d[0] in "2345634"
        }
        if len(cards) >= MIN_CARDS:
            reasons.append(f"{len(cards)} card numbers")
    if len(_DIGIT_SEP_DIGIT.compiled.findall(text)) >= MIN_PHONES:
        phones = {re.sub(r"\D", "", m.group(0)) for m in _PHONE.finditer(text)}
        if len(phones) >= MIN_PHONES:
            reasons.append(f"{len(phones)} phone numbers")
    return f"bulk personal data ({', '.join(reasons)})" if reasons else None
