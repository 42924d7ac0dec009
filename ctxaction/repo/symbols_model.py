"""The :class:`Definition` record shared by the definition finders of every language."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Definition:
    """A named definition spanning ``start``..``end`` (1-based, inclusive, decorators included)."""

    name: str
    kind: str  # function, method, class, type, variable, macro, module, impl
    start: int
    end: int
    parent: str = ""  # enclosing class/impl/type name
    # Test code inside a source file (Rust ``#[cfg(test)] mod tests``, ``#[test]``/``@Test`` functions).
    in_test: bool = False

    @property
    def qualname(self) -> str:
        """``Parent.name`` or ``name``."""
        return f"{self.parent}.{self.name}" if self.parent else self.name
