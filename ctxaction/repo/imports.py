"""Import graph around candidate files (both directions) and the test ↔ source mapping.

Imports are read with per-language patterns from the candidate files only, then resolved to tracked
paths; the reverse direction ("imported by") comes from one ``git grep`` for the candidates' module
names, each hit confirmed by resolving that line.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ctxaction.repo.kinds import language_of

_PY_IMPORT = re.compile(r"^\s*import\s+([\w., ]+)")
_PY_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?\s*([\w, *]+)")
_JS_IMPORT = re.compile(r"""(?:\bfrom\s+|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]""")
_GO_IMPORT = re.compile(r'^\s*(?:import\s+)?(?:\w+\s+)?"([\w./\-]+)"\s*$')
_RUST_USE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:use|mod)\s+([\w:]+)")
_JAVA_IMPORT = re.compile(r"^\s*import\s+(?:static\s+)?([\w.]+)")
_C_INCLUDE = re.compile(r'^\s*#\s*include\s+(?:"([^"]+)"|<([^>]+/[^>]+)>)')
_JS_EXTS = ("", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".vue", "/index.ts", "/index.tsx", "/index.js")
_TEST_DIRS = frozenset({"test", "tests", "testing", "__tests__", "spec", "specs", "unittests", "unit_tests"})


@dataclass
class ModuleIndex:
    """Lookup tables from module-ish names to tracked paths."""

    paths: set[str]
    by_module: dict[str, list[str]] = field(default_factory=dict)  # dotted suffix -> paths
    by_dir: dict[str, list[str]] = field(default_factory=dict)  # directory -> code files in it
    by_name: dict[str, list[str]] = field(default_factory=dict)  # basename -> paths

    @classmethod
    def build(cls, paths: Iterable[str]) -> ModuleIndex:
        """Index every tracked path (cheap: string work only)."""
        idx = cls(set(paths))
        # Sorted: the per-directory and per-name lists are cut short by their readers, and a set's
        # order changes with the interpreter's hash seed (the same build would differ run to run).
        for p in sorted(idx.paths):
            idx.by_name.setdefault(posixpath.basename(p), []).append(p)
            idx.by_dir.setdefault(posixpath.dirname(p), []).append(p)
            stem, ext = posixpath.splitext(p)
            if ext not in (".py", ".pyi", ".java", ".kt", ".rs", ".scala"):
                continue
            parts = stem.split("/")
            if parts[-1] in ("__init__", "mod", "lib"):
                parts = parts[:-1]
            for i in range(len(parts)):
                idx.by_module.setdefault(".".join(parts[i:]), []).append(p)
        return idx

    def module(self, dotted: str) -> list[str]:
        """Paths whose module name is ``dotted`` (longest dotted prefix that resolves)."""
        parts = dotted.split(".")
        while parts:
            hit = self.by_module.get(".".join(parts))
            if hit:
                return sorted(hit, key=len)[:3]
            parts = parts[:-1]
        return []


def imports_of(path: str, text: str, idx: ModuleIndex) -> set[str]:
    """Tracked files that ``path`` imports (resolved; unresolvable imports are dropped)."""
    lang = language_of(path)
    out: set[str] = set()
    for line in text.split("\n"):
        out.update(resolve_import_line(path, line, lang, idx))
    out.discard(path)
    return out


def resolve_import_line(path: str, line: str, lang: str, idx: ModuleIndex) -> list[str]:
    """Tracked files one source line imports (empty for lines that import nothing)."""
    if lang == "python":
        return _python_line(path, line, idx)
    if lang in ("javascript", "typescript", "vue", "svelte"):
        return [r for m in _JS_IMPORT.finditer(line) for r in _relative(path, m.group(1), _JS_EXTS, idx)]
    if lang == "go":
        m = _GO_IMPORT.match(line)
        return _go_package(m.group(1), idx) if m else []
    if lang == "rust":
        m = _RUST_USE.match(line)
        return _rust_path(path, m.group(1), line.lstrip().startswith(("mod", "pub mod")), idx) if m else []
    if lang in ("java", "kotlin", "scala"):
        m = _JAVA_IMPORT.match(line)
        return idx.module(m.group(1))[:1] if m else []
    if lang in ("c", "cpp", "objc"):
        m = _C_INCLUDE.match(line)
        return _c_include(path, m.group(1) or m.group(2), idx) if m else []
    return []


def _c_include(path: str, spec: str, idx: ModuleIndex) -> list[str]:
    """``#include "x/y.h"`` relative to the including file, else any tracked path ending in it (an
    include root such as ``include/`` or ``src/``); ``<x/y.h>`` only when it names a directory too,
    so system headers never match a same-named project file."""
    near = _relative(path, "./" + spec, ("",), idx)
    if near:
        return near
    named = idx.by_name.get(posixpath.basename(spec), [])
    return [p for p in named if p == spec or p.endswith("/" + spec)][:2]


C_HEADERS: tuple[str, ...] = (
    ".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tcc", ".tpp", ".txx", ".cuh"
)  # fmt: skip
_C_SOURCES: tuple[str, ...] = (".c", ".cc", ".cpp", ".cxx", ".c++", ".cu", ".m", ".mm")


def header_source_pairs(path: str, idx: ModuleIndex) -> list[str]:
    """The C/C++ source of a header or the header of a source (``include/lib/foo.h`` ↔ ``src/foo.cc``):
    same stem, the other kind of extension, the closest directory first."""
    stem, ext = posixpath.splitext(posixpath.basename(path))
    if ext in C_HEADERS:
        others = _C_SOURCES
    elif ext in _C_SOURCES:
        others = C_HEADERS
    else:
        return []
    found = [p for other in others for p in idx.by_name.get(stem + other, []) if not is_test_path(p)]
    return sorted(found, key=lambda p: (-_shared_dirs(path, p), p))[:2]


def _shared_dirs(a: str, b: str) -> int:
    """Directory names two paths share (``include/yaml-cpp/x.h`` and ``src/x.cpp`` share none)."""
    return len(set(a.split("/")[:-1]) & set(b.split("/")[:-1]))


def _python_line(path: str, line: str, idx: ModuleIndex) -> list[str]:
    if "import" not in line:  # both patterns need the word: most lines skip the regexes
        return []
    m = _PY_FROM.match(line)
    if m:
        dots, mod, names = m.group(1), m.group(2), m.group(3)
        if dots:
            base = posixpath.dirname(path).split("/")
            base = base[: len(base) - (len(dots) - 1)] if len(dots) > 1 else base
            pkg = ".".join([*base, mod] if mod else base).strip(".")
        else:
            pkg = mod
        out: list[str] = []
        for name in (n.strip() for n in names.split(",")):
            if name and name != "*":
                sub = idx.by_module.get(f"{pkg}.{name}")
                if sub:
                    out.extend(sub[:1])
        return out or idx.module(pkg)[:1]
    m = _PY_IMPORT.match(line)
    if m:
        return [p for mod in m.group(1).split(",") for p in idx.module(mod.split(" as ")[0].strip())[:1]]
    return []


def _relative(path: str, spec: str, exts: Sequence[str], idx: ModuleIndex) -> list[str]:
    if not spec.startswith("."):
        return []
    base = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
    for ext in exts:
        if base + ext in idx.paths:
            return [base + ext]
    return []


def _go_package(import_path: str, idx: ModuleIndex) -> list[str]:
    """Go imports name a directory: its non-test files, found by the longest directory suffix."""
    parts = import_path.split("/")
    for i in range(len(parts)):
        files = idx.by_dir.get("/".join(parts[i:]))
        if files:
            return [f for f in files if f.endswith(".go") and not f.endswith("_test.go")][:8]
    return []


def _rust_path(path: str, spec: str, is_mod: bool, idx: ModuleIndex) -> list[str]:
    parts = [p for p in spec.split("::") if p not in ("crate", "self", "super", "")]
    if is_mod and parts:
        here = posixpath.dirname(path)
        for cand in (f"{here}/{parts[0]}.rs", f"{here}/{parts[0]}/mod.rs"):
            if cand.lstrip("/") in idx.paths:
                return [cand.lstrip("/")]
        return []
    return idx.module(".".join(parts))[:1] if parts else []


# -- tests ↔ sources -----------------------------------------------------------------------

_TEST_NAME = re.compile(
    r"^(?:test_(?P<a>.+)|(?P<b>.+?)_tests?|(?P<c>.+?)[._-](?:test|spec)s?|(?P<d>.+?)_unittest|Test(?P<e>[A-Z]\w*)|"
    r"(?P<f>[A-Z]\w*?)Tests?|(?P<g>[A-Z]\w*?)(?:IT|Spec))$"
)


def is_test_path(path: str) -> bool:
    """True for test files by directory (tests/, __tests__/ …) or name (test_x, x_test, x.spec …)."""
    parts = path.split("/")
    if any(p.lower() in _TEST_DIRS for p in parts[:-1]):
        return True
    stem = posixpath.splitext(parts[-1])[0]
    return (stem not in ("test", "tests") and bool(_TEST_NAME.match(stem))) or stem in (
        "conftest",
        "setup_tests",
    )


def tested_name(path: str) -> str | None:
    """The source stem a test file is about (``tests/test_utils.py`` → ``utils``; a plainly named file in
    a test directory, ``tests/parser.rs`` or ``__tests__/format.ts``, is about its own stem), or None."""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    m = _TEST_NAME.match(stem)
    if not m:
        # Only where plain names are the convention: Python's test dirs hold fixtures named like sources.
        plain = posixpath.splitext(path)[1] in (".rs", *_JS_FAMILY)
        in_test_dir = any(p.lower() in _TEST_DIRS for p in path.split("/")[:-1])
        return stem if plain and in_test_dir and stem not in _GENERIC_TEST_STEMS else None
    return next((g for g in m.groups() if g), None)


def tests_for(source: str, idx: ModuleIndex) -> list[str]:
    """Test files whose name points at ``source``'s stem (same language family), nearest first."""
    stem = posixpath.splitext(posixpath.basename(source))[0]
    out: set[str] = set()
    for ext in _sibling_exts(source):
        for cand in _test_names(stem):
            out.update(p for p in idx.by_name.get(cand + ext, []) if p != source)
        # ``tests/parser.rs``, ``__tests__/format.ts``: a test directory's file named like the source.
        out.update(p for p in idx.by_name.get(stem + ext, []) if p != source and tested_name(p) == stem)
    return sorted(out, key=lambda p: (-_shared_dirs(source, p), p))[:4]


def sources_for(test: str, idx: ModuleIndex) -> list[str]:
    """Source files a test file is named after, nearest first."""
    name = tested_name(test)
    if not name:
        return []
    found = {p for ext in _sibling_exts(test) for p in idx.by_name.get(name + ext, []) if not is_test_path(p)}
    return sorted(found, key=lambda p: (-_shared_dirs(test, p), p))[:4]


_GENERIC_TEST_STEMS = frozenset({"mod", "index", "lib", "main", "common", "utils", "helpers", "fixtures"})
_JS_FAMILY = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")


def _sibling_exts(path: str) -> tuple[str, ...]:
    """Extensions a test and its source may differ by (``foo.spec.js`` tests ``foo.ts``)."""
    ext = posixpath.splitext(path)[1]
    if ext in _JS_FAMILY:
        return _JS_FAMILY
    if ext in C_HEADERS or ext in _C_SOURCES:
        return (ext, *(e for e in _C_SOURCES if e != ext))
    return (ext,)


_TEST_FORMS = (
    "test_{}",
    "{}_test",
    "{}_tests",
    "{}.test",
    "{}.spec",
    "{}_unittest",
    "Test{}",
    "{}Test",
    "{}Tests",
)


def _test_names(stem: str) -> list[str]:
    return [f.format(stem) for f in _TEST_FORMS]


def module_names(path: str) -> list[str]:
    """Names other files use to import ``path`` (for the reverse-import search)."""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if stem in ("__init__", "index", "mod", "lib"):
        stem = posixpath.basename(posixpath.dirname(path)) or stem
    return [stem] if re.fullmatch(r"[A-Za-z_][\w-]*", stem) else []
