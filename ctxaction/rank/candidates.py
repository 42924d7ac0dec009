"""Phase 1: every signal proposes files — named paths, stack frames, modules, definitions and uses of
named identifiers, quoted messages, keywords (BM25 over ``git grep`` hits) and PR changed files.

Graph and history signals that need a first ranking (imports, tests, co-change, blame) live in
:mod:`ctxaction.rank.neighbours`.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field

from ctxaction.mentions import Mentions
from ctxaction.model import Task
from ctxaction.rank.board import Board
from ctxaction.rank.defines import (
    DEF_WORDS,
    SIGNATURE_LANGUAGES,
    defined_on,
    definition_patterns,
    keyword_definition,
    maybe_definition,
)
from ctxaction.rank.resolve import resolve_module, resolve_path
from ctxaction.repo import git, search
from ctxaction.repo.files import RepoView, TrackedFile
from ctxaction.repo.imports import ModuleIndex
from ctxaction.repo.kinds import code_globs, is_code, language_of
from ctxaction.repo.symbols import file_definitions

MAX_IDENTIFIERS = 60
MAX_KEYWORDS = 24
# Files whose possible definitions (a signature the one-line patterns cannot read) are confirmed
# by parsing them.
MAX_CONFIRM_FILES = 24
MAX_KEYWORD_FILES = 150
BM25_K1 = 1.2
BM25_B = 0.75
# A keyword that starts a sub-word of the file's path (directory or file name) adds this many times
# its query weight × idf to the file's BM25: the path says what the whole file is about.
PATH_WORD_WEIGHT = 2.0
_MESSAGE_SPLIT = re.compile(r"['\"`{}%()\[\]<>|]|\b\d[\d.]*\b|\s-\s|\\n")
_CLAUSE_SPLIT = re.compile(r"[,;:.!?]\s")


@dataclass
class Context:
    """Everything the signal finders share for one task."""

    repo: RepoView
    task: Task
    mentions: Mentions
    files: dict[str, TrackedFile]
    index: ModuleIndex
    board: Board
    keyword_idf: dict[str, float] = field(default_factory=dict)
    keyword_hits: search.KeywordHits = field(default_factory=search.KeywordHits)
    warnings: list[str] = field(default_factory=list)


def paths_and_frames(ctx: Context) -> None:
    """Files the text names directly, and traceback frames (the innermost in-repo frame strongest)."""
    for raw in ctx.mentions.paths:
        for r in resolve_path(raw, ctx.index):
            ctx.board.add(r.path, "path_mention", r.confidence, f"named in the issue ({raw})")
    resolved = [(f, r) for f in ctx.mentions.frames for r in resolve_path(f.path, ctx.index)]
    if not resolved:
        return
    innermost = resolved[0] if resolved[0][0].innermost_first else resolved[-1]
    for frame, r in resolved:
        value = r.confidence * (1.0 if (frame, r) == innermost else 0.75)
        where = f"line {frame.line}" if frame.line else "a frame"
        func = f" ({frame.function})" if frame.function else ""
        e = ctx.board.add(r.path, "stack_frame", value, f"{where} of the traceback{func}")
        if e is not None and frame.line:
            e.hints.frame_lines[frame.line] = f"{where} of the traceback{func}"


def modules(ctx: Context) -> None:
    """Dotted module paths (``pkg.mod.Class``) resolved to their files."""
    for dotted in ctx.mentions.dotted:
        for r in resolve_module(dotted, ctx.index):
            ctx.board.add(r.path, "module_mention", r.confidence, f"module {dotted} named in the issue")


def identifiers(ctx: Context) -> None:
    """Files that define the named identifiers (strongest) or use them (weighted by rarity)."""
    named = dict(ctx.mentions.identifiers)
    for err in ctx.mentions.errors:
        named[err] = max(named.get(err, 0.0), 0.7)
    top = sorted(named.items(), key=lambda kv: -kv[1])[:MAX_IDENTIFIERS]
    if not top:
        return
    strength = dict(top)
    hits = search.word_hits(ctx.repo, list(strength), code_globs())
    word_re = re.compile(r"\b(" + "|".join(re.escape(n) for n, _ in top) + r")\b")
    definers = definition_patterns([n for n, _ in top])
    maybe = maybe_definition([n for n, _ in top])
    defs: dict[str, dict[str, list[int]]] = {}
    uses: dict[str, dict[str, list[int]]] = {}
    unsure: dict[str, set[str]] = {}
    for hit in hits:
        if hit.path not in ctx.files:
            continue
        defined = {m.group("name") for p in definers for m in p.finditer(hit.text)}
        # In the line's order, not a set's: which name a line's use is credited to must not change
        # with the interpreter's hash seed.
        for name in dict.fromkeys(word_re.findall(hit.text)):
            target = defs if name in defined else uses
            target.setdefault(name, {}).setdefault(hit.path, []).append(hit.line)
        # Python's `def` is always read by the one-line patterns.
        if not hit.path.endswith((".py", ".pyi")) and not hit.text.rstrip().endswith(";"):
            for m in maybe.finditer(hit.text):
                if m.group("name") not in defined:
                    unsure.setdefault(hit.path, set()).add(m.group("name"))
    for path, name, line in _confirmed(ctx.repo, unsure, defs):
        defs.setdefault(name, {}).setdefault(path, []).append(line)
    owners = qualified_owners(ctx.mentions.dotted)
    for name, files in defs.items():
        spec = 1.0 / math.sqrt(len(files))
        for path, lines in files.items():
            owner_bonus = 1.0 if owners.get(name, set()) & set(defs_in(defs, path)) else 0.0
            value = strength[name] * max(spec, owner_bonus)
            e = ctx.board.add(path, "symbol_definition", value, f"defines {name}, named in the issue")
            if e is not None:
                e.hints.defined[name] = max(e.hints.defined.get(name, 0.0), strength[name])
                for line in lines:
                    e.hints.use_lines.setdefault(line, (strength[name], name))
    for name, files in uses.items():
        spec = 1.0 / (1.0 + math.log2(len(files)))
        if spec < 0.12:
            continue
        for path, lines in files.items():
            value = strength[name] * spec * min(1.0, 0.6 + 0.1 * len(lines))
            e = ctx.board.add(path, "symbol_use", value, f"uses {name}, named in the issue")
            if e is not None:
                for line in lines[:40]:
                    old = e.hints.use_lines.get(line, (0.0, ""))
                    if strength[name] * spec > old[0]:
                        e.hints.use_lines[line] = (strength[name] * spec, name)


def _confirmed(
    repo: RepoView, unsure: dict[str, set[str]], known: dict[str, dict[str, list[int]]]
) -> list[tuple[str, str, int]]:
    """(path, name, first line) of the unsure hits that the file's definitions index confirms.

    Bounded: at most ``MAX_CONFIRM_FILES`` files are parsed, those with the most unsure names."""
    out: list[tuple[str, str, int]] = []
    ranked = sorted(unsure.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:MAX_CONFIRM_FILES]
    for path, names in ranked:
        names = {n for n in names if path not in known.get(n, {})}
        text = repo.read_text(path) if names else None
        if text is None:
            continue
        for d in file_definitions(repo, path, text):
            if d.name in names and d.kind != "variable" and not d.in_test:
                out.append((path, d.name, d.start))
    return out


def defs_in(defs: dict[str, dict[str, list[int]]], path: str) -> list[str]:
    """Named identifiers defined in ``path``."""
    return [name for name, files in defs.items() if path in files]


def qualified_owners(dotted: list[str]) -> dict[str, set[str]]:
    """member -> owners from ``Owner.member`` mentions (``Session.resolve_redirects``)."""
    out: dict[str, set[str]] = {}
    for d in dotted:
        parts = d.split(".")
        for owner, member in itertools.pairwise(parts):
            out.setdefault(member, set()).add(owner)
    return out


def messages(ctx: Context) -> None:
    """Files holding the literal text of quoted errors/warnings (format placeholders split out)."""
    fragments: dict[str, float] = {}
    options: set[str] = set()
    for opt in ctx.mentions.options:
        literal = opt.strip(":") if opt.startswith(":") else opt
        if len(literal) >= 5:
            fragments[literal] = 0.9
            options.add(literal)
    for msg in ctx.mentions.messages:
        pieces = _MESSAGE_SPLIT.split(msg)
        # Formatted messages interpolate values between clauses: search the clauses too.
        pieces += [c for p in pieces for c in _CLAUSE_SPLIT.split(p) if c != p]
        for piece in pieces:
            piece = piece.strip(" .,:;!?-=*")
            if len(piece) >= 10 and len(piece.split()) >= 2 and piece not in fragments:
                fragments[piece] = max(fragments.get(piece, 0.0), min(1.0, len(piece) / 30))
            # The value a format string interpolates is often an unquoted word at either end
            # ("no number is assigned for table" from "no number is assigned for %s").
            for trimmed in _trimmed(piece):
                fragments.setdefault(trimmed, 0.8 * min(1.0, len(trimmed) / 30))
    if not fragments:
        return
    hits = search.grep(ctx.repo, ["-F", "-i"], list(fragments)[:40], code_globs())
    per_fragment: dict[str, dict[str, list[int]]] = {}
    for hit in hits:
        if hit.path not in ctx.files:
            continue
        low = hit.text.lower()
        for frag in fragments:
            if frag.lower() in low:
                per_fragment.setdefault(frag, {}).setdefault(hit.path, []).append(hit.line)
    for frag, files in per_fragment.items():
        spec = 1.0 / math.sqrt(len(files))
        for path, lines in files.items():
            short = frag if len(frag) <= 50 else frag[:47] + "…"
            what = "option" if frag in options else "message"
            e = ctx.board.add(path, "error_message", fragments[frag] * spec, f'holds the {what} "{short}"')
            if e is not None:
                held = e.hints.option_lines if what == "option" else e.hints.message_lines
                for line in lines[:10]:
                    held[line] = f'{what} "{short}"'


def _trimmed(piece: str) -> list[str]:
    """The piece without its last word and without its first, when what is left still says something."""
    words = piece.split()
    if len(words) < 4:
        return []
    out = [" ".join(words[:-1]), " ".join(words[1:])]
    return [t for t in out if len(t) >= 18]


def stem(word: str) -> str:
    """A light suffix stripper so ``chunked``/``caching``/``redirects`` prefix-match ``chunk``/``cache``…"""
    for suffix in ("ations", "ation", "ings", "ing", "ers", "ies", "ied", "ed", "es", "er", "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def keywords(ctx: Context) -> None:
    """BM25 of the task's (stemmed) keywords over every eligible file; path words and definition
    names that contain keywords count extra."""
    query: dict[str, float] = {}
    # A reason names a stem by the task's own spelling, the shortest ("range" for "ranges" and
    # "range"), not the stem ("rang"): a reader sees the task's words.
    spelling: dict[str, str] = {}
    for word, weight in sorted(ctx.mentions.keywords.items(), key=lambda kv: -kv[1]):
        base = stem(word)
        query[base] = query.get(base, 0.0) + weight
        if len(word) < len(spelling.get(base, word + " ")):
            spelling[base] = word
    top = sorted(query.items(), key=lambda kv: -kv[1])[:MAX_KEYWORDS]
    if not top:
        return
    qweight = {k: 1.0 + math.log(max(w, 1.0)) for k, w in top}
    hits = search.keyword_hits(ctx.repo, list(qweight), code_globs())
    n_docs = max(1, len(ctx.files))
    sizes = {p: max(f.size, 1) for p, f in ctx.files.items()}
    avg = sum(sizes.values()) / max(1, len(sizes))
    idf = {k: math.log(1 + (n_docs - hits.df.get(k, 0) + 0.5) / (hits.df.get(k, 0) + 0.5)) for k in qweight}
    # Focus weighs a keyword by its rarity and by how much the text leans on it (title words most).
    ctx.keyword_idf = {k: idf[k] * qweight[k] for k in qweight}
    scores: dict[str, float] = {}
    for path, counts in hits.counts.items():
        if path not in ctx.files:
            continue
        norm = BM25_K1 * (1 - BM25_B + BM25_B * sizes[path] / avg)
        scores[path] = sum(qweight[k] * idf[k] * tf * (BM25_K1 + 1) / (tf + norm) for k, tf in counts.items())
    prefix_re = re.compile("|".join(sorted(qweight, key=len, reverse=True)))
    for path in ctx.files:
        low = path.lower()
        found = {
            m.group(0) for m in prefix_re.finditer(low) if m.start() == 0 or not low[m.start() - 1].isalpha()
        }
        for k in found:
            scores[path] = scores.get(path, 0.0) + PATH_WORD_WEIGHT * qweight[k] * idf[k]
    if not scores:
        return
    best = max(scores.values())
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])[:MAX_KEYWORD_FILES]
    for path, s in ranked:
        matched = sorted(hits.counts.get(path, {}), key=lambda k: -idf[k] * qweight[k])[:4]
        reason = f"keywords: {', '.join(spelling[k] for k in matched)}" if matched else None
        ctx.board.add(path, "keyword_match", s / best, reason)
    ctx.keyword_hits = hits
    terms = {k: qweight[k] * idf[k] for k in qweight if len(k) >= 4}
    _definition_names(ctx, terms, [path for path, _ in ranked], spelling)


def _definition_names(
    ctx: Context, terms: dict[str, float], ranked: list[str], spelling: dict[str, str]
) -> None:
    """Definitions whose names contain the task's keywords or named identifiers
    (``_showfixtures_main`` for "fixtures", ``inherited_members_option`` for ``:inherited-members:``):
    named after a definition word, a file signal; named in a bare signature (``static int f(``) in
    one of the ``ranked`` files, a focus hint. ``spelling``: how a reason shows a keyword stem."""
    for name, strength in ctx.mentions.identifiers.items():
        if "_" in name.strip("_") and strength >= 0.5:
            terms[name.lower()] = max(terms.get(name.lower(), 0.0), 3.0 * strength)
    if not terms:
        return
    alternation = "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)[:40])
    pattern = (
        rf"^\s*(?:export\s+)?(?:pub\s+)?(?:async\s+)?{DEF_WORDS}\s+(?:\([^)]*\)\s*)?\w*(?:{alternation})"
    )
    # A type and modifiers before the name, a bounded count of them: an unbounded repeat exhausts
    # PCRE's JIT stack on long lines.
    signature = rf"^\s*(?:[\w<>\[\],*&:]+\s+){{1,6}}[*&]?\w*(?:{alternation})\w*\s*\("
    args = ["-P", "-i"] if search.has_pcre(ctx.repo) else ["-E", "-i"]
    if not search.has_pcre(ctx.repo):
        pattern, signature = pattern.replace("(?:", "("), signature.replace("(?:", "(")
    found: list[tuple[float, str, int, str, list[str], bool]] = []

    def note(path: str, line: int, name: str, keyworded: bool) -> None:
        defined = name.lower()
        # A term the file's path already carries says little about which definition matters.
        matched = [t for t in terms if t in defined]
        weight = sum(terms[t] * (0.3 if t in path.lower() else 1.0) for t in matched)
        if weight > 0:
            found.append((weight, path, line, name, matched, keyworded))

    for hit in search.grep(ctx.repo, args, [pattern], code_globs()):
        introduced = keyword_definition(hit.text) if hit.path in ctx.files else None
        if introduced:
            note(hit.path, hit.line, introduced, True)
    # As a file signal a bare signature's name lifted classes full of such methods (Java visitors)
    # over the fix's files; as a focus hint inside the files the keywords ranked it finds the
    # function (training line_recall 0.447 -> 0.457 as a signal, 0.459 as a hint; file_all 0.555).
    typed = git.literal_paths(p for p in ranked if language_of(p) in SIGNATURE_LANGUAGES)
    for hit in search.grep(ctx.repo, args, [signature], typed) if typed else []:
        names = [n for n in defined_on(hit.text, language_of(hit.path)) if any(t in n.lower() for t in terms)]
        if names:
            note(hit.path, hit.line, names[0], False)
    if not found:
        return
    # Full marks take about the two strongest terms at once: one common word is a weak hint.
    scale = sum(sorted(terms.values(), reverse=True)[:2])
    for weight, path, line, name, matched, keyworded in found:
        value = min(1.0, weight / scale) ** 1.5
        if keyworded:
            reason = f"defines {name} (name matches {', '.join(spelling.get(t, t) for t in matched[:2])})"
            e = ctx.board.add(path, "name_match", value, reason)
        else:
            e = ctx.board.entry(path)
        if e is not None:
            e.hints.name_lines[line] = (value, name)


def pr_changed(ctx: Context) -> None:
    """A PR's changed files are its strongest signal."""
    for path in ctx.task.changed_files:
        ctx.board.add(path, "pr_changed", 1.0, "changed by this pull request")


# Example, tutorial and documentation code shows how the library is used, so an issue's reproducer
# matches it word for word; on the training set such a file is in the fix a third as often as a
# source file (37 of 5,108 candidates against 1,147 of 52,350), and none of the 204 ranked in the
# first fifteen was.
EXAMPLE_DIRS = frozenset(
    {"example", "examples", "sample", "samples", "demo", "demos", "tutorial", "tutorials", "doc", "docs",
     "documentation"}
)  # fmt: skip
EXAMPLE_PRIOR = 0.35
# A file's kind -> its prior (the multiplier of its score) and the reason shown for a lower one.
_PRIORS = {"source": 1.0, "test": 0.35, "example": EXAMPLE_PRIOR, "prose": 0.3, "data": 0.5}
_PRIOR_REASONS = {
    "test": "test file", "example": "example or documentation code", "prose": "not source code",
    "data": "not source code",
}  # fmt: skip


def is_example_path(path: str) -> bool:
    """True for files under an example, tutorial or documentation directory."""
    return any(part.lower() in EXAMPLE_DIRS for part in path.split("/")[:-1])


def _kind(path: str, is_test: bool) -> str:
    if is_test:
        return "test"
    if is_code(path):
        return "example" if is_example_path(path) else "source"
    return "prose" if path.endswith((".md", ".rst", ".txt", ".adoc")) else "data"


def code_prior(path: str, named: bool, is_test: bool) -> float:
    """Multiplier for the kind of file: sources 1.0; tests, examples, docs and data lower unless
    named outright."""
    return 1.0 if named else _PRIORS[_kind(path, is_test)]


def prior_reason(path: str, is_test: bool) -> str:
    """Why a file's prior is below 1.0, for its reasons (a source file's is not)."""
    return _PRIOR_REASONS[_kind(path, is_test)]
