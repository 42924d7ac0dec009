"""Markdown fences: one scanner (CommonMark's rules) and one builder for every stage."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ctxaction.text.fences import blocks, code_segments, fence_for, open_fence


def test_fences_follow_commonmark() -> None:
    text = "intro\n````py\ncode\n```\nstill code\n````\nafter\n~~~\nopen to the end"
    segments = code_segments(text)
    assert [code for code, _ in segments] == [False, True, False, True]
    assert segments[1][1].endswith("still code\n````")
    assert open_fence(text) == "~~~"
    assert open_fence("```a`b\nnot a fence") == ""  # backtick in the info string: not a fence
    assert open_fence("    ```\nindented four: code block, not a fence") == ""
    assert open_fence("```\n``` not a close: text after the fence") == "```"


def test_blocks_give_the_info_string_and_the_lines_between_the_fences() -> None:
    found = blocks("see\n  ```Python title\nx = 1\n```\n~~~\nopen")
    assert [(b.code, b.info, b.inner, b.closed) for b in found] == [
        (False, "", ["see"], False),
        (True, "Python title", ["x = 1"], True),
        (True, "", ["open"], False),
    ]


def test_built_fence_is_longer_than_any_backtick_run() -> None:
    assert fence_for("plain") == "```"
    assert fence_for("a ```` b ``` c") == "`````"


@given(st.text(alphabet="`~ab\n", max_size=60))
def test_a_fenced_text_stays_one_closed_block(body: str) -> None:
    fence = fence_for(body)
    text = f"{fence}\n{body}\n{fence}"
    found = blocks(text)
    assert len(found) == 1 and found[0].closed and "\n".join(found[0].inner) == body
