"""Bytes to text for scanning: UTF-8, and UTF-16/32 (by BOM, or by where the NUL bytes fall).

A NUL byte usually means binary, but UTF-16 and UTF-32 text is full of them: ASCII written as
UTF-16LE is ``t\\0o\\0k\\0…``. Skipping such a file as binary would let its secrets through (a
Windows tool's export, a PowerShell script saved by an old editor), so those are decoded first.
"""

from __future__ import annotations

from ctxaction.text.boms import by_bom

_PROBE = 4096
# Share of code units that must look like ASCII in that encoding for the guess to hold.
_ASCII_SHARE = 0.7


def sniff(data: bytes) -> tuple[str, int] | None:
    """``(encoding, BOM length)`` of ``data``: UTF-8 unless a BOM or the NUL pattern says UTF-16
    or UTF-32; None when the NUL bytes follow no such pattern (binary)."""
    marked = by_bom(data)
    if marked is not None:
        return marked
    probe = data[:_PROBE]
    if b"\0" not in probe:
        return "utf-8", 0
    for width, names in ((4, ("utf-32-le", "utf-32-be")), (2, ("utf-16-le", "utf-16-be"))):
        units = len(probe) // width
        if not units:
            continue
        le = be = 0
        for i in range(0, units * width, width):
            unit = probe[i : i + width]
            if 0 < unit[0] < 0x80 and not any(unit[1:]):
                le += 1
            elif 0 < unit[-1] < 0x80 and not any(unit[:-1]):
                be += 1
        for count, name in ((le, names[0]), (be, names[1])):
            if count >= units * _ASCII_SHARE:
                return name, 0
    return None


def decode_text(data: bytes) -> str | None:
    """``data`` as text (bad sequences replaced), or None when it is binary."""
    found = sniff(data)
    if found is None:
        return None
    name, skip = found
    text = data[skip:].decode(name, "replace")
    # A NUL left after decoding is not text in any of these encodings.
    return None if "\0" in text[:_PROBE] else text
