"""Cutting to a limit: whole lines when possible, the open fence closed, the note after it."""

from __future__ import annotations

from ctxaction.text.cut import close_fence, cut, cut_to
from ctxaction.text.fences import open_fence


def test_cut_keeps_whole_lines_closes_the_open_fence_and_notes_it() -> None:
    text = "head\n```\n" + "line\n" * 100_000
    out = cut_to(text, 1000, len, "(cut)")
    assert len(out) <= 1000 and out.endswith("```\n\n(cut)") and open_fence(out) == ""
    body = out.removesuffix("\n```\n\n(cut)")
    assert all(line in ("head", "```", "line") for line in body.split("\n"))
    # The most lines: one more would not fit.
    assert len(close_fence(body + "\nline") + "\n\n(cut)") > 1000


def test_one_over_long_line_is_cut_inside() -> None:
    out = cut_to("y" * 5000 + "\nnext", 100, len, "(cut)")
    assert out.startswith("y") and len(out) == 100 and out.endswith("\n\n(cut)")


def test_any_monotone_test_sets_the_limit() -> None:
    text = "\n".join(f"row {i}" for i in range(50))
    out = cut(text, lambda t: t.count("\n") <= 10, "note")
    assert out.count("\n") <= 10 and out.startswith("row 0\nrow 1") and out.endswith("\n\nnote")
