"""The linear definition scorer agrees exactly with the quadratic one it replaced, on any spans."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ctxaction.rank.board import Hints
from ctxaction.rank.evidence import Query, owned_lines, score_definitions
from ctxaction.rank.focus import build_focus
from ctxaction.repo.symbols import Definition
from tests.rank import focus_oracle

NAMES = ("run", "parse", "Config", "load", "x")
KINDS = ("function", "method", "class", "variable", "type")
WORDS = ("token", "cache", "retry", "budget")


@st.composite
def definitions(draw: st.DrawFn) -> list[Definition]:
    """Spans that nest, repeat, overlap without nesting, or stand apart, as parsers never promise."""
    out = []
    for _ in range(draw(st.integers(0, 14))):
        start = draw(st.integers(1, 40))
        end = start + draw(st.integers(-2, 25))  # a span ending before it starts, too
        out.append(
            Definition(
                draw(st.sampled_from(NAMES)),
                draw(st.sampled_from(KINDS)),
                start,
                end,
                draw(st.sampled_from(("", "Config", "Other"))),
                draw(st.booleans()),
            )
        )
    if draw(st.booleans()):
        out.sort(key=lambda d: (d.start, -d.end))
    return out


lines = st.integers(1, 70)


@st.composite
def hints(draw: st.DrawFn) -> Hints:
    h = Hints()
    h.frame_lines = draw(st.dictionaries(lines, st.sampled_from(("frame a", "frame b")), max_size=4))
    h.message_lines = draw(st.dictionaries(lines, st.sampled_from(("msg a", "msg b")), max_size=4))
    h.option_lines = draw(st.dictionaries(lines, st.just("option --x"), max_size=3))
    h.use_lines = draw(
        st.dictionaries(lines, st.tuples(st.floats(0.1, 1.0), st.sampled_from(NAMES)), max_size=10)
    )
    h.defined = draw(st.dictionaries(st.sampled_from(NAMES), st.floats(0.1, 1.0), max_size=3))
    h.keyword_lines = draw(
        st.dictionaries(lines, st.sets(st.sampled_from(WORDS), min_size=1), max_size=12)
    )
    h.name_lines = draw(
        st.dictionaries(lines, st.tuples(st.floats(0.1, 1.0), st.sampled_from(NAMES)), max_size=6)
    )
    return h


IDF = {"token": 2.0, "cache": 1.5, "retry": 1.5, "budget": 0.7}
OWNERS = {"run": {"Config"}, "load": {"Other", "Config"}}
QUERY = Query(idf=IDF, owners=OWNERS, named={"parse": 0.8, "Config": 0.5})


@settings(max_examples=400, deadline=None)
@given(definitions(), hints())
def test_linear_scorer_matches_the_quadratic_one(defs: list[Definition], h: Hints) -> None:
    assert owned_lines(defs) == focus_oracle.owned_lines(defs)
    assert score_definitions(defs, h, QUERY) == focus_oracle.score_definitions(defs, h, QUERY)


def test_many_definitions_are_scored_by_what_each_owns() -> None:
    # 5,000 one-line functions in a class: the class owns its head only, each function its line.
    body = "".join(f"    def f{i}(self):\n        return {i}\n" for i in range(5000))
    text = "class Table:\n" + body
    h = Hints()
    h.keyword_lines = {2 * 1234 + 3: {"token"}}  # the body line of f1234
    h.frame_lines = {1: "line 1 of the traceback"}
    spans = build_focus("table.py", text, h, Query(idf=IDF))
    whys = [f.why for f in spans]
    assert any(w.startswith("Table.f1234: keywords token") for w in whys)
    assert any("Table: traceback line 1" in w for w in whys)
