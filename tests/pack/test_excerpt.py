"""Excerpts: ranges with context, merging, omission markers, outlines, import headers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ctxaction.model import Focus
from ctxaction.pack import excerpt
from ctxaction.pack.excerpt import (
    expand,
    gaps,
    imports_header,
    merge_ranges,
    outline,
    pieces,
    render,
    to_ranges,
)
from ctxaction.text.omitted import marker

PY = """\
\"\"\"Module docstring.\"\"\"

from __future__ import annotations

import os
from typing import (
    Any,
    Optional,
)

LIMIT = 3


class Session:
    def open(self, path: str) -> None:
        if path:
            raise ValueError(path)


async def main() -> int:
    return 0
"""


def test_merge_ranges_overlap_touch_and_gap() -> None:
    assert merge_ranges([(5, 9), (1, 3), (4, 4), (12, 20), (15, 16)]) == [(1, 9), (12, 20)]
    assert merge_ranges([(1, 2), (5, 6)], gap=2) == [(1, 6)]
    assert merge_ranges([(3, 2)]) == []


def test_expand_clips_to_file_and_merges() -> None:
    focus = [Focus(2, 3, 1.0, "a"), Focus(6, 6, 0.5, "b"), Focus(40, 41, 1.0, "out")]
    assert expand(focus, 2, 10) == [(1, 8)]
    assert expand(focus, 0, 10) == [(2, 3), (6, 6)]


def test_gaps_are_the_complement() -> None:
    assert gaps([(3, 4), (8, 8)], 10) == [(1, 2), (5, 7), (9, 10)]
    assert gaps([(1, 10)], 10) == []


def test_render_marks_every_omitted_run() -> None:
    lines = [f"line {i}" for i in range(1, 11)]
    text = render(lines, [(3, 4), (8, 8)])
    assert text.split("\n") == [
        marker(1, 2),
        "line 3",
        "line 4",
        marker(5, 7),
        "line 8",
        marker(9, 10),
        "",
    ]
    assert marker(5, 5) == "… line 5 omitted …"
    assert render(lines, [(1, 10)]) == "".join(f"{x}\n" for x in lines)


def test_outline_finds_python_signatures() -> None:
    lines = excerpt.split_lines(PY)
    assert [lines[n - 1].strip() for n in outline(lines, "mod.py")] == [
        "class Session:",
        "def open(self, path: str) -> None:",
        "async def main() -> int:",
    ]


def test_outline_other_languages_skips_control_flow() -> None:
    go = [
        "package main",
        "",
        "func (s *Server) Handle(w http.ResponseWriter) {",
        "\tif x {",
        "\t}",
        "}",
        "type Config struct {",
        "}",
    ]
    assert outline(go, "main.go") == [3, 7]
    js = [
        "export async function login(user) {",
        "  return fetch(url);",
        "}",
        "const handler = async (req) => {",
        "class Store extends Base {",
    ]
    assert outline(js, "a.js") == [1, 4, 5]
    rust = ["pub fn parse(input: &str) -> Result<()> {", "impl Parser {", "    return x;"]
    assert outline(rust, "lib.rs") == [1, 2]


def test_imports_header_spans_parenthesized_imports_and_docstring() -> None:
    assert imports_header(excerpt.split_lines(PY)) == (1, 9)
    assert imports_header(["x = 1", "import os"]) is None
    assert imports_header(["// c", "#include <stdio.h>", "", "int main() {"]) == (1, 2)


def test_split_lines_counts_like_git() -> None:
    assert excerpt.split_lines("a\nb\n") == ["a", "b"]
    assert excerpt.split_lines("a\nb") == ["a", "b"]
    assert excerpt.split_lines("a\x0cb\u2028c\n") == ["a\x0cb\u2028c"]
    assert excerpt.split_lines("") == []


@given(st.lists(st.tuples(st.integers(1, 60), st.integers(0, 15)), max_size=8), st.integers(1, 60))
def test_render_and_ranges_agree(spans: list[tuple[int, int]], n: int) -> None:
    lines = [f"L{i}" for i in range(1, n + 1)]
    ranges = merge_ranges((a, min(n, a + d)) for a, d in spans if a <= n)
    text = render(lines, ranges)
    kept = [x for x in text.split("\n") if x.startswith("L")]
    assert kept == [f"L{i}" for a, b in ranges for i in range(a, b + 1)]
    assert to_ranges(int(x[1:]) for x in kept) == ranges


@given(st.lists(st.tuples(st.integers(1, 60), st.integers(0, 15)), max_size=8), st.integers(1, 60))
def test_pieces_read_back_each_range(spans: list[tuple[int, int]], n: int) -> None:
    # Lines that look like markers, or are empty, must not throw the walk off.
    lines = [marker(i, i) if i % 3 == 0 else ("" if i % 5 == 0 else f"L{i}") for i in range(1, n + 1)]
    ranges = merge_ranges((a, min(n, a + d)) for a, d in spans if a <= n)
    assert pieces(render(lines, ranges), ranges, n) == [lines[a - 1 : b] for a, b in ranges]


def test_pieces_refuse_a_text_that_does_not_hold_the_ranges() -> None:
    lines = ["a", "b", "c", "d"]
    text = render(lines, [(2, 3)])
    assert pieces(text, [(2, 3)], 4) == [["b", "c"]]
    for ranges, n in (([(2, 2)], 4), ([(3, 4)], 4), ([(2, 3)], 3), ([(2, 3)], 5)):
        try:
            pieces(text, ranges, n)
        except ValueError as exc:
            assert "cannot hold ranges" in str(exc)
        else:
            raise AssertionError(f"{ranges} of {n} lines read from a text that does not hold them")


def prose(indent: str, count: int = excerpt.DOC_MIN_LINES) -> str:
    """``count`` lines of parameter prose, as in a numpy-style docstring."""
    return "".join(f"{indent}arg_{k} : int\n" for k in range(count))


DOCS = f'''\
"""Module summary.

{prose("")}"""
QUERY = """
{prose("")}"""


def parse(text):
    r"""Parse ``text``.

{prose("    ")}    """
    return text


def short(text):
    """Short.

    Args:
        text: the input.
    """
    return text


class Tree:
    """One line."""

    def walk(
        self,
    ) -> None:
        # a comment between the header and the docstring does not hide it
        \'\'\'Walk it.
{prose("        ")}        Twice.\'\'\'
'''


def test_docstring_bodies_are_the_prose_past_each_summary_of_a_long_docstring() -> None:
    lines = DOCS.split("\n")
    bodies = excerpt.docstring_bodies(lines, "pkg/tree.py")
    # The module docstring keeps its first two lines; the rest down to the closing quotes is prose.
    close = lines.index('"""') + 1
    assert not {1, 2} & bodies and set(range(3, close + 1)) <= bodies
    # A string assigned to a name is data, not a docstring.
    end_query = lines.index('"""', close) + 1
    assert not set(range(close + 1, end_query + 1)) & bodies
    start = lines.index('    r"""Parse ``text``.') + 1
    end = lines.index('    """', start) + 1
    assert not {start, start + 1} & bodies
    assert set(range(start + 2, end + 1)) <= bodies and end + 1 not in bodies  # `return text`
    # A short docstring stays whole: it is often rewritten with the code it documents.
    brief = lines.index('    """Short.') + 1
    assert not set(range(brief, brief + 6)) & bodies
    # A one-line docstring has no body; one below a multi-line header and a comment does.
    walk = lines.index("        \'\'\'Walk it.") + 1
    one_line = lines.index('    """One line."""') + 1
    assert not set(range(one_line, walk + 2)) & bodies
    assert set(range(walk + 2, len(lines))) <= bodies


def test_docstring_bodies_only_for_python() -> None:
    lines = DOCS.split("\n")
    assert excerpt.docstring_bodies(lines, "pkg/tree.js") == frozenset()
    assert excerpt.docstring_bodies(lines, "pkg/tree.pyi")


@given(
    st.lists(st.sampled_from(["def f():", "    x = 1", "", "# c", '"""', "    text"]), max_size=30),
    st.integers(0, 80),
    st.booleans(),
)
def test_docstring_bodies_stay_inside_the_file(head: list[str], length: int, closed: bool) -> None:
    doc = ["def g():", '    """Summary.', *(["    prose"] * length), *(['    """'] if closed else [])]
    lines = head + doc
    bodies = excerpt.docstring_bodies(lines, "m.py")
    assert all(1 <= n <= len(lines) for n in bodies)
    opening = len(head) + 2
    if not any(line.count('"""') % 2 for line in head) and len(doc) - 1 >= excerpt.DOC_MIN_LINES:
        # A long docstring's body runs to its closing quotes, or to the end of an unclosed file.
        assert set(range(opening + excerpt.DOC_KEEP, len(lines) + 1)) <= bodies


def test_a_quote_inside_another_string_opens_no_docstring() -> None:
    # The SQL string's closing quotes sit below a line ending with ":", like a docstring's opening
    # quotes below a header; what follows them is code up to the next docstring.
    code = [f"    step_{k} = {k}" for k in range(excerpt.DOC_MIN_LINES + 5)]
    lines = ["QUERY = '''", "CASE x WHEN 1:", "'''", "def run():", *code, '    """Done."""']
    assert excerpt.docstring_bodies(lines, "pkg/run.py") == frozenset()
