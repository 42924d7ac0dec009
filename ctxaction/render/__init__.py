"""Rendering a :class:`Package` as Markdown, XML-tagged text or JSON, and measuring its parts.

Templates are Jinja2 files shipped in ``ctxaction/render/templates``; untrusted text (issue,
comments, file contents, reasons) is only ever passed to them as data, never compiled as a
template. XML is autoescaped; Markdown escapes inline values and fences blocks. Jinja2 is
imported only when a template is rendered (:mod:`ctxaction.render.templated`): JSON needs none.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from ctxaction.model import Candidate, Package, PackedFile
from ctxaction.pack.budget import packaged_reasons
from ctxaction.render.filters import xml_escape
from ctxaction.render.jsonout import compact, file_entry, to_json, written
from ctxaction.render.order import layout
from ctxaction.repo.files import split_lines
from ctxaction.text.omitted import marker
from ctxaction.tokens import Counter

Format = Literal["markdown", "xml", "json"]
FORMATS: tuple[Format, ...] = ("markdown", "xml", "json")


def render(package: Package, fmt: str) -> str:
    """The package as text in ``fmt`` (markdown, xml or json); secrets in names redacted."""
    from ctxaction.render.names import displayed

    package = displayed(package)
    if fmt == "json":
        return to_json(package)
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    from ctxaction.render.templated import environment

    template = environment().get_template(f"{fmt}.{'md' if fmt == 'markdown' else 'xml'}.j2")
    return str(template.render(p=package, blocks=layout(package)))


class FormatMeasure:
    """Token costs of file pieces as they will appear in ``fmt`` (implements pack.budget.Measure)."""

    def __init__(self, fmt: str, counter: Counter) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        self.fmt, self.counter = fmt, counter
        # JSON lists each range's lines apart: a gap costs the boundary between two lists.
        self._marker = counter.count("],[") if fmt == "json" else self.text_cost(marker(1000, 1999) + "\n")
        listed = {"markdown": "", "xml": ",1000-1999", "json": ",[1000,1999]"}[fmt]
        self._range = counter.count(listed)

    def _escape(self, text: str) -> str:
        if self.fmt == "json":
            return compact(written(split_lines(text)).lines)[1:-1] + ","
        return xml_escape(text) if self.fmt == "xml" else text

    def text_cost(self, text: str) -> int:
        """Tokens of whole lines (with newlines), escaped as the format escapes them."""
        return self.counter.count(self._escape(text))

    def marker_cost(self) -> int:
        """Tokens a run of omitted lines costs: a marker line (JSON: the boundary between ranges)."""
        return self._marker

    def range_cost(self) -> int:
        """Tokens one more range adds to a file's metadata."""
        return self._range

    def file_overhead(self, candidate: Candidate) -> int:
        """Tokens of a file block without its text (heading, reasons, fences or tags)."""
        empty = PackedFile(
            candidate.path,
            "excerpt",
            [(1000, 1999)],
            "",
            0,
            candidate.score,
            # The reasons the block will show, not every reason the ranking gave.
            packaged_reasons(candidate.reasons),
            line_count=9999,
        )
        if self.fmt == "json":  # one empty range's list: its lines are text_cost's
            return self.counter.count(compact(file_entry(empty, [[]])) + ",")
        return self.counter.count(self.file_block(empty))

    def file_block(self, packed: PackedFile) -> str:
        """One file as the format renders it (used to measure its overhead)."""
        if self.fmt == "json":
            return compact(file_entry(packed)) + ","
        from ctxaction.render.templated import environment

        name = "blocks.md.j2" if self.fmt == "markdown" else "blocks.xml.j2"
        module = cast(Any, environment().get_template(name).module)
        return str(module.file_block(packed, False) if self.fmt == "markdown" else module.file_block(packed))
