"""bulk_personal_data at its thresholds: the cheap pre-checks must never hide a dump."""

from ctxaction.secure import bulk_personal_data
from ctxaction.secure.personal import MIN_CARDS, MIN_EMAILS, MIN_PHONES


def test_exactly_enough_emails_phones_and_cards_are_reported() -> None:
    emails = " ".join(f"u{i}@mail{i}.example.org" for i in range(MIN_EMAILS))
    phones = ";".join(f"({10 + i}) {200 + i}-{3000 + i}" for i in range(MIN_PHONES))
    cards = ", ".join(["4539 1488 0343 6467", "5425-2334-3010-9903", "6011555512345676"][:MIN_CARDS])
    assert bulk_personal_data(emails, "e.txt") == f"bulk personal data ({MIN_EMAILS} email addresses)"
    assert bulk_personal_data(phones, "p.txt") == f"bulk personal data ({MIN_PHONES} phone numbers)"
    assert bulk_personal_data(cards, "c.txt") == f"bulk personal data ({MIN_CARDS} card numbers)"


def test_one_short_of_each_threshold_is_not_a_dump() -> None:
    emails = " ".join(f"u{i}@mail{i}.example.org" for i in range(MIN_EMAILS - 1))
    phones = ";".join(f"({10 + i}) {200 + i}-{3000 + i}" for i in range(MIN_PHONES - 1))
    assert bulk_personal_data(emails + "\n" + phones, "both.txt") is None
