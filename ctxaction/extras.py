"""Which optional dependencies a command needs, and the extra that installs them.

The bare package is the secret scanner and its pre-commit hook (pre-commit installs no extras);
packaging needs ``[build]``, the GitHub Action ``[action]``. A command whose extra is missing says
so in one line instead of failing on an import deep inside.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable

# Import name -> (distribution name, the smallest extra that brings it).
_PROVIDERS = {
    "tiktoken": ("tiktoken", "build"),
    "jinja2": ("Jinja2", "build"),
    "markdown_it": ("markdown-it-py", "build"),
    "nh3": ("nh3", "build"),
    "github": ("PyGithub", "action"),
}


def missing(modules: Iterable[str]) -> str | None:
    """None when every module imports; else one line naming what is missing and how to install it."""
    absent = [name for name in modules if importlib.util.find_spec(name) is None]
    if not absent:
        return None
    extras = sorted({_PROVIDERS[name][1] for name in absent}, key=("build", "action").index)
    names = ", ".join(_PROVIDERS[name][0] for name in absent)
    return f"{names} not installed: pip install 'ctxaction[{extras[-1]}]'"
