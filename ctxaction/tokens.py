"""Token counting with tiktoken: the normal path, an offline path, and a labelled estimate.

tiktoken downloads its ranks file on first use and caches it. Machines without internet (CI
runners behind a proxy, air-gapped hosts, the Docker image) cannot, so before tiktoken is asked we
seed its cache from the copy of the same file shipped in the ``bpe-openai`` wheel, after checking
its sha256 against the hash tiktoken itself expects. Only when neither works, and the caller
allowed it, do we fall back to an estimate, and the package says so.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import math
import os
import tempfile
import uuid
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

DEFAULT_ENCODING = "o200k_base"

_BLOB_BASE = "https://openaipublic.blob.core.windows.net/encodings/"
# sha256 of the decompressed ranks, as pinned in tiktoken_ext/openai_public.py.
_KNOWN_RANKS = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}


class TokenizerError(RuntimeError):
    """The encoding's ranks are neither cached, shipped nor downloadable."""


class Counter(Protocol):
    """What the packer needs from a tokenizer."""

    encoding: str
    exact: bool

    def count(self, text: str) -> int: ...


@dataclass
class TiktokenCounter:
    """Exact counts from a tiktoken encoding."""

    encoding: str
    _enc: Any
    exact: bool = True

    def count(self, text: str) -> int:
        """Tokens of ``text``; special-token strings count as ordinary text."""
        if not text:
            return 0
        return len(self._enc.encode_ordinary(text))


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


def tiktoken_cache_dir() -> str:
    """The folder tiktoken reads cached ranks from (same rules as ``tiktoken.load``)."""
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if var in os.environ:
            return os.environ[var]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


def _cache_path(encoding: str) -> str:
    url = f"{_BLOB_BASE}{encoding}.tiktoken"
    return os.path.join(tiktoken_cache_dir(), hashlib.sha1(url.encode()).hexdigest())


def _shipped_ranks(encoding: str) -> str | None:
    spec = importlib.util.find_spec("bpe_openai")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(loc, "data", f"{encoding}.tiktoken.gz")
        if os.path.isfile(path):
            return path
    return None


def seed_cache(encoding: str) -> bool:
    """Put the shipped ranks for ``encoding`` into tiktoken's cache; True when they are there.

    The file is written atomically and only after its sha256 matches tiktoken's pinned hash.
    """
    expected = _KNOWN_RANKS.get(encoding)
    if expected is None:
        return False
    target = _cache_path(encoding)
    if os.path.isfile(target):
        with open(target, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() == expected:
                return True
    source = _shipped_ranks(encoding)
    if source is None:
        return False
    with open(source, "rb") as f:
        data = gzip.decompress(f.read())
    if hashlib.sha256(data).hexdigest() != expected:
        return False
    cache_dir = os.path.dirname(target)
    if not cache_dir:
        return False
    try:
        os.makedirs(cache_dir, exist_ok=True)
        tmp = f"{target}.{uuid.uuid4().hex}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except OSError:
        return False
    return True


def encoding_for(model_or_encoding: str) -> str:
    """Map a model name (``gpt-4o``) or an encoding name to an encoding name."""
    if model_or_encoding in _KNOWN_RANKS or model_or_encoding.endswith("_base"):
        return model_or_encoding
    import tiktoken

    try:
        return str(tiktoken.encoding_name_for_model(model_or_encoding))
    except KeyError as exc:
        raise TokenizerError(
            f"unknown model or encoding {model_or_encoding!r}: use an encoding such as o200k_base "
            "or cl100k_base, or a model tiktoken knows (gpt-4o, gpt-4, …)"
        ) from exc


@lru_cache(maxsize=8)
def get_counter(model_or_encoding: str = DEFAULT_ENCODING, allow_estimate: bool = False) -> Counter:
    """A token counter for ``model_or_encoding``.

    Order: tiktoken's cache (seeded offline from ``bpe-openai`` when needed), then tiktoken's own
    download, then, only with ``allow_estimate``, a labelled estimate.
    """
    encoding = encoding_for(model_or_encoding)
    seed_cache(encoding)
    try:
        import tiktoken

        return TiktokenCounter(encoding, tiktoken.get_encoding(encoding))
    except Exception as exc:
        if allow_estimate:
            return EstimateCounter(encoding)
        raise TokenizerError(
            f"cannot load the {encoding} ranks for tiktoken ({type(exc).__name__}): no cached copy in "
            f"{tiktoken_cache_dir()}, none shipped by the bpe-openai package, and the download failed. "
            "Install bpe-openai==0.1.4, set TIKTOKEN_CACHE_DIR to a folder holding the ranks, "
            "or pass --allow-estimate to count tokens approximately."
        ) from exc
