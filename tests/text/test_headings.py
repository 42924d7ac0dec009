"""Markdown ATX headings: one rule (CommonMark's) for issue bodies, changelogs and task text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from ctxaction.text.headings import Heading, heading


def test_headings_follow_commonmark() -> None:
    assert heading("## Steps to reproduce") == Heading(2, "Steps to reproduce")
    assert heading("   ###\tIndented three, a tab") == Heading(3, "Indented three, a tab")
    assert heading("### Closing hashes ###  ") == Heading(3, "Closing hashes")
    assert heading("## C#") == Heading(2, "C#")  # a closing run needs a space before it
    assert heading("###") == Heading(3, "")
    assert heading("# #") == Heading(1, "")
    assert heading("## Windows line end\r") == Heading(2, "Windows line end")


def test_not_headings() -> None:
    for line in ("#hashtag", "####### seven", "    # indented four: code", "text # first", "", "#\u00a0x"):
        assert heading(line) is None, line


_LINES = st.text(alphabet=" \t#ab", max_size=14)


@given(_LINES)
def test_level_and_text_match_a_commonmark_parser(line: str) -> None:
    tokens = MarkdownIt("commonmark").parse(line)
    found = heading(line)
    if not tokens or tokens[0].type != "heading_open":
        assert found is None
        return
    assert found == Heading(int(tokens[0].tag[1]), tokens[1].content)
