"""The comment a person reads (ctxaction/github/comment.py): permalinks, escaping, the limit."""

from __future__ import annotations

from ctxaction.github.comment import CommentContext, compose, packaged_sha, permalink
from ctxaction.github.deliver import utf16_len
from ctxaction.markdown import has_live_markup
from ctxaction.model import Package, PackedFile, Task

SHA = "0123456789abcdef0123456789abcdef01234567"
CTX = CommentContext(server="https://github.com", repo="o/r", where_full="the job summary")


def _package(files: int = 2, text: str = "x = 1\n") -> Package:
    return Package(
        task=Task(
            title="[Win](https://evil.example) ![](x.png)",
            body="# Injected\nsecond line",
            kind="issue",
            number=7,
        ),
        profile="bugfix",
        files=[
            PackedFile(
                f"src/a b{i}.py",
                "excerpt",
                [(10, 40), (88, 88)],
                text,
                120,
                1 - i / 100,
                ["named [here](https://x)"],
                "",
                400,
            )
            for i in range(files)
        ],
        total_tokens=1500,
        head=SHA,
    )


def test_permalinks_name_the_commit_and_the_lines() -> None:
    assert (
        permalink(CTX, SHA, "src/a b.py", 10, 40) == f"https://github.com/o/r/blob/{SHA}/src/a%20b.py#L10-L40"
    )
    assert permalink(CTX, SHA, "src/x.py", 88, 88).endswith("#L88")
    body, shortened = compose(_package(), CTX)
    assert not shortened and packaged_sha(body) == SHA
    assert f"[10–40](https://github.com/o/r/blob/{SHA}/src/a%20b0.py#L10-L40)" in body
    assert f"[88](https://github.com/o/r/blob/{SHA}/src/a%20b0.py#L88)" in body


def test_untrusted_text_injects_no_link_image_or_heading() -> None:
    body, _ = compose(_package(), CTX)
    head = body.split("<details>", 1)[0]
    links = [t for t in has_live_markup(head) if t != "heading"]
    assert links.count("link_open") == head.count("](https://github.com/o/r/")  # only ours
    assert "image" not in links and "evil.example" in head
    assert has_live_markup(head).count("heading") == 1


def test_everything_fits_the_limit_in_utf16_units() -> None:
    big = _package(files=30, text="🎉 " * 3000 + "\n")
    for style in ("compact", "full"):
        ctx = CommentContext(
            server="https://github.com", repo="o/r", where_full="the job summary", style=style
        )
        body, shortened = compose(big, ctx, limit=20_000)
        assert shortened and utf16_len(body) <= 20_000 and packaged_sha(body) == SHA
