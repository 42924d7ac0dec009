"""Thread history: newest first within the share, older ones compressed; task text fitting."""

from __future__ import annotations

from ctxaction.model import Comment
from ctxaction.pack.history import compress, drop_unanswered, fit_text, pack_history
from ctxaction.tokens import get_counter

LONG = (
    "Thanks for the report. I looked into it yesterday evening. "
    "The crash happens in `Session.refresh()` when the token has expired. "
    "It might be related to the cache. We should fix the expiry check in auth/session.py because it "
    "compares naive and aware datetimes. Anyway, weather is nice today. " * 3
)


def test_newest_whole_older_compressed_and_chronological() -> None:
    counter = get_counter()
    comments = [Comment(f"user{i}", LONG, f"2024-01-0{i + 1}T00:00:00Z") for i in range(6)]
    comments.append(Comment("ctxaction[bot]", "package comment", "2024-01-09", is_bot=True))
    entries = pack_history(comments, 500, counter)
    assert [e.author for e in entries] == sorted(e.author for e in entries)
    assert entries[-1].author == "user5" and not entries[-1].compressed
    assert any(e.compressed for e in entries)
    assert all("ctxaction" not in e.author for e in entries)
    assert sum(e.tokens for e in entries) <= 500
    assert all(e.tokens == counter.count(e.text) for e in entries)


def test_depth_and_empty_share() -> None:
    counter = get_counter()
    comments = [Comment("a", "first"), Comment("b", "second"), Comment("c", "   ")]
    assert [e.author for e in pack_history(comments, 100, counter, depth=1)] == ["b"]
    assert pack_history(comments, 0, counter) == []


def test_compress_keeps_signal_sentences_in_order() -> None:
    counter = get_counter()
    short = compress(LONG, 45, counter)
    assert counter.count(short) <= 45
    assert short.startswith("Thanks for the report.")
    assert "`Session.refresh()`" in short
    assert "weather" not in short


def test_compress_drops_quotes_and_cuts_code() -> None:
    counter = get_counter()
    text = "> quoted old text\nSee below.\n```\nline1\nline2\nline3\nline4\nline5\n```\n"
    out = compress(text, 200, counter)
    assert "quoted" not in out and "line5" not in out and "line1" in out


def test_fit_text_keeps_head_and_tail() -> None:
    counter = get_counter()
    text = "".join(f"log line {i}\n" for i in range(500))
    fitted = fit_text(text, 300, counter)
    assert counter.count(fitted) <= 300
    assert fitted.startswith("log line 0\n") and fitted.endswith("log line 499\n")
    assert "lines of the text omitted" in fitted
    assert fit_text("short", 300, counter) == "short"
    giant = "word " * 5000
    assert counter.count(fit_text(giant, 100, counter)) <= 100


FORM = """### What happened?

The pooled connection drops its schema name on reconnect.

### Playground URL

_No response_

### Relevant log output

```shell
# a comment in the log, not a heading


_No response_
```

### Database schema

```sql

```

### Code of Conduct

- [X] I agree to follow this project's Code of Conduct
"""


def test_unanswered_form_questions_are_dropped_and_code_blocks_kept() -> None:
    assert drop_unanswered(FORM) == (
        "### What happened?\n\nThe pooled connection drops its schema name on reconnect.\n\n"
        "### Relevant log output\n\n"
        "```shell\n# a comment in the log, not a heading\n\n\n_No response_\n```\n\n"
        "### Code of Conduct\n\n- [X] I agree to follow this project's Code of Conduct"
    )


def test_text_without_a_form_keeps_its_words() -> None:
    text = "Title line\n\n\n\nSteps:\n# 1. run it\n*No response* is what the server says"
    assert drop_unanswered(text) == "Title line\n\nSteps:\n# 1. run it\n*No response* is what the server says"
    assert drop_unanswered("") == ""
    assert drop_unanswered("## Only a heading\n\n_No response_\n") == ""
    # A heading over its subsections is not empty; an empty subsection is.
    assert drop_unanswered("# Bug\n\n## Steps\n\nrun it\n\n## Logs\n\n# Next\ntext") == (
        "# Bug\n\n## Steps\n\nrun it\n\n# Next\ntext"
    )
