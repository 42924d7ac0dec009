"""Split issue Markdown into prose, inline code and fenced code, dropping template noise."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ctxaction.mentions.frames import in_repo_path
from ctxaction.text import fences, headings

SegmentKind = Literal["prose", "inline", "fence"]

# Links name hosts, owners and commit ids, not code: only a blob link's in-repo path is kept.
_URL = re.compile(r"\b(?:https?|ftp)://[^\s<>()\[\]\"'`]+")
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_LANG = re.compile(r"[\w+-]*")
_INLINE = re.compile(r"(`+)([^\n`][^\n]*?)\1")
_HTML_TAG = re.compile(
    r"</?(?:details|summary|br|p|b|i|em|strong|code|pre|img|a|sub|sup|kbd|div|span)\b[^>]*>", re.I
)
# ``pip list`` / ``conda list`` rows: a package name then a version, nothing that names code.
_PACKAGE_ROW = re.compile(
    r"^\s*[\w.\-\[\]]+\s+v?\d+(?:\.[\w+]+)+\S*(?:\s+\S+)?\s*$"
    r"|^\s*[\w.\-]+\s*:\s*(?:v?\d[\w.+\-]*|None|installed|True|False)\s*$"
)


# A line that is one bold phrase: a prefix only, the rest is checked by string methods.
_BOLD_LINE = re.compile(r" {0,3}\*\*([^*\n]{2,80})\*\*")
# Headings of issue-template sections about the reporter's setup or the form itself, not the code.
_SETUP_HEADING = re.compile(
    r"(?:your |the )?(?:environment(?: info(?:rmation)?| details)?|system info(?:rmation)?"
    r"|platforms?|operating systems?|os(?: version)?|browsers?|devices?"
    r"|(?:[\w.+ -]+ )?versions?(?: info(?:rmation)?)?|installation method|package manager"
    r"|virtual environment|code of conduct|privacy checklist|(?:pre-?flight )?checklist"
    r"|prerequisites|(?:are you|would you be) willing to .*|contributing)"
)


def _heading(line: str) -> str | None:
    """The heading ``line`` holds, lower-cased and reduced to letters, digits and ``.+ -``."""
    atx = headings.heading(line)
    if atx is not None:
        text = atx.text
    else:
        m = _BOLD_LINE.match(line)
        if not m or line[m.end() :].strip() not in ("", ":"):
            return None
        text = m.group(1)
    return re.sub(r"[^a-z0-9.+ -]", "", text.lower()).strip(" :.")


def drop_setup_dumps(body: str) -> str:
    """``body`` without the code blocks of its setup sections ("Environment", "OS", "Python
    version"…): dumps of the reporter's machine and tool settings (``biome rage``, ``pip freeze``,
    ``rich.diagnose``), whose keys match code all over a repository."""
    out: list[str] = []
    setup = False
    for block in fences.blocks(body):
        if not block.code:
            for line in block.lines:
                name = _heading(line)
                if name is not None:
                    setup = bool(_SETUP_HEADING.fullmatch(name))
            out.extend(block.lines)
        elif not setup:
            out.extend(block.lines)
    return "\n".join(out)


@dataclass(frozen=True)
class Segment:
    """A piece of the task text and where it stood (title, prose, inline code or a code block)."""

    text: str
    kind: SegmentKind
    title: bool = False
    lang: str = ""


def clean(text: str) -> str:
    """Drop HTML comments (issue-template hints), known markup tags and package-version listings."""
    text = _HTML_COMMENT.sub("", text.replace("\r\n", "\n"))
    text = _HTML_TAG.sub(" ", text)
    text = _URL.sub(_link_path, text)
    return "\n".join(line for line in text.split("\n") if not _PACKAGE_ROW.match(line))


def segments(title: str, body: str) -> list[Segment]:
    """The title and body as segments, code blocks and inline code kept apart from prose."""
    out = _split_inline(clean(title), title=True)
    for block in fences.blocks(clean(body)):
        if block.code:
            lang = _LANG.match(block.info)
            out.append(Segment("\n".join(block.inner), "fence", lang=lang.group().lower() if lang else ""))
        else:
            out.extend(_split_inline("\n".join(block.lines)))
    return [s for s in out if s.text.strip()]


def _split_inline(text: str, title: bool = False) -> list[Segment]:
    out: list[Segment] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(Segment(text[pos : m.start()], "prose", title))
        out.append(Segment(m.group(2).strip(), "inline", title))
        pos = m.end()
    out.append(Segment(text[pos:], "prose", title))
    return out


def _link_path(match: re.Match[str]) -> str:
    """A blob/tree link's in-repo path (``src/map.rs``), or a space for any other link."""
    path = "/" + match.group(0).split("://", 1)[1].partition("/")[2]
    inner = in_repo_path(path.split("#", 1)[0].split("?", 1)[0])
    return f" {inner} " if inner != path.split("#", 1)[0].split("?", 1)[0] else " "
