"""Token counting with tiktoken: the normal path, an offline path, and a labelled estimate.

tiktoken downloads its ranks file on first use and caches it. Machines without internet (CI
runners behind a proxy, air-gapped hosts, the Docker image) cannot, so before tiktoken is asked we
seed its cache from the copy of the same file shipped in the ``bpe-openai`` wheel, after checking
its sha256 against the hash tiktoken itself expects. Only when neither works, and the caller
allowed it, do we fall back to an estimate, and the package says so.

Loading is the slow part of a build (base64-decoding 200k ranks, then tiktoken's own tables), so
for the encodings we know the ranks are also kept in a compact table (token lengths, then the
token bytes in rank order) next to tiktoken's cache, checked against a pinned sha256 before use,
and the ``tiktoken.Encoding`` is built directly from it with openai_public's pattern and special
tokens.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
import importlib.util
import itertools
import math
import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from ctxaction.errors import TokenizerError as TokenizerError

DEFAULT_ENCODING = "o200k_base"

_BLOB_BASE = "https://openaipublic.blob.core.windows.net/encodings/"


@dataclass(frozen=True)
class _Spec:
    """A known encoding: pinned hashes and the constructor arguments of tiktoken_ext.openai_public."""

    ranks_sha: str  # the .tiktoken file, as pinned in tiktoken_ext/openai_public.py
    table_sha: str  # our table form of the same ranks
    size: int  # number of mergeable ranks (0 .. size-1)
    pat_str: str
    special_tokens: dict[str, int]


_SPECS = {
    "o200k_base": _Spec(
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "440741350e7cfa1c0f4869ce742d1b043550adbda5187adcac9e787edac6fba9",
        199998,
        "|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    ),
    "cl100k_base": _Spec(
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        "18288f996f452d44e0e65996176591a4b712a3eb1b42afd6f0511e735c099480",
        100256,
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
        r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        {
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    ),
}
# sha256 of the decompressed ranks, as pinned in tiktoken_ext/openai_public.py.
_KNOWN_RANKS = {name: spec.ranks_sha for name, spec in _SPECS.items()}
KNOWN_ENCODINGS = frozenset(_SPECS)
# Encodings some counter of this process has loaded (get_counter keeps them).
_LOADED: set[str] = set()



class Counter(Protocol):
    """What the packer needs from a tokenizer."""

    encoding: str
    exact: bool

    def count(self, text: str) -> int: ...


# Counts kept per counter: packing asks again for the same excerpts and blocks while it adjusts.
MEMO_CHARS = 4_000_000


@dataclass
class TiktokenCounter:
    """Exact counts from a tiktoken encoding."""

    encoding: str
    _enc: Any
    exact: bool = True
    _memo: dict[str, int] = field(default_factory=dict, repr=False)
    _memo_chars: int = field(default=0, repr=False)

    def count(self, text: str) -> int:
        """Tokens of ``text``; special-token strings count as ordinary text."""
        if not text:
            return 0
        known = self._memo.get(text)
        if known is not None:
            return known
        return self._remember(text, self._lengths((text,))[0])

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """Tokens of each text: the ones not counted before go to the encoder as one batch."""
        fresh = [t for t in dict.fromkeys(texts) if t and t not in self._memo]
        batch = dict(zip(fresh, self._lengths(fresh), strict=True)) if fresh else {}
        for text, tokens in batch.items():
            self._remember(text, tokens)
        return [self._memo.get(t, batch.get(t, 0)) if t else 0 for t in texts]

    def _lengths(self, texts: Sequence[str]) -> list[int]:
        return [len(self._enc.encode_ordinary(t)) for t in texts]

    def _remember(self, text: str, tokens: int) -> int:
        if self._memo_chars + len(text) <= MEMO_CHARS:
            self._memo[text] = tokens
            self._memo_chars += len(text)
        return tokens


@dataclass
class EstimateCounter:
    """Last resort when no ranks file is available: one token per 3 bytes of UTF-8.

    Code averages about 3.5-4 bytes a token in o200k_base, so this over-counts, which keeps a
    package inside its budget at the cost of packing a little less.
    """

    encoding: str
    exact: bool = False

    def count(self, text: str) -> int:
        """Estimated tokens of ``text`` (rounded up)."""
        return math.ceil(len(text.encode("utf-8", "replace")) / 3)


# Where the o200k_base and cl100k_base pre-tokenizers always end a piece, whatever follows or
# precedes: after a newline, before a printable ASCII character that no piece carries across a
# newline (not a space, not "/": punctuation runs may swallow "\n/"); and between the "n" of a
# JSON-escaped newline and a space (a letter run always ends at a space). A text's count is then
# the sum of its parts' counts, and parts already seen are a dictionary lookup.
_PIECE_BREAK = re.compile(r"(?<=\n)(?=[!-.0-~])|(?<=\\n)(?= )")
_SPLITTABLE = frozenset({"o200k_base", "cl100k_base"})


def count_by_parts(counter: Counter, text: str) -> int:
    """Exact tokens of ``text``, counted part by part so that a text differing from earlier ones
    in a few lines costs only those lines (used by the packer, which re-counts whole renderings).

    Only for the encodings whose pre-tokenizer pattern the split points were checked against;
    others, and estimates (rounded per text), are counted whole.
    """
    if not isinstance(counter, TiktokenCounter) or counter.encoding not in _SPLITTABLE:
        return counter.count(text)
    return sum(counter.count_many(_PIECE_BREAK.split(text)))


def tiktoken_cache_dir() -> str:
    """The folder tiktoken reads cached ranks from (same rules as ``tiktoken.load``)."""
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if var in os.environ:
            return os.environ[var]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


def _cache_path(encoding: str) -> str:
    url = f"{_BLOB_BASE}{encoding}.tiktoken"
    return os.path.join(tiktoken_cache_dir(), hashlib.sha1(url.encode()).hexdigest())


def _table_path(encoding: str) -> str:
    return os.path.join(tiktoken_cache_dir(), f"ctxaction-{encoding}-{_SPECS[encoding].table_sha[:16]}.ranks")


def _shipped_ranks(encoding: str) -> str | None:
    spec = importlib.util.find_spec("bpe_openai")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(loc, "data", f"{encoding}.tiktoken.gz")
        if os.path.isfile(path):
            return path
    return None


def _read_if(path: str, sha: str) -> bytes | None:
    """The bytes of ``path`` when it exists and its sha256 is ``sha``."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data if hashlib.sha256(data).hexdigest() == sha else None


def _write_atomic(path: str, data: bytes) -> bool:
    cache_dir = os.path.dirname(path)
    if not cache_dir:
        return False
    from ctxaction.output import write_atomic

    try:
        write_atomic(Path(path), data)
    except OSError:  # WriteError included: a cache that cannot be written is only slower
        return False
    return True


def _checked_ranks_file(encoding: str) -> bytes | None:
    """The verified .tiktoken ranks: tiktoken's cached copy, else the shipped one (then cached)."""
    expected = _KNOWN_RANKS.get(encoding)
    if expected is None:
        return None
    target = _cache_path(encoding)
    data = _read_if(target, expected)
    if data is not None:
        return data
    source = _shipped_ranks(encoding)
    if source is None:
        return None
    with open(source, "rb") as f:
        data = gzip.decompress(f.read())
    if hashlib.sha256(data).hexdigest() != expected:
        return None
    _write_atomic(target, data)
    return data


def seed_cache(encoding: str) -> bool:
    """Put the shipped ranks for ``encoding`` into tiktoken's cache; True when they are there.

    The file is written atomically and only after its sha256 matches tiktoken's pinned hash.
    """
    return _checked_ranks_file(encoding) is not None and os.path.isfile(_cache_path(encoding))


def _table(ranks: dict[bytes, int]) -> bytes:
    tokens = sorted(ranks, key=ranks.__getitem__)
    return bytes(map(len, tokens)) + b"".join(tokens)


def _from_table(table: bytes, size: int) -> dict[bytes, int]:
    # One comprehension over the token boundaries: a quarter less time than slice objects mapped
    # through ``__getitem__`` (52 -> 40 ms, best of 15), spent in the child before it can count.
    ends = itertools.accumulate(table[:size], initial=size)
    return {table[start:end]: rank for rank, (start, end) in enumerate(itertools.pairwise(ends))}


def load_ranks(encoding: str) -> dict[bytes, int] | None:
    """The mergeable ranks of a known encoding, checked against pinned hashes; None if unavailable.

    Reads the table form when it is cached and verified; otherwise decodes the verified .tiktoken
    file and caches its table (only when the table's own sha256 matches the pinned one).
    """
    spec = _SPECS.get(encoding)
    if spec is None:
        return None
    table = _read_if(_table_path(encoding), spec.table_sha)
    if table is not None:
        return _from_table(table, spec.size)
    data = _checked_ranks_file(encoding)
    if data is None:
        return None
    parts = data.split()
    ranks = dict(zip(map(binascii.a2b_base64, parts[0::2]), map(int, parts[1::2]), strict=True))
    table = _table(ranks)
    if len(ranks) == spec.size and hashlib.sha256(table).hexdigest() == spec.table_sha:
        _write_atomic(_table_path(encoding), table)
    return ranks


def encoding_for(model_or_encoding: str) -> str:
    """Map a model name (``gpt-4o``) or an encoding name to an encoding name."""
    if model_or_encoding in _KNOWN_RANKS or model_or_encoding.endswith("_base"):
        return model_or_encoding
    import tiktoken

    try:
        return str(tiktoken.encoding_name_for_model(model_or_encoding))
    except KeyError as exc:
        from ctxaction.secure import quoted

        raise TokenizerError(
            f"unknown model or encoding {quoted(model_or_encoding)}: use an encoding such as o200k_base "
            "or cl100k_base, or a model tiktoken knows (gpt-4o, gpt-4, …)"
        ) from exc


def load_encoding(encoding: str) -> Any:
    """A ``tiktoken.Encoding``: built from the checked table when known, else by tiktoken itself."""
    import tiktoken

    ranks = load_ranks(encoding)
    if ranks is None:
        seed_cache(encoding)
        return tiktoken.get_encoding(encoding)
    spec = _SPECS[encoding]
    return tiktoken.Encoding(
        encoding, pat_str=spec.pat_str, mergeable_ranks=ranks, special_tokens=dict(spec.special_tokens)
    )


@lru_cache(maxsize=8)
def get_counter(model_or_encoding: str = DEFAULT_ENCODING, allow_estimate: bool = False) -> Counter:
    """A token counter for ``model_or_encoding`` (loaded once per process).

    Order: the checked rank table or tiktoken's cache (seeded offline from ``bpe-openai`` when
    needed), then tiktoken's own download, then, only with ``allow_estimate``, a labelled estimate.
    """
    encoding = encoding_for(model_or_encoding)
    try:
        counter = TiktokenCounter(encoding, load_encoding(encoding))
    except Exception as exc:
        return unavailable(encoding, allow_estimate, type(exc).__name__)
    _LOADED.add(encoding)
    return counter


def unavailable(encoding: str, allow_estimate: bool, failure: str) -> Counter:
    """When the ranks of ``encoding`` could not be loaded (``failure``: the error's type name):
    the labelled estimate if allowed, else the TokenizerError saying what to do."""
    if allow_estimate:
        return EstimateCounter(encoding)
    raise TokenizerError(
        f"cannot load the {encoding} ranks for tiktoken ({failure}): no cached copy in "
        f"{tiktoken_cache_dir()}, none shipped by the bpe-openai package, and the download failed. "
        "Install bpe-openai==0.1.4, set TIKTOKEN_CACHE_DIR to a folder holding the ranks, "
        "or pass --allow-estimate to count tokens approximately."
    )


def is_loaded(encoding: str) -> bool:
    """Whether this process holds ``encoding`` already (then counting here costs nothing more)."""
    return encoding in _LOADED
