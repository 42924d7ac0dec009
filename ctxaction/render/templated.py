"""The Jinja2 environment for the Markdown and XML templates (imported only when one is rendered)."""

from __future__ import annotations

from functools import lru_cache

import jinja2
import markupsafe

from ctxaction.render.filters import (
    ends_with_newline,
    inline,
    language,
    mode_label,
    prose,
    range_list,
    task_label,
    xml_escape,
)
from ctxaction.sanitize import FRAMING
from ctxaction.text.fences import fence_for


def xml_text(text: str) -> markupsafe.Markup:
    """Escaped element content, marked safe so autoescaping does not escape it twice."""
    return markupsafe.Markup(xml_escape(text))


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The Jinja2 environment for the shipped templates (XML autoescaped, undefined is an error)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("ctxaction.render", "templates"),
        autoescape=lambda name: bool(name and ".xml" in name),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(
        fence=fence_for,
        inline=inline,
        prose=prose,
        language=language,
        range_list=range_list,
        mode_label=mode_label,
        task_label=task_label,
        ends_with_newline=ends_with_newline,
        xml_text=xml_text,
    )
    env.globals["framing"] = FRAMING
    return env
