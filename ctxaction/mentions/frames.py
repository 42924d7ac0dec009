"""Stack-trace frames and ``file:line`` references in Python, JS/TS, Java, Go, Rust, C/C++ formats.

Each parser reads the raw text line by line; a frame keeps the path as written (absolute,
site-packages, Windows, URL …) and is resolved against tracked files later.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CODE_EXT = (
    r"py|pyx|pyi|js|mjs|cjs|jsx|ts|tsx|mts|cts|vue|svelte|go|rs|java|kt|kts|scala|groovy|c|h|cc|cpp|cxx|"
    r"hh|hpp|hxx|inl|ipp|m|mm|cs|rb|php|swift|ex|exs|erl|lua|pl|sh|zig|dart"
)
_PATH_CHARS = r"[\w./\\~@+\-:]"

# Python: File "x.py", line 3, in f   |   IPython: File ~/x.py:841, in Plot._plot(self)
_PY = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>[\w<>.]+))?')
_IPY = re.compile(r"File (?P<path>\S+?\.pyx?):(?P<line>\d+)(?:, in (?P<func>[\w<>.]+))?")
# Old IPython / ipdb: "path.py in func(args)" then "--> 123 code".
_IPY_OLD = re.compile(r"(?<!\S)(?P<path>\S+?\.py)\)?\s+in\s+(?P<func>[\w<>.]+)\(")
_IPY_ARROW = re.compile(r"^\s*-+>\s*(?P<line>\d+)\b")
# JS/TS (V8): at fn (path:12:5) | at path:12:5   Firefox/Safari: fn@path:12:5
_JS = re.compile(
    r"\bat (?:(?P<func>[^\s(]+(?: \[as \w+\])?) \()?(?:file://)?(?P<path>[^\s()]+?\.(?:[cm]?[jt]sx?|vue|svelte))"
    r":(?P<line>\d+)(?::\d+)?\)?"
)
_JS_AT = re.compile(r"^\s*(?P<func>[\w$.<>]*)@(?P<path>\S+?\.(?:[cm]?[jt]sx?)):(?P<line>\d+)(?::\d+)?\s*$")
# Java/Kotlin/Scala: at com.acme.Foo.bar(Foo.java:42)
_JAVA = re.compile(r"\bat (?P<func>[\w$.<>/]+)\((?P<file>[\w$-]+\.(?:java|kt|scala|groovy)):(?P<line>\d+)\)")
# Go: "\t/home/u/proj/pkg/file.go:123 +0x1d" with the function on the previous line.
_GO = re.compile(r"^\s+(?P<path>\S+?\.go):(?P<line>\d+)(?:\s+\+0x[0-9a-f]+)?\s*$")
_GO_FUNC = re.compile(r"^(?P<func>[\w./*()\-]+?)\((?:[^)]*)\)\s*$")
# Rust: "at ./src/main.rs:5:10" (backtrace), "panicked at src/lib.rs:5:10", "--> src/lib.rs:10:5".
_RUST = re.compile(r"(?:\bat|-->)\s+(?P<path>\S+?\.rs):(?P<line>\d+)(?::\d+)?")
_RUST_FUNC = re.compile(r"^\s*\d+:\s+(?:0x[0-9a-f]+ - )?(?P<func>[\w:<>$.{}]+?)(?:::h[0-9a-f]{16})?\s*$")
# gdb / sanitizers: "#1 0x4f in func (args) at file.c:12" / "#1 0x4f in func /path/file.cc:12:3"
_NATIVE = re.compile(
    r"#\d+\s+(?:0x[0-9a-f]+\s+in\s+)?(?P<func>[\w:~<>,* ]+?)\s*(?:\([^)]*\)\s*)?(?:at\s+)?"
    r"(?P<path>\S+?\.(?:c|h|cc|cpp|cxx|hh|hpp|hxx|m|mm|rs|go)):(?P<line>\d+)"
)
# C#: at Ns.Cls.Method() in C:\src\File.cs:line 42
_CSHARP = re.compile(r"\bat (?P<func>[\w.<>`]+)\([^)]*\) in (?P<path>.+?\.cs):line (?P<line>\d+)")
# Generic "path.ext:123" (compilers, linters, pytest, Ruby), "file.c : 2669" as people type it,
# "file.go line 851", and GitHub blob links "path.ext#L12" or "#L12-L20" (both ends kept).
_FILE_LINE = re.compile(
    rf"(?<![\w./\\~@+\-:])(?P<path>{_PATH_CHARS}*[\w\-]\.(?:{_CODE_EXT}))"
    r"(?::| :\s?|#L|\(|, line |\", line |,? (?:at |on )?line )(?P<line>\d+)\b(?:-L(?P<end>\d+)\b)?"
)
# Line first: "at line 851 of tree.go", "line 12 in src/app.ts".
_LINE_OF_FILE = re.compile(
    rf"\b[Ll]ine (?P<line>\d+) (?:of|in) (?:file )?`?(?P<path>{_PATH_CHARS}*[\w\-]\.(?:{_CODE_EXT}))\b"
)
# The in-repository part of a blob/tree link: github.com/owner/repo/blob/<ref>/src/x.go → src/x.go.
_BLOB = re.compile(r"^(?:[\w.\-]+\.\w+)?/[^/]+/[^/]+/(?:-/)?(?:blob|tree|raw|blame)/[^/]+/(?=.)")


@dataclass(frozen=True)
class Frame:
    """One stack frame or file:line reference, in the order it appeared in the text."""

    path: str
    line: int | None
    function: str
    language: str
    innermost_first: bool  # True when this trace format lists the failing call first
    index: int  # position in the text (0 = first frame seen)


def parse_frames(text: str) -> list[Frame]:
    """All frames found in ``text`` (any format), deduplicated by (path, line, function)."""
    found: list[tuple[str, int | None, str, str, bool]] = []
    lines = text.split("\n")
    pending_ipy: tuple[str, str] | None = None
    for i, line in enumerate(lines):
        before = len(found)
        _match_line(line, lines[i - 1] if i else "", found)
        if len(found) > before:
            pending_ipy = None
            continue
        m = _IPY_OLD.search(line)
        if m:
            pending_ipy = (m.group("path"), m.group("func"))
            continue
        arrow = _IPY_ARROW.match(line)
        if arrow and pending_ipy:
            found.append((pending_ipy[0], int(arrow.group("line")), pending_ipy[1], "python", False))
            pending_ipy = None
            continue
        for m in _FILE_LINE.finditer(line):
            path = m.group("path")
            found.append((path, int(m.group("line")), "", _lang_of(path), False))
            if m.group("end") and int(m.group("end")) > int(m.group("line")):
                found.append((path, int(m.group("end")), "", _lang_of(path), False))
        for m in _LINE_OF_FILE.finditer(line):
            found.append((m.group("path"), int(m.group("line")), "", _lang_of(m.group("path")), False))
    seen: set[tuple[str, int | None, str]] = set()
    out: list[Frame] = []
    for path, num, func, lang, inner_first in found:
        path = _clean_path(path)
        key = (path, num, func)
        if not path or key in seen:
            continue
        seen.add(key)
        out.append(Frame(path, num, func, lang, inner_first, len(out)))
    return out


def _match_line(line: str, prev: str, found: list[tuple[str, int | None, str, str, bool]]) -> None:
    """Append the frames of the structured formats that ``line`` holds."""
    for m in _PY.finditer(line):
        found.append((m.group("path"), int(m.group("line")), m.group("func") or "", "python", False))
    if not _PY.search(line):
        for m in _IPY.finditer(line):
            found.append((m.group("path"), int(m.group("line")), m.group("func") or "", "python", False))
    for m in _JAVA.finditer(line):
        func = m.group("func")
        pkg_dir = "/".join(func.split(".")[:-2])
        path = f"{pkg_dir}/{m.group('file')}" if pkg_dir else m.group("file")
        found.append((path, int(m.group("line")), func, "java", True))
    for m in _CSHARP.finditer(line):
        found.append((m.group("path"), int(m.group("line")), m.group("func"), "csharp", True))
    if not _JAVA.search(line) and not _CSHARP.search(line):
        for m in _JS.finditer(line):
            found.append((m.group("path"), int(m.group("line")), m.group("func") or "", "javascript", True))
        m2 = _JS_AT.match(line)
        if m2:
            found.append((m2.group("path"), int(m2.group("line")), m2.group("func"), "javascript", True))
    m3 = _GO.match(line)
    if m3:
        fm = _GO_FUNC.match(prev.strip())
        found.append((m3.group("path"), int(m3.group("line")), fm.group("func") if fm else "", "go", True))
    for m in _RUST.finditer(line):
        fm = _RUST_FUNC.match(prev)
        found.append((m.group("path"), int(m.group("line")), fm.group("func") if fm else "", "rust", True))
    if not _RUST.search(line):
        for m in _NATIVE.finditer(line):
            found.append((m.group("path"), int(m.group("line")), m.group("func").strip(), "c", True))


def _lang_of(path: str) -> str:
    ext = path.rsplit(".", 1)[-1].lower()
    return {"py": "python", "js": "javascript", "ts": "typescript", "go": "go", "rs": "rust",
            "java": "java", "c": "c", "h": "c", "cc": "cpp", "cpp": "cpp"}.get(ext, "")  # fmt: skip


def _clean_path(path: str) -> str:
    """Normalize separators and strip URL schemes, webpack prefixes and wrapping punctuation."""
    path = path.strip().strip("\"'()[]<>,;")
    for prefix in ("file:///", "file://", "webpack:///", "webpack://"):
        if path.startswith(prefix):
            path = path[len(prefix) :]
    if "://" in path:  # http(s)://host/path → /path
        path = "/" + path.split("://", 1)[1].partition("/")[2]
    path = in_repo_path(path)
    path = path.replace("\\", "/")
    drive = path[1:] if path.startswith("/") else path
    if len(drive) > 2 and drive[1] == ":" and drive[0].isalpha():  # C:/Users/... or /C:/Users/...
        path = drive[2:]
    while path.startswith("./"):
        path = path[2:]
    return path


def in_repo_path(path: str) -> str:
    """The path inside the repository of a blob/tree link (``/o/r/blob/v1.2/src/x.go`` → ``src/x.go``)."""
    match = _BLOB.match(path)
    return path[match.end() :] if match else path
