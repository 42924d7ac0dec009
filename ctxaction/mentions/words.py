"""Identifiers, dotted names, error names and messages, paths and keywords named by issue text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ctxaction.mentions.frames import in_repo_path
from ctxaction.mentions.text import Segment


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# ``pkg.mod.Class``, ``crate::mod::Item``, ``obj->field``, Javadoc/Ruby-doc ``Class#method``.
_DOTTED = re.compile(
    r"(?<![\w.#])[A-Za-z_]\w*(?:(?:\.|::|->)[A-Za-z_]\w*|(?<=[a-z0-9])#[a-z_]\w*)+(?![\w(]*\.\w*/)"
)
_SEPARATORS = re.compile(r"\.|::|->|#")
# Host names written without a scheme (go.dev, www.w3.org): a chain ending in one of these.
_TLDS = _wordset("com org net dev edu gov io")
_CALL = re.compile(r"(?<!\w)([A-Za-z_]\w*)\s*\(")
_CAMEL = re.compile(r"[a-z0-9][A-Z]|[A-Z]{2}[a-z]")
_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_ERROR_NAME = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Failure|Fault))\b")
_MESSAGE_LINE = re.compile(
    r"^\s*(?:E\s+|>\s*)?(?:[\w.]*(?:Error|Exception|Warning|Exit|Failure)|WARNING|ERROR|Error|Warning|"
    r"error|warning|panic|FATAL|fatal|CRITICAL)(?:\[[\w-]+\])?:\s*(?P<msg>.{6,300}?)\s*$",
    re.M,
)
_OUTPUT_LINE = re.compile(
    r"^\s*E\s{2,}(?!\+|-|\?|assert\b|where\b|and\b)(.{8,200}?)\s*$"
    r"|^\s*(?:\[\w+\]\s*)?(.{0,80}\b(?:cannot|could not|couldn't|unable to|not allowed|invalid|must be|"
    r"expected|unexpected|unknown|unsupported|not supported|failed to|no such|not found)\b.{0,120}?)\s*$",
    re.I,
)
# A blockquoted line that complains is usually pasted program output (its message may be too long
# for _OUTPUT_LINE, which wants whole short lines).
_BLOCKQUOTE = re.compile(r"^\s{0,3}>\s?([A-Za-z].{11,600})$", re.M)
_COMPLAINT = re.compile(
    r"\b(?:cannot|can't|could not|couldn't|unable to|not allowed|invalid|must be|expected|unexpected|unknown|"
    r"unsupported|not supported|failed to|no such|not found|deprecated|is not|are not|does not)\b",
    re.I,
)
_QUOTED = re.compile(r"\"([^\"\n]{10,200})\"|“([^”\n]{10,200})”")
# Starts only at a token boundary and has one unbounded run, so it stays linear on long junk lines.
_PATH = re.compile(r"(?<![\w@./\-])[\w./\-]*[\w\-]\.(?P<ext>[A-Za-z]\w{0,9})(?!\w)")
_ISSUE_REF = re.compile(r"(?<![\w/&])#(\d{1,7})\b|/(?:issues|pull)/(\d{1,7})\b")
# A commit hash: 7-40 lower-case hex digits, not inside a longer token, a UUID (dashes) or a colour.
_COMMIT_REF = re.compile(r"(?<![\w#-])[0-9a-f]{7,40}(?![\w-])")
MAX_COMMIT_REFS = 4
_FILE_EXTS = _wordset(
    "py pyx pyi js mjs cjs jsx ts tsx vue svelte go rs java kt scala groovy c h cc cpp cxx hh hpp hxx "
    "cs rb php swift m mm sh bash zsh ps1 md rst txt cfg ini toml yaml yml json xml html htm css scss "
    "less sql proto graphql gradle cmake mk lock tf hcl ex exs erl lua pl r jl dart zig"
)

# Words that name nothing in particular in an issue (English, issue templates, generic tech words).
STOPWORDS = _wordset(
    """a about above after again against all also am an and any are aren as at be because been before
    being below between both but by can cannot could did didn do does doesn doing don down during each
    few for from further had has have having he her here hers him his how i if in into is isn it its
    itself just let me more most my no nor not now of off on once only or other our out over own same
    she should so some such than that the their them then there these they this those through to too
    under until up very was wasn we were weren what when where which while who whom why will with won
    would you your yours yes okay ok hi hello thanks thank please sorry like get got gets use used
    using uses want wanted need needs needed make makes made seem seems seemed think thought know
    known try tried trying way well really still even though since however instead rather maybe
    perhaps actually currently already always never sometimes often something anything everything
    nothing someone anyone thing things lot lots much many one two three first second new old same
    different able unable possible ways case cases example examples e g eg ie etc via per vs
    bug bugs issue issues problem problems describe description expected behavior behaviour actual
    reproduce reproduction steps step result results fix fixed fixes work works worked working
    fail fails failed failing failure broken break breaks correct correctly incorrect wrong right
    true false none null nil undefined see saw look looks looked environment info information os mac
    macos linux windows ubuntu screenshot screenshots additional context project minimal complete
    verifiable mcve sample following note notes https http www com org github currently available
    happen happens happened happening expect expects instead following seems below above value values
    return returns returned set sets add added code line lines file files time times default version
    versions option options python output outputs input error errors"""
)
IDENT_STOP = _wordset(
    """self cls args kwargs none true false print len str int float bool dict list tuple set range
    object type import from return def class lambda yield async await pass raise try except finally
    with while for if elif else not and or is in np pd plt xr sns os sys re foo bar baz qux spam eggs
    df ds da fig ax x y z i j k n a b c d e f g obj tmp test main init new get set value data item
    key val this super function const let var func fn mut impl pub use string number boolean void
    null nil undefined println printf console log require module exports package"""
)


def split_identifier(token: str) -> list[str]:
    """Sub-words of an identifier, lowercased: ``getHTTPResponse_code`` → get, http, response, code."""
    out: list[str] = []
    for piece in token.split("_"):
        out.extend(p.lower() for p in _SPLIT.findall(piece))
    return out


def is_code_like(token: str) -> bool:
    """CamelCase, snake_case, dunder or ALL_CAPS_WITH_UNDERSCORE: shaped like a code name."""
    inner = token.strip("_")
    if not inner:
        return False
    return "_" in inner or bool(_CAMEL.search(inner)) or (token.startswith("__") and token.endswith("__"))


def identifiers(segs: Iterable[Segment]) -> dict[str, float]:
    """Code names with a strength in 0..1 (inline code and titles strongest, code blocks weakest)."""
    out: dict[str, float] = {}

    def add(name: str, weight: float, marked: bool = False) -> None:
        # A capitalized word the issue marks as code (`Number`, `Eq`) is a type name even when
        # its lower-case form is an English or throwaway word.
        exempt = marked and name[:1].isupper() and len(name) >= 2
        if name.isdigit() or (not exempt and (len(name) < 3 or name.lower() in IDENT_STOP)):
            return
        prev = out.get(name, 0.0)
        out[name] = min(1.0, max(prev, weight) + (0.05 if prev else 0.0))

    segs = list(segs)
    spans = {s.text for s in segs if s.kind == "inline" and _IDENT.fullmatch(s.text)}
    for seg in segs:
        called = {m.group(1) for m in _CALL.finditer(seg.text)}
        dotted: set[str] = set()
        prefixes: set[str] = set()  # leading parts of chains: packages and aliases (sphinx, ext, np)
        for m in _DOTTED.finditer(seg.text):
            parts = _SEPARATORS.split(m.group(0))
            if _not_code_chain(m.group(0), parts):
                continue
            dotted.update(parts)
            prefixes.update(p for p in parts[:-1] if not is_code_like(p))
        in_files = {m.group(0).rsplit(".", 1)[0] for m in _PATH.finditer(seg.text)}
        # Directories of file paths (Users/me/go/pkg/...) name places, not code.
        text = _PATH.sub(_path_stem, seg.text)
        for tok in _IDENT.findall(text):
            if tok in in_files and tok not in called:
                continue
            shaped = is_code_like(tok) or tok in called or tok in dotted
            scale = 0.3 if tok in prefixes and tok not in called else 1.0
            if seg.kind == "inline":
                marked = seg.text == tok
                add(tok, scale * (1.0 if shaped or marked or tok.lower() not in STOPWORDS else 0.3), marked)
            elif seg.kind == "fence":
                if shaped:
                    add(tok, scale * (0.5 if tok in called or tok in dotted else 0.4))
            elif seg.title and tok in spans:
                add(tok, 1.0, marked=True)  # a title word the body writes as code
            elif shaped and tok.lower() not in STOPWORDS:
                add(tok, scale * (1.0 if seg.title else 0.8))
        if seg.title and seg.kind == "prose":
            for name in _listed_with_code(seg.text, spans):
                add(name, 0.6, marked=True)
    for name, weight in _class_like_words(segs).items():
        add(name, weight)
    return out


_CAPITALIZED = re.compile(r"(?<![\w.#$@/-])[A-Z][a-z][a-z0-9]+[A-Za-z0-9]*(?![\w(/-])")
_SENTENCE_END = frozenset(".!?:;>*-#|\n")


def _class_like_words(segs: Sequence[Segment]) -> dict[str, float]:
    """Capitalized words inside sentences ("the Cleaner uses …") that the text never writes in
    lower case, said twice or in the title: class names prose writes without backticks."""
    prose = [s for s in segs if s.kind == "prose"]
    lower = {t for s in prose for t in _IDENT.findall(s.text) if t[:1].islower()}
    counts: dict[str, float] = {}
    for seg in prose:
        for m in _CAPITALIZED.finditer(seg.text):
            before = seg.text[: m.start()].rstrip(" \t\"'(")
            word = m.group(0)
            if not before or before[-1] in _SENTENCE_END or word.lower() in lower:
                continue
            if word.lower() in STOPWORDS or word.lower() in IDENT_STOP:
                continue
            counts[word] = counts.get(word, 0.0) + (2.0 if seg.title else 1.0)
    return {w: 0.5 for w, n in counts.items() if n >= 2}


# "Value, Number and Map": capitalized words listed together (comma, and, or).
_LISTED = re.compile(r"\b[A-Z]\w*(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+)[A-Z]\w*)+")


def _listed_with_code(title: str, spans: set[str]) -> list[str]:
    """Title words listed alongside words the body writes as code: they name the same kind of thing."""
    out: list[str] = []
    for m in _LISTED.finditer(title):
        members = _IDENT.findall(m.group(0))
        names = [w for w in members if w not in ("and", "or")]
        if any(w in spans or is_code_like(w) for w in names):
            out += [w for w in names if w not in spans]
    return out


def _path_stem(match: re.Match[str]) -> str:
    """A known-extension path reduced to its file name; other dotted words stay as written."""
    if match.group("ext").lower() not in _FILE_EXTS:
        return match.group(0)
    return match.group(0).rsplit("/", 1)[-1]


def _not_code_chain(chain: str, parts: list[str]) -> bool:
    """A file name (``index.rst``) or a host name (``go.dev``) rather than a code chain."""
    last = parts[-1].lower()
    return last in _FILE_EXTS or (last in _TLDS and "." in chain and chain == chain.lower())


def dotted_names(segs: Iterable[Segment]) -> list[str]:
    """Code chains (``pkg.mod.Class.method``, ``crate::a::b``, ``obj->field``, ``Class#method``) as
    dotted names."""
    out: list[str] = []
    for seg in segs:
        for m in _DOTTED.finditer(seg.text):
            parts = _SEPARATORS.split(m.group(0))
            name = ".".join(parts)
            if _not_code_chain(m.group(0), parts) or all(p.lower() in STOPWORDS for p in parts):
                continue
            if name not in out:
                out.append(name)
    return out


_OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w]*(?:-[\w]+)*|:[a-z]+(?:-[a-z]+)+:)")
_KEBAB = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")


def options(text: str) -> list[str]:
    """Command-line options and directive options (``--collect-only``, ``:inherited-members:``)."""
    out = [m.group(1) for m in _OPTION.finditer(text) if len(m.group(1).strip(":-")) >= 3]
    return list(dict.fromkeys(o for o in out if not o.startswith("-") or o.startswith("--") or len(o) == 2))


def kebab_identifiers(segs: Iterable[Segment]) -> dict[str, float]:
    """``collect-only`` / ``inherited-members`` in code spans → ``collect_only`` / ``inherited_members``."""
    out: dict[str, float] = {}
    for seg in segs:
        if seg.kind == "prose" and not seg.title:
            continue
        for m in _KEBAB.finditer(_PATH.sub(_path_stem, seg.text)):
            name = m.group(0).replace("-", "_")
            out[name] = max(out.get(name, 0.0), 0.8 if seg.kind == "inline" else 0.5)
    return out


def error_names(text: str) -> list[str]:
    """Exception and error type names (``KeyError``, ``MergeError``)."""
    return list(dict.fromkeys(_ERROR_NAME.findall(text)))


def messages(segs: Iterable[Segment]) -> list[str]:
    """Error/warning message texts worth searching for literally in the sources."""
    out: list[str] = []
    for seg in segs:
        for m in _MESSAGE_LINE.finditer(seg.text):
            out.append(m.group("msg"))
        if seg.kind == "prose":
            out.extend(a or b for a, b in _QUOTED.findall(seg.text))
            out.extend(
                q[:300] for q in _BLOCKQUOTE.findall(seg.text) if _COMPLAINT.search(q) and len(q.split()) >= 4
            )
        elif seg.kind == "fence":
            # Printed output in code blocks (reprs, log lines, pytest's "E  " lines) is text the code
            # formats: quoted parts, and whole lines that read like a complaint.
            for line in seg.text.split("\n")[:400]:
                if _looks_like_code(line):
                    continue
                out.extend(a or b for a, b in _QUOTED.findall(line))
                printed = _OUTPUT_LINE.match(line)
                text = (printed.group(1) or printed.group(2)) if printed else ""
                if len(text.split()) >= 3:
                    out.append(text)
        elif seg.kind == "inline" and len(seg.text.split()) >= 3 and not _looks_like_code(seg.text):
            out.append(seg.text)
    return [m for m in dict.fromkeys(x.strip() for x in out) if len(m.split()) >= 2]


def _looks_like_code(text: str) -> bool:
    return bool(re.search(r"[=(){}\[\];]|^\s*(?:import|from|def|class|\$|>>>|pip|python)\b", text))


def paths(text: str) -> list[str]:
    """File paths and file names with a known extension, in order of appearance."""
    out: list[str] = []
    for m in _PATH.finditer(text.replace("\\", "/")):
        if m.group("ext").lower() not in _FILE_EXTS:
            continue
        raw = m.group(0).lstrip("./")
        prefix = text[max(0, m.start() - 8) : m.start()]
        if "://" in prefix and "/" not in raw:
            continue  # a host name such as example.com
        raw = in_repo_path(raw)
        if "." in raw and raw not in out:
            out.append(raw)
    return out


def issue_refs(text: str) -> list[int]:
    """Issue/PR numbers referenced as ``#123`` or by URL."""
    nums = (int(a or b) for a, b in _ISSUE_REF.findall(text))
    return list(dict.fromkeys(nums))


def commit_refs(text: str) -> list[str]:
    """Commit hashes the text names, bare or in a URL (``…/commit/0d987211b9``), in order; a hash
    holds a letter and a digit (a plain number or word is none)."""
    out: list[str] = []
    for m in _COMMIT_REF.finditer(text):
        ref = m.group(0)
        if ref not in out and not ref.isdigit() and any(c.isdigit() for c in ref):
            out.append(ref)
            if len(out) == MAX_COMMIT_REFS:
                break
    return out


# How much a keyword counts by where the text says it: prose, `inline code` (a name the writer
# marked), a fenced block (pasted code and output: many words, few of them the subject); the title
# says in a few words what the issue is about.
KEYWORD_WEIGHTS = {"prose": 1.0, "inline": 1.5, "fence": 0.4}
TITLE_FACTOR = 2.5


def keywords(segs: Iterable[Segment]) -> dict[str, float]:
    """Query terms (sub-words of every token, stop words out) weighted by where they appear."""
    out: dict[str, float] = {}
    for seg in segs:
        weight = KEYWORD_WEIGHTS[seg.kind] * (TITLE_FACTOR if seg.title else 1.0)
        # A path counts by its file stem only: directories (usr/lib/site-packages) name nothing.
        text = _PATH.sub(lambda m: m.group(0).rsplit("/", 1)[-1].split(".")[0], seg.text.replace("\\", "/"))
        for tok in _IDENT.findall(text):
            if seg.kind == "fence" and not is_code_like(tok) and tok.lower() in IDENT_STOP:
                continue
            for word in split_identifier(tok):
                if len(word) < 3 or word in STOPWORDS or word in IDENT_STOP or word.isdigit():
                    continue
                out[word] = out.get(word, 0.0) + weight
    return out


# A title's leading component: "linter: …", "[Fair Sharing] …", "fix(stats): …", "[FEAT] Lambda: …".
# A Rust attribute (``#[instrument]``) is code, not a label; a lead is one word, not a sentence
# ("Failed to render: …") nor an identifier ("plan_milestone: …", named as such elsewhere).
_BRACKETED = re.compile(r"(?<![#\w])\[([^\]\n]{2,30})\]")
_LEAD_SCOPE = re.compile(r"\s*(?:\[[^\]\n]*\]\s*)*([A-Za-z][A-Za-z0-9.-]{1,25})(?:\(([\w./-]{2,30})\))?!?:\s")
# An error's name leads many titles ("TypeError: …", "panic: …"): no component.
_NOT_PART = re.compile(r"(?:error|exception|warning|panic|crash)$")
# Kinds of issue, not parts of the code.
_KINDS = _wordset(
    "bug feat feature fix bugfix question docs doc chore enhancement request rfc proposal help "
    "improvement regression perf refactor test tests build issue task epic fea infra devex "
    "discussion idea"
)


def title_scope(title: str) -> list[str]:
    """The words of the component a title names first, in brackets or before its colon (``linter``
    of "linter: …", ``stats`` of "fix(stats): …"); kinds of issue (bug, feat …) are no component."""
    parts = [m.group(1) for m in _BRACKETED.finditer(title[:60])]
    lead = _LEAD_SCOPE.match(title)
    if lead:
        parts += [p for p in lead.groups() if p]
    words = (w for part in parts for w in re.split(r"[\s/_.-]+", part.lower()))
    return list(dict.fromkeys(w for w in words if len(w) > 2 and w not in _KINDS and not _NOT_PART.search(w)))
