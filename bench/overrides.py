"""``module.ATTR=value`` overrides of the package's constants, for the bench scripts' ``--set``."""

from __future__ import annotations

import ast
import importlib


def apply(settings: list[str]) -> None:
    """Set each ``module.ATTR`` to ``value`` (a Python literal: a number, tuple or dict)."""
    for item in settings:
        target, _, value = item.partition("=")
        module, _, attr = target.rpartition(".")
        setattr(importlib.import_module(module), attr, ast.literal_eval(value))
