"""What a path is, judged from its name alone: language, vendored, lockfile, generated, minified."""

from __future__ import annotations

import posixpath
import re

_LANGUAGES = {
    ".py": "python", ".pyi": "python", ".pyx": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".scala": "scala",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hh": "cpp", ".hpp": "cpp",
    ".hxx": "cpp", ".ipp": "cpp", ".inl": "cpp", ".c++": "cpp", ".h++": "cpp", ".tcc": "cpp", ".tpp": "cpp",
    ".txx": "cpp", ".cppm": "cpp", ".ixx": "cpp", ".cu": "cpp", ".cuh": "cpp", ".pxd": "python",
    ".pxi": "python", ".cs": "csharp", ".rb": "ruby", ".php": "php",
    ".swift": "swift", ".m": "objc", ".mm": "objc", ".sh": "shell", ".bash": "shell",
    ".md": "markdown", ".rst": "rst", ".txt": "text", ".json": "json", ".yaml": "yaml", ".yml": "yaml",
    ".toml": "toml", ".cfg": "ini", ".ini": "ini", ".html": "html", ".css": "css", ".scss": "scss",
    ".vue": "vue", ".svelte": "svelte", ".sql": "sql", ".xml": "xml", ".proto": "protobuf",
}  # fmt: skip

CODE_LANGUAGES = frozenset(
    {"python", "javascript", "typescript", "go", "rust", "java", "kotlin", "scala", "c", "cpp", "csharp",
     "ruby", "php", "swift", "objc", "shell", "vue", "svelte"}
)  # fmt: skip

_VENDOR_DIRS = frozenset(
    {"vendor", "vendored", "_vendor", "node_modules", "bower_components", "jspm_packages", "third_party",
     "third-party", "thirdparty", "3rdparty", "site-packages", ".yarn", "extern"}
)  # fmt: skip

_LOCKFILES = frozenset(
    {"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "Cargo.lock",
     "poetry.lock", "Pipfile.lock", "pdm.lock", "uv.lock", "composer.lock", "Gemfile.lock", "go.sum",
     "mix.lock", "flake.lock", "Podfile.lock", "pubspec.lock", "packages.lock.json", "gradle.lockfile",
     "conda-lock.yml", "Package.resolved"}
)  # fmt: skip

_GENERATED_SUFFIXES = (
    "_pb2.py", "_pb2_grpc.py", "_pb2.pyi", ".pb.go", ".pb.gw.go", ".pb.cc", ".pb.h", ".g.dart",
    ".freezed.dart", ".designer.cs", ".js.map", ".css.map", ".d.ts.map",
)  # fmt: skip
_GENERATED_DIRS = frozenset({"__generated__", "__snapshots__"})
_MINIFIED_SUFFIXES = (".min.js", ".min.css", ".min.mjs", "-min.js", ".bundle.js")


# A library copied in with its version in the name: jquery-3.5.1.js, underscore-1.13.1.min.js.
_VERSIONED_ASSET = re.compile(r"^[A-Za-z][\w.]*?[-.]v?\d+\.\d+(?:\.\d+)?(?:[-.][\w]+)*\.(?:js|css|mjs)$")


def language_of(path: str) -> str:
    """Language name from the extension ("" when unknown); used for parsing and code fences."""
    base = posixpath.basename(path)
    if base in ("Makefile", "makefile", "GNUmakefile"):
        return "make"
    if base == "Dockerfile":
        return "dockerfile"
    return _LANGUAGES.get(posixpath.splitext(base)[1].lower(), "")


def code_globs() -> list[str]:
    """Pathspecs (``*.py`` …) matching source files of every known programming language."""
    return sorted(f"*{ext}" for ext, lang in _LANGUAGES.items() if lang in CODE_LANGUAGES)


def is_code(path: str) -> bool:
    """True for source files of a programming language (not docs, data or config)."""
    return language_of(path) in CODE_LANGUAGES


def path_skip_reason(path: str) -> str | None:
    """Why a path stays out of packages judging by its name, or None."""
    parts = path.split("/")
    base = parts[-1]
    if base in _LOCKFILES or (base.endswith(".lock") and base != ".lock"):
        return "lockfile"
    if any(p in _VENDOR_DIRS for p in parts[:-1]) or _VERSIONED_ASSET.match(base):
        return "vendored"
    lower = base.lower()
    if lower.endswith(_MINIFIED_SUFFIXES):
        return "minified"
    if (
        lower.endswith(_GENERATED_SUFFIXES)
        or ".generated." in lower
        or any(p in _GENERATED_DIRS for p in parts[:-1])
    ):
        return "generated"
    return None
