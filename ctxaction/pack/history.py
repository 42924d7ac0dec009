"""The thread: comments newest first within the history share, older ones compressed extractively.

No model is called: compression keeps the sentences that carry the most signal (code, paths,
errors, the first sentence) in their original order. Bots' comments (our own package comments
among them) are left out. Also: fitting a long task body into its allowance, without the questions
of its issue form that the reporter left unanswered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ctxaction.model import Comment, HistoryEntry
from ctxaction.repo.files import split_lines
from ctxaction.text import fences, headings
from ctxaction.tokens import Counter

# The newest comments go in whole while they stay within this part of the share.
WHOLE_SHARE = 0.6
COMPRESSED_TOKENS = 80
SEPARATOR = " … "
FENCE_LINES = 3  # a code block in a compressed comment keeps its first lines
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(\[])|\n+")
_CODEY = re.compile(r"`[^`]+`|\w+\(\)|\w+\.\w{1,4}\b|\b[a-z]+_[a-z_]+\b|\b[A-Z][a-z]+[A-Z]\w*\b|/\w+")
# GitHub writes an issue form's unanswered field as its label (a heading) over "_No response_".
_NO_RESPONSE = re.compile(r"[_*]No response[_*]")
_SIGNAL = re.compile(
    r"\b(?:error|exception|fail\w*|traceback|crash\w*|expected|actual|instead|because|fix\w*|"
    r"regression|broken|works?|version|reproduc\w*)\b",
    re.IGNORECASE,
)


def _strip_noise(text: str) -> str:
    """Quoted replies out, fenced blocks cut to their first lines."""
    out: list[str] = []
    for block in fences.blocks("\n".join(split_lines(text))):
        if block.code:
            out.extend(line.strip() for line in block.inner[:FENCE_LINES])
        else:
            out.extend(line for line in block.lines if not line.strip().startswith(">"))
    return "\n".join(out)


def compress(text: str, limit: int, counter: Counter) -> str:
    """An extractive summary of ``text`` within ``limit`` tokens (sentences in original order)."""
    sentences = [s.strip() for s in _SENTENCE.split(_strip_noise(text)) if s and s.strip()]
    if not sentences:
        return ""
    ranked = sorted(
        range(len(sentences)),
        key=lambda i: (
            -(3 * (i == 0) + 2 * bool(_CODEY.search(sentences[i])) + bool(_SIGNAL.search(sentences[i]))
              + ("?" in sentences[i])),
            i,
        ),
    )
    chosen: list[int] = []
    for i in ranked:
        trial = SEPARATOR.join(sentences[k] for k in sorted([*chosen, i]))
        if counter.count(trial) <= limit:
            chosen.append(i)
    if not chosen:
        return _cut(sentences[0], limit, counter)
    return SEPARATOR.join(sentences[k] for k in sorted(chosen))


def _cut(text: str, limit: int, counter: Counter) -> str:
    """The longest word-boundary prefix of ``text`` within ``limit`` tokens, marked with "…"."""
    words = text.split()
    lo, hi = 0, len(words)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if counter.count(" ".join(words[:mid]) + " …") <= limit:
            lo = mid
        else:
            hi = mid - 1
    return " ".join(words[:lo]) + " …" if lo else ""


def pack_history(
    comments: Sequence[Comment], share: int, counter: Counter, *,
    depth: int | None = None, clean: Callable[[str], str] = lambda t: t,
) -> list[HistoryEntry]:
    """Thread comments for the package, oldest first, within ``share`` tokens.

    Newest comments are taken whole while they fit in ``WHOLE_SHARE`` of the share, older ones
    are compressed to at most ``COMPRESSED_TOKENS``; ``depth`` caps how many comments are read.
    """
    people = [c for c in comments if not c.is_bot and c.body.strip()]
    if depth is not None:
        people = people[-depth:] if depth > 0 else []
    picked: list[HistoryEntry] = []
    used = 0
    whole_limit = int(share * WHOLE_SHARE)
    for comment in reversed(people):
        text = clean(comment.body.strip())
        tokens = counter.count(text)
        compressed = False
        if used + tokens > whole_limit or (picked and picked[-1].compressed):
            text = compress(text, min(COMPRESSED_TOKENS, share - used), counter)
            tokens, compressed = counter.count(text), True
        if not text or used + tokens > share:
            break
        used += tokens
        picked.append(HistoryEntry(comment.author, comment.created_at, text, tokens, compressed))
    return list(reversed(picked))


def drop_unanswered(text: str) -> str:
    """``text`` without GitHub's ``_No response_`` lines, empty code blocks, and the headings left
    with nothing under them (an issue form's unanswered questions); other code blocks as they are."""
    out: list[tuple[str, bool]] = []  # each line, and whether a code block holds it
    for block in fences.blocks("\n".join(split_lines(text))):
        if block.code:
            if any(line.strip() for line in block.inner):  # a form's empty log field is a bare fence
                out.extend((line, True) for line in block.lines)
            continue
        for line in block.lines:
            if _NO_RESPONSE.fullmatch(line.strip()):
                continue
            if (atx := headings.heading(line)) is not None:
                _drop_empty_section(out, atx.level)
            out.append((line, False))
    _drop_empty_section(out, 1)
    return "\n".join(_squeeze_blanks(out))


def _drop_empty_section(out: list[tuple[str, bool]], next_level: int) -> None:
    """Remove the last heading of ``out`` when only blank lines follow it and the next heading (of
    ``next_level``) ends its section rather than opening a subsection."""
    k = len(out)
    while k and not out[k - 1][0].strip() and not out[k - 1][1]:
        k -= 1
    last = headings.heading(out[k - 1][0]) if k and not out[k - 1][1] else None
    if last is not None and last.level >= next_level:
        del out[k - 1 :]


def _squeeze_blanks(lines: list[tuple[str, bool]]) -> list[str]:
    """Runs of blank prose lines as one, none at either end; code block lines as they are."""
    out: list[str] = []
    after_blank = True
    for line, code in lines:
        blank = not code and not line.strip()
        if not (blank and after_blank):
            out.append(line)
        after_blank = blank
    while out and not out[-1].strip():
        out.pop()
    return out


def fit_text(text: str, limit: int, counter: Counter) -> str:
    """``text`` whole when it fits ``limit`` tokens, else its first and last lines with a marker."""
    if counter.count(text) <= limit:
        return text
    lines = split_lines(text)
    head: list[str] = []
    tail: list[str] = []
    used = counter.count("… 99999 lines of the text omitted …\n")
    for line in lines:
        cost = counter.count(line + "\n")
        if used + cost > limit * 0.7:
            if not head:  # one giant first line: keep what fits of it
                head.append(_cut(line, int(limit * 0.7) - used, counter))
                used += counter.count(head[0] + "\n")
            break
        head.append(line)
        used += cost
    for line in reversed(lines[len(head):]):
        cost = counter.count(line + "\n")
        if used + cost > limit:
            break
        tail.insert(0, line)
        used += cost
    skipped = len(lines) - len(head) - len(tail)
    return "\n".join([*head, f"… {skipped} lines of the text omitted …", *tail]) + "\n"
