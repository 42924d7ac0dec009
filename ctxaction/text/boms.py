"""Byte-order marks and the codec each one names."""

from __future__ import annotations

import codecs

# Longest first: the UTF-32LE mark begins with the UTF-16LE one. The codecs are the explicit-endian
# ones, which keep a mark as U+FEFF: callers decode what follows the mark.
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def by_bom(data: bytes) -> tuple[str, int] | None:
    """``(codec, length of the mark)`` when ``data`` starts with a byte-order mark, else None."""
    return next(((name, len(bom)) for bom, name in BOMS if data.startswith(bom)), None)
