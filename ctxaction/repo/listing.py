"""Git's listings of a repository's files (``ls-files -s -z``, ``ls-tree -l -z``) parsed, and the
paths they or a caller name made clean and repo-relative."""

from __future__ import annotations

import posixpath

from ctxaction.repo import git

__all__ = ["normalize", "not_utf8_names", "parse_ls_files", "parse_ls_tree"]


def normalize(path: str) -> str | None:
    """A clean repo-relative posix path, or None when it is absolute or climbs out with ``..``."""
    if not path or path.startswith("/") or "\0" in path:
        return None
    norm = posixpath.normpath(path.replace("\\", "/"))
    if norm == "." or norm.startswith("../") or norm == "..":
        return None
    return norm


def parse_ls_files(data: bytes) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Records ``<mode> <oid> <stage>\\t<path>``: (mode, oid, path) per path, a conflicted one
    listed once; and the conflicted paths (stage 1–3), sorted."""
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    unmerged: set[str] = set()
    for record in git.split_z(data):
        meta, _, path = record.partition("\t")
        fields = meta.split()
        if len(fields) < 3:
            continue
        if fields[2] != "0":
            unmerged.add(path)
        if path in seen:
            continue
        seen.add(path)
        out.append((fields[0], fields[1], path))
    return out, sorted(unmerged)


def not_utf8_names(data: bytes) -> set[str]:
    """The names (as decoded, U+FFFD for bad bytes) of NUL-terminated ``ls-files -s`` /
    ``ls-tree`` records whose bytes are not UTF-8. One pass over the whole listing; records are
    looked at one by one only when it holds a bad byte."""
    if data.isascii():
        return set()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return set()
    bad: set[str] = set()
    for record in data.split(b"\0"):
        try:
            record.decode("utf-8")
        except UnicodeDecodeError:
            bad.add(record.decode("utf-8", "replace").partition("\t")[2])
    return bad


def parse_ls_tree(data: bytes) -> list[tuple[str, str, int, str]]:
    """Records ``<mode> <type> <oid> <size>\\t<path>`` (size ``-`` for submodules, ``BAD`` if absent)."""
    out: list[tuple[str, str, int, str]] = []
    for record in git.split_z(data):
        meta, _, path = record.partition("\t")
        fields = meta.split()
        if len(fields) >= 4:
            size = int(fields[3]) if fields[3].isdigit() else (0 if fields[3] == "-" else -1)
            out.append((fields[0], fields[2], size, path))
    return out
